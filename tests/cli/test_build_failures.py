"""`kg build` when something goes wrong: a bad build folder, a bad input, an interruption.

Found by QA. A failure is one line, no stage that failed is reported done, a failed first build
leaves nothing behind, and the temporaries of a killed build are removed by the next one.
"""

from __future__ import annotations

import json

import pytest

from kg.build import BuildOptions, build
from kg.cli import main


def run(args, capsys):
    code = main(["build", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def test_build_folder_under_a_file_is_one_line(tmp_path, capsys, demo_dir):
    afile = tmp_path / "afile"
    afile.write_text("not a folder\n", encoding="utf-8")
    for out in (afile / "sub", afile / "sub" / "deeper"):
        code, stdout, err = run([demo_dir, "-o", out, "-q"], capsys)
        assert code == 1 and stdout == ""
        assert err == f"kg: error: {out}: cannot be a build folder: {afile} is a file, not a folder\n"
    assert afile.read_text(encoding="utf-8") == "not a folder\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_a_failed_stage_is_not_reported_done(tmp_path, capsys):
    bad = tmp_path / "midbad.jsonl"
    bad.write_text('{"title": "ok", "abstract": "fine"}\n{broken\n', encoding="utf-8")
    code, _, err = run([bad, "-o", tmp_path / "o"], capsys)
    assert code == 1
    assert "ingest: done" not in err
    *_, stage, error = err.splitlines()
    assert stage.startswith("ingest: failed after ")
    assert error == f"kg: error: {bad}:2: malformed JSON: Expecting property name enclosed in double quotes (column 2)"


def test_an_interrupted_stage_is_not_reported_done(tmp_path, demo_dir):
    said: list[str] = []

    def log(msg: str) -> None:
        said.append(msg)
        if msg.startswith("extracting "):  # Ctrl-C while the extraction runs
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build([demo_dir], tmp_path / "o", options=BuildOptions(progress=False), log=log)
    assert said[-3].startswith("ingest: done in ") and said[-2].startswith("extracting ")
    assert said[-1].startswith("extract: interrupted after ")
    assert not any(m.startswith("extract: done") for m in said)


def test_a_failed_first_build_leaves_no_build_folder(tmp_path, capsys):
    bad = tmp_path / "midbad.jsonl"
    bad.write_text('{"title": "ok", "abstract": "fine"}\n{broken\n', encoding="utf-8")
    code, _, _ = run([bad, "-o", tmp_path / "new" / "o", "-q"], capsys)
    assert code == 1 and not (tmp_path / "new").exists()
    # a folder the user made stays, as empty as it was
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("x", encoding="utf-8")
    code, _, _ = run([bad, "-o", tmp_path / "mine", "-q"], capsys)
    assert code == 1 and [p.name for p in (tmp_path / "mine").iterdir()] == ["notes.txt"]


def test_an_interrupted_first_build_leaves_no_build_folder(tmp_path, demo_dir):
    def log(msg: str) -> None:
        if msg.startswith("graph: done"):  # Ctrl-C after the records and extraction were written
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build([demo_dir], tmp_path / "o", options=BuildOptions(progress=False, rdf=False, html=False), log=log)
    assert list(tmp_path.iterdir()) == []


def test_a_failed_rebuild_keeps_the_previous_build(tmp_path, capsys, demo_dir):
    out = tmp_path / "o"
    assert run([demo_dir, "-o", out, "-q", "--no-html", "--no-rdf"], capsys)[0] == 0
    files = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts}
    bad = tmp_path / "midbad.jsonl"
    bad.write_text('{"title": "ok", "abstract": "fine"}\n{broken\n', encoding="utf-8")
    assert run([demo_dir, bad, "-o", out, "-q", "--no-html", "--no-rdf"], capsys)[0] == 1
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*")
            if p.is_file() and ".cache" not in p.parts} == files
    assert (out / ".cache" / "cache.sqlite").is_file()  # the next build still starts from the cache


def test_the_temporaries_of_a_killed_build_are_removed(tmp_path, capsys, demo_dir):
    out = tmp_path / "o"
    assert run([demo_dir, "-o", out, "-q", "--no-html", "--no-rdf"], capsys)[0] == 0
    # what kill -9 during each stage leaves (names as kg.io.atomic_write and the index make them)
    left = [out / ".records.jsonl.k2j4_x.tmp", out / ".extracted.jsonl.a8f.tmp", out / ".conflicts.jsonl.q.tmp",
            out / ".graph.pickle.7yq0zk1.tmp", out / ".summary.json.zz.tmp",
            out / "related" / ".cos_vals.npy.tmp", out / "related" / ".meta.json.3kd.tmp"]
    for p in left:
        p.write_bytes(b"half")
    mine = out / "notes.tmp"  # not a temporary of paperkg's
    mine.write_text("keep", encoding="utf-8")
    assert run([demo_dir, "-o", out, "-q", "--no-html", "--no-rdf"], capsys)[0] == 0
    assert [p for p in left if p.exists()] == []
    assert mine.read_text(encoding="utf-8") == "keep"
    assert sorted(p.name for p in (out / "related").iterdir() if p.name.startswith(".")) == []


