"""``kg related OUT/ NAME`` and ``--paper ID`` in-process with CliRunner."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kg.cli import cli, main
from kg.graph import build_graph
from kg.records import Entity, Record
from kg.schema import EntityType
from kg.workspace import Workspace


def rec(rid, *authors, concepts=()):
    return Record(rid, f"Paper {rid}", None, tuple(authors),
                  entities=tuple(Entity(EntityType.CONCEPT, c, None) for c in concepts))


@pytest.fixture()
def out(tmp_path):
    records = [rec("p1", "Renzhe Xu", "Yao Shu", concepts=["strategic classification"]),
               rec("p2", "Yao Shu", "Lin Zhou", concepts=["strategic classification"]),
               rec("p3", "Renzhe Xu", "Bo Chen")]
    records += [rec(f"f{i}", f"Filler Person{chr(97 + i)}") for i in range(10)]
    Workspace(tmp_path).save_graph(build_graph(records))
    return tmp_path


def test_related_authors_text(out):
    res = CliRunner().invoke(cli, ["related", str(out), "renzhe xu", "--top", "3"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[0].startswith(" 1. Yao Shu  (")
    assert lines[1] == "    already co-authors on 1 paper; both work on strategic classification"
    assert "    shares co-author Yao Shu; both work on strategic classification; 2 hops" in lines
    assert sum("co-author" in line for line in lines[1:2]) == 1  # said once for an existing co-author


def test_related_exclude_coauthors_json(out):
    res = CliRunner().invoke(cli, ["related", str(out), "Renzhe Xu", "--exclude-coauthors", "--json"])
    data = json.loads(res.output)
    assert [d["label"] for d in data] == ["Lin Zhou"]
    assert data[0]["hops"] == 2 and data[0]["reasons"][0] == "shares co-author Yao Shu"
    res = CliRunner().invoke(cli, ["related", str(out), "Renzhe Xu", "--exclude-within", "2", "--json"])
    assert json.loads(res.output) == []


def test_related_papers(out):
    res = CliRunner().invoke(cli, ["related", str(out), "--paper", "p1", "--json"])
    data = json.loads(res.output)
    assert [d["key"] for d in data] == ["paper:p2", "paper:p3"]
    assert data[0]["reasons"] == ["shares author Yao Shu", "both on strategic classification"]


def test_related_unknown_name(out, capsys):
    assert main(["related", str(out), "Renzhe Xv"]) == 1
    assert capsys.readouterr().err.strip() == (
        "kg: error: no author named 'Renzhe Xv' in the graph; close matches: Renzhe Xu")


def test_related_needs_name_or_paper(out):
    res = CliRunner().invoke(cli, ["related", str(out)])
    assert res.exit_code == 2 and "give an author NAME or --paper ID" in res.output
