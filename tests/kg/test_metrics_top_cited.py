"""``kg stats``' "Most cited" lists papers that are cited. Found by QA: a paper that only cites
others (on the seeds plus one OpenAlex page, "A Study of Model Collapse...", cited by none) was
listed second, since PageRank gives every node of a citation some rank."""

from __future__ import annotations

from kg.graph import build_graph
from kg.metrics import add_metrics, summarize
from kg.records import Record


def test_a_paper_cited_by_none_is_not_most_cited() -> None:
    G = build_graph([
        Record("a", "Citing Only", None, ("Ann Lee",), references=("b", "W9")),
        Record("b", "Cited Once", None, ("Bo Chen",)),
        Record("c", "Cites B Too", None, ("Cy Dee",), references=("b",)),
    ])
    add_metrics(G)
    assert G.nodes["paper:a"].get("pagerank")  # it has a rank...
    assert summarize(G)["top_cited"] == [("Cited Once", G.nodes["paper:b"]["pagerank"])]  # ...but no citation


def test_no_citations_no_rows() -> None:
    G = build_graph([Record("a", "Alone", None, ("Ann Lee",))])
    add_metrics(G)
    assert summarize(G)["top_cited"] == []
