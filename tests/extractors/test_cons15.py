"""Corpus consolidation does not carry a short form to an abstract that gives it another meaning.

The corpus knows an acronym as a method from the abstracts that define it; another abstract
where the same letters are a measured quantity or the initials of
other words written there keeps them unmarked. (Invented sentences.)
"""

from __future__ import annotations

import pytest


#: two abstracts that define "ECO" as a method, so the corpus knows it from more than one paper
_DEFINERS = (
    "We introduce the Error-Compensating Optimizer (ECO), which quantizes weights.",
    "Building on the Error-Compensating Optimizer (ECO), we quantize activations as well.",
)


def test_the_acronym_still_spreads_where_nothing_gives_it_another_meaning(corpus_marks) -> None:
    assert corpus_marks(_DEFINERS, "Compared with prior optimizers, ECO is simple and saves memory.") == ["ECO"]


@pytest.mark.parametrize("target", [
    # a measured quantity: a number right before the letters
    "Our detector gains +0.2-0.3 ECO at a fixed false alarm rate on two plants.",
    "The filter keeps 95% ECO while the alarm rate stays low.",
    # the letters spelled out in this abstract as other words, near them or in Title Case
    "We report ECO, or expected calibration offset, for every classifier we train.",
    "We propose the Event Camera Odometer for drones. On a flight benchmark ECO is accurate.",
])
def test_an_acronym_with_another_meaning_here_does_not_spread(corpus_marks, target) -> None:
    assert corpus_marks(_DEFINERS, target) == []


def test_words_far_away_that_happen_to_start_with_the_letters_are_no_other_meaning(corpus_marks) -> None:
    target = ("We thank every careful operator of the plant for the data. "
              + "The plant runs day and night and its logs are long and noisy. " * 2
              + "Compared with prior optimizers, ECO is simple and saves memory.")
    assert corpus_marks(_DEFINERS, target) == ["ECO"]
