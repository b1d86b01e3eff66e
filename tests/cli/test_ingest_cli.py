"""`kg ingest` as users meet it: exit codes, the one-line errors, --skip-bad, no partial output."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kg.cli import main

GOOD = {"title": "A made-up paper", "abstract": "An invented abstract about nothing in particular.",
        "authors": ["Ada Lovelace"]}


def run(args, capsys):
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def jsonl(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_ingest_seeds_prints_summary(seeds_dir, tmp_path, capsys):
    out = tmp_path / "r.jsonl"
    code, _, err = run(["ingest", str(seeds_dir), "-o", str(out)], capsys)
    assert code == 0
    assert "60 records read from 3 file(s): 47 papers, 13 merged as duplicates, 0 skipped" in err
    assert sum(1 for _ in out.open(encoding="utf-8")) == 47


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("bad.jsonl", [json.dumps(GOOD), "{not json", json.dumps(GOOD | {"title": "Another"})],
         "bad.jsonl:2: malformed JSON"),
        ("empty.jsonl", [""], "empty.jsonl: empty file"),
    ],
)
def test_bad_input_one_line_error_and_no_output(tmp_path, capsys, name, content, message):
    src = jsonl(tmp_path / name, content)
    out = tmp_path / "out.jsonl"
    code, stdout, err = run(["ingest", str(src), "-o", str(out)], capsys)
    assert code == 1
    lines = err.strip().splitlines()
    assert lines[-1].startswith("kg: error: ") and message in lines[-1]
    assert "Traceback" not in err
    assert not out.exists()
    assert not list(tmp_path.glob(".out.jsonl*"))  # no temporary left behind


def test_latin1_file_names_the_line(tmp_path, capsys):
    src = tmp_path / "latin1.jsonl"
    src.write_bytes((json.dumps(GOOD) + "\n" + json.dumps(GOOD | {"title": "Caf\u00e9"}, ensure_ascii=False)
                     + "\n").encode("latin-1"))
    code, _, err = run(["ingest", str(src), "-o", str(tmp_path / "o.jsonl")], capsys)
    assert code == 1 and f"{src}:2: not UTF-8" in err


def test_binary_and_unknown_formats(tmp_path, capsys):
    binary = tmp_path / "data.bin"
    binary.write_bytes(b"\x00\x01\x02binary" * 10)
    code, _, err = run(["ingest", str(binary), "-o", str(tmp_path / "o.jsonl")], capsys)
    assert code == 1 and "binary file" in err
    odd = tmp_path / "notes.xyz"
    odd.write_text("key=value\nother=thing\n", encoding="utf-8")
    code, _, err = run(["ingest", str(odd), "-o", str(tmp_path / "o.jsonl")], capsys)
    assert code == 1 and "cannot tell the format" in err and "notes.xyz" in err


def test_huge_abstract_refused_or_skipped(tmp_path, capsys):
    big = GOOD | {"abstract": "word " * 1_100_000}  # 5.5 MB
    src = jsonl(tmp_path / "big.jsonl", [json.dumps(GOOD), json.dumps(big)])
    code, _, err = run(["ingest", str(src), "-o", str(tmp_path / "o.jsonl")], capsys)
    assert code == 1 and "big.jsonl:2: abstract too long" in err
    out = tmp_path / "o.jsonl"
    code, _, err = run(["ingest", str(src), "-o", str(out), "--skip-bad"], capsys)
    assert code == 0 and "1 skipped" in err
    assert sum(1 for _ in out.open(encoding="utf-8")) == 1


def test_skip_bad_counts_every_skipped_item(tmp_path, capsys):
    src = jsonl(tmp_path / "mixed.jsonl", [json.dumps(GOOD), "{oops", "[1, 2", json.dumps(GOOD | {"title": "B"})])
    out = tmp_path / "o.jsonl"
    summary = tmp_path / "s.json"
    code, _, err = run(["ingest", str(src), "-o", str(out), "--skip-bad", "--summary", str(summary)], capsys)
    assert code == 0
    s = json.loads(summary.read_text(encoding="utf-8"))
    assert s["records_read"] == 2 and s["skipped"] == 2
    assert any("mixed.jsonl:2" in e for e in s["skipped_examples"])


def test_debug_shows_traceback(tmp_path):
    src = jsonl(tmp_path / "bad.jsonl", ["{not json"])
    proc = subprocess.run([sys.executable, "-m", "kg", "--debug", "ingest", str(src), "-o", str(tmp_path / "o")],
                          capture_output=True, text=True)
    assert proc.returncode != 0 and "Traceback" in proc.stderr


def test_installed_kg_script_runs(seeds_dir, tmp_path):
    import shutil

    kg = shutil.which("kg") or str(__import__("pathlib").Path(sys.executable).parent / "kg")
    proc = subprocess.run([kg, "ingest", str(seeds_dir), "-o", str(tmp_path / "r.jsonl"), "-q"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
