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


def test_authors_applies_the_authors_file_of_the_build(tmp_path, seeds_dir, capsys):
    # Found by QA: the build did not record its --authors-file, so `kg authors OUT` listed the
    # two names apart while the graph had them as one person
    from kg.cache import file_digest
    from kg.workspace import Workspace

    f = tmp_path / "decisions.txt"
    f.write_text("Jinluan Yang = Jinxuan Yang\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", str(seeds_dir), "-o", str(out), "-q", "--no-extract", "--no-rdf", "--no-html",
                 "--authors-file", str(f)]) == 0
    capsys.readouterr()
    rec = Workspace(out).load_summary()["authors"]["authors_file"]
    assert rec == {"path": str(f.resolve()), "sha1": file_digest(f)}
    graph_names = {d["label"] for _, d in Workspace(out).load_graph().nodes(data=True) if d["type"] == "author"}
    assert ("Jinluan Yang" in graph_names) != ("Jinxuan Yang" in graph_names)  # one person in the graph

    def listed() -> tuple[list, str]:
        assert main(["authors", str(out), "--json", "--top", "500"]) == 0
        captured = capsys.readouterr()
        rows = json.loads(captured.out)
        return [r for r in rows if {"Jinluan Yang", "Jinxuan Yang"} & {r["author"], *r["aliases"]}], captured.err

    rows, err = listed()
    assert len(rows) == 1 and rows[0]["papers"] == 2 and err == ""
    assert rows[0]["author"] in graph_names
    # edited since the build: not applied, and said
    f.write_text("# nothing\n", encoding="utf-8")
    rows, err = listed()
    assert len(rows) == 2
    assert err == (f"kg: warning: the authors file {f.resolve()} changed since the build applied it; these names "
                   "may not match the graph's: pass --authors-file to apply it as it is now, or build again\n")
    f.unlink()
    rows, err = listed()
    assert len(rows) == 2 and "which is gone" in err
