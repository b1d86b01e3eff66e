"""Session 17: more of the paper's own names found as proposed.

- a Title-Case name in apposition to a new head noun between unspaced em dashes ("a new method—X—to");
- a Title-Case name of two or more words right after the head noun, no comma ("a novel method X to");
- a coined name in apposition to "a ... version of Y", a long form in apposition to "a novel ...".

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

P, U = "proposed", "used"


def _roles(extract, text):
    return {e.name: e.role.value for e in extract(text)}


@pytest.mark.parametrize("text, name", [
    ("Here we introduce a new estimator—Folded Tail Sampler—to handle heavy tails.", "Folded Tail Sampler"),
    ("We present a new benchmark—Kitchen Knot Suite—for planning with ropes.", "Kitchen Knot Suite"),
    ("Moreover, we propose a novel method Twisted Lattice Embeddings to encode cyclic orders.",
     "Twisted Lattice Embeddings"),
    ("We develop a new algorithm Quiet Mirror Descent that needs no step size.", "Quiet Mirror Descent"),
])
def test_title_name_after_new_head(extract, text, name):
    assert _roles(extract, text).get(name) == P


@pytest.mark.parametrize("text, name", [
    # a coined name in apposition to "a ... version/variant of Y"
    ("In this note we introduce a sparse version of SAGA, SP-SAGA.", "SP-SAGA"),
    # a defined long form in apposition to a new thing the proposal describes
    ("We propose a novel, low-memory flavour of the GAN, the Folded Critic Network (FCN), for tiny devices.",
     "Folded Critic Network"),
])
def test_apposition_to_new_description(extract, text, name):
    assert _roles(extract, text).get(name) == P
