"""Round-16 typing of proposed names (issue 3, proposed recall): a coined name that ends in a data
head ("ProofyBench", "FedXYZ-Bench", "ProofyBench-100k") is a benchmark, and so is a framework
"tailored/designed for investigating/assessing ..." (a tool-like head whose purpose is evaluation).

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest

from extractors.gazetteer import entity_key


def _typed(entities) -> dict[str, tuple[str, str]]:
    return {entity_key(e.name): (e.type.value, e.role.value) for e in entities}


@pytest.mark.parametrize("text, name", [
    ("Finding evidence is slow. We introduce ProofyBench to measure model performance on this task, "
     "built by a new pipeline.", "ProofyBench"),
    ("Models fall short. To show that the pipeline scales, we create a larger ProofyBench-100k with "
     "107,461 annotated papers.", "ProofyBench-100k"),
    pytest.param("Old suites do not fit. To help, we propose and implement a suite FedXYZ-Bench that holds "
                 "many tuning problems.", "FedXYZ-Bench",
                 marks=pytest.mark.xfail(reason="no rule finds a name after 'propose and implement a suite'; "
                                                "the learned model did up to 1.17.0, and the 1.18.0 retrain chose "
                                                "benchmark/proposed >= 0.65 (was 0.5) on out-of-fold silver")),
    ("Bias persists. To do so, we introduce **UnBiasEval (UBE)**, a novel framework tailored for "
     "investigating gender bias in neutral settings.", "UnBiasEval"),
])
def test_round16_proposed_benchmark_type(extract, text, name):
    assert _typed(extract(text)).get(entity_key(name)) == ("benchmark", "proposed")


@pytest.mark.parametrize("text, name", [
    # "Bench" as a word of its own, or a data head that is not the name's end
    ("We propose BenchPress, a method that compresses prompts.", "BenchPress"),
    ("We propose DatasetGAN, a generator of labelled images.", "DatasetGAN"),
])
def test_round16_coined_data_word_inside_stays_method(extract, text, name):
    assert _typed(extract(text)).get(entity_key(name), ("method",))[0] == "method"


@pytest.mark.parametrize("text, name, typ", [
    ("Refusals are common. To address this, we introduce FalseAccept, a comprehensive resource "
     "containing 16k queries with answers.", "FalseAccept", "benchmark"),
    # "low-resource" modifies the method head; "resource-efficient" is no head
    ("We introduce FastRoute, a low-resource routing method for small devices.", "FastRoute", "method"),
    ("We propose LeanNet, a resource-efficient network for phones.", "LeanNet", "method"),
])
def test_round16_resource_appositive_types_benchmark(extract, text, name, typ):
    assert _typed(extract(text)).get(entity_key(name)) == (typ, "proposed")
