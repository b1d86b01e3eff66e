"""Extraction leaves no cyclic garbage: every object it makes is freed by reference counting.

A cycle per abstract (an inner function that called itself through its closure did this) costs
nothing visible in one abstract, but over a corpus the garbage collector walks all of them again
and again (0.3-0.4 s of a 1.35M-word pass).
"""

from __future__ import annotations

import gc

from extractors.pipeline import extract_raw
from kg.records import Record

ABSTRACT = ("We propose FlexiNet, a novel framework named FlexiNet and FlexiNet-XL that merges LoRA "
            "adapters. We evaluate on ImageNet and CIFAR-10 and compare with Adam and beam search "
            "(Smith et al., 2020). Federated learning (FL) benefits, and FL clients agree.")


def test_extraction_makes_no_cyclic_garbage(nlp) -> None:
    records = [Record(id=f"r{i}", title="FlexiNet: Merging Adapters", abstract=ABSTRACT) for i in range(30)]
    list(extract_raw(records[:3], nlp=nlp))  # memo tables and caches filled first
    gc.collect()
    gc.disable()
    try:
        results = list(extract_raw(records, nlp=nlp))
        assert any(e.name == "FlexiNet" for e in results[0].entities)
        del results
        assert gc.collect() == 0
    finally:
        gc.enable()
