"""Round 4: mechanisms that recur on unseen abstracts, each with a hand-written case.

Every sentence is invented for this file (no abstract of the data is copied). Each group stands
for a way a paper introduces or defines a name, not for one paper; the negative cases next to
each group guard the precision of the same rule (a topic acronym, a known name, a description).
"""

from __future__ import annotations

import pytest

P, U = "proposed", "used"
M, B = "method", "benchmark"
TITLE = "Fast Widgets for Everyone"


def _found(extract, text: str, title: str | None = TITLE) -> set[tuple[str, str, str]]:
    return {(e.type.value, e.role.value, e.name) for e in extract(text, title)}


def _names(extract, text: str, title: str | None = TITLE) -> set[str]:
    return {e.name for e in extract(text, title)}


# ------------------------------------------------------------------ a coined word before a head noun
@pytest.mark.parametrize("text, expected", [
    ("Building on a classical result, we propose the HarmoniNet model, which learns its own basis.",
     (M, P, "HarmoniNet")),
    ("We then introduce a practical QRLS algorithm for deep control, and test it on games.",
     (M, P, "QRLS")),
    ("In this work we present the TinyTales corpus. It holds short stories written by children.",
     (B, P, "TinyTales")),
])
def test_a_coined_word_between_a_proposal_verb_and_a_head_noun_is_proposed(extract, text, expected) -> None:
    assert expected in _found(extract, text)


@pytest.mark.parametrize("text, name", [
    # the acronym is the topic the abstract defined before: a kind of solver, not its name
    ("Stochastic differential equations (SDEs) model noisy systems. We propose a new SDE solver that "
     "takes larger steps.", "SDE"),
    # used in an earlier sentence: the paper's subject, not its contribution
    ("Graph kernels such as WLK are popular. We propose a WLK variant that scales to large graphs.", "WLK"),
    # a hyphenated modifier names no method
    ("We propose a novel QKV-based module that speeds up inference.", "QKV-based"),
])
def test_a_topic_word_before_a_head_noun_is_not_proposed(extract, text, name) -> None:
    assert not {n for n in _names(extract, text) if n == name and
                (M, P, n) in _found(extract, text)}


def test_a_definition_after_the_head_noun_still_names_the_proposal(extract) -> None:
    text = ("We propose a practical QRLS algorithm for deep control, Deep Quantile Reweighting (DQR). "
            "DQR is fast.")
    found = _found(extract, text)
    assert (M, P, "Deep Quantile Reweighting") in found
    assert (M, P, "QRLS") in found


# ------------------------------------------------------------------ the proposal sentence's grammar
@pytest.mark.parametrize("text, expected", [
    ("We have developed PlumeSim, a simulator of smoke in rooms.", (M, P, "PlumeSim")),
    ("We publicly release GlyphSet to help others read old print.", (M, P, "GlyphSet")),
    ("This paper has introduced KiteRank, which sorts kites.", (M, P, "KiteRank")),
])
def test_a_perfect_or_an_adverb_between_we_and_the_verb_keeps_the_proposal(extract, text, expected) -> None:
    assert expected in _found(extract, text)


def test_only_before_the_verb_is_not_a_proposal_adverb(extract) -> None:
    text = "We only present FooBarNet results from earlier work, trained as in the original paper."
    assert (M, P, "FooBarNet") not in _found(extract, text)


# ------------------------------------------------------------------ "Name: subtitle" repeated otherwise
def test_the_title_name_in_capitals_in_the_abstract_is_the_papers(extract) -> None:
    title = "Lantern: Lighting Up Small Models"
    text = "We train a small model on curated text. The resulting model, LANTERN, matches larger ones."
    found = _found(extract, text, title)
    assert (M, P, "Lantern") in found
    ents = [e for e in extract(text, title) if e.name == "Lantern"]
    assert "LANTERN" in {m.text for e in ents for m in e.mentions if m.field == "abstract"}


def test_a_sized_title_name_is_the_papers_even_when_known(extract) -> None:
    # "Mistral" is a known model name; the title opens with it and the abstract gives a size of it
    title = "Mistral: A Fast Small Model"
    text = "We train models with grouped attention. The final model, Mistral-7B, beats larger ones."
    assert (M, P, "Mistral-7B") in _found(extract, text, title)


@pytest.mark.parametrize("title, text, name", [
    # the abstract uses the title's word as a common noun
    ("Greenwashing: The Risk of Claims", "We study greenwashing, which we define as false claims of care.",
     "Greenwashing"),
    # a study of a known model, not the model's paper
    ("Mistral: A Study of Its Failures", "We probe Mistral-7B on puzzles and find many failures.", "Mistral-7B"),
])
def test_a_title_word_used_otherwise_is_not_proposed(extract, title, text, name) -> None:
    assert not {f for f in _found(extract, text, title) if f[1] == P and f[2] == name}


# ------------------------------------------------------------------ defined terms and descriptions
def test_one_plain_word_after_a_naming_verb_is_a_term(extract) -> None:
    text = "Edges may form groups, which we call clusters. We fit the groups with a sampler."
    assert not {f for f in _found(extract, text) if f[2] == "clusters"}


def test_one_quoted_word_after_a_naming_verb_is_a_name(extract) -> None:
    text = "We add a small network, which we call a ``ladder'', that predicts the outputs of the large one."
    assert (M, P, "ladder") in _found(extract, text)


