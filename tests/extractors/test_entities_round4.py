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
