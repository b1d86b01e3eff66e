"""Round-15 gazetteer (issue 3): families the shared list lacks (knowledge compilation languages,
homomorphic encryption schemes, voting rules, video models and benchmarks, newer LLM families),
a class name that is not a method ("homomorphic encryption"), and NAS-Bench-101 as an entity of
its own rather than an alias of NAS-Bench-201.

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import entity_key


def _found(entities) -> set[tuple[str, str]]:
    return {(e.type.value, entity_key(m.text)) for e in entities for m in e.mentions}


@pytest.mark.parametrize("text, kind, name", [
    ("The circuit is compiled into d-DNNF before counting its models.", "method", "d-DNNF"),
    ("Every constraint is stored as an OBDD with a fixed variable order.", "method", "OBDD"),
    ("We keep the feasible set in sentential decision diagrams during search.", "method",
     "sentential decision diagrams"),
    ("Client features are encrypted under CKKS and the server adds them blindly.", "method", "CKKS"),
    ("Ties are broken after ranking the candidates by Borda count.", "method", "Borda count"),
    ("Computing a manipulation is hard under Copeland for three voters.", "method", "Copeland"),
    ("Seats are filled by single transferable vote in the simulated election.", "method",
     "single transferable vote"),
    ("We incorporate the two-stream SlowFast mechanism into the video encoder.", "method", "SlowFast"),
    ("Our model is compared with recent small models such as Falcon3-1.6B and Falcon3-7B.", "method",
     "Falcon3-1.6B"),
    ("Weights are quantised with OPTQ before the kernels are fused.", "method", "OPTQ"),
    ("Long videos are scored on MLVU and TempCompass.", "benchmark", "MLVU"),
    ("Long videos are scored on MLVU and TempCompass.", "benchmark", "TempCompass"),
])
def test_round15_family_is_found(extract, text, kind, name):
    assert (kind, entity_key(name)) in _found(extract(text))


def test_round15_homomorphic_encryption_is_a_class_not_a_method(extract):
    text = "Homomorphic encryption lets the server compute on data it cannot read."
    assert not any(entity_key(m.text) == entity_key("Homomorphic encryption")
                   for e in extract(text) for m in e.mentions)


def test_round15_nas_bench_101_is_its_own_entry():
    from extractors.gazetteer import load_gazetteer

    gaz = load_gazetteer()
    assert gaz.lookup("NAS-Bench-101").name == "NAS-Bench-101"
    assert gaz.lookup("NAS-Bench-201").name == "NAS-Bench-201"


@pytest.mark.parametrize("text, name, inner", [
    ("Event streams are fitted with a Transformer Hawkes process and its intensity is sampled.",
     "Transformer Hawkes process", ("Transformer", "Hawkes process")),
    ("Tokens are decoded in parallel by a Masked Generative Image Transformer conditioned on text.",
     "Masked Generative Image Transformer", ("Transformer",)),
])
def test_round15_a_name_holding_listed_names_is_one_mention(extract, text, name, inner):
    found = {entity_key(m.text) for e in extract(text) for m in e.mentions}
    assert entity_key(name) in found
    assert not found & {entity_key(x) for x in inner}
