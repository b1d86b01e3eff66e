"""Session 17: a Title-Case definition that the paper's own system adds ("SYS introduces a X (ABC)",
"our model incorporates a X (ABC)") is proposed; one that others' systems use, or that the own
system only uses ("X utilizes the Y (ABC)"), is not made proposed by this rule.

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

P, U = "proposed", "used"


def _roles(extract, text):
    return {e.name: e.role.value for e in extract(text)}


@pytest.mark.parametrize("text, name", [
    ("We present a Drift-Aware Crowd Tracker (DACT) model by adding two priors. Additionally, to reduce "
     "the effect of clutter on each box, DACT introduces a Clutter Damping Field (CDF) to compute an offset.",
     "Clutter Damping Field"),
    ("We build RAVEN, a tracker for crowds. To reduce clutter, RAVEN incorporates a Clutter Damping Field "
     "(CDF) to compute offsets.", "Clutter Damping Field"),
    ("Our model contains a Sparse Memory Network (SMN) to store past frames.", "Sparse Memory Network"),
])
def test_part_added_by_own_system(extract, text, name):
    assert _roles(extract, text).get(name) == P


@pytest.mark.parametrize("text, name", [
    # others' systems use it; the own system is not the subject
    ("We build RAVEN, a tracker for crowds. Existing trackers use a Crowd Density Prior (CDP) to weigh boxes.",
     "Crowd Density Prior"),
    # a verb of use: a quantity or tool the own system relies on, not a part it adds
    ("We propose a sampler named QuickFold. QuickFold utilizes the Mean Neighbour Overlap Rate (MNOR) "
     "to pick seeds.", "Mean Neighbour Overlap Rate"),
])
def test_part_of_others_not_proposed(extract, text, name):
    assert _roles(extract, text).get(name) != P
