"""Round-11 gazetteer: benchmark families the curated list lacked (issue 3).

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import entity_key


def _found(entities) -> set[tuple[str, str]]:
    return {(e.type.value, entity_key(form)) for e in entities
            for form in (e.name, *e.aliases, *(m.text for m in e.mentions))}


@pytest.mark.parametrize("text, etype, name", [
    # chain-of-thought reasoning tasks
    ("Gains are largest on Coin Flip and Last Letter Concatenation.", "benchmark", "Coin Flip"),
    ("Gains are largest on Coin Flip and Last Letter Concatenation.", "benchmark", "Last Letter Concatenation"),
    ("We also report Date Understanding and SingleEq.", "benchmark", "SingleEq"),
    # vision-language compositionality and human-object interaction
    ("Interaction detection is scored on HICO-DET.", "benchmark", "HICO-DET"),
    ("Compositional probes include ARO and VL-Checklist.", "benchmark", "ARO"),
    # text-to-image evaluation prompts
    ("Samples for DrawBench and PartiPrompts were rated by people.", "benchmark", "DrawBench"),
    # embodied suites
    ("Rearrangement agents are tested in Housekeep and RoboDesk.", "benchmark", "Housekeep"),
    # molecules and proteins, with the version that makes the split
    ("Inverse folding is trained on CATH 4.2 and tested on TS50.", "benchmark", "CATH 4.2"),
    ("Reaction paths come from Transition1x.", "benchmark", "Transition1x"),
    # image generation subsets
    ("Unconditional samples on LSUN Churches look sharper.", "benchmark", "LSUN Church"),
    # synthetic re-identification data
    ("Training on PersonX transfers to the real identities.", "benchmark", "PersonX"),
])
def test_round11_family_names(extract, text, etype, name):
    assert (etype, entity_key(name)) in _found(extract(text))


def test_pretraining_corpus_with_a_size_is_a_benchmark(extract):
    # "4B" is also a model size: without the entry the suffix rule made the corpus a method
    found = _found(extract("The encoder is pre-trained on JFT-4B before transfer."))
    assert ("benchmark", entity_key("JFT-4B")) in found
    assert ("method", entity_key("JFT-4B")) not in found
