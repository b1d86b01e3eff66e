"""Round-15 rules (issue 3, proposed recall): a lower-case name set off by commas right after a
described proposal's head noun ("we devise an anytime algorithm, X, that ...") is the paper's own
proposed method or benchmark; a description, a clause, a paradigm or a known name there is not.

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import entity_key


def _proposed(entities) -> set[str]:
    return {entity_key(e.name) for e in entities if e.role.value == "proposed"}


@pytest.mark.parametrize("text, name", [
    ("Teams coordinate poorly. We devise an anytime algorithm, braided team-play, that is guaranteed "
     "to converge to a coordinated strategy.", "braided team-play"),
    ("Trajectories differ in speed. In this paper, we propose an end-to-end framework, trajwarp, that "
     "learns a distance from unlabeled trajectories.", "trajwarp"),
    ("Training is unstable. We propose a novel non-parametric policy, lattice reward spreading, to "
     "pre-train the agent before fine-tuning it.", "lattice reward spreading"),
])
def test_round15_lower_case_appositive_is_proposed(extract, text, name):
    assert entity_key(name) in _proposed(extract(text))


@pytest.mark.parametrize("text, phrase", [
    # a metric described in apposition (GUIDELINES: metrics are neither type)
    ("We introduce an alternative approach, adversarial sparsity, which quantifies how hard an attack is.",
     "adversarial sparsity"),
    # a paradigm
    ("We introduce a novel class of algorithms, batch-constrained reinforcement learning, which restricts "
     "the action space.", "batch-constrained reinforcement learning"),
    # a reference, not a name
    ("We present a new method, the usual one, which is fast.", "usual one"),
    # a participial clause between commas
    ("We also release a temporal benchmark dataset, verified by clinical experts, to enable the "
     "benchmarking of alarms.", "verified by clinical experts"),
    ("We propose a compact model, using only text, which beats larger ones.", "using only text"),
])
def test_round15_lower_case_appositive_guards(extract, text, phrase):
    assert entity_key(phrase) not in _proposed(extract(text))


def test_round15_known_name_in_appositive_stays_used(extract):
    found = {entity_key(e.name): e.role.value for e in extract(
        "We propose a simple algorithm, gradient descent, which converges fast.")}
    assert found.get(entity_key("gradient descent")) == "used"
