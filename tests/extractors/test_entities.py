"""The methods/benchmarks component: hand-written cases, roles, filters, factories, serialisation."""

from __future__ import annotations

import pytest
import spacy

from extractors.entities import entities_from_doc

P, U = "proposed", "used"
M, B = "method", "benchmark"


def _found(extract, text: str, title: str | None = None) -> set[tuple[str, str, str]]:
    return {(e.type.value, e.role.value, e.name) for e in extract(text, title)}


@pytest.mark.parametrize("text, expected", [
    # proposal verbs, appositives, "called/dubbed/namely", emphasis, abbreviations
    ("To address this, we propose FedGain, a novel framework that clusters clients.", {(M, P, "FedGain")}),
    ("We introduce TANGO -- a dynamical systems inspired framework for graphs.", {(M, P, "TANGO")}),
    ("We propose **Persona-Pruner**, a framework that sculpts a model.", {(M, P, "Persona-Pruner")}),
    ("We describe *PolyILR*, a canonical orthonormal decomposition.", {(M, P, "PolyILR")}),
    ("Here we design a lightweight method, dubbed QuickStep, for sampling.", {(M, P, "QuickStep")}),
    ("In our paper, we introduce Graph cOmplementAry Learning, namely GOAL, which has two parts.",
     {(M, P, "GOAL")}),
    ("We introduce the Error-Compensating Optimizer (ECO), which removes master weights. ECO converges.",
     {(M, P, "Error-Compensating Optimizer")}),
    ("We introduce MME-Reasoning, a comprehensive benchmark designed to evaluate reasoning.",
     {(B, P, "MME-Reasoning")}),
    ("Our work releases the Proteus-2k, the latest model performance evaluation dataset.",
     {(B, P, "Proteus-2k")}),
    ("In this paper, we first extend 1-KLSS to Safe-1-KLSS and prove its safeness.",
     {(M, P, "Safe-1-KLSS")}),
    ("We propose an effective method for federated learning, named as FedLAW. FedLAW is fast.",
     {(M, P, "FedLAW")}),
    ("To avert this, we propose a training-free ControlVideo to produce videos.", {(M, P, "ControlVideo")}),
    ("We then propose DiffCSP++, a novel diffusion model.", {(M, P, "DiffCSP++"), (M, U, "diffusion model")}),
    ("We propose Sophia, a simple scalable second-order optimizer. Sophia beats Adam.",
     {(M, P, "Sophia"), (M, U, "Adam")}),
    # used methods and benchmarks
    ("Experiments on the AssistantBench and GAIA benchmarks show gains.", {(B, U, "AssistantBench"), (B, U, "GAIA")}),
    ("We evaluate on CIFAR\u201110, CIFAR\u2011100, and DVS\u2011Gesture datasets.",
     {(B, U, "CIFAR-10"), (B, U, "CIFAR-100"), (B, U, "DVS-Gesture")}),
    ("Bayes-optimal responses outperform standard decoding methods like beam search.", {(M, U, "beam search")}),
    ("We fine-tune DeepSeek-MoE-16B and a Gemma-3 1B model.", {(M, U, "DeepSeek-MoE-16B"), (M, U, "Gemma-3 1B")}),
    ("It beats the strongest baseline on RoleBench in judge score.", {(B, U, "RoleBench")}),
    ("We train a T2T-ViT and compare it with BERT-based encoders.", {(M, U, "T2T-ViT"), (M, U, "BERT")}),
    ("The simple Empirical Utility Maximization (EUM) algorithm yields a bound.",
     {(M, U, "Empirical Utility Maximization")}),
    # nothing named: nothing invented
    ("We propose a new algorithm for bandits and prove a regret bound.", set()),
    ("Large language models (LLMs) and reinforcement learning (RL) are popular; we study accuracy and F1.", set()),
    ("We propose and test the **Generative AI Paradox** hypothesis.", set()),
    ("We introduce \\emph{Contribution Weights}, a projection-based metric for attention.", set()),
])
def test_cases(extract, text: str, expected: set) -> None:
    assert _found(extract, text) == expected


