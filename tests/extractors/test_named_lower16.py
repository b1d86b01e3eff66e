"""Round-16 lower-case coined names (issue 3, proposed recall): after a method or data head noun in
the sentence, "called/named" and one lower-case word that is neither an English word nor a known
name ("a proof dataset from course notes, named uprover") is the paper's own name; an English word
or a known name there stays what it was.

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import entity_key


def _typed(entities) -> dict[str, tuple[str, str]]:
    return {entity_key(e.name): (e.type.value, e.role.value) for e in entities}


@pytest.mark.parametrize("text, name, typ", [
    ("We also curated a proof problem dataset from course notes, named uprover, in the hope to help.",
     "uprover", "benchmark"),
    ("We also curated a proof problem dataset from course notes, named **uprover**, to help others.",
     "uprover", "benchmark"),
    ("We release an open toolkit for sparse regression, called spregra, with a plain interface.",
     "spregra", "method"),
])
def test_round16_lower_coined_word_after_naming(extract, text, name, typ):
    assert _typed(extract(text)).get(entity_key(name)) == (typ, "proposed")


@pytest.mark.parametrize("text, word", [
    ("We use a regularization technique called dropout.", "dropout"),
    ("We use a method called bagging to reduce variance.", "bagging"),
    ("We collect a dataset of photos, named after the city, for testing.", "after"),
])
def test_round16_lower_word_after_naming_guards(extract, text, word):
    assert _typed(extract(text)).get(entity_key(word), ("", "used"))[1] != "proposed"
