"""The shipped gazetteer: reproducible from its sources, sane contents, name keys."""

from __future__ import annotations

import json

import pytest

from extractors.build_gazetteer import build
from extractors.gazetteer import GAZETTEER_PATH, entity_key, load_gazetteer


def test_shipped_file_is_what_the_build_script_makes(shared_data) -> None:
    shipped = json.loads(GAZETTEER_PATH.read_text(encoding="utf-8"))
    # the silver batches the shipped file was built from (later batches wait for a rebuild)
    assert build(shared_data / "ml-gazetteer", batches=shipped["silver_batches"]) == shipped


def test_contents() -> None:
    gaz = load_gazetteer()
    for name, etype in (("MMLU", "benchmark"), ("GSM8K", "benchmark"), ("LongBench", "benchmark"),
                        ("SWE-bench", "benchmark"), ("CIFAR-10", "benchmark"), ("Llama", "method"),
                        ("Qwen", "method"), ("GPT-4", "method"), ("BERT", "method"), ("LSTM", "method")):
        entry = gaz.lookup(name)
        assert entry is not None and entry.type == etype, name
    for metric in ("accuracy", "F1", "BLEU", "perplexity"):
        assert gaz.is_stop(metric)
    assert gaz.is_stop("LLMs") and gaz.is_stop("GPU")
    # noisy shared-list entries are filtered out
    assert gaz.lookup("Experimental Results") is None and gaz.lookup("Ann") is None


@pytest.mark.parametrize("a, b", [
    ("MoE", "MoEs"), ("Mixture-of-Experts", "mixture of experts"), ("GANs", "GAN"),
    ("Graph Neural Networks", "graph neural network"), ("CIFAR\u201110".replace("\u2011", "-"), "cifar10"),
    ("random features", "random feature"), ("Householder reflections", "Householder reflection"),
    ("rotary position embeddings", "Rotary Position Embedding"),
])
def test_entity_key_equal(a: str, b: str) -> None:
    assert entity_key(a) == entity_key(b)


@pytest.mark.parametrize("a, b", [("GPT-3.5", "GPT-4"), ("CIFAR-10", "CIFAR-100"), ("Llama-2 7B", "Llama-2 13B")])
def test_entity_key_keeps_versions_apart(a: str, b: str) -> None:
    assert entity_key(a) != entity_key(b)


@pytest.mark.parametrize("name, etype", [
    # model families and releases 2018-2025
    ("Llama 3.3", "method"), ("Claude 3 Haiku", "method"), ("DeepFloyd IF", "method"), ("WavLM", "method"),
    ("iTransformer", "method"), ("GATv2", "method"), ("Hiera", "method"),
    # established algorithms, with their long forms
    ("perceptron", "method"), ("cover tree", "method"), ("leverage score sampling", "method"),
    ("advantage-weighted regression", "method"), ("stochastic controlled averaging", "method"),
    ("neural controlled differential equation", "method"), ("neural processes", "method"),
    ("Tree-structured Parzen Estimator", "method"), ("NSGA-II", "method"), ("two-stage least squares", "method"),
    # benchmarks across areas
    ("MiniWoB++", "benchmark"), ("MedQA", "benchmark"), ("Wikidata5M", "benchmark"), ("Sleep-EDF", "benchmark"),
    ("VoxPopuli", "benchmark"), ("ogbl-collab", "benchmark"), ("Open X-Embodiment", "benchmark"), ("CIFAR", "benchmark"),
])
def test_coverage_of_current_names(name: str, etype: str) -> None:
    entry = load_gazetteer().lookup(name)
    assert entry is not None and entry.type == etype, name


@pytest.mark.parametrize("word", [
    # ordinary words and ambiguous bare acronyms deliberately left out of the curated list
    "Based", "Spider-Man", "target network", "Habitat", "Electricity", "Questions", "bootstrap", "local search",
    "Adult", "MAS", "DGM", "model", "quality", "Seamless",
])
def test_ordinary_words_are_not_names(word: str) -> None:
    assert load_gazetteer().lookup(word) is None, word


