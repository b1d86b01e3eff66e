"""Round-15 rules (issue 3, roles): names listed in parentheses right after a proposal verb and a
new/novel head noun ("we curate and release new datasets (A, B, and C)") are the paper's own
releases, proposed; a gloss in parentheses or a list after a verb of use stays as it was.

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import entity_key


def _roles(entities) -> dict[str, str]:
    return {entity_key(e.name): e.role.value for e in entities}


@pytest.mark.parametrize("text, names", [
    ("We additionally curate and release new specialized datasets (OwlMath, Owl-Edu, and OwlTalk) at "
     "stages where we found data too small.", ("OwlMath", "Owl-Edu", "OwlTalk")),
    ("We curate and release new datasets (OwlMath, Owl-Edu, and OwlTalk) for later stages.",
     ("OwlMath", "Owl-Edu", "OwlTalk")),
])
def test_round15_parenthesised_releases_are_proposed(extract, text, names):
    roles = _roles(extract(text))
    for name in names:
        assert roles.get(entity_key(name)) == "proposed", name


@pytest.mark.parametrize("text, names", [
    ("We evaluate on datasets (CIFAR-10, ImageNet, and SVHN) and outperform baselines.",
     ("CIFAR-10", "ImageNet", "SVHN")),
])
def test_round15_parenthesised_list_after_use_stays_used(extract, text, names):
    roles = _roles(extract(text))
    for name in names:
        assert roles.get(entity_key(name)) == "used", name


def test_round15_parenthesised_gloss_is_no_name(extract):
    assert not [e for e in extract("We build a new dataset (about 5,000 images) and evaluate several models.")
                if e.role.value == "proposed"]
