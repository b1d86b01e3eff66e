from __future__ import annotations

import json

import pytest

from kg.cli import main


@pytest.fixture(scope="module")
def seeds_ws(tmp_path_factory, seeds_dir):
    out = tmp_path_factory.mktemp("ws") / "out"
    assert main(["build", str(seeds_dir), "-o", str(out), "-q", "--no-extract", "--no-rdf", "--no-html"]) == 0
    return out


def test_authors_lists_by_paper_count(seeds_ws, capsys):
    assert main(["authors", str(seeds_ws), "--json", "--top", "3"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0] == {"author": "Julia Kempe", "papers": 3, "id": "julia-kempe", "aliases": []}


def test_duplicates_list_evidence(seeds_ws, capsys):
    assert main(["authors", str(seeds_ws), "--duplicates", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    pair = next(r for r in rows if {r["a"], r["b"]} == {"Jinluan Yang", "Jinxuan Yang"})
    assert pair["kind"] == "typo" and pair["decision"] == "listed"
    assert pair["reason"] == "no shared co-author or topic"


def test_authors_file_merges_and_reports(seeds_ws, tmp_path, capsys):
    f = tmp_path / "decisions.txt"
    f.write_text("Jinluan Yang = Jinxuan Yang\n", encoding="utf-8")
    assert main(["authors", str(seeds_ws), "--authors-file", str(f), "--json", "--top", "200"]) == 0
    rows = json.loads(capsys.readouterr().out)
    merged = [r for r in rows if "Jinluan Yang" in [r["author"], *r["aliases"]]]
    assert len(merged) == 1 and merged[0]["papers"] == 2


def test_authors_needs_a_build(tmp_path, capsys):
    assert main(["authors", str(tmp_path / "nothing")]) == 1
    assert "not a build folder" in capsys.readouterr().err
