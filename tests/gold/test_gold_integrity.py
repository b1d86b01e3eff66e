"""Integrity of the hand-annotated extraction gold set (``dev.jsonl``, ``test.jsonl``, ``test2.jsonl``, ``test3.jsonl``, ``test4.jsonl``, ``test5.jsonl``, ``test6.jsonl`` ... ``test21.jsonl``, ``ood1.jsonl`` ... ``ood7.jsonl``).

Checks every line against the real abstracts in ``shared/data/confpapers/jsonl``: the record
exists, every mention's offsets select its text in ``normalize_text(abstract)``, labels are
valid, mentions do not overlap, the splits are disjoint, large enough, are exactly the ids
``sample.py`` draws, and agree with the hand-written ``annotations/*.ann`` files.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from kg.text import normalize_text

HERE = Path(__file__).resolve().parent
SPLITS = ("dev", "test", "test2", "test3", "test4", "test5", "test6", "test7", "test8", "test9", "test10", "test11",
          "test12", "test13", "test14", "test15", "test16", "test17", "test18", "test19", "test20", "test21")
# Later held-out splits and how many ids each draws per source (see sample.py).
LATER_SPLITS = {"test2": 30, "test3": 40, "test4": 40, "test5": 40, "test6": 40, "test7": 40, "test8": 40, "test9": 40,
                "test10": 40, "test11": 40, "test12": 40, "test13": 40, "test14": 40, "test15": 40,
                "test16": 40, "test17": 40, "test18": 40, "test19": 40, "test20": 40, "test21": 35}
#: The splits drawn after the silver batches, by ``sample.choose_late`` rather than ``sample.choose``.
LATE_SPLITS = ("test14", "test15", "test16", "test17", "test18", "test19", "test20", "test21")
SOURCES = ("iclr2024.jsonl", "icml2023.jsonl")
#: The out-of-domain held-out split (sample.choose_ood) and its sources.
OOD_SPLITS = ("ood1", "ood2", "ood3", "ood4", "ood5", "ood6", "ood7")
OOD_SOURCES = ("neurips2018.jsonl", "icml2019.jsonl", "ijcai2024.jsonl", "colm2025.jsonl")
TYPES = {"method", "benchmark"}
ROLES = {"proposed", "used"}
MIN_PER_SPLIT = 40


def _load_module(name: str):
    spec = importlib.util.spec_from_file_location(f"gold_{name}", HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def _drawn(shared_data: Path) -> list[tuple[str, str, str]]:
    """Every in-domain gold row: ``sample.choose`` and then ``sample.choose_late``."""
    sample = _load_module("sample")
    return [*sample.choose(shared_data), *sample.choose_late(shared_data)]


def _read_gold(split: str) -> list[dict]:
    path = HERE / f"{split}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture(scope="module")
def abstracts(shared_data: Path) -> dict[str, dict[str, str]]:
    """``source -> id -> normalize_text(abstract)``."""
    out: dict[str, dict[str, str]] = {}
    for source in (*SOURCES, *OOD_SOURCES):
        texts = {}
        with (shared_data / "confpapers" / "jsonl" / source).open(encoding="utf-8") as fh:
            for line in fh:
                rec = json.loads(line)
                texts[rec["id"]] = normalize_text(rec.get("abstract")) or ""
        out[source] = texts
    return out


@pytest.mark.parametrize("split", SPLITS + OOD_SPLITS)
def test_every_line_matches_its_abstract(split: str, abstracts) -> None:
    problems = []
    for lineno, gold in enumerate(_read_gold(split), 1):
        where = f"{split}.jsonl:{lineno} ({gold.get('id')})"
        source = gold.get("source")
        if source not in abstracts:
            problems.append(f"{where}: unknown source {source!r}")
            continue
        if not gold["id"].startswith(source.removesuffix(".jsonl") + ":"):
            problems.append(f"{where}: id does not belong to {source}")
        text = abstracts[source].get(gold["id"])
        if text is None:
            problems.append(f"{where}: id not in {source}")
            continue
        spans = []
        for ent in gold["entities"]:
            if ent["type"] not in TYPES or ent["role"] not in ROLES:
                problems.append(f"{where}: bad type/role {ent['type']}/{ent['role']}")
            if not ent["name"] or not isinstance(ent["aliases"], list) or not ent["mentions"]:
                problems.append(f"{where}: entity {ent['name']!r} lacks name/aliases/mentions")
            for m in ent["mentions"]:
                s, e = m["start"], m["end"]
                if not (0 <= s < e <= len(text)) or text[s:e] != m["text"]:
                    problems.append(f"{where}: {ent['name']!r} span {s}:{e} is "
                                    f"{text[s:e]!r}, not {m['text']!r}")
                spans.append((s, e))
        spans.sort()
        for (s1, e1), (s2, e2) in zip(spans, spans[1:]):
            if s2 < e1:
                problems.append(f"{where}: overlapping mentions {s1}:{e1} and {s2}:{e2}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("split", SPLITS)
def test_split_size_and_no_duplicate_ids(split: str) -> None:
    ids = [g["id"] for g in _read_gold(split)]
    assert len(ids) >= MIN_PER_SPLIT
    assert len(set(ids)) == len(ids)


def test_dev_and_test_are_disjoint() -> None:
    dev = {g["id"] for g in _read_gold("dev")}
    test = {g["id"] for g in _read_gold("test")}
    assert not dev & test


@pytest.mark.parametrize(
    ("later", "other"),
    [(later, other) for i, later in enumerate(SPLITS[1:], 1) for other in SPLITS[:i]],
)
def test_later_splits_are_disjoint_from_earlier_splits(later: str, other: str) -> None:
    ids = {g["id"] for g in _read_gold(later)}
    assert not ids & {g["id"] for g in _read_gold(other)}


@pytest.mark.parametrize(("split", "per_source"), sorted(LATER_SPLITS.items()))
def test_later_split_draws_half_from_each_source(split: str, per_source: int) -> None:
    counts: dict[str, int] = {}
    for gold in _read_gold(split):
        counts[gold["source"]] = counts.get(gold["source"], 0) + 1
    assert counts == {source: per_source for source in SOURCES}


@pytest.mark.parametrize("split", sorted(LATER_SPLITS))
def test_later_annotation_file_lists_each_sampled_id_once(split: str, shared_data: Path) -> None:
    build = _load_module("build")
    ann_ids = [b["id"] for b in build.parse_ann(HERE / "annotations" / f"{split}.ann")]
    chosen = _drawn(shared_data)
    assert len(ann_ids) == len(set(ann_ids))
    assert set(ann_ids) == {i for sp, _, i in chosen if sp == split}


def test_adding_test3_left_the_earlier_draws_unchanged(shared_data: Path) -> None:
    """test3 is appended after the other splits: the rows before it are the old draw."""
    chosen = _load_module("sample").choose(shared_data)
    splits = [sp for sp, _, _ in chosen]
    first_test3 = splits.index("test3")
    # each later split is one block, appended after the ones before it
    order = ["dev", "test", "test2", "test3", "test4", "test5", "test6", "test7", "test8", "test9",
             "test10", "test11", "test12", "test13"]
    ranks = [order.index(sp) for sp in splits]
    assert ranks == sorted(ranks)
    for split in ("dev", "test", "test2"):
        assert {i for sp, _, i in chosen[:first_test3] if sp == split} == {
            g["id"] for g in _read_gold(split)
        }, split


def test_splits_are_the_seeded_sample(shared_data: Path) -> None:
    chosen = _drawn(shared_data)
    for split in SPLITS:
        expected = {i for sp, _, i in chosen if sp == split}
        assert {g["id"] for g in _read_gold(split)} == expected, split


@pytest.mark.parametrize("split", SPLITS + OOD_SPLITS)
def test_jsonl_agrees_with_annotation_file(split: str, shared_data: Path, monkeypatch) -> None:
    build = _load_module("build")
    monkeypatch.setattr(build, "DATA", shared_data / "confpapers" / "jsonl")
    lines, warnings = build.build_split(split)
    assert warnings == 0
    assert [json.loads(x) for x in lines] == _read_gold(split)


def test_late_splits_avoid_the_silver_batches(shared_data: Path) -> None:
    """test14 to test21 come from what neither ``choose`` nor the silver batches hold (that the
    silver batches did not move is ``silver/test_silver_integrity.py``'s check)."""
    spec = importlib.util.spec_from_file_location("gold_silver_draw", HERE / "silver" / "draw.py")
    silver = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(silver)
    silver_ids = {i for _, _, i in silver.draw(shared_data)}
    late = {g["id"] for split in LATE_SPLITS for g in _read_gold(split)}
    assert len(late) == len(SOURCES) * sum(LATER_SPLITS[split] for split in LATE_SPLITS)
    assert not late & silver_ids
    assert not late & {i for _, _, i in _load_module("sample").choose(shared_data)}


def test_ood1_is_the_seeded_out_of_domain_sample(shared_data: Path) -> None:
    rows = _load_module("sample").choose_ood(shared_data)
    gold = _read_gold("ood1")
    assert [g["id"] for g in gold] == [i for _, _, i in rows]
    assert {g["source"] for g in gold} == set(OOD_SOURCES)
    in_domain = {i for sp, _, i in _load_module("sample").choose(shared_data)}
    assert not in_domain & {g["id"] for g in gold}


@pytest.mark.parametrize("split, per_source", [("ood2", 20), ("ood3", 20), ("ood4", 30), ("ood5", 30), ("ood6", 30), ("ood7", 30)])
def test_later_ood_splits_are_the_seeded_samples_that_avoid_the_others_and_the_other_venue_silver(
        shared_data: Path, split: str, per_source: int) -> None:
    sample = _load_module("sample")
    rows = sample.choose_ood_late(shared_data)
    gold = _read_gold(split)
    assert [g["id"] for g in gold] == [i for sp, _, i in rows if sp == split]
    assert {g["source"] for g in gold} == set(OOD_SOURCES)
    assert len(gold) == per_source * len(OOD_SOURCES)
    spec = importlib.util.spec_from_file_location("gold_silver_draw", HERE / "silver" / "draw.py")
    silver = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(silver)
    ids = {g["id"] for g in gold}
    assert not ids & {i for _, i in silver.draw_other(shared_data)}
    # ood2-ood5 were drawn before the later other-venue batches, which avoid them; ood6 on avoid them
    assert not ids & {i for _, i in silver.draw_other_late(shared_data)}
    for other in OOD_SPLITS:
        if other != split:
            assert not ids & {g["id"] for g in _read_gold(other)}
