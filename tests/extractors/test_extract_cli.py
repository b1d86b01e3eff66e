"""``kg extract``: in-process with CliRunner, and once as the installed command."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from click.testing import CliRunner

from kg.cli import cli, main


def _seed_files(seeds_dir: Path) -> list[str]:
    return [str(p) for p in sorted(seeds_dir.glob("*.txt"))]


def test_extract_seeds(tmp_path: Path, seeds_dir: Path) -> None:
    out = tmp_path / "extracted.jsonl"
    res = CliRunner().invoke(cli, ["extract", *_seed_files(seeds_dir), "-o", str(out), "-q"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 47
    assert all("entities" in r and "citations" in r for r in rows)
    names = {(e["name"], e["role"]) for r in rows for e in r["entities"] if e["type"] == "method"}
    assert ("ExpertWeaver", "proposed") in names
    for r in rows:
        for e in r["entities"]:
            for m in e["mentions"]:
                src = r["title"] if m.get("field") == "title" else r["abstract"]
                assert src[m["start"]:m["end"]] == m["text"]


def test_two_processes_write_the_same_file(tmp_path: Path, seeds_dir: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for out, extra in ((a, []), (b, ["-j", "2"])):
        res = CliRunner().invoke(cli, ["extract", *_seed_files(seeds_dir), "-o", str(out), "-q", *extra])
        assert res.exit_code == 0, res.output
    assert a.read_bytes() == b.read_bytes()


def test_missing_input_is_one_error_line(tmp_path: Path, capsys) -> None:
    code = main(["extract", str(tmp_path / "nope.jsonl"), "-o", str(tmp_path / "x.jsonl")])
    assert code == 1
    assert capsys.readouterr().err.strip() == f"kg: error: {tmp_path / 'nope.jsonl'}: no such file"
    assert not (tmp_path / "x.jsonl").exists()


def test_missing_spacy_model_is_one_error_line(tmp_path: Path, seeds_dir: Path, capsys) -> None:
    code = main(["extract", _seed_files(seeds_dir)[0], "-o", str(tmp_path / "x.jsonl"),
                 "--spacy-model", "xx_no_such_pipeline_sm", "-q"])
    assert code == 1
    assert capsys.readouterr().err.startswith("kg: error: spaCy pipeline 'xx_no_such_pipeline_sm' is not installed")


def test_installed_command(tmp_path: Path, seeds_dir: Path) -> None:
    kg = shutil.which("kg") or str(Path(__file__).resolve().parents[3] / "venv" / "bin" / "kg")
    out = tmp_path / "e.jsonl"
    proc = subprocess.run([kg, "extract", _seed_files(seeds_dir)[1], "-o", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "records" in proc.stderr and out.exists()
