"""bench/linkpred.py on tiny hand-made history/future files: queries, candidates, exact ranks, --cache."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from kg.records import Entity, Record, Source
from kg.schema import EntityType

_SPEC = importlib.util.spec_from_file_location("linkpred", Path(__file__).parents[2] / "bench" / "linkpred.py")
linkpred = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(linkpred)


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture()
def files(tmp_path):
    # Ann-Bo, Bo-Cy, Dee-Eve, Cy-Fay in the history; Ann and Cy write together in the future.
    history = [("h1", ["Ann Lee", "Bo Chen"], "Quantum annealing schedules"),
               ("h2", ["Bo Chen", "Cy Dunn"], "Protein folding kinetics"),
               ("h3", ["Dee Fox", "Eve Gray"], "Glacier melt forecasting"),
               ("h4", ["Cy Dunn", "Fay Hill"], "Medieval manuscript dating")]
    future = [("f1", ["Ann Lee", "Cy Dunn", "Gus New"], "Something else entirely")]
    h = write_jsonl(tmp_path / "hist.jsonl", [{"id": i, "title": t, "authors": a, "abstract": None, "year": 2020}
                                              for i, a, t in history])
    f = write_jsonl(tmp_path / "fut.jsonl", [{"id": i, "title": t, "authors": a, "abstract": None, "year": 2021}
                                             for i, a, t in future])
    return h, f


def test_queries_candidates_and_exact_ranks(files):
    h, f = files
    res = linkpred.run([str(h)], [str(f)], extraction=False, signals=True)
    # Ann gains Cy and Cy gains Ann (Gus is new, not a candidate); Ann has 4 candidates
    # (not herself, not Bo), Cy 3 (not himself, Bo, Fay).
    assert res["queries"] == 2 and res["candidates"] == round((4 + 3) / 2)
    assert res["history_authors"] == 6 and res["entities"] is False
    # Each true new co-author is the only candidate sharing a co-author (Bo): rank 1 for both.
    assert res["adamic_adar"] == {"mrr": 1.0, "hits@10": 1.0}
    assert res["paperkg"] == {"mrr": 1.0, "hits@10": 1.0}
    assert res["signals"]["paths2"]["mrr"] == 1.0
    # The prior alone ties everyone with one paper except Bo and Cy (2 papers): for Ann, Cy is
    # first; for Cy, Ann ties with Dee and Eve: expected RR (1 + 1/2 + 1/3) / 3.
    assert res["signals"]["prior"]["mrr"] == pytest.approx((1 + (1 + 1 / 2 + 1 / 3) / 3) / 2, abs=1e-4)


def test_cache_gives_the_history_records_of_the_named_files(files, tmp_path):
    h, f = files
    ent = Entity(EntityType.CONCEPT, "annealing schedules", None)
    recs = [Record("h1", "Quantum annealing schedules", None, ("Ann Lee", "Bo Chen"), year=2020,
                   sources=(Source(str(h), 1, "jsonl"),), entities=(ent,)),
            Record("h2", "Protein folding kinetics", None, ("Bo Chen", "Cy Dunn"), year=2020,
                   sources=(Source(str(h), 2, "jsonl"),)),
            Record("x1", "Elsewhere", None, ("Zed Ray",), year=2020,
                   sources=(Source("/other/file.jsonl", 1, "jsonl"),))]
    cache = write_jsonl(tmp_path / "cache.jsonl", [r.to_dict(extraction=True) for r in recs])
    got = linkpred.cached_records(cache, [str(h)])
    assert [r.id for r in got] == ["h1", "h2"] and got[0].entities == (ent,)
    res = linkpred.run([str(h)], [str(f)], cache=cache)
    assert res["entities"] is True and res["history_papers"] == 2 and res["queries"] == 2


def test_expected_rank_under_ties():
    rr, hits = linkpred.expected_rr_hits(np.array([5.0, 2.0, 2.0, 2.0]), [2])
    assert rr == pytest.approx((1 / 2 + 1 / 3 + 1 / 4) / 3) and hits == 1.0
