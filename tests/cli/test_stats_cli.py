"""``kg stats OUT/`` in-process with CliRunner, on a workspace built in a tmp dir."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kg.cli import cli, main
from kg.graph import build_graph
from kg.metrics import add_metrics
from kg.records import Category, Entity, Record
from kg.schema import EntityType, Role
from kg.workspace import Workspace


@pytest.fixture()
def out(tmp_path):
    records = [
        Record("p1", "Graph paper", None, ("Ann Lee", "Bo Chen"), category=Category("Theory", "Graphs"),
               entities=(Entity(EntityType.METHOD, "GraphSAGE", Role.USED),
                         Entity(EntityType.BENCHMARK, "Cora", Role.USED))),
        Record("p2", "Second", None, ("Ann Lee",), references=("p1",),
               entities=(Entity(EntityType.METHOD, "GraphSAGE", Role.PROPOSED),)),
    ]
    G = build_graph(records)
    add_metrics(G)
    Workspace(tmp_path).save_graph(G)
    return tmp_path


def test_stats_table(out):
    res = CliRunner().invoke(cli, ["stats", str(out)])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].startswith("paperkg graph (schema 1")
    assert "Nodes" in lines and "Edges" in lines and "Top methods" in lines
    assert any(line.split() == ["paper", "2"] for line in lines)
    assert any(line.split() == ["authored", "3"] for line in lines)
    assert any(line.split() == ["GraphSAGE", "2"] for line in lines)
    assert any(line.split() == ["Ann", "Lee", "2"] for line in lines)
    assert "Largest communities" in lines


def test_stats_json(out):
    res = CliRunner().invoke(cli, ["stats", str(out), "--json", "--top", "1"])
    data = json.loads(res.output)
    assert data["nodes"]["author"] == 2 and data["edges"]["cites"] == 1
    assert data["top_authors"] == [["Ann Lee", 2]]


def test_stats_missing_workspace(tmp_path, capsys):
    assert main(["stats", str(tmp_path / "nope")]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"kg: error: {tmp_path / 'nope'}: not a build folder; run `kg build INPUT... -o {tmp_path / 'nope'}` first"


@pytest.mark.parametrize("content", [b"\0" * 4096, b"not a pickle at all\n", b""])
def test_stats_damaged_graph_is_one_line(tmp_path, capsys, content):
    """A damaged graph.pickle (zeros, text, empty) is a one-line error, not a traceback or 'aborted'."""
    ws = Workspace(tmp_path)
    ws.graph_path.write_bytes(content)
    assert main(["stats", str(tmp_path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"kg: error: {ws.graph_path}: not a readable graph (")
    assert "\n" not in err
