"""exports.html without a browser: labels, tooltips, selection, budget, the file itself."""

from __future__ import annotations

import json
import re

import networkx as nx
import pytest

from export_graphs import INJECTIONS, synthetic_graph, tiny_graph
from exports.html import (community_graph, ego_graph, find_node, layout_positions, node_label,
                          node_tooltip, select_view, to_html, write_html, write_site)
from kg.errors import NotFoundError, PaperkgError


def _page_data(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="paperkg-data">(.*?)</script>', page, re.S)
    assert m, "no data block"
    return json.loads(m.group(1))


def test_paper_labels_title_then_proposed_method_then_first_words():
    G = tiny_graph()
    assert node_label(G, "paper:h:p1") == "Attention for Graphs"
    assert node_label(G, "paper:h:p3") == "SparseMix"
    assert node_label(G, "paper:h:p4") == "Plain words first and then <img…"


def test_tooltips_carry_the_facts():
    G = tiny_graph()
    paper = node_tooltip(G, "paper:h:p2")
    assert "Authors: Alan Turing, Grace Hopper" in paper
    assert "Year: 2024" in paper
    assert "Evaluated on: ImageNet, GSM8K" in paper
    assert "Cites: 10.1000/xyz" in paper
    p1 = node_tooltip(G, "paper:h:p1")
    assert "Category: Deep Learning · Graphs" in p1 and "Proposes: GraphFormer" in p1
    author = node_tooltip(G, "author:a:alan")
    assert "Papers (2): Attention for Graphs, Benchmarks of Reasoning" in author
    assert "Co-authors (2): " in author and "Ada Lovelace" in author and "Grace Hopper" in author
    assert "Also written: A. Lovelace" in node_tooltip(G, "author:a:ada")
    assert "et al." in node_tooltip(G, "paper:h:p3")


def test_page_escapes_every_data_string():
    page = to_html(tiny_graph(), title=INJECTIONS[1])
    body = page.split('<script type="application/json" id="paperkg-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in body and ">" not in body
    for s in INJECTIONS:
        assert s not in page
    assert "<title>&lt;script&gt;alert(2)&lt;/script&gt;</title>" in page
    data = _page_data(page)
    p4 = next(n for n in data["nodes"] if n["id"] == "paper:h:p4")
    assert all(s in p4["title"] for s in INJECTIONS[:3])


def test_page_is_one_offline_utf8_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "sub" / "v.html"
    write_html(tiny_graph(), out, title="Café ∑")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["sub", "v.html"]  # no lib/ anywhere
    raw = out.read_bytes()
    page = raw.decode("utf-8")
    assert "Café ∑" in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page, re.I)
    assert not re.search(r"""@import|url\(\s*["']?https?:""", page, re.I)
    assert not re.search(r"<script[^>]*\bsrc\s*=", page, re.I)
    assert not re.search(r"<link[^>]*\bhref\s*=", page, re.I)


def test_edges_and_nodes_all_present_with_style():
    G = tiny_graph()
    data = _page_data(to_html(G))
    assert len(data["nodes"]) == G.number_of_nodes() and len(data["edges"]) == G.number_of_edges()
    edge = next(e for e in data["edges"] if e["kind"] == "shares")
    assert "arrows" not in edge and "Shared: GSM8K (benchmark), Grace Hopper (author)" in edge["title"]
    assert next(e for e in data["edges"] if e["kind"] == "cites")["arrows"] == "to"
    assert {t["type"]: t["shape"] for t in data["types"]}["author"] == "diamond"
    sizes = {n["id"]: n["size"] for n in data["nodes"]}
    assert sizes["author:a:alan"] > sizes["author:a:ada"]  # degree 4 vs 2


def test_pagerank_drives_size_when_present():
    G = tiny_graph()
    for i, n in enumerate(sorted(G)):
        G.nodes[n]["pagerank"] = 0.01 if n != "concept:sparsity" else 0.5
    data = _page_data(to_html(G))
    assert data["size_by"] == "PageRank"
    biggest = max(data["nodes"], key=lambda n: n["size"])
    assert biggest["id"] == "concept:sparsity"


def test_budget_trims_to_most_central():
    G = synthetic_graph(300, seed=1)
    data = _page_data(to_html(G, budget=50))
    kept = {n["id"] for n in data["nodes"]}
    assert len(kept) == 50
    deg = dict(G.degree())
    assert min(deg[k] for k in kept) >= sorted(deg.values(), reverse=True)[49]
    assert data["note"].startswith("Showing 50 of 300 nodes")
    assert all(e["from"] in kept and e["to"] in kept for e in data["edges"])
    assert _page_data(to_html(G, budget=5000))["note"] == ""


def test_focused_view_is_the_ego_graph():
    G = tiny_graph()
    data = _page_data(to_html(G, focus="author:a:grace", depth=1))
    assert {n["id"] for n in data["nodes"]} == {"author:a:grace", "paper:h:p2", "paper:h:p3", "author:a:alan"}
    assert data["focus"] == "author:a:grace"
    assert set(ego_graph(G, "author:a:grace", depth=2)) >= {"benchmark:gsm8k", "concept:sparsity", "work:doi:10.1000/xyz"}
    assert set(ego_graph(G, "author:a:grace", depth=0)) == {"author:a:grace"}


def test_find_node_by_name_alias_id_and_errors():
    G = tiny_graph()
    assert find_node(G, "author", "Grace Hopper") == "author:a:grace"
    assert find_node(G, "author", "a. lovelace") == "author:a:ada"
    assert find_node(G, "paper", "h:p3") == "paper:h:p3"
    assert find_node(G, "method", "sparsemix") == "method:sparsemix"
    assert find_node(G, "benchmark", "gsm") == "benchmark:gsm8k"
    with pytest.raises(NotFoundError, match=r"no author named 'Grace Hoper' in the graph; close matches: Grace Hopper"):
        find_node(G, "author", "Grace Hoper")
    with pytest.raises(ValueError):
        find_node(G, "planet", "x")


def test_select_view_and_communities():
    G = tiny_graph()
    assert select_view(G)[1:] == (None, "Overview")
    H, focus, title = select_view(G, method="GraphFormer")
    assert focus == "method:graphformer" and title == "Method: GraphFormer"
    with pytest.raises(PaperkgError, match="one focus at most"):
        select_view(G, author="x", method="y")
    with pytest.raises(NotFoundError, match="no communities"):
        community_graph(G, 1)
    for n in G:
        G.nodes[n]["community"] = 0 if n.startswith("author") else 1
    assert set(select_view(G, community=0)[0]) == {n for n in G if n.startswith("author")}
    with pytest.raises(NotFoundError, match="communities are 0..1"):
        community_graph(G, 7)


def test_layout_is_deterministic_and_spread():
    G = synthetic_graph(1200, seed=2)
    a = layout_positions(G, seed=0)
    assert a == layout_positions(G, seed=0)
    assert set(a) == set(G)
    assert len(set(a.values())) > 0.95 * len(a)  # hardly any two nodes on the same spot


def test_bad_options_are_user_errors(tmp_path):
    with pytest.raises(PaperkgError, match="budget must be at least 1"):
        to_html(tiny_graph(), budget=0)
    with pytest.raises(PaperkgError, match="size_by"):
        to_html(tiny_graph(), size_by="colour")
    with pytest.raises(NotFoundError):
        to_html(tiny_graph(), focus="paper:nope")


def test_write_site_files(tmp_path):
    paths = write_site(tiny_graph(), tmp_path, top=1)
    names = sorted(str(p.relative_to(tmp_path)) for p in paths)
    # Slug ids name the file as they are; an id that is not a slug ("a:alan") gets a digest.
    assert names == ["index.html", "overview.html", "views/author-a-alan-677aff3a.html",
                     "views/benchmark-gsm8k.html", "views/method-graphformer.html"]
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "17 nodes, 20 edges" in index and 'href="views/author-a-alan-677aff3a.html"' in index


def test_empty_and_enum_typed_graphs():
    from kg.schema import EdgeType, NodeType

    assert _page_data(to_html(nx.MultiDiGraph()))["nodes"] == []
    G = nx.MultiDiGraph()
    G.add_node("method:x", type=NodeType.METHOD, name="X")
    G.add_node("paper:1", type=NodeType.PAPER, title=None, abstract=None, label="p1")
    G.add_edge("paper:1", "method:x", key=EdgeType.PROPOSES)
    data = _page_data(to_html(G))
    assert {n["id"]: (n["group"], n["label"]) for n in data["nodes"]} == {
        "method:x": ("method", "X"), "paper:1": ("paper", "X")}
    assert data["edges"][0]["kind"] == "proposes"


def test_spread_separates_knots():
    from exports.html import separate_boxes
    import numpy as np

    knot = np.zeros((40, 2))  # a hub's leaves all on one spot
    box = np.tile([-15.0, -15.0, 15.0, 15.0], (40, 1))  # 30-pixel squares
    out = separate_boxes(knot, box)
    d = np.abs(out[:, None, :] - out[None, :, :]).max(axis=2)  # squares overlap when both gaps < 30
    np.fill_diagonal(d, np.inf)
    assert d.min() >= 30.0 - 1e-6
    far = np.array([[0.0, 0.0], [100.0, 0.0]])  # already apart: left where they are
    assert np.allclose(separate_boxes(far, box[:2]), far, atol=0.02)
