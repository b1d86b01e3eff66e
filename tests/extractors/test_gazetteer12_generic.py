"""Round-12 gazetteer: generic names taken out of the gazetteer (issue 3): kinds of training and
algorithm design (GUIDELINES rule 5) go to the stoplist, and a listed name plus a generic modifier
leaves the list so that the name inside it is matched (GUIDELINES: the span is the name only).

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import entity_key


def _keys(entities) -> set[str]:
    return {entity_key(form) for e in entities for form in (e.name, *e.aliases, *(m.text for m in e.mentions))}


@pytest.mark.parametrize("text, name", [
    # kinds of training and algorithm design that many recipes implement (GUIDELINES rule 5)
    ("Unlike quantization-aware training (QAT), our scheme needs no gradients.", "quantization-aware training"),
    ("Unlike quantization-aware training (QAT), our scheme needs no gradients.", "QAT"),
    ("The solver follows a divide-and-conquer strategy over the input blocks.", "divide-and-conquer"),
])
def test_round12_generic_names_are_not_entities(extract, text, name):
    assert entity_key(name) not in _keys(extract(text))


@pytest.mark.parametrize("text, name, longer", [
    # a listed name plus a generic modifier: the span is the name (GUIDELINES, span boundaries)
    ("The rate improves on traditional minibatch SGD by a log factor.", "SGD", "minibatch SGD"),
    ("Noisy gradient descent on the loss samples the posterior.", "gradient descent",
     "noisy gradient descent"),
])
def test_round12_modifier_is_outside_the_span(extract, text, name, longer):
    found = _keys(extract(text))
    assert entity_key(name) in found
    assert entity_key(longer) not in found
