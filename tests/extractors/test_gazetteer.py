"""The shipped gazetteer: reproducible from its sources, sane contents, name keys."""

from __future__ import annotations

import json

import pytest

from extractors.build_gazetteer import build
from extractors.gazetteer import GAZETTEER_PATH, entity_key, load_gazetteer


def test_shipped_file_is_what_the_build_script_makes(shared_data) -> None:
    shipped = json.loads(GAZETTEER_PATH.read_text(encoding="utf-8"))
    assert build(shared_data / "ml-gazetteer") == shipped


def test_contents() -> None:
    gaz = load_gazetteer()
    for name, etype in (("MMLU", "benchmark"), ("GSM8K", "benchmark"), ("LongBench", "benchmark"),
                        ("SWE-bench", "benchmark"), ("CIFAR-10", "benchmark"), ("Llama", "method"),
                        ("Qwen", "method"), ("GPT-4", "method"), ("BERT", "method"), ("LSTM", "method")):
        entry = gaz.lookup(name)
        assert entry is not None and entry.type == etype, name
    for metric in ("accuracy", "F1", "BLEU", "perplexity"):
        assert gaz.is_stop(metric)
    assert gaz.is_stop("LLMs") and gaz.is_stop("GPU")
    # noisy shared-list entries are filtered out
    assert gaz.lookup("Experimental Results") is None and gaz.lookup("Ann") is None


@pytest.mark.parametrize("a, b", [
    ("MoE", "MoEs"), ("Mixture-of-Experts", "mixture of experts"), ("GANs", "GAN"),
    ("Graph Neural Networks", "graph neural network"), ("CIFAR\u201110".replace("\u2011", "-"), "cifar10"),
])
def test_entity_key_equal(a: str, b: str) -> None:
    assert entity_key(a) == entity_key(b)


@pytest.mark.parametrize("a, b", [("GPT-3.5", "GPT-4"), ("CIFAR-10", "CIFAR-100"), ("Llama-2 7B", "Llama-2 13B")])
def test_entity_key_keeps_versions_apart(a: str, b: str) -> None:
    assert entity_key(a) != entity_key(b)
