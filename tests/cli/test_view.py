"""``kg view`` in-process on a build folder made from the real seed pages."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from kg.cli import cli, main
from kg.workspace import Workspace


@pytest.fixture(scope="module")
def out(seed_graph_ws):
    return seed_graph_ws


def _data(path):
    page = path.read_text(encoding="utf-8")
    m = re.search(r'<script type="application/json" id="paperkg-data">(.*?)</script>', page, re.S)
    return json.loads(m.group(1))


def test_view_writes_overview(out):
    res = CliRunner().invoke(cli, ["view", str(out)])
    assert res.exit_code == 0, res.output
    path = out / "html" / "overview.html"
    assert res.output.strip() == str(path)
    G = Workspace(out).load_graph()
    data = _data(path)
    assert len(data["nodes"]) == G.number_of_nodes() and len(data["edges"]) == G.number_of_edges()
    assert not (out / "lib").exists()


def test_view_author_focus_and_budget(out, tmp_path):
    G = Workspace(out).load_graph()
    author = max((n for n, t in G.nodes(data="type") if t == "author"), key=G.degree)
    name = G.nodes[author]["name"]
    target = tmp_path / "a.html"
    res = CliRunner().invoke(cli, ["view", str(out), "--author", name, "--depth", "2", "--budget", "30",
                                   "-o", str(target)])
    assert res.exit_code == 0, res.output
    data = _data(target)
    assert data["focus"] == author and len(data["nodes"]) <= 30
    assert any(n["id"] == author for n in data["nodes"])


def test_view_default_focused_path(out):
    res = CliRunner().invoke(cli, ["view", str(out), "--community", "0"])
    assert res.exit_code == 0, res.output
    assert res.output.strip() == str(out / "html" / "views" / "community-0.html")


def test_view_errors_in_process(out, capsys):
    assert main(["view", str(out), "--author", "Nobody Atall Zzz"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("kg: error: no author named 'Nobody Atall Zzz' in the graph")
    assert len(err.strip().splitlines()) == 1
    assert main(["view", str(out), "--author", "x", "--method", "y"]) == 1
    assert capsys.readouterr().err == "kg: error: give one focus at most, got --author, --method\n"


def test_view_missing_build_folder(tmp_path, capsys):
    assert main(["view", str(tmp_path / "nope")]) == 1
    assert "not a build folder" in capsys.readouterr().err


def test_view_site_via_installed_kg(out, tmp_path):
    kg = subprocess.run([sys.executable, "-m", "kg", "view", str(out), "--site", "--top", "2",
                         "-o", str(tmp_path / "site" / "index.html")], capture_output=True, text=True, timeout=300)
    assert kg.returncode == 0, kg.stderr
    assert (tmp_path / "site" / "index.html").is_file() and (tmp_path / "site" / "overview.html").is_file()
    assert len(list((tmp_path / "site" / "views").glob("author-*.html"))) == 2
