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
