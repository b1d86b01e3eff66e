"""Session-17 used names: a possessive eponym with an algorithm head is one established method
("Oja's algorithm", "Laplace's method"), the possessive of a result is not ("Fano's inequality");
number formats ("FP32", "INT4", "W4A16") and privacy notions ("Renyi Differential Privacy") are
never methods; the curated list spells Best-of-N in lower case too and no longer lists Tweedie's
formula (a result the annotators never label).

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import entity_key


def _found(entities) -> set[tuple[str, str, str]]:
    return {(e.type.value, e.role.value, entity_key(m.text)) for e in entities for m in e.mentions}


def _texts(entities) -> set[str]:
    return {m.text for e in entities for m in e.mentions}


@pytest.mark.parametrize("text, name", [
    ("The sketch is refreshed by Oja's algorithm after every batch of points.", "Oja's algorithm"),
    ("The marginal is approximated with Laplace's method around the mode.", "Laplace's method"),
    ("Beliefs are revised by Jeffrey's rule when the evidence is uncertain.", "Jeffrey's rule"),
    ("Both solvers gain a Nesterov's acceleration step on the primal block.", "Nesterov's acceleration"),
    ("The trace term is replaced by Hutchinson’s trace estimator with two probes.",
     "Hutchinson’s trace estimator"),
    ("Coordinate descent and Newton's methods are covered by one analysis.", "Newton's methods"),
])
def test_possessive_eponym_with_algorithm_head_is_a_used_method(extract, text, name):
    assert ("method", "used", entity_key(name)) in _found(extract(text))


@pytest.mark.parametrize("text, phrase", [
    ("The lower bound follows from Fano's inequality over a packing.", "Fano's inequality"),
    ("The score is linked to the posterior mean by Stein's identity in one line.", "Stein's identity"),
    ("Proxy rewards drift apart as predicted by Goodhart's law in every run.", "Goodhart's law"),
    ("Today's most effective pruning method keeps the largest weights.", "Today's most effective pruning method"),
    ("We introduce Gryphon, a planner. Gryphon's method beats every baseline.", "Gryphon's method"),
])
def test_possessive_of_a_result_a_word_or_the_papers_own_system_is_not_an_eponym(extract, text, phrase):
    assert phrase not in _texts(extract(text))


@pytest.mark.parametrize("text, fmt", [
    ("Training in FP32 is slow, so we avoid costly FP32 multiplications in the kernels.", "FP32"),
    ("We explore the feasibility of INT4 weights. Our INT4 pipeline is twice as fast.", "INT4"),
    ("Lossless quantization is reached with W8A8 and compared with W4A16 settings.", "W4A16"),
    ("Activations are stored in BF16 compared with the FP16 baseline.", "FP16"),
])
def test_number_formats_are_not_methods(extract, text, fmt):
    assert fmt not in _texts(extract(text))


def test_a_privacy_notion_is_not_a_method(extract):
    text = "We study amplification by subsampling under the Renyi Differential Privacy framework."
    assert not any(t.endswith("Privacy") for t in _texts(extract(text)))


def _curated() -> list[dict]:
    from extractors.build_gazetteer import DATA, _read_lines, curated_entries

    return curated_entries(_read_lines(DATA / "curated.tsv"))


def test_curated_best_of_n_has_its_lower_case_spellings():
    forms = {f for e in _curated() if e["name"] == "Best-of-N" for f in (e["name"], *e.get("aliases", ()))}
    assert {"best-of-n", "best-of-N"} <= forms


def test_curated_list_has_no_tweedie_formula():
    assert not any("Tweedie" in f for e in _curated() for f in (e["name"], *e.get("aliases", ())))


@pytest.mark.parametrize("text, kind, name", [
    ("At equal sparsity we compare pruning rules such as SNIP, SYNFLOW and GRASPY.", "method", "GRASPY"),
    ("We also report results on AudioSet, ESC-50, and SPC-7, with a shorter schedule.", "benchmark", "SPC-7"),
    ("Finite-sum solvers such as SAGA, SAGX and SDCA converge linearly here.", "method", "SAGX"),
])
def test_coined_name_next_to_a_known_one_in_a_list_is_the_same_kind(extract, text, kind, name):
    assert (kind, "used", entity_key(name)) in _found(extract(text))


def test_list_sibling_skips_an_acronym_the_abstract_defines(extract):
    text = ("Supervised fine-tuning (SFT) is cheap. Our recipe mixes PPO and SFT in every round of "
            "training.")
    assert "SFT" not in _texts(extract(text))


@pytest.mark.parametrize("kind, name", [("benchmark", "PRW"), ("benchmark", "AmbigDocs"), ("method", "delta rule")])
def test_curated_lists_names_the_annotators_always_label(kind, name):
    assert any(e["type"] == kind and e["name"] == name for e in _curated())