def test_case_sensitive_entry_is_not_another_casing() -> None:
    gaz = load_gazetteer()
    assert gaz.lookup("EAGLE") is not None and gaz.lookup("Eagle") is None
    assert gaz.lookup("Llama-2") is not None and gaz.lookup("LLaMA-2") is not None  # listed spellings
    assert gaz.lookup("GANs") is not None  # plural of a listed spelling
    assert gaz.lookup("Stable diffusion") is not None  # a case-insensitive entry keeps any casing


def test_non_ascii_spellings_keep_a_distinct_key() -> None:
    """The key drops letters outside a-z ('Π-model' would be the key 'model'): a curated spelling
    with such letters must not collapse onto an English word of the abstracts."""
    from extractors.build_gazetteer import DATA, _read_lines

    gaz = load_gazetteer()
    checked = 0
    for ln in _read_lines(DATA / "curated.tsv"):
        parts = ln.split("\t")
        name = parts[1]
        for form in (name, *(a for a in (parts[2].split("|") if len(parts) > 2 else []) if a)):
            if form.isascii():
                continue
            checked += 1
            k = entity_key(form)
            assert len(k) >= 2 and k not in gaz.common_words, form
    assert checked >= 5


def test_known_name_introduced_by_its_own_paper_is_proposed() -> None:
    from kg.records import Record
    from extractors.pipeline import extract_records

    rec = Record(id="t:own", title="Inverted tokens for forecasting",
                 abstract="We introduce iTransformer, a forecaster that embeds each variate as one token. "
                          "iTransformer gives the best errors on ETTh1.")
    (out,) = extract_records([rec])
    roles = {e.name: str(getattr(e.role, "value", e.role)) for e in out.entities}
    assert roles.get("iTransformer") == "proposed"


@pytest.mark.parametrize("written, name", [
    ("SimSIAM", "SimSiam"), ("Alibi", "ALiBi"), ("Imagenet", "ImageNet"), ("Mujoco", "MuJoCo"),
    ("Groupsort", "GroupSort"),
])
def test_coined_name_in_another_casing(written: str, name: str) -> None:
    """Coined names with inner capitals whose lower-case form is no word match in any casing."""
    from kg.records import Record
    from extractors.pipeline import extract_raw

    gaz = load_gazetteer()
    assert name in gaz.case_free
    (raw,) = extract_raw([Record(id="t:case", title=None, abstract=f"We compare with {written} on three tasks.")])
    assert [(e.name, [m.text for m in e.mentions]) for e in raw.entities if e.type.value != "concept"] == \
        [(name, [written])]


@pytest.mark.parametrize("form", ["FiD", "TuckER", "ComplEx", "ReAct", "PlaNet", "MONet", "CoLA", "GNoME", "KiTS", "GloVe"])
def test_case_exact_names(form: str) -> None:
    """Short names (FiD/FID), surnames (TuckER/Tucker), words (ComplEx/complex) and names with a
    same-key sibling in another casing (MONet/MoNet) keep their exact spelling."""
    assert form not in load_gazetteer().case_free


def test_other_casing_of_a_short_name_is_not_it() -> None:
    from kg.records import Record
    from extractors.pipeline import extract_raw

    (raw,) = extract_raw([Record(id="t:case", title=None,
                                 abstract="We lower the FID of the generator and use a complex prior.")])
    assert not [e.name for e in raw.entities if e.type.value != "concept"]


def test_short_lower_case_codes_keep_their_case() -> None:
    """LIBSVM's 'w8a' is not the quantisation setting 'W8A8' (a version glued onto 'W8A')."""
    from kg.records import Record
    from extractors.pipeline import extract_raw

    (raw,) = extract_raw([Record(id="t:w8a", title=None,
                                 abstract="We quantize weights and activations to W8A8 and W3A16, then train on a9a and w8a.")])
    assert sorted(e.name for e in raw.entities if e.type.value == "benchmark") == ["a9a", "w8a"]


def test_case_free_lookup_needs_the_same_letters() -> None:
    """Another casing of a coined name is it ("SimSIAM"), a phrase with a hyphen is not ("max-min")."""
    gaz = load_gazetteer()
    assert gaz.lookup("SimSIAM").name == "SimSiam" and gaz.lookup("Imagenet").name == "ImageNet"
    assert gaz.lookup("max-min") is None
