"""``kg view --size-by pagerank`` sizes by PageRank. Found by QA: the explicit choice was
ignored (only ``auto`` could pick PageRank, and only when every node had one, which a real build
never has: PageRank is set on the papers and works of citations), so the view said "size by
degree" whatever the user asked."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from export_graphs import tiny_graph
from exports.html import to_html
from kg.errors import PaperkgError


def _page_data(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="paperkg-data">(.*?)</script>', page, re.S)
    assert m, "no data block"
    return json.loads(m.group(1))


def _cited(G):
    papers = sorted(n for n, d in G.nodes(data=True) if d.get("type") == "paper")
    for n in papers:
        G.nodes[n]["pagerank"] = 0.01
    G.nodes[papers[-1]]["pagerank"] = 0.9
    return papers[-1]


def test_explicit_pagerank_sizes_by_pagerank_when_only_papers_have_it():
    G = tiny_graph()
    top = _cited(G)
    data = _page_data(to_html(G, size_by="pagerank"))
    assert data["size_by"] == "PageRank"
    assert max(data["nodes"], key=lambda n: n["size"])["id"] == top


def test_auto_keeps_degree_when_only_some_nodes_have_pagerank():
    G = tiny_graph()
    _cited(G)
    assert _page_data(to_html(G))["size_by"] == "degree"
    assert _page_data(to_html(G, size_by="degree"))["size_by"] == "degree"


def test_explicit_pagerank_without_citations_is_an_error():
    with pytest.raises(PaperkgError, match=r"size by PageRank: this graph has none .*--size-by degree"):
        to_html(tiny_graph(), size_by="pagerank")


def test_cli_on_a_real_citation_build(tmp_path: Path, shared_data: Path) -> None:
    from kg.cli import main

    out = tmp_path / "out"
    s2 = shared_data / "citations" / "raw" / "s2-turing-ego" / "Paper.json"
    assert main(["build", str(s2), "-o", str(out), "-q", "--no-extract", "--no-rdf", "--no-html"]) == 0
    page = tmp_path / "v.html"
    assert main(["view", str(out), "--size-by", "pagerank", "-o", str(page)]) == 0
    assert _page_data(page.read_text(encoding="utf-8"))["size_by"] == "PageRank"
