"""kg.metrics: degree by type, citation PageRank, communities, summary."""

from __future__ import annotations

import pytest

from kg.graph import build_graph
from kg.metrics import add_metrics, community_graph, summarize
from kg.records import Entity, Record
from kg.schema import EntityType, Role


def rec(rid, *authors, entities=(), references=()):
    return Record(rid, f"Title {rid}", None, tuple(authors), references=tuple(references),
                  entities=tuple(Entity(EntityType.METHOD, e, Role.USED) for e in entities))


@pytest.fixture()
def graph():
    records = [
        rec("a1", "Ann Lee", "Bo Chen", entities=["GraphSAGE"]),
        rec("a2", "Bo Chen", "Cy Dee", entities=["GraphSAGE"], references=["a1"]),
        rec("a3", "Ann Lee", "Cy Dee", entities=["GraphSAGE"], references=["a1", "a2"]),
        rec("b1", "Xi Wu", "Yu Zhang", entities=["Diffusion"]),
        rec("b2", "Yu Zhang", "Zoe Park", entities=["Diffusion"], references=["a1"]),
        rec("b3", "Xi Wu", "Zoe Park", entities=["Diffusion"]),
    ]
    G = build_graph(records, max_df=1.0, min_weight=0.0)
    add_metrics(G)
    return G


def test_degree_by_type(graph):
    a = graph.nodes["author:ann-lee"]
    assert a["degree_paper"] == 2 and a["degree_author"] == 2
    assert a["degree"] == sum(v for k, v in a.items() if k.startswith("degree_"))
    assert graph.nodes["method:graphsage"]["degree_paper"] == 3
    assert "degree_category" not in a


def test_pagerank_over_citations(graph):
    pr = {k: d["pagerank"] for k, d in graph.nodes(data=True) if "pagerank" in d}
    assert set(pr) == {"paper:a1", "paper:a2", "paper:a3", "paper:b2"}
    assert max(pr, key=pr.get) == "paper:a1"
    assert sum(pr.values()) == pytest.approx(1.0)
    assert graph.graph["metrics"]["pagerank_edges"] == 4


def test_no_citations_no_pagerank():
    G = build_graph([rec("x", "Ann Lee")])
    add_metrics(G)
    assert not any("pagerank" in d for _, d in G.nodes(data=True))
    assert G.graph["metrics"]["pagerank_edges"] == 0


def test_communities_separate_two_groups(graph):
    comm = graph.nodes(data="community")
    group_a = {comm[k] for k in ("author:ann-lee", "author:bo-chen", "author:cy-dee", "paper:a1", "method:graphsage")}
    group_b = {comm[k] for k in ("author:xi-wu", "author:yu-zhang", "author:zoe-park", "paper:b3", "method:diffusion")}
    assert len(group_a) == 1 and len(group_b) == 1 and group_a != group_b
    assert graph.graph["metrics"]["communities"] >= 2


def test_community_graph_excludes_categories_and_works():
    G = build_graph([Record("p", "T", None, ("Ann Lee",), references=("W1",))])
    H = community_graph(G)
    assert set(H.nodes) == {"paper:p", "author:ann-lee"}


def test_summarize(graph):
    s = summarize(graph, top=2)
    assert s["nodes"]["paper"] == 6 and s["nodes"]["author"] == 6
    assert s["edges"]["authored"] == 12 and s["edges"]["cites"] == 4
    assert s["top_methods"] == [("Diffusion", 3), ("GraphSAGE", 3)]
    assert s["top_authors"][0][1] == 2
    assert s["top_cited"][0][0] == "Title a1"
    assert len(s["communities"]) == 2 and s["communities"][0]["size"] >= s["communities"][1]["size"]
