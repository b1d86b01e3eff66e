"""Round-16 definitions in apposition (issue 3, proposed recall): a long form defined in apposition
to a proposal's head noun and its short complement ("we design a new algorithm for ILFO, Backward
Adversarial Imitation Learning (BAIL), which ...") is the paper's own method, even when it ends like
a paradigm; a long form that is the object of a preposition ("an approach to challenges in X (ABC)")
is not.

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

from extractors.gazetteer import entity_key


def _typed(entities) -> dict[str, tuple[str, str]]:
    return {entity_key(e.name): (e.type.value, e.role.value) for e in entities}


def test_round16_long_form_after_head_and_complement_is_proposed(extract):
    found = _typed(extract("Experts give no actions here. We design a new model-free algorithm for ILFO, "
                           "Backward Adversarial Imitation Learning (BAIL), which learns a sequence of policies."))
    assert found.get(entity_key("Backward Adversarial Imitation Learning")) == ("method", "proposed")


def test_round16_setting_after_preposition_is_not_proposed(extract):
    found = _typed(extract("We propose an approach to challenges in Model-based Reinforcement Learning (MBRL)."))
    assert found.get(entity_key("Model-based Reinforcement Learning"), ("", "used"))[1] != "proposed"
