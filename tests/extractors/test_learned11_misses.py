"""``bench/train_learned.py --miss-sources``: the development gold's missed proposed names, by the
candidate source of ``paperkg_learned`` that saw them (a development aid for the learned finder)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def train():
    sys.path.insert(0, str(REPO / "bench"))
    spec = importlib.util.spec_from_file_location("train_learned_misses", REPO / "bench" / "train_learned.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_missed_proposed_name_is_counted_once_by_its_source(train):
    import eval_extraction as E

    r = train.miss_sources("dev")
    assert r["missed"] == E.score_gold("dev")["proposed"]["fn"]  # the eval's own count of misses
    assert sum(r["counts"].values()) == r["missed"] == len(r["misses"])
    for m in r["misses"]:
        assert m["source"] in train.MISS_SOURCES
        # the source is the first of MISS_SOURCES that saw the name ("none": no source did)
        seen = [k for k in train.MISS_SOURCES if k in m["seen"]]
        assert m["source"] == (seen[0] if seen else "none")


@pytest.mark.parametrize("split", ["ood1", "ood2", "ood7", "held-out", "dev+ood1"])
def test_only_development_splits_are_read(train, split):
    with pytest.raises(ValueError, match="development splits only"):
        train.miss_sources(split)
