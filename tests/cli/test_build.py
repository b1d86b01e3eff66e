"""`kg build`, the one command: outputs, summary, incremental re-runs equal to clean runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import networkx as nx
import pytest

from kg.cli import main
from kg.workspace import Workspace


def build(args, capsys):
    code = main(["build", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def graph_data(ws: Workspace) -> dict:
    G = ws.load_graph()
    data = nx.node_link_data(G, edges="edges")
    data["nodes"] = sorted(data["nodes"], key=lambda n: n["id"])
    data["edges"] = sorted(data["edges"], key=lambda e: (e["source"], e["target"], e["key"]))
    return json.loads(json.dumps(data, sort_keys=True, default=str))


@pytest.fixture(scope="module")
def demo_inputs(tmp_path_factory, demo_dir):
    # Two inputs whose union is the demo: the build must give the same output whether it is
    # built at once or in two steps.
    root = tmp_path_factory.mktemp("demo")
    first, second = root / "first", root / "second"
    first.mkdir(), second.mkdir()
    for f in sorted(demo_dir.glob("*.txt")):
        shutil.copy(f, (first if f.name.startswith("000") else second) / f.name)
    return first, second


def test_demo_build_prints_where_things_are(tmp_path, capsys):
    out = tmp_path / "out"
    code, stdout, err = build(["--demo", "-o", out, "-q"], capsys)
    assert code == 0, err
    lines = dict(line.split(None, 1) for line in stdout.strip().splitlines()[1:])
    assert Path(lines["html"]).name == "index.html" and Path(lines["html"]).is_file()
    assert Path(lines["rdf"]).suffix == ".nq" and Path(lines["rdf"]).is_file()
    assert not (out / "rdf" / "paperkg.ttl").exists()  # extra serializations only when asked
    summary = Workspace(out).load_summary()
    assert summary["ingest"]["records_read"] == 37 and summary["ingest"]["papers"] == 32
    assert summary["graph"]["nodes"] > 32
    assert err == ""


def test_incremental_rebuild_equals_clean_build(demo_inputs, tmp_path, capsys):
    first, second = demo_inputs
    clean, incr = tmp_path / "clean", tmp_path / "incr"
    assert build([first, second, "-o", clean, "-q", "--no-html"], capsys)[0] == 0
    assert build([first, "-o", incr, "-q", "--no-html"], capsys)[0] == 0
    assert build([first, second, "-o", incr, "-q", "--no-html"], capsys)[0] == 0
    s = Workspace(incr).load_summary()
    # only the papers of the new file that were not already read were extracted again
    assert 0 < s["extract"]["extracted"] < s["ingest"]["papers"]
    assert s["extract"]["cached"] >= 15
    a, b = Workspace(clean), Workspace(incr)
    for name in ("records.jsonl", "extracted.jsonl", "conflicts.jsonl", "rdf/paperkg.nq"):
        assert (a.path / name).read_bytes() == (b.path / name).read_bytes(), name
    assert graph_data(a) == graph_data(b)


def test_failed_build_leaves_no_partial_output(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"title": "ok", "abstract": "fine"}\n{broken\n', encoding="utf-8")
    out = tmp_path / "out"
    code, _, err = build([bad, "-o", out, "-q"], capsys)
    assert code == 1 and "bad.jsonl:2: malformed JSON" in err
    assert not (out / "records.jsonl").exists() and not (out / "summary.json").exists()
    code, _, err = build([bad, "-o", out, "-q", "--skip-bad"], capsys)
    assert code == 0
    assert Workspace(out).load_summary()["ingest"]["skipped"] == 1


def test_cli_default_base_iri_is_the_rdf_default():
    from exports.rdf import DEFAULT_BASE_IRI
    from kg.cli.build import command

    opt = next(p for p in command.params if p.name == "base_iri")
    assert DEFAULT_BASE_IRI in opt.help


def test_rdf_format_adds_a_serialization_and_a_rebuild_without_it_removes_it(tmp_path, capsys):
    out = tmp_path / "out"
    code, _, err = build(["--demo", "-o", out, "-q", "--no-html", "--rdf-format", "ttl"], capsys)
    assert code == 0, err
    ttl = out / "rdf" / "paperkg.ttl"
    import rdflib

    g = rdflib.Graph().parse(ttl, format="turtle")
    assert len(g) > 1000
    code, _, err = build(["--demo", "-o", out, "-q", "--no-html"], capsys)
    assert code == 0, err
    assert not ttl.exists() and (out / "rdf" / "paperkg.nq").is_file()
