"""Round-16 proposal anchors (issue 3, proposed recall): the authors' purpose after "us"
("these findings lead us to propose X", "which allows us to introduce X"), "bring forth" as a
proposal verb, and an -ly adverb after "and" ("we document and publicly release X") make the
name that follows the paper's own.

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import entity_key


def _roles(entities) -> dict[str, str]:
    return {entity_key(e.name): e.role.value for e in entities}


@pytest.mark.parametrize("text, name", [
    ("Trade-offs matter. These trade-offs inspire us to propose the bounded policy transformer (BPT) "
     "approach, which adjusts them at deployment.", "bounded policy transformer"),
    ("This observation leads us to introduce the gated flow network (GFN), which routes messages.",
     "gated flow network"),
    ("This observation allows us to present OLMo 2, a fully open model.", "OLMo 2"),
    ("We then bring forth theoretically justified algorithms, the Mutual Flow Treatment Network "
     "(MftNet), which reduces selection bias.", "Mutual Flow Treatment Network"),
    ("In this paper, we document and publicly release Mistral 7B, a fully transparent small model.",
     "Mistral 7B"),
])
def test_round16_proposal_anchor(extract, text, name):
    assert _roles(extract(text)).get(entity_key(name)) == "proposed"


@pytest.mark.parametrize("text, name", [
    # someone else's purpose: "them" is not the authors
    ("Earlier studies used the Gated Flow Network (GFN) widely. Practitioners trust it.",
     "Gated Flow Network"),
    # "only" is no manner adverb of a release
    ("We audit models and only release BERT scores, not weights.", "BERT"),
])
def test_round16_proposal_anchor_guards(extract, text, name):
    assert _roles(extract(text)).get(entity_key(name)) != "proposed"


def test_round16_bare_name_before_second_verb(extract):
    # "and explore ... techniques" is a second clause of the authors, not a head noun shared with X
    roles = _roles(extract("Likelihoods are poor. For training, we propose velocity reweighting and explore "
                           "variance reduction techniques for faster convergence."))
    assert roles.get(entity_key("velocity reweighting")) == "proposed"


def test_round16_bare_modifiers_of_shared_head_stay_unnamed(extract):
    roles = _roles(extract("We propose rank-based matching and distribution-based matching strategies."))
    assert entity_key("rank-based matching") not in roles


def test_round16_lower_name_between_dashes_after_described_proposal(extract):
    roles = _roles(extract("Experts disagree. To address this we then introduce a novel algorithm --- "
                           "expertise forests --- that builds trees to pick an expert per input."))
    assert roles.get(entity_key("expertise forests")) == "proposed"


def test_round16_participle_between_dashes_is_no_name(extract):
    roles = _roles(extract("We introduce a new model — trained on text — that beats others."))
    assert entity_key("trained on text") not in roles


def test_round16_title_case_name_before_glued_dashes(extract):
    # "Curious Rehearsal---a form of ...": the name ends at the glued dashes
    roles = _roles(extract("Agents forget. Here, we present Curious Rehearsal---a form of prioritized "
                           "experience replay tailored to model-based agents."))
    assert roles.get(entity_key("Curious Rehearsal")) == "proposed"


def test_round16_coined_list_after_plural_head_without_article(extract):
    roles = _roles(extract("Tasks share structure. For these problems, we design computationally and sample "
                           "efficient algorithms TriExpDes and C-TriExpDes, which plan sample allocations."))
    assert roles.get(entity_key("TriExpDes")) == "proposed"
    assert roles.get(entity_key("C-TriExpDes")) == "proposed"


def test_round16_known_names_after_plural_head_stay_used(extract):
    roles = _roles(extract("We propose new methods based on SGD and Adam, which converge faster."))
    assert roles.get(entity_key("Adam")) == "used"


@pytest.mark.parametrize("text, name", [
    ("We extend the analysis to it, which leads to a novel skill-learning objective WSEQ. It is justified.",
     "WSEQ"),
    ("We strive to surmount these challenges with a new generative model AbPDE that designs antibodies.",
     "AbPDE"),
])
def test_round16_coined_name_after_novel_head_without_verb(extract, text, name):
    assert _roles(extract(text)).get(entity_key(name)) == "proposed"


def test_round16_known_name_after_new_head_stays_used(extract):
    assert _roles(extract("We compare with a new model GPT-4 that is strong.")).get(entity_key("GPT-4")) == "used"
