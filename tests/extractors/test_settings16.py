"""An acronym whose long form names a setting (issue 3): "Open Set Domain Adaptation (OSDA)" and
"Test-Time Adaptation (TTA)" are problem settings, not methods the paper uses, while a named
adaptation technique ("Adaptive Batch Normalization Adaptation") is left to the other rules.

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("text, short", [
    ("Open Set Domain Adaptation (OSDA) must reject classes unseen in the source. We study OSDA on "
     "three image collections.", "OSDA"),
    ("Test-Time Adaptation (TTA) updates a model on unlabeled inputs. TTA is fragile under label shift.",
     "TTA"),
    ("Multi-Source Domain Adaptation (MSDA) gathers several labeled domains; MSDA remains hard.", "MSDA"),
])
def test_setting_acronym_is_no_method(extract, text, short):
    names = {m.text for e in extract(text) for m in e.mentions}
    assert short not in names


def test_adaptation_technique_still_typed(extract):
    text = "We rely on Feature Statistics Adaptation (FSA), a normalisation step, in every layer."
    found = {m.text: e for e in extract(text) for m in e.mentions}
    assert "FSA" in found and found["FSA"].type.value == "method"


def test_long_form_not_grown_over_a_parallel_name():
    from extractors.abbreviations import find_definitions

    text = "We pair Layer Normalization with Token Shift Normalization (TSN) in each block."
    (d,) = find_definitions(text)
    assert (d.short, d.long) == ("TSN", "Token Shift Normalization")
    # a lead that is no parallel name still grows the long form
    text = "We propose Robust Training with Calibrated Margin Abstention (CMA) for noisy labels."
    (d,) = find_definitions(text)
    assert d.long == "Robust Training with Calibrated Margin Abstention"
