"""Output paths a user may get wrong: each is one line naming the path, exit status 1 (or
Click's usage error, 2), and nothing is read for minutes before the error. Found by QA."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from kg.cli import main


def _error(capsys: pytest.CaptureFixture[str], *args: str, status: int = 1) -> str:
    assert main(list(args)) == status
    err = capsys.readouterr().err.strip()
    if status == 1:
        assert len(err.splitlines()) == 1, err
    return err


def test_ingest_output_that_is_a_folder_is_refused_before_reading(tmp_path, seeds_dir, capsys) -> None:
    (tmp_path / "d").mkdir()
    err = _error(capsys, "ingest", str(seeds_dir), "-o", str(tmp_path / "d"), status=2)
    assert "is a directory" in err and "read " not in err


def test_ingest_output_under_a_file_is_one_line(tmp_path, seeds_dir, capsys) -> None:
    f = tmp_path / "afile"
    f.write_text("x", encoding="utf-8")
    err = _error(capsys, "ingest", str(seeds_dir), "-o", str(f / "records.jsonl"), "-q")
    assert err == f"kg: error: {f}/records.jsonl: cannot write it: {f} is a file, not a folder"
    assert f.read_text(encoding="utf-8") == "x"


def test_ingest_summary_under_a_file_is_one_line(tmp_path, seeds_dir, capsys) -> None:
    f = tmp_path / "afile"
    f.write_text("x", encoding="utf-8")
    err = _error(capsys, "ingest", str(seeds_dir), "-o", str(tmp_path / "r.jsonl"),
                 "--summary", str(f / "s.json"), "-q")
    assert err == f"kg: error: {f}/s.json: cannot write it: {f} is a file, not a folder"


def test_ingest_writes_through_a_symlink_with_the_umask_mode(tmp_path, seeds_dir) -> None:
    old = os.umask(0o022)
    try:
        from kg.io import _umask

        _umask.cache_clear()
        target = tmp_path / "real.jsonl"
        link = tmp_path / "records.jsonl"
        link.symlink_to(target)
        assert main(["ingest", str(seeds_dir), "-o", str(link), "-q"]) == 0
        assert link.is_symlink() and len(target.read_text(encoding="utf-8").splitlines()) == 47
        assert stat.S_IMODE(target.stat().st_mode) == 0o644
    finally:
        os.umask(old)
        _umask.cache_clear()


def test_export_into_a_file_used_as_folder_is_one_line(seed_graph_ws: Path, tmp_path, capsys) -> None:
    f = tmp_path / "afile"
    f.write_text("x", encoding="utf-8")
    err = _error(capsys, "export", str(seed_graph_ws), "--to", "graphml", "-o", str(f / "g.graphml"))
    assert err == f"kg: error: {f}/g.graphml: cannot write it: {f} is a file, not a folder"


def test_export_onto_a_folder_is_one_line(seed_graph_ws: Path, tmp_path, capsys) -> None:
    err = _error(capsys, "export", str(seed_graph_ws), "--to", "json", "-o", str(tmp_path))
    assert err == f"kg: error: {tmp_path}: is a folder; give the name of a file to write"
