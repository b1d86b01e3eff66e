"""Consolidation's count of lower-case uses (``_LowerSeen``), counted in one pass over the corpus.

A Title Case compound ("Self-Supervised") that the corpus also writes in lower case at least
twice is ordinary words, not a name to spread. The counts are pinned on hand-written abstracts,
including the edge cases of counting each form with ``re.finditer`` (uses of one form do not
overlap, so "step by step by step" uses "step by step" once), and checked against that
per-form reference.
"""

from __future__ import annotations

import re

import pytest

from extractors.consolidate import _LowerSeen, _trie_pattern, consolidate_corpus
from extractors.pipeline import RawExtraction
from kg.records import Entity, Mention, Record
from kg.schema import EntityType, Role


def _records(*abstracts: str | None) -> list[Record]:
    return [Record(id=f"t:{i}", title="Self-Supervised Step-By-Step", abstract=a) for i, a in enumerate(abstracts)]


def _reference(abstracts: list[str | None], low: str) -> int:
    """The count as one ``re.finditer`` per form over the joined abstracts (at most 2)."""
    joined = "\n".join(a or "" for a in abstracts)
    n = 0
    for form in {low, low.replace("-", " ")}:
        for m in re.finditer(re.escape(form) + r"(?![\w-])", joined):
            if m.start() == 0 or not (joined[m.start() - 1].isalnum() or joined[m.start() - 1] in "-_"):
                n += 1
    return min(n, 2)


CASES = [
    # (abstracts, low, uses counted, at most 2)
    (["We use self-supervised learning."], "self-supervised", 1),
    (["We use self-supervised learning.", "A self supervised model."], "self-supervised", 2),
    (["self-supervised, self-supervised and self supervised."], "self-supervised", 2),  # at most 2
    (["Self-Supervised learning, SELF-SUPERVISED, self-Supervised."], "self-supervised", 0),  # case counts
    (["self-supervised"], "self-supervised", 1),  # the whole abstract
    (["(self-supervised)", "x: self-supervised."], "self-supervised", 2),  # punctuation around
    (["non-self-supervised", "xself-supervised", "_self-supervised", "2self-supervised"], "self-supervised", 0),
    (["self-supervised-ness", "self-supervisedly", "self-supervised_x", "self-supervised2"], "self-supervised", 0),
    (["éself-supervised", "self-supervisedé"], "self-supervised", 0),  # a letter is a letter in any script
    (["—self-supervised—"], "self-supervised", 1),  # a dash is not a hyphen
    (["self supervised-learning"], "self-supervised", 0),  # words with spaces, then a hyphen
    (["we train self supervised models"], "self-supervised", 1),  # words with spaces inside a phrase
    (["a b self", "supervised c"], "self-supervised", 0),  # never across two abstracts
    (["self\nsupervised", "self  supervised", "self\tsupervised"], "self-supervised", 0),  # one space only
    ([None, "", "self-supervised"], "self-supervised", 1),  # no abstract
    (["deep learning rate"], "deep-learning", 1),  # forms sharing words: each is seen
    (["deep learning rate"], "learning-rate", 1),
    (["the state of the art method"], "state-of-the-art", 1),  # a form and the form of its first words
    (["the state of the art method"], "state-of", 1),
    (["the state-of-the-art method"], "state-of", 0),  # one run of letters and hyphens is one word
    # a form whose last words are its first: uses counted left to right without overlap
    (["step by step by step"], "step-by-step", 1),
    (["step by step by step by step"], "step-by-step", 2),
    (["step by step, step by step"], "step-by-step", 2),
    (["footstep by step by step"], "step-by-step", 0),  # a use inside a word hides the one overlapping it
    (["footstep by step by step by step"], "step-by-step", 1),
    (["step-by-step by step"], "step-by-step", 1),
    (["backend to end to end"], "end-to-end", 0),
    (["backend to end to end to end"], "end-to-end", 1),
    (["back-end to end to end to end"], "end-to-end", 1),
    (["end to end to end, end to end"], "end-to-end", 2),
    (["backend to end"], "to-end", 1),  # the words after the first of an overlapping form, as a form
    (["the drug drug drug interaction"], "drug-drug", 1),
    (["drug drug", "drug-drug"], "drug-drug", 2),
    (["naïve bayes and naïve-bayes"], "naïve-bayes", 2),  # not lower-case ASCII: searched for alone
    (["a prior-data fitted model"], "prior-data", 1),
    (["abc"], "abc", 1),  # a single word (not asked by consolidation, but counted the same way)
    (["xabc abc-d abc"], "abc", 1),
]


