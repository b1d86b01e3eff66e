"""``kg export`` in-process on a build folder made from the real seed pages."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

from exports.networkx_formats import read_gexf, read_graphml, read_json
from exports.neo4j import read_neo4j
from kg.cli import cli, main
from kg.workspace import Workspace


@pytest.fixture(scope="module")
def out(seed_graph_ws):
    return seed_graph_ws


@pytest.mark.parametrize("fmt,read", [("graphml", read_graphml), ("gexf", read_gexf), ("json", read_json)])
def test_export_round_trips_the_real_graph(out, tmp_path, fmt, read):
    target = tmp_path / f"g.{fmt}"
    res = CliRunner().invoke(cli, ["export", str(out), "--to", fmt, "-o", str(target)])
    assert res.exit_code == 0, res.output
    assert res.output.strip() == str(target)
    G = Workspace(out).load_graph()
    H = read(target)
    assert set(H.edges(keys=True)) == set(G.edges(keys=True))
    assert {n: d["type"] for n, d in H.nodes(data=True)} == {n: d["type"] for n, d in G.nodes(data=True)}
    for u, v, k, d in G.edges(keys=True, data=True):
        if d.get("weight") is not None:
            assert H.edges[u, v, k]["weight"] == pytest.approx(d["weight"])
    for n, d in G.nodes(data=True):
        if d.get("authors"):
            assert H.nodes[n]["authors"] == list(d["authors"])


def test_export_neo4j_folder(out, tmp_path):
    target = tmp_path / "neo"
    res = CliRunner().invoke(cli, ["export", str(out), "--to", "neo4j", "-o", str(target)])
    assert res.exit_code == 0, res.output
    assert res.output.startswith(f"{target}: ") and "import.sh" in res.output
    with open(target / "nodes_author.csv", encoding="utf-8", newline="") as fh:
        header = next(csv.reader(fh))
    assert header[:2] == ["id:ID", ":LABEL"] and "n_papers:int" in header
    G = Workspace(out).load_graph()
    H = read_neo4j(target)
    assert set(H.edges(keys=True)) == set(G.edges(keys=True)) and set(H) == set(G)


def test_export_vosviewer_authors_only(out, tmp_path):
    target = tmp_path / "vos.json"
    res = CliRunner().invoke(cli, ["export", str(out), "--to", "vosviewer", "--types", "author", "-o", str(target)])
    assert res.exit_code == 0, res.output
    data = json.loads(target.read_text(encoding="utf-8"))
    G = Workspace(out).load_graph()
    n_authors = sum(1 for _, t in G.nodes(data="type") if t == "author")
    assert len(data["network"]["items"]) == n_authors
    assert all("cluster" in i for i in data["network"]["items"])  # communities from add_metrics
    assert data["network"]["links"]


def test_export_errors(out, tmp_path, capsys):
    assert main(["export", str(out), "--to", "gexf", "--types", "author", "-o", str(tmp_path / "x")]) == 1
    assert capsys.readouterr().err == "kg: error: --types applies to --to vosviewer only\n"
    assert main(["export", str(out), "--to", "vosviewer", "--types", "planet", "-o", str(tmp_path / "x")]) == 1
    assert capsys.readouterr().err.startswith("kg: error: unknown node type 'planet' in --types; valid: paper")
    assert main(["export", str(tmp_path / "none"), "--to", "json", "-o", str(tmp_path / "x")]) == 1
    assert "not a build folder" in capsys.readouterr().err
    res = CliRunner().invoke(cli, ["export", str(out), "--to", "dot", "-o", "x"])
    assert res.exit_code == 2 and "'dot' is not one of" in res.output


def test_export_installed_kg_subprocess(out, tmp_path):
    target = tmp_path / "g.graphml"
    kg = Path(sys.executable).with_name("kg")
    assert kg.is_file(), f"the kg script is not installed beside {sys.executable}"
    proc = subprocess.run([str(kg), "export", str(out), "--to", "graphml", "-o", str(target)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert isinstance(nx.read_graphml(target), nx.Graph)
