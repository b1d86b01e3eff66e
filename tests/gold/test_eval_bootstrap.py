"""The bootstrap intervals that ``bench/eval_extraction.py`` prints beside the gold figures, and its split guard."""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _eval_module():
    spec = importlib.util.spec_from_file_location("eval_extraction", REPO / "bench" / "eval_extraction.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def test_interval_holds_the_point_estimate_and_is_reproducible() -> None:
    ev = _eval_module()
    # 30 abstracts: 2 right and 1 missed each, every fifth one also has a false positive
    counts = [(2, 1 if i % 5 == 0 else 0, 1) for i in range(30)]
    point = ev._prf(*map(sum, zip(*counts)))
    ci = ev.bootstrap_interval(counts, n=500)
    for key in ("precision", "recall", "f1"):
        low, high = ci[key]
        assert low <= round(point[key], 3) <= high
    assert ci == ev.bootstrap_interval(counts, n=500)
    # every abstract has the same recall, so resampling cannot move it
    assert ci["recall"] == [round(2 / 3, 3), round(2 / 3, 3)]


def test_interval_narrows_with_more_abstracts() -> None:
    ev = _eval_module()
    few = [(1, 0, 0), (0, 1, 1)] * 10
    many = few * 25
    width = [ev.bootstrap_interval(c, n=400)["f1"] for c in (few, many)]
    assert width[1][1] - width[1][0] < (width[0][1] - width[0][0]) / 2


def test_a_pair_waiting_behind_the_held_out_pair_cannot_be_scored(monkeypatch) -> None:
    """A split in NEXT_HELD_OUT waits for HELD_OUT to be reported: refused alone or joined."""
    ev = _eval_module()
    monkeypatch.setattr(ev, "NEXT_HELD_OUT", ("test14", "test15"))
    for value in ("test14", "test15", "test6+test14"):
        with pytest.raises(argparse.ArgumentTypeError, match="waits, unscored"):
            ev._split_arg(value)
    assert ev._split_arg("test6+test7") == "test6+test7"
    with pytest.raises(argparse.ArgumentTypeError, match="unknown split"):
        ev._split_arg("test99")


def test_held_out_and_out_of_domain_splits_refuse_errors(capsys, monkeypatch) -> None:
    """--errors is refused on the held-out pair and on ood1: their errors are never listed."""
    ev = _eval_module()
    monkeypatch.setattr(ev, "HELD_OUT", ("test12", "test13"))  # the pair held out until 1.10.0
    for split in ("held-out", *ev.HELD_OUT, "ood1", f"test6+{ev.HELD_OUT[0]}"):
        with pytest.raises(SystemExit):
            ev.main(["--split", split, "--errors", "--only", "gold"])
        assert "held out" in capsys.readouterr().err


def test_held_out_with_no_pair_waiting_is_refused(monkeypatch) -> None:
    """With no pair drawn, 'held-out' is an error that says so, not a score of nothing."""
    ev = _eval_module()
    monkeypatch.setattr(ev, "HELD_OUT", ())
    with pytest.raises(argparse.ArgumentTypeError, match="no held-out pair is waiting"):
        ev._split_arg("held-out")


def _block(counts: list[tuple[int, int, int]]) -> dict:
    return {"ids": [f"a{i}" for i in range(len(counts))], "all": counts, "proposed": counts}


def test_paired_change_of_an_extractor_with_itself_is_exactly_zero() -> None:
    ev = _eval_module()
    counts = [(2, i % 3, 1) for i in range(40)]
    change = ev.paired_bootstrap(_block(counts), _block(counts), n=300)
    for key in ("all/f1", "all/precision", "proposed/recall"):
        assert change[key] == {"delta": 0.0, "low": 0.0, "high": 0.0, "above_zero": 0.0}


def test_paired_interval_finds_a_small_change_the_unpaired_intervals_hide() -> None:
    """One more name found in 8 of 80 abstracts whose difficulty varies a lot: the two unpaired
    F1 intervals overlap, but every paired resample puts the new extractor ahead."""
    ev = _eval_module()
    old = [(1 + i % 4, i % 3, 4 - i % 4) for i in range(80)]
    new = [(tp + 1, fp, fn - 1) if i % 10 == 0 else (tp, fp, fn) for i, (tp, fp, fn) in enumerate(old)]
    lo_new = ev.bootstrap_interval(new, n=400)["f1"][0]
    hi_old = ev.bootstrap_interval(old, n=400)["f1"][1]
    assert lo_new < hi_old
    change = ev.paired_bootstrap(_block(old), _block(new), n=400)["all/f1"]
    point = ev._prf(*map(sum, zip(*new)))["f1"] - ev._prf(*map(sum, zip(*old)))["f1"]
    assert change["delta"] == round(point, 4) > 0
    assert 0 < change["low"] <= change["delta"] <= change["high"]
    assert change["above_zero"] == 1.0


def test_paired_refuses_scores_of_different_abstracts() -> None:
    ev = _eval_module()
    a, b = _block([(1, 0, 0)] * 3), _block([(1, 0, 0)] * 3)
    b["ids"] = ["a0", "a2", "a1"]
    with pytest.raises(ValueError, match="same abstracts"):
        ev.paired_bootstrap(a, b, n=10)


def test_compare_reads_two_per_abstract_scores(tmp_path, capsys) -> None:
    """--per-abstract keeps counts only (no names), and --compare prints the paired change."""
    import json

    ev = _eval_module()
    files = []
    for name, counts in (("old", [(1, 1, 1)] * 20), ("new", [(2, 0, 0)] * 20)):
        f = tmp_path / f"{name}.json"
        f.write_text(json.dumps({"gold": {"per_abstract": _block(counts)}}), encoding="utf-8")
        files.append(str(f))
    assert ev.main(["--compare", *files, "--bootstrap", "100"]) == 0
    out = capsys.readouterr().out
    assert "change on 20 abstracts" in out
    assert "all/f1" in out and "+0.5000" in out


def test_eyeball_pool_leaves_out_every_gold_split(shared_data: Path) -> None:
    """``--eyeball`` shows extractor output on 'unlabeled' abstracts: none may be in a gold split,
    the late (test14 ...) and out-of-domain ones included."""
    ev = _eval_module()
    ids = ev.gold_split_ids(shared_data)
    gold = REPO / "tests" / "gold"
    for split in (*ev.DEV_SPLITS, *ev.HELD_OUT, *ev.OUT_OF_DOMAIN):
        split_ids = {line.split('"id": "', 1)[1].split('"', 1)[0]
                     for line in (gold / f"{split}.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()}
        assert split_ids <= ids, split
