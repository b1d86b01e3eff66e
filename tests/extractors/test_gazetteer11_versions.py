"""Round-11 gazetteer: a listed model name is also matched with its version number written against
the name word ("PaLM2-S" for the listed "PaLM 2-S", "Llama3.2-1B" for "Llama-3.2-1B") (issue 3).

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import _joined_version, _variants, entity_key


def _found(entities) -> set[tuple[str, str]]:
    return {(e.type.value, entity_key(form)) for e in entities
            for form in (e.name, *e.aliases, *(m.text for m in e.mentions))}


def _mentions(entities) -> set[str]:
    return {m.text for e in entities for m in e.mentions}


@pytest.mark.parametrize("form, joined", [
    ("PaLM 2-S", "PaLM2-S"),
    ("Llama 2-Chat", "Llama2-Chat"),
    ("Flan-PaLM 2", "Flan-PaLM2"),
    ("ISIC 2018", "ISIC2018"),
    ("GPT-3.5", "GPT3.5"),
])
def test_version_written_against_the_name(form, joined):
    assert _joined_version(form) == joined
    assert joined in _variants(form, "method")


@pytest.mark.parametrize("form", ["stage 2", "wav2vec 2.0", "T5-11B", "GPT-4o", "ViT-B/16", "Go 2"])
def test_no_joined_variant(form):
    # lower-case phrases, numbers inside a word, sizes and short words keep their forms
    assert _joined_version(form) is None


def test_joined_model_version_is_found(extract):
    ents = extract("The smallest model, PaLM2-S, is compared with a tuned baseline.")
    assert ("method", entity_key("PaLM 2-S")) in _found(ents)
    assert "PaLM2-S" in _mentions(ents)


def test_joined_version_keeps_the_whole_release_name(extract):
    # the listed "Llama-3.2-1B" written without its first hyphen is one mention, not "Llama3" + rest
    ents = extract("We distil into Llama3.2-1B for deployment.")
    assert "Llama3.2-1B" in _mentions(ents)
