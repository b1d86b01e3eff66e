"""Round-14 gazetteer (issue 3): a named model or algorithm followed by a generic head ("model",
"algorithm", "loss") is matched without the head (GUIDELINES: span boundaries), so the head forms
that were aliases are no longer listed.

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import entity_key


def _spans(entities) -> set[str]:
    return {entity_key(m.text) for e in entities for m in e.mentions}


@pytest.mark.parametrize("text, name, longer", [
    ("We fit a Plackett-Luce model to the partial rankings.", "Plackett-Luce", "Plackett-Luce model"),
    ("Pairwise wins follow a Bradley-Terry model with unknown scores.", "Bradley-Terry", "Bradley-Terry model"),
    ("The encoder is trained with the InfoNCE loss on paired views.", "InfoNCE", "InfoNCE loss"),
    ("Shortest paths are computed by the Bellman-Ford algorithm on the residual graph.", "Bellman-Ford",
     "Bellman-Ford algorithm"),
    ("Decoding runs the max-product algorithm on the factor graph.", "max-product", "max-product algorithm"),
    ("Samples are drawn by the Metropolis-Hastings algorithm with a Gaussian proposal.", "Metropolis-Hastings",
     "Metropolis-Hastings algorithm"),
])
def test_round14_generic_head_is_outside_the_span(extract, text, name, longer):
    found = _spans(extract(text))
    assert entity_key(name) in found
    assert entity_key(longer) not in found