def test_abbreviation_is_one_entity_with_alias(extract) -> None:
    (e,) = extract("To address this challenge, we propose Strategic Prior-data Fitted Network (SPN), a "
                   "strategy-aware framework. SPN uses in-context learning.")
    assert (e.name, e.role.value, e.aliases) == ("Strategic Prior-data Fitted Network", P, ("SPN",))
    assert [m.text for m in e.mentions] == ["Strategic Prior-data Fitted Network", "SPN", "SPN"]


def test_proposed_name_keeps_its_role_when_mentioned_again(extract) -> None:
    (e,) = extract("We introduce ZoVH, a suite of estimators. Later, ZoVH leverages two techniques and ZoVH wins.")
    assert e.role.value == P
    assert [m.rule for m in e.mentions] == ["propose", "repeat", "repeat"]


def test_mentions_have_exact_offsets_and_rules(extract) -> None:
    text = "We propose **Persona-Pruner**, a framework. Persona-Pruner beats LoRA."
    ents = {e.name: e for e in extract(text)}
    for e in ents.values():
        for m in e.mentions:
            assert text[m.start:m.end] == m.text and m.rule
    assert ents["LoRA"].role.value == U


def test_title_mentions_are_marked(extract) -> None:
    ents = extract("FLEET-MERGE consolidates policies.", title="FLEET-MERGE: Robot Fleet Learning")
    (e,) = ents
    assert e.role.value == P
    assert {m.field for m in e.mentions} == {"title", "abstract"}
    title_m = next(m for m in e.mentions if m.field == "title")
    assert (title_m.start, title_m.end) == (0, len("FLEET-MERGE"))


def test_metrics_and_generic_words_are_not_methods(extract) -> None:
    assert _found(extract, "We report BLEU, ROUGE, accuracy and FLOPs on GPUs with LLMs.") == set()


def test_factories_are_registered_by_entry_point() -> None:
    nlp = spacy.blank("en")
    nlp.add_pipe("paperkg_abbreviations")
    nlp.add_pipe("paperkg_methods")
    nlp.add_pipe("paperkg_benchmarks")
    doc = nlp("We propose FooNet, a novel architecture, and test it on ImageNet.")
    assert [(s.text, s.label_, s._.paperkg_role) for s in doc.spans["paperkg_methods"]] == [("FooNet", "METHOD", P)]
    assert [(s.text, s.label_) for s in doc.spans["paperkg_benchmarks"]] == [("ImageNet", "BENCHMARK")]


def test_to_disk_from_disk_round_trip(tmp_path) -> None:
    nlp = spacy.blank("en")
    comp = nlp.add_pipe("paperkg_entities")
    comp.initialize(patterns={"entries": [{"type": "benchmark", "name": "ZetaSet", "aliases": []}],
                              "metrics": ["accuracy"], "stoplist": []})
    nlp.to_disk(tmp_path / "p")
    nlp2 = spacy.load(tmp_path / "p")
    doc = nlp2("Results on ZetaSet improve.")
    assert [(s.text, s.label_) for s in doc.spans["paperkg_entities"]] == [("ZetaSet", "BENCHMARK")]


def test_two_processes_give_the_same_spans(nlp) -> None:
    texts = ["We propose FooNet, a novel architecture. FooNet beats ResNet-50 on ImageNet.",
             "Mixture-of-Experts (MoE) scales; we introduce ExpertWeaver, a training-free framework.",
             "Experiments on the AssistantBench and GAIA benchmarks show that LTS is fast."] * 3

    def spans(docs):
        return [[(s.start_char, s.end_char, s.label_, s._.paperkg_role, s._.paperkg_canonical)
                 for s in d.spans["paperkg_entities"]] for d in docs]

    one = spans(nlp.pipe(texts))
    two = spans(nlp.pipe(texts, n_process=2, batch_size=2))
    assert one == two and any(one)


def test_entities_from_doc_are_plain_records(nlp) -> None:
    doc = nlp("We propose FooNet, a novel architecture.")
    (e,) = entities_from_doc(doc)
    assert type(e).__module__ == "kg.records"
    assert e.to_dict()["mentions"] == [{"start": 11, "end": 17, "text": "FooNet", "rule": "propose"}]