@pytest.mark.parametrize("abstracts, low, expected", CASES)
def test_lower_case_uses(abstracts, low, expected) -> None:
    recs = _records(*abstracts)
    assert _reference(abstracts, low) == expected  # the pin is what re.finditer per form counts
    assert _LowerSeen(recs, [low])(low) == expected  # counted in the one pass
    assert _LowerSeen(recs)(low) == expected  # asked for later: counted on its own


def test_one_pass_counts_every_form_as_alone() -> None:
    abstracts = [a for case in CASES for a in case[0]]
    lows = sorted({case[1] for case in CASES})
    together = _LowerSeen(_records(*abstracts), lows)
    assert {low: together(low) for low in lows} == {low: _reference(abstracts, low) for low in lows}
    assert {low: together(low) for low in lows} == {low: _LowerSeen(_records(*abstracts))(low) for low in lows}


@pytest.mark.parametrize("step", [1, 2, 5])
def test_settled_forms_leave_the_scan(monkeypatch, step) -> None:
    # abstracts are scanned in growing slices, and a form seen twice leaves the pattern: the
    # counts are the same as in one slice whatever the slices
    import extractors.consolidate as consolidate

    monkeypatch.setattr(consolidate, "_FIRST_STEP", step)
    abstracts = [a for case in CASES for a in case[0]] * 2
    lows = sorted({case[1] for case in CASES})
    counts = _LowerSeen(_records(*abstracts), lows)
    assert {low: counts(low) for low in lows} == {low: _reference(abstracts, low) for low in lows}


def test_trie_pattern_prefers_the_longest_form() -> None:
    pat = re.compile(_trie_pattern(["state of", "state of the art", "stat", "step by step"]))
    assert pat.match("state of the art").group() == "state of the art"
    assert pat.match("state of the artist").group() == "state of"
    assert pat.match("stat.").group() == "stat"
    assert pat.match("states") is None


def _known(rid: str, name: str) -> RawExtraction:
    m = Mention(0, len(name), name, "gazetteer", "abstract")
    return RawExtraction(rid, (Entity(EntityType.METHOD, name, Role.USED, (), (m,)),))


def _graph_mamba_corpus(lower_uses: int) -> tuple[list[Record], list[RawExtraction], int]:
    # two papers know Graph-Mamba; a third writes it where no rule fired (a candidate), and so
    # does a fourth, in a URL (no question asked); the rest may write it in lower case
    texts = ["Graph-Mamba is used.", "Graph-Mamba again.", "We compare with Graph-Mamba.",
             "Code: https://github.com/x/Graph-Mamba-Net now."]
    texts += ["a graph mamba layer."] * lower_uses + ["nothing here."] * (2 - lower_uses)
    recs = [Record(id=f"t:{i}", title=None, abstract=t) for i, t in enumerate(texts)]
    start = texts[2].index("Graph-Mamba")
    url = texts[3].index("Graph-Mamba-Net")
    raws = [_known("t:0", "Graph-Mamba"), _known("t:1", "Graph-Mamba"),
            RawExtraction("t:2", candidates=(("Graph-Mamba", start, start + 11, "abstract"),)),
            RawExtraction("t:3", candidates=(("Graph-Mamba-Net", url, url + 15, "abstract"),
                                             ("Graph-Mamba", url, url + 11, "abstract")))]
    raws += [RawExtraction(r.id) for r in recs[4:]]
    return recs, raws, start


def test_lower_case_questions_are_counted_in_one_pass(monkeypatch) -> None:
    # consolidation first collects the questions its candidates will ask, then counts them together
    import extractors.consolidate as consolidate

    calls = []
    count = consolidate._count_lower
    monkeypatch.setattr(consolidate, "_count_lower", lambda recs, lows: calls.append(set(lows)) or count(recs, lows))
    recs, raws, _start = _graph_mamba_corpus(2)
    consolidate_corpus(recs, raws)
    assert calls == [{"graph-mamba"}]


@pytest.mark.parametrize("lower_uses, spreads", [(0, True), (1, True), (2, False)])
def test_title_case_compound_spreads_unless_written_in_lower_case(lower_uses, spreads) -> None:
    recs, raws, start = _graph_mamba_corpus(lower_uses)
    out = consolidate_corpus(recs, raws)
    assert all(e.type is EntityType.CONCEPT for e in out[3].entities)  # never in a URL
    got = [(e.name, e.role, [(m.start, m.rule) for m in e.mentions]) for e in out[2].entities
           if e.type is not EntityType.CONCEPT]
    assert got == ([("Graph-Mamba", Role.USED, [(start, "corpus")])] if spreads else [])
