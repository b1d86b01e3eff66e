"""``kg extract --skip-bad`` says what it skipped, as ``kg ingest`` does. Found by QA: the
malformed line was dropped and only "5 records, ..." was printed (nothing dropped silently is
the rule of the bad-input contract)."""

from __future__ import annotations

import json
from pathlib import Path

from kg.cli import main


def _input(tmp_path: Path, shared_data: Path) -> Path:
    lines = (shared_data / "confpapers" / "jsonl" / "icml2023.jsonl").read_text(encoding="utf-8").splitlines()
    f = tmp_path / "in.jsonl"
    f.write_text("\n".join([*lines[:3], '{"title": "x", "abstract": ', lines[3]]) + "\n", encoding="utf-8")
    return f


def test_skipped_items_are_counted(tmp_path: Path, shared_data: Path, capsys) -> None:
    f = _input(tmp_path, shared_data)
    out = tmp_path / "out.jsonl"
    assert main(["extract", str(f), "-o", str(out), "--skip-bad"]) == 0
    err = capsys.readouterr().err
    assert "  skipped 1: malformed JSON\n" in err
    assert f"    e.g. {f}:4: malformed JSON: Expecting value (column 28)\n" in err
    assert len([json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]) == 4


def test_quiet_says_nothing(tmp_path: Path, shared_data: Path, capsys) -> None:
    f = _input(tmp_path, shared_data)
    assert main(["extract", str(f), "-o", str(tmp_path / "o.jsonl"), "--skip-bad", "-q"]) == 0
    assert capsys.readouterr().err == ""


def test_without_skip_bad_it_stops_at_the_line(tmp_path: Path, shared_data: Path, capsys) -> None:
    f = _input(tmp_path, shared_data)
    assert main(["extract", str(f), "-o", str(tmp_path / "o.jsonl")]) == 1
    assert capsys.readouterr().err == f"kg: error: {f}:4: malformed JSON: Expecting value (column 28)\n"
    assert not (tmp_path / "o.jsonl").exists()
