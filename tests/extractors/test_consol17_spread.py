"""Session-17 consolidation rules: the words around an acronym can say it is not the corpus's name.

The corpus knows "ECO" as a method (two abstracts define it) and "PARROT" as a benchmark. Another
abstract does not get them where its own words give the letters another kind: a formula's
symbols, a condition, a measure or software right after them, a data head after a method's
letters, or the head noun of the list they stand in. (Invented sentences.)
"""

from __future__ import annotations

import pytest

from extractors.pipeline import extract_records

_DEFINERS = (
    "We introduce the Error-Compensating Optimizer (ECO), which quantizes weights.",
    "Building on the Error-Compensating Optimizer (ECO), we quantize activations as well.",
    "We release PARROT, a benchmark of spoken questions, and evaluate ten models on the PARROT benchmark.",
    "Results on the PARROT benchmark show that speech models still fail on long questions.",
)


@pytest.mark.parametrize("target, expected", [
    ("Compared with prior optimizers, ECO is simple and saves memory.", ["ECO"]),
    ("We train with SGD, Adam and ECO on three vision tasks.", ["ECO"]),
    ("Speech models still fail on PARROT, as our probe shows.", ["PARROT"]),
    ("We fine-tune with $\\mathrm{ECO}$ and report the loss.", ["ECO"]),
    ("The bound costs $120 per run, while the tuned ECO is cheaper.", ["ECO"]),
])
def test_the_names_still_spread(corpus_marks, target, expected) -> None:
    assert corpus_marks(_DEFINERS, target) == expected


@pytest.mark.parametrize("target", [
    # symbols in a formula
    "The regret is at most $\\Omega(ECO)$ for every horizon.",
    "The cost is $T \\cdot ECO$ in total.",
    # a condition, a measure or software right after the letters
    "We show that the loss satisfies the ECO condition used in earlier analyses.",
    "Our code is part of the ECO library for molecules.",
    # a data head after a method's letters
    "To test the agents, we design a new \u201cECO\u201d suite of ten robot tasks.",
    # the head noun of the list the letters are an item of
    "We compare risk measures like variance, ECO, and the expected shortfall.",
    "We test pruning strategies, such as magnitude pruning, SNIP, and PARROT, at high sparsity.",
])
def test_the_words_around_the_letters_give_them_another_kind(corpus_marks, target) -> None:
    assert corpus_marks(_DEFINERS, target) == []


# ---------------------------------------------------------------- letters one paper alone spells out
_ONE_DEFINER = "We propose the Quartz Routing Method (QRM), which routes tokens to experts by cost."


def _corpus_entities(rec, nlp, texts: list[str]) -> list[tuple[str, str]]:
    recs = [rec(t, rid=f"d{i}") for i, t in enumerate(texts)]
    out = extract_records(recs, nlp=nlp)
    return [(e.type.value, e.name) for e in out[-1].entities if e.type.value != "concept"
            and any(m.rule == "corpus" for m in e.mentions)]


def test_bare_letters_one_paper_spells_out_keep_their_own_name(rec, nlp) -> None:
    # the type comes from the corpus, the name is not the other paper's: "QRM" may be another method
    got = _corpus_entities(rec, nlp, [_ONE_DEFINER, "Against strong baselines such as QRM, our router wins."])
    assert got == [("method", "QRM")]


def test_letters_two_papers_spell_out_alike_are_linked(rec, nlp) -> None:
    second = "Building on the Quartz Routing Method (QRM), we add load balancing."
    got = _corpus_entities(rec, nlp, [_ONE_DEFINER, second, "Against strong baselines such as QRM, our router wins."])
    assert got == [("method", "Quartz Routing Method")]