@pytest.mark.parametrize("text, bad", [
    # a kind of a known method, described with an indefinite article and a head noun
    ("We develop a new federated mirror descent method based on local steps.", "federated mirror descent"),
    ("We propose an adaptive rejection sampling algorithm that needs fewer calls.", "adaptive rejection sampling"),
])
def test_an_indefinite_description_of_a_known_method_is_no_name(extract, text, bad) -> None:
    assert not {f for f in _found(extract, text) if f[2] == bad}


def test_a_definite_variant_of_a_known_method_stays_a_name(extract) -> None:
    text = "We propose the penalty-based bilevel gradient descent algorithm and prove its rate."
    assert any(f[1] == P and "gradient descent" in f[2] for f in _found(extract, text))


def test_a_field_defined_after_in_is_not_the_proposal(extract) -> None:
    text = ("We propose a new approach to two open problems in Graph-based Swarm Control (GSC): the cost of "
            "planning, and the gap between the model and the world.")
    assert (M, P, "Graph-based Swarm Control") not in _found(extract, text)


def test_a_long_form_named_after_of_stays_the_proposal(extract) -> None:
    text = "We present a novel method of Split Ladder Masks (SL-Mask) that halves training time."
    assert (M, P, "Split Ladder Masks") in _found(extract, text)


# ------------------------------------------------------------------ one entity for a name and "name + head"
def test_a_name_and_the_name_with_a_generic_head_are_one_entity(extract) -> None:
    # the gazetteer holds "Hedge" and "Hedge algorithm" as two entries
    text = "We revisit the Hedge algorithm in repeated games. Hedge keeps weights over experts."
    names = [e.name for e in extract(text) if e.type.value == M]
    assert names.count("Hedge") == 1 and "Hedge algorithm" not in names


# ------------------------------------------------------------------ an English word in capitals as a name
def test_a_capitalised_english_word_given_as_a_name_is_proposed(extract) -> None:
    # "test" is a stop word; in capitals after "is named" it is the tool's name
    text = "We check proofs with a small prover. The resulting tool is named TEST. TEST finds most errors."
    assert (M, P, "TEST") in _found(extract, text, "Checking Proofs Quickly")


def test_a_capitalised_english_word_without_a_naming_cue_is_no_name(extract) -> None:
    text = "We report the TEST accuracy of every MODEL on held-out DATA."
    assert not {f for f in _found(extract, text) if f[2] in ("TEST", "MODEL", "DATA")}


def test_no_span_runs_from_the_title_into_the_abstract(nlp) -> None:
    from extractors.entities import SPANS_KEY

    doc = nlp("Data Filtering Networks\n\nLarge training sets drive progress. We study filters on ImageNet.")
    assert [s.text for s in doc.spans[SPANS_KEY] if "\n" in s.text] == []


# ------------------------------------------------------------------ "our <head>, NAME,"
@pytest.mark.parametrize("text, expected", [
    ("Caches grow with the context. Our proposed method, Fold-Cache, keeps a fixed budget.", (M, P, "Fold-Cache")),
    ("Plain noise hurts alignment. However, our approach, TwinNoise, raises the win rate.", (M, P, "TwinNoise")),
])
def test_a_name_in_apposition_to_our_head_noun_is_proposed(extract, text, expected) -> None:
    assert expected in _found(extract, text)


def test_a_known_name_in_apposition_to_our_head_noun_stays_used(extract) -> None:
    text = "We fine-tune a small model. Our base model, GPT-2, is trained on web text."
    assert (M, U, "GPT-2") in _found(extract, text)


# ------------------------------------------------------------------ short forms with a digit
@pytest.mark.parametrize("text, short, long", [
    ("We build a benchmark, Multi-Hop Hard Logic Riddles (MH2LR), of puzzles.", "MH2LR",
     "Multi-Hop Hard Logic Riddles"),
    ("We propose Paired Proximal Policy Optimization (P3O) for ranking.", "P3O",
     "Paired Proximal Policy Optimization"),
    ("We propose a framework called Sketch to Mesh (S2M) that lifts drawings.", "S2M", "Sketch to Mesh"),
    ("We introduce the Gated-Graph Networks (G2Ns), small models.", "G2Ns", "Gated-Graph Networks"),
])
def test_a_digit_in_a_short_form_repeats_a_letter_or_reads_to(text, short, long) -> None:
    from extractors.abbreviations import find_definitions

    assert [(d.short, d.long) for d in find_definitions(text)] == [(short, long)]


@pytest.mark.parametrize("text", [
    # a repeated letter inside a word is no initial: not "Proximal Policy Optimization"
    "We study Proximal Policy Optimization in games (P3O).",
    # a short form glued to the word before its bracket
    "We compute Image Instruction Correspondence Scores S(I2C) for every pair.",
])
def test_a_digit_short_form_needs_word_initials(text) -> None:
    from extractors.abbreviations import find_definitions

    assert find_definitions(text) == []


def test_a_digit_short_form_and_its_long_form_are_one_proposed_entity(extract) -> None:
    text = "We propose Paired Proximal Policy Optimization (P3O) for ranking. P3O beats the baselines."
    found = _found(extract, text)
    assert (M, P, "Paired Proximal Policy Optimization") in found
    assert not {f for f in found if f[2] == "P3O"}
