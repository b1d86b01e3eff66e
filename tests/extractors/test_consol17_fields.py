"""Session-17 rules on task and field names defined as abbreviations.

A task or field defined with an acronym and followed by a plural method head ("Source-Free
Object Detection (SFOD) methods", "graph anomaly detection (GAD) algorithms") names the field whose
methods the sentence counts, not one method. A singular head ("the ... (ABC) framework") can be
one, and a proposal still names the paper's own. An untyped Title-Case long form that ends in a task
word ("... Path Finding", "... Level Design") is a task: its acronym before a method head ("the
CDPF algorithm") names an algorithm for the task, not a method.

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import entity_key


def _keys(entities) -> set[str]:
    return {entity_key(e.name) for e in entities}


@pytest.mark.parametrize("text, field", [
    ("We evaluate Source-Free Object Detection (SFOD) methods on three driving scenes.",
     "Source-Free Object Detection"),
    ("Semi-Supervised Node Classification (SSNC) algorithms need many labels per class.",
     "Semi-Supervised Node Classification"),
])
def test_field_defined_before_plural_method_head_is_no_method(extract, text, field) -> None:
    assert entity_key(field) not in _keys(extract(text))


def test_technique_defined_before_plural_method_head_is_still_a_method(extract) -> None:
    # the long form's head is no task or field: the acronym is one family of algorithms
    found = _keys(extract("We revisit Sequential Quadratic Relaxation (SQR) methods for sparse problems."))
    assert entity_key("Sequential Quadratic Relaxation") in found


def test_field_defined_before_singular_head_is_still_a_method(extract) -> None:
    found = _keys(extract("We build on the Graph Anomaly Detection (GAD) framework of earlier work."))
    assert entity_key("Graph Anomaly Detection") in found


@pytest.mark.parametrize("text, field", [
    ("Cooperative Drone Path Finding (CDPF) asks for collision-free routes for many drones. "
     "Agents may misreport their goals to the CDPF algorithm.", "Cooperative Drone Path Finding"),
    ("Open-Ended Level Design (OELD) generates training levels; the OELD algorithm picks hard ones.",
     "Open-Ended Level Design"),
])
def test_task_acronym_before_a_method_head_is_no_method(extract, text, field) -> None:
    # the untyped Title-Case long form names a task: "the CDPF algorithm" is an algorithm for it
    assert entity_key(field) not in _keys(extract(text))
