"""Rules of the eleventh round, each for a class of errors rather than a single miss: quantities.

A name the paper gives a coefficient, a property or a problem ("... Coefficient (CACC)",
"*Unique Disparity*", "... Packing Problem") is neither a method nor a benchmark, whichever rule
found it, and neither is its short form (GUIDELINES: metrics and measures, properties and problem
classes are neither type). Not "score": "Delta Denoising Score" is a method.

Every abstract here is invented for the test.
"""

from __future__ import annotations


# ------------------------------------------------------------------ 2. quantities and problems
def test_a_named_coefficient_and_its_short_form_are_no_entity(rules_nlp) -> None:
    # the rules' view (the shipped learned model, trained before this rule, may add such pairs back)
    text = ("We study general-sum Markov games. To find the weakest assumption, we introduce a novel complexity "
            "measure called the Cross-Agent Coupling Coefficient (CACC) for general-sum MGs. Using this measure, "
            "we propose the first unified algorithmic framework.")
    names = {s.text for s in rules_nlp(text).spans["paperkg_entities"]}
    assert not names & {"CACC", "Cross-Agent Coupling Coefficient"}, names


def test_emphasised_properties_are_no_methods(names_in) -> None:
    text = ("We study how modalities interact. We define *Unique Disparity* and *Redundant Disparity*, two "
            "properties of paired data, and relate them to accuracy.")
    names = names_in(text)
    assert not names & {"Unique Disparity", "Redundant Disparity"}, names


def test_a_named_problem_is_no_method(names_in) -> None:
    text = ("Packing is a classic task. In this study, we introduce a packing variant called Colour-Aware "
            "Shelf Packing Problem (CASPP), where items carry colours, and solve it with a learned policy.")
    names = names_in(text)
    assert not names & {"Colour-Aware Shelf Packing Problem", "CASPP"}, names


def test_a_method_with_score_inside_its_name_is_kept(found_in) -> None:
    text = "We propose Ridge Score Matching, a new sampler for sparse posteriors."
    assert ("method", "proposed", "Ridge Score Matching") in found_in(text)


def test_a_method_named_a_score_is_kept(found_in) -> None:
    text = ("To reduce the effect of noise, we propose GRS (Graph Rewiring Score) rewiring, which estimates "
            "edge weights from node similarity. GRS improves accuracy.")
    assert any(n in ("GRS", "Graph Rewiring Score") for _t, _r, n in found_in(text))
