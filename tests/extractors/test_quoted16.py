"""Round-16 quoted names (issue 3, proposed recall): a quoted phrase right after a proposal verb and
an article ("we also propose an ``ensemble shortcut'' whereby ...", "we introduce the ``shadow
lenses'' framework") is the paper's own name; a quoted single modifier before a head noun ("a novel
"one-shot" approach"), a law or a phenomenon is not.

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import entity_key


def _proposed(entities) -> set[str]:
    return {entity_key(e.name) for e in entities if e.role.value == "proposed"}


@pytest.mark.parametrize("text, name", [
    ('Specifically, we introduce an "adaptive prefix loss" on top of the basic loss to mitigate the '
     'problem.', "adaptive prefix loss"),
    ('We also propose an "ensemble shortcut" whereby the risk can be estimated cheaply.', "ensemble shortcut"),
    ("Here, we introduce the ``shadow lenses'' framework, a physics-inspired construction.", "shadow lenses"),
])
def test_round16_quoted_phrase_after_proposal_is_proposed(extract, text, name):
    assert entity_key(name) in _proposed(extract(text))


@pytest.mark.parametrize("text, phrase", [
    ('We present a novel "one-shot" approach that can find them.', "one-shot"),
    ('We introduce the "Law of Vision Representation" in multimodal models.', "Law of Vision Representation"),
    ('We propose a "simple yet effective method" for this.', "simple yet effective method"),
    ('We propose a "soft" version of the loss.', "soft"),
])
def test_round16_quoted_modifier_or_law_is_not_proposed(extract, text, phrase):
    assert entity_key(phrase) not in _proposed(extract(text))


def test_round16_emphasis_after_adverb_new_and_long_head_phrase(extract):
    # "a radically new approach to <seven words>: \emph{X}": the apposition names the new approach
    text = ("Agents misjudge what they know. We therefore propose a radically new approach to teaching "
            "agents what they know: \\emph{cooperative self-play}. We build teams that share rewards.")
    assert entity_key("cooperative self-play") in _proposed(extract(text))
