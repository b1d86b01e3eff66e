"""Round-15 rules (issue 3): a definition "long form (ABC)" followed by a method head noun with one
technique word between ("(ABC) estimation method", "(ABC) learning algorithms") is a method, also
when its long form ends in a word such as "effect"; "based/driven/guided" there still makes no head.

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

from extractors.gazetteer import entity_key


def _roles(entities) -> dict[str, str]:
    return {entity_key(e.name): e.role.value for e in entities}


def test_round15_definition_before_estimation_method_is_proposed(extract):
    roles = _roles(extract("In this paper, we propose a local overlap preserved conditional treatment effect "
                           "(LOCTE) estimation method based on deep representation learning."))
    assert roles.get(entity_key("local overlap preserved conditional treatment effect")) == "proposed"


def test_round15_definition_before_learning_algorithms_is_used(extract):
    roles = _roles(extract("We study Policy Mirror Ascent (PMA) learning algorithms in games."))
    assert roles.get(entity_key("Policy Mirror Ascent")) == "used"


def test_round15_based_is_no_technique_word(extract):
    assert not extract("We propose a Deep Reinforcement Learning (DRL) based method for routing.")
