"""The graph of the real seed listings (ingest + merge, then extraction end to end)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.graph import build_graph
from kg.ingest import ingest
from kg.related import related_authors
from kg.search import build_search_index, search


@pytest.fixture(scope="module")
def records(seeds_dir: Path):
    return ingest(sorted(seeds_dir.glob("*.txt"))).records


@pytest.fixture(scope="module")
def G(records):
    return build_graph(records)


@pytest.fixture(scope="module")
def extracted(records):
    from extractors.pipeline import extract_records

    return extract_records(records)


def papers_of(G, author_key):
    return {v for _, v, k in G.out_edges(author_key, keys=True) if k == "authored"}


def test_duplicates_of_004_are_single_nodes(G, records):
    assert sum(1 for _, t in G.nodes(data="type") if t == "paper") == 47
    both = [r for r in records if {Path(s.file).name[:3] for s in r.sources} >= {"000", "004"}]
    assert len(both) == 13
    for r in both:
        node = G.nodes[f"paper:{r.id}"]
        assert node["authors"], r.id  # authors kept from 000_*.txt
        assert G.in_degree(f"paper:{r.id}") == len(node["authors"])


def test_renzhe_xu_two_papers(G):
    a = G.nodes["author:renzhe-xu"]
    assert a["name"] == "Renzhe Xu" and a["n_papers"] == 2
    assert len(papers_of(G, "author:renzhe-xu")) == 2


def test_julia_kempe_three_papers(G):
    assert G.nodes["author:julia-kempe"]["n_papers"] == 3
    assert len(papers_of(G, "author:julia-kempe")) == 3


def test_truncated_author_lists_marked(G, records):
    truncated = [r for r in records if r.authors_truncated]
    assert truncated
    for r in truncated:
        assert G.nodes[f"paper:{r.id}"]["authors_truncated"] is True
        authors = [u for u, _, k in G.in_edges(f"paper:{r.id}", keys=True) if k == "authored"]
        assert authors and all(G.nodes[a]["truncated"] is True for a in authors)


def test_papers_without_authors_are_nodes(G, records):
    no_authors = [r for r in records if not r.authors]
    assert no_authors
    for r in no_authors:
        assert G.nodes[f"paper:{r.id}"]["authors"] == []


def _proposed(G, paper):
    out = set()
    for _, v, k in G.out_edges(paper, keys=True):
        if k == "proposes":
            out |= {G.nodes[v]["name"], *G.nodes[v]["aliases"]}
    return out


def test_renzhe_xu_coauthors_spn_and_zovh_papers(extracted):
    G = build_graph(extracted)
    proposed = set()
    for p in papers_of(G, "author:renzhe-xu"):
        proposed |= _proposed(G, p)
    assert "ZoVH" in proposed
    assert "SPN" in proposed or "Strategic Prior-data Fitted Network" in proposed
    # Evidence of a proposes edge points into the processed text.
    for p in papers_of(G, "author:renzhe-xu"):
        for _, v, k, d in G.out_edges(p, keys=True, data=True):
            if k == "proposes":
                assert d["evidence"] and all(m["end"] > m["start"] for m in d["evidence"])


def test_seed_search_and_related(extracted, tmp_path):
    G = build_graph(extracted)
    path = tmp_path / "search.sqlite"
    assert build_search_index(G, path) == 47
    hits = search(path, "", author="renzhe xu")
    assert {h.key for h in hits.papers} == papers_of(G, "author:renzhe-xu")
    assert [h.label for h in search(path, "kempe").names] == ["Julia Kempe"]
    related = related_authors(G, "Renzhe Xu", top=5)
    assert related and all(r.reasons for r in related)
    assert related[0].reasons[0].startswith("already co-authors")