def test_the_extractor_version_is_recorded(tmp_path, capsys, demo_dir):
    from extractors import EXTRACTOR_VERSION
    from kg import PIPELINE_VERSION
    from kg.workspace import Workspace

    ws = Workspace(tmp_path / "o")
    assert run([demo_dir, "-o", ws.path, "-q", "--no-html"], capsys)[0] == 0
    assert ws.load_summary()["extractor_version"] == EXTRACTOR_VERSION
    assert ws.load_graph().graph["extractor_version"] == EXTRACTOR_VERSION
    meta = json.loads((ws.rdf_dir / "build.json").read_text(encoding="utf-8"))
    assert (meta["pipeline_version"], meta["extractor_version"]) == (PIPELINE_VERSION, EXTRACTOR_VERSION)
    # no extraction in this build: no extractor version claimed
    assert run([demo_dir, "-o", ws.path, "-q", "--no-html", "--no-extract"], capsys)[0] == 0
    assert "extractor_version" not in ws.load_summary()
    assert "extractor_version" not in ws.load_graph().graph
    meta = json.loads((ws.rdf_dir / "build.json").read_text(encoding="utf-8"))
    assert "extractor_version" not in meta and meta["pipeline_version"] == PIPELINE_VERSION


def test_a_build_that_skips_a_stage_removes_that_stage_of_the_earlier_build(tmp_path, capsys, demo_dir):
    from kg.workspace import Workspace

    ws = Workspace(tmp_path / "o")
    assert run([demo_dir, "-o", ws.path, "-q"], capsys)[0] == 0
    assert ws.extracted_path.is_file() and ws.html_dir.is_dir()
    code, stdout, err = run([demo_dir, "-o", ws.path, "--no-extract", "--no-rdf", "--no-html"], capsys)
    assert code == 0
    lines = err.splitlines()
    # extracted.jsonl and the views of the earlier corpus are gone
    assert not ws.extracted_path.exists() and not ws.html_dir.exists()
    assert f"removed {ws.extracted_path}: an earlier build's, for a stage this one skipped (--no-extract)" in lines
    assert f"removed {ws.html_dir}: an earlier build's, for a stage this one skipped (--no-html)" in lines
    # the RDF and the store stay (kg sparql warns on each use), said once here and in the summary
    assert ws.rdf_dir.is_dir() and ws.store_dir.is_dir()
    assert (f"kg: warning: {ws.rdf_dir} and {ws.store_dir} are an earlier build's (--no-rdf): kg sparql, "
            "serve and push answer for that corpus; build without --no-rdf to refresh them") in lines
    summary = ws.load_summary()
    assert summary["removed"] == {"extracted.jsonl": "--no-extract", "html": "--no-html"}
    assert summary["stale"] == {"rdf": "--no-rdf", "store": "--no-rdf"}
    assert [r.entities for r in ws.iter_records()] == [() for _ in ws.iter_records(extracted=False)]
    # a full build again: nothing removed or stale
    assert run([demo_dir, "-o", ws.path, "-q"], capsys)[0] == 0
    summary = ws.load_summary()
    assert "removed" not in summary and "stale" not in summary and ws.html_dir.is_dir()


def test_a_rebuild_interrupted_in_the_extraction_keeps_the_previous_build(tmp_path, capsys, demo_dir):
    out = tmp_path / "o"
    opts = ["-q", "--no-html", "--no-rdf"]
    assert run([demo_dir, "-o", out, *opts], capsys)[0] == 0
    files = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts}
    more = tmp_path / "more.jsonl"
    more.write_text('{"title": "A new paper", "abstract": "We propose FooNet for bar.", "authors": ["New Person"]}\n',
                    encoding="utf-8")

    def log(msg: str) -> None:
        if msg.startswith("extracting "):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build([demo_dir, more], out, options=BuildOptions(progress=False, rdf=False, html=False), log=log)
    after = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file() and ".cache" not in p.parts}
    assert after == files  # records.jsonl and conflicts.jsonl were already the new corpus's
