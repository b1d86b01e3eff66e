"""Round-16 rules (issue 3, proposed recall): a lower-case phrase that the title gives as its
contribution (a whole noun phrase of the title, not the topic after "for"/"of" nor the task a
tool after "with/via" serves) is the paper's own name when the abstract proposes it with "the" or
"our" and a head noun or at the clause end ("we propose our asymmetric replay framework" under
"... An Asymmetric Replay-based Solution"). After "a/an" it stays a description (GUIDELINES:
descriptive phrases introduced with "a"/"an" are usually not names; the silver annotators agree).

Every title and sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import entity_key


def _proposed(entities) -> set[str]:
    return {entity_key(e.name) for e in entities if e.role.value == "proposed"}


@pytest.mark.parametrize("title, text, name", [
    ("faster training of deep networks by dynamic sparse rewiring",
     "Sparse networks save memory. Here we present the dynamic sparse rewiring method, which keeps "
     "the parameter count fixed.", "dynamic sparse rewiring"),
    ("Offline Control with Closed-Form Policy Shaping Operators",
     "Constraints matter. In this paper, we propose our closed-form policy shaping operators. We test "
     "them on many tasks.", "closed-form policy shaping operators"),
    ("Two Sides of Mixing: An Asymmetric Replay-based Solution for Open-Set Tasks",
     "Mixing hurts the teacher. To this end, we propose our asymmetric replay framework, feeding the "
     "teacher extra data.", "asymmetric replay"),
])
def test_round16_title_named_phrase_is_proposed(extract, title, text, name):
    assert entity_key(name) in _proposed(extract(text, title))


@pytest.mark.parametrize("title, text, phrase", [
    # the topic after "for" is the task, not the contribution
    ("Fast Algorithms for Distributed Sparse Clustering",
     "Clustering is hard. We propose a distributed sparse clustering algorithm with low communication.",
     "distributed sparse clustering"),
    # the task at the title's start that its tool ("with ...") serves
    ("Graph Synthesis with Random Trees",
     "Graphs matter. We propose a graph synthesis framework that scales to large inputs.",
     "graph synthesis"),
    # a modifier inside a longer title noun phrase
    ("A Convex Pairing Framework for Adversarial Generators",
     "Generators are unstable. We develop a convex pairing framework that unifies their losses.",
     "convex pairing"),
    # a task named by the title, before a head noun
    ("Hidden Skill Discovery for Changing Worlds",
     "Agents must adapt. We propose a hidden skill discovery method that shares structure.",
     "hidden skill discovery"),
])
def test_round16_title_topic_is_not_proposed(extract, title, text, phrase):
    assert entity_key(phrase) not in _proposed(extract(text, title))


def test_round16_title_task_before_for_is_not_proposed(extract):
    # "X for <domain>" where X is a task ("... source separation"): the title's topic, not a name
    found = extract("Missions collect mixed signals. We propose an unsupervised signal separation scheme "
                    "for domains with limited data.", "Unsupervised Signal Separation for Space Probes")
    assert entity_key("unsupervised signal separation") not in _proposed(found)


def test_round16_indefinite_title_phrase_stays_a_description(extract):
    found = extract("Generators are rigid. In this work, we propose a universal steering algorithm that "
                    "enables control by any signal.", "Universal Steering for Score-Based Generators")
    assert entity_key("universal steering") not in _proposed(found)
