"""``kg search OUT/ QUERY`` in-process with CliRunner, and once as the installed ``kg``."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.cli import cli, main
from kg.graph import build_graph
from kg.records import Entity, Record
from kg.schema import EntityType, Role
from kg.search import build_search_index
from kg.workspace import Workspace


@pytest.fixture()
def out(tmp_path):
    records = [
        Record("p1", "Hypergraph clustering", "Spectral methods.", ("Emmanuel Candès",), year=2020,
               entities=(Entity(EntityType.METHOD, "Spectral Clustering", Role.USED),)),
        Record("p2", "Vision transformers", "Images as patches.", ("Ann Lee",), year=2023),
    ]
    ws = Workspace(tmp_path)
    G = build_graph(records)
    ws.save_graph(G)
    build_search_index(G, ws.search_path)
    return tmp_path


def test_search_table(out):
    res = CliRunner().invoke(cli, ["search", str(out), "hypergraph"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0] == "Papers"
    assert lines[3].split()[:3] == ["1", "2020", "Hypergraph"]
    assert lines[3].split()[-1] == "p1"


def test_search_names_and_filters(out):
    res = CliRunner().invoke(cli, ["search", str(out), "CANDES", "--json"])
    data = json.loads(res.output)
    assert [n["label"] for n in data["names"]] == ["Emmanuel Candès"]
    assert [p["key"] for p in data["papers"]] == ["paper:p1"]
    res = CliRunner().invoke(cli, ["search", str(out), "--year", "2021-2024", "--json"])
    assert [p["key"] for p in json.loads(res.output)["papers"]] == ["paper:p2"]


def test_search_nothing_found(out):
    res = CliRunner().invoke(cli, ["search", str(out), "quantum"])
    assert res.exit_code == 0 and res.output.strip() == "no papers found"


def test_search_unknown_author_one_line_error(out, capsys):
    assert main(["search", str(out), "x", "--author", "Emanuel Candes"]) == 1
    assert capsys.readouterr().err.strip() == (
        "kg: error: no author named 'Emanuel Candes'; close matches: Emmanuel Candès")


def test_search_without_index(tmp_path, capsys):
    Workspace(tmp_path).save_graph(build_graph([]))
    assert main(["search", str(tmp_path), "x"]) == 1
    assert capsys.readouterr().err.strip() == (
        f"kg: error: {tmp_path}: has no search index; run `kg build INPUT... -o {tmp_path}` first")


def test_installed_kg_search(out):
    exe = shutil.which("kg") or str(Path(sys.executable).parent / "kg")
    proc = subprocess.run([exe, "search", str(out), "vision", "--json"], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert [p["key"] for p in json.loads(proc.stdout)["papers"]] == ["paper:p2"]
