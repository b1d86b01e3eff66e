"""Rules of the eleventh round, each for a class of errors rather than a single miss: components.

A definition that opens an item of a list of the parts of the paper's own system ("X consists of
two components: a A (AA) and a B (BB)") names one of its own components (proposed), not when the
subject is someone else's system or the items are the terms of an objective.

Every abstract here is invented for the test.
"""

from __future__ import annotations


# ------------------------------------------------------------------ 1. components of the own system
def test_a_definition_listed_as_a_component_of_the_papers_system_is_proposed(found_in) -> None:
    text = ("We present Lumen, a planner for household robots. Lumen consists of two components: a "
            "room layout encoder (RLE) that summarises the scene and a Goal Ranking Head (GRH) that orders "
            "sub-goals. Experiments show large gains.")
    found = found_in(text)
    assert ("method", "proposed", "room layout encoder") in found, found
    assert ("method", "proposed", "Goal Ranking Head") in found, found


def test_an_enumerated_component_of_our_method_is_proposed(found_in) -> None:
    text = ("Our method comprises (1) a curvature-aware token mixer (CTM) for local detail and (2) a "
            "sparse global router (SGR) for context. It is fast.")
    found = found_in(text)
    assert ("method", "proposed", "curvature-aware token mixer") in found, found


def test_components_of_someone_elses_system_stay_used(found_in) -> None:
    text = ("Training an early-exit network is hard as it consists of two intertwined components: the "
            "gating mechanism (GM) that decides when to exit and the intermediate classifier heads. We "
            "study why.")
    found = found_in(text)
    assert not any(role == "proposed" for _t, role, _n in found), found


def test_the_terms_of_an_objective_are_no_components(found_in) -> None:
    text = ("In this paper, we propose a framework to train a detector with a loss consisting of only two "
            "terms: a mean squared distance (MSD) and a regularization term.")
    found = found_in(text)
    assert not any(name == "mean squared distance" and role == "proposed" for _t, role, name in found), found


def test_components_of_existing_systems_stay_used_though_we_speak(found_in) -> None:
    text = ("We note that existing pipelines consist of two components: a dense passage retriever (DPR) and "
            "a Span Reader Module (SRM). We show that both fail on long questions.")
    found = found_in(text)
    assert not any(role == "proposed" for _t, role, _n in found), found


def test_this_paper_proposes_a_system_of_two_parts(found_in) -> None:
    text = ("This paper proposes a novel planner called Wayfarer, which consists of two parts: a Belief Set "
            "Tracking Model (BSTM) for bounded beliefs and a controller.")
    found = found_in(text)
    assert ("method", "proposed", "Belief Set Tracking Model") in found, found
