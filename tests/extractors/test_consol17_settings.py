"""Session-17 rule: a name given to a problem, setting, theory or property is not a method's.

"We propose a new setting, named X (ABC)" or "as a new learning problem, namely X" names what
the paper studies, not how it solves it (GUIDELINES: settings, properties and problem classes are
not annotated). A method whose phrase mentions a problem ("our solver for scheduling problems,
dubbed X") keeps its name. (Invented sentences.)
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import entity_key


def _keys(entities) -> set[str]:
    return {entity_key(e.name) for e in entities}


@pytest.mark.parametrize("text, name", [
    ("In this paper, we propose a new federated setting, named Drifting Client Graph Learning (DCGL), "
     "where clients join over time.", "Drifting Client Graph Learning"),
    ("We formalize label shift with delays as a new learning problem, namely Delayed Label Shift "
     "Adaptation (DLSA).", "Delayed Label Shift Adaptation"),
    ("We introduce a new property, called Sparse Embedding Stability (SES), and bound it.",
     "Sparse Embedding Stability"),
])
def test_a_named_setting_is_no_method(extract, text, name) -> None:
    assert entity_key(name) not in _keys(extract(text))


@pytest.mark.parametrize("text, name", [
    ("Our solver for scheduling problems, dubbed Tidal Lattice Search (TLS), finds optimal plans.",
     "Tidal Lattice Search"),
    ("We propose a new estimator, called Quartz Moment Matching (QMM), for mixtures.", "Quartz Moment Matching"),
])
def test_a_named_method_stays(extract, text, name) -> None:
    assert entity_key(name) in _keys(extract(text))
