"""Integrity of the silver training batches (``tests/gold/silver/batchNN.ann``)."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from kg.text import normalize_text

HERE = Path(__file__).resolve().parent
BATCHES = sorted(p.stem for p in HERE.glob("batch*.ann"))


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def drawn(shared_data: Path) -> dict[str, list[str]]:
    by_batch: dict[str, list[str]] = {}
    for batch, _, rec_id in _load("silver_draw", HERE / "draw.py").draw(shared_data):
        by_batch.setdefault(batch, []).append(rec_id)
    return by_batch


@pytest.fixture(scope="module")
def abstracts(shared_data: Path) -> dict[str, str]:
    out = {}
    draw = _load("silver_draw", HERE / "draw.py")
    for source in ("iclr2024.jsonl", "icml2023.jsonl", *draw.OTHER_SOURCES):
        with open(shared_data / "confpapers" / "jsonl" / source, encoding="utf-8") as fh:
            for line in fh:
                rec = json.loads(line)
                out[rec["id"]] = normalize_text(rec.get("abstract")) or ""
    return out


def test_draw_is_disjoint_from_every_gold_split(shared_data: Path, drawn: dict[str, list[str]]) -> None:
    gold = {rec_id for _, _, rec_id in _load("gold_sample", HERE.parent / "sample.py").choose(shared_data)}
    silver = [i for ids in drawn.values() for i in ids]
    assert len(silver) == len(set(silver)) == 4000
    assert not gold & set(silver)
    sample = _load("gold_sample", HERE.parent / "sample.py")
    ood = {rec_id for _, _, rec_id in sample.choose_ood(shared_data)}
    assert not ood & set(silver)
    # every gold split drawn after the silver batches avoids them, and the later batches (81-100)
    # avoid every out-of-domain split drawn before them (ood2-ood5)
    later = {rec_id for _, _, rec_id in [*sample.choose_late(shared_data), *sample.choose_ood_late(shared_data)]}
    assert not later & set(silver)
    assert all(len(ids) == 40 for ids in drawn.values())


def test_some_batches_are_annotated() -> None:
    assert len(BATCHES) >= 1


@pytest.mark.parametrize("batch", BATCHES)
def test_batch_lists_its_ids_in_order_and_every_form_is_found(
    batch: str, drawn: dict[str, list[str]], abstracts: dict[str, str]
) -> None:
    build = _load("gold_build", HERE.parent / "build.py")
    path = HERE / f"{batch}.ann"
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert re.match(rf"# Silver training batch {batch[5:]} ", first), first
    blocks = build.parse_ann(path)
    assert [b["id"] for b in blocks] == drawn[batch]
    warnings: list[str] = []
    for block in blocks:
        rec = build.build_block(block, abstracts[block["id"]], warnings.append)
        for ent in rec["entities"]:
            assert ent["type"] in {"method", "benchmark"} and ent["role"] in {"proposed", "used"}
            assert ent["mentions"], (block["id"], ent["name"])
    assert warnings == []
