"""Unit tests of kg.graph.build_graph on hand-built records (every node and edge type)."""

from __future__ import annotations

import math

import networkx as nx
import pytest

from kg import PIPELINE_VERSION
from kg.authors import AuthorIndex
from kg.graph import build_graph, coauthor_pairs, resolve_citation
from kg.records import Category, Citation, Entity, Mention, Record
from kg.schema import SCHEMA_VERSION, EntityType, Role


def ent(type_: str, name: str, role: str | None = "used", *aliases: str, start: int = 0) -> Entity:
    m = Mention(start, start + len(name), name, "test_rule")
    return Entity(EntityType(type_), name, Role(role) if role else None, tuple(aliases), (m,))


def rec(rid: str, *authors: str, title: str | None = "T", abstract: str | None = None,
        entities=(), year: int | None = 2024, category: Category | None = None,
        references=(), citations=(), truncated: bool = False, ids=None) -> Record:
    return Record(rid, title, abstract, tuple(authors), truncated, category, year, None, None,
                  tuple(references), (), (), ids or {}, tuple(entities), tuple(citations))


@pytest.fixture()
def corpus() -> list[Record]:
    return [
        rec("p1", "Renzhe Xu", "Yao Shu", "Ann Lee", title="Strategic classification with SPN",
            entities=[ent("method", "SPN", "proposed", "Strategic Prior-data Fitted Network"),
                      ent("concept", "strategic classification", None),
                      ent("benchmark", "CIFAR-10", "used", start=10)],
            category=Category("Theory", "Game Theory"), year=2024),
        rec("p2", "Renzhe Xu", "Bo Chen", title="ZoVH",
            entities=[ent("method", "ZoVH", "proposed"), ent("concept", "strategic classification", None),
                      ent("benchmark", "RoleBench", "proposed")],
            category=Category("Theory", "Learning Theory"), year=2025,
            references=["p1", "doi:10.1/external"]),
        rec("p3", title=None, abstract="An abstract without authors about strategic classification.",
            entities=[ent("concept", "strategic classification", None), ent("benchmark", "CIFAR-10")],
            category=Category("Theory"), year=2023),
        rec("p4", "Bo Chen", "Émile Dürr", title="Only a title", year=2023,
            citations=[Citation(("Xu",), 2024, 5, 20, "(Xu et al., 2024)")]),
    ]


def test_graph_metadata(corpus):
    G = build_graph(corpus, top_k=3)
    assert G.graph["schema_version"] == SCHEMA_VERSION
    assert G.graph["pipeline_version"] == PIPELINE_VERSION
    assert G.graph["options"]["top_k"] == 3
    assert isinstance(G, nx.MultiDiGraph)


def test_paper_nodes(corpus):
    G = build_graph(corpus)
    p1 = G.nodes["paper:p1"]
    assert p1["type"] == "paper" and p1["record_id"] == "p1"
    assert p1["authors"] == ["Renzhe Xu", "Yao Shu", "Ann Lee"]
    assert p1["category"] == "Theory · Game Theory"
    assert p1["n_entities"] == 3 and p1["year"] == 2024
    p3 = G.nodes["paper:p3"]
    assert p3["title"] is None and p3["label"].startswith("An abstract without")
    assert p3["authors"] == []


def test_authors_and_authored(corpus):
    G = build_graph(corpus)
    a = G.nodes["author:renzhe-xu"]
    assert a["type"] == "author" and a["name"] == "Renzhe Xu" and a["n_papers"] == 2
    assert a["truncated"] is False
    assert G.edges["author:yao-shu", "paper:p1", "authored"]["position"] == 1
    assert {v for _, v, k in G.out_edges("author:renzhe-xu", keys=True) if k == "authored"} == {"paper:p1", "paper:p2"}


def test_author_index_resolves_spellings():
    records = [rec("a", "Emmanuel J. Candès"), rec("b", "Emmanuel J Candes", "Bo Chen")]
    G = build_graph(records)
    node = G.nodes["author:emmanuel-j-candes"]
    assert node["label"] == "Emmanuel J. Candès" and node["aliases"] == ["Emmanuel J Candes"]
    assert node["n_papers"] == 2
    assert G.nodes["paper:b"]["authors"] == ["Emmanuel J. Candès", "Bo Chen"]


def test_given_author_index_is_used():
    idx = AuthorIndex.from_names(["Ann Lee", "A. Lee"])
    idx.merge(idx.resolve("Ann Lee"), idx.resolve("A. Lee"))
    G = build_graph([rec("a", "A. Lee"), rec("b", "Ann Lee")], authors=idx)
    assert G.nodes["author:ann-lee"]["n_papers"] == 2
    assert "author:a-lee" not in G


def test_entity_edges_by_role_with_evidence(corpus):
    G = build_graph(corpus)
    e = G.edges["paper:p1", "method:spn", "proposes"]
    assert e["evidence"] == [{"start": 0, "end": 3, "text": "SPN", "rule": "test_rule"}]
    assert G.nodes["method:spn"]["aliases"] == ["Strategic Prior-data Fitted Network"]
    assert G.has_edge("paper:p1", "benchmark:cifar-10", "evaluates_on")
    assert G.has_edge("paper:p2", "benchmark:rolebench", "introduces")
    assert G.has_edge("paper:p2", "concept:strategic-classification", "about")
    assert G.nodes["concept:strategic-classification"]["n_papers"] == 3
    assert G.nodes["benchmark:cifar-10"]["type"] == "benchmark"


def test_method_used_edge():
    G = build_graph([rec("a", "X Y", entities=[ent("method", "beam search", "used")])])
    assert G.has_edge("paper:a", "method:beam-search", "uses")


def test_paper_without_authors_keeps_entity_edges(corpus):
    G = build_graph(corpus)
    assert G.in_degree("paper:p3") == 0
    assert G.has_edge("paper:p3", "concept:strategic-classification", "about")
    assert G.has_edge("paper:p3", "category:theory", "in_category")


def test_categories(corpus):
    G = build_graph(corpus)
    sub = G.nodes["category:theory/game-theory"]
    assert sub["level"] == "subarea" and sub["area"] == "Theory" and sub["name"] == "Game Theory"
    assert G.nodes["category:theory"]["level"] == "area"
    assert G.has_edge("category:theory/game-theory", "category:theory", "broader")
    assert G.has_edge("paper:p1", "category:theory/game-theory", "in_category")
    assert G.number_of_edges("category:theory/learning-theory", "category:theory") == 1


def test_references_to_corpus_and_external_work(corpus):
    G = build_graph(corpus)
    e = G.edges["paper:p2", "paper:p1", "cites"]
    assert e["source"] == "references" and e["confidence"] == 1.0
    assert G.nodes["work:doi:10.1/external"] == {"type": "work", "label": "doi:10.1/external",
                                                  "work_id": "doi:10.1/external"}
    assert G.has_edge("paper:p2", "work:doi:10.1/external", "cites")


def test_reference_by_external_id():
    a = rec("doi:10.5/a", "X Y", ids={"doi": "10.5/a", "arxiv": "2101.00001"})
    b = rec("h:b", "Z W", references=["arxiv:2101.00001", "W999"])
    G = build_graph([a, b])
    assert G.has_edge("paper:h:b", "paper:doi:10.5/a", "cites")
    assert G.nodes["work:W999"]["type"] == "work"


def test_in_text_citation_resolved(corpus):
    G = build_graph(corpus)
    e = G.edges["paper:p4", "paper:p1", "cites"]
    assert e["source"] == "in_text" and e["confidence"] == pytest.approx(0.7)
    assert e["evidence"] == [{"start": 5, "end": 20, "text": "(Xu et al., 2024)", "rule": "in_text_citation",
                              "field": "abstract"}]


def test_in_text_citation_ambiguous_not_linked():
    records = [rec("a", "Renzhe Xu", year=2024), rec("b", "Kai Xu", year=2024),
               rec("c", "Bo Chen", citations=[Citation(("Xu",), 2024, 0, 10, "Xu et al. (2024)")])]
    G = build_graph(records)
    assert not any(k == "cites" for _, _, k in G.edges(keys=True))


def test_in_text_citation_more_surnames_disambiguate():
    records = [rec("a", "Renzhe Xu", "Yao Shu", year=2024), rec("b", "Kai Xu", year=2024),
               rec("c", "Bo Chen", citations=[Citation(("Xu", "Shu"), 2024, 0, 10, "Xu and Shu (2024)")])]
    G = build_graph(records)
    assert G.edges["paper:c", "paper:a", "cites"]["confidence"] == pytest.approx(0.9)


def test_resolve_citation_compound_and_accented_surname():
    cands = {("schaar", 2020): [("paper:x", ["mihaela van der schaar"])],
             ("dutting", 2025): [("paper:y", ["paul dutting", "ann lee"])]}
    assert resolve_citation(("van der Schaar",), 2020, cands) == ("paper:x", 0.7)
    assert resolve_citation(("Dütting", "Lee"), 2025, cands) == ("paper:y", 0.9)
    assert resolve_citation(("Dütting", "Other"), 2025, cands) is None
    assert resolve_citation(("Dütting",), None, cands) is None
    assert resolve_citation(("Dütting",), 2024, cands) is None


def test_no_self_citation():
    r = rec("a", "Renzhe Xu", year=2024, references=["a"],
            citations=[Citation(("Xu",), 2024, 0, 5, "Xu (2024)")])
    G = build_graph([r])
    assert not G.has_edge("paper:a", "paper:a")


def test_coauthor_edges(corpus):
    G = build_graph(corpus + [rec("p5", "Yao Shu", "Renzhe Xu")])
    e = G.edges["author:renzhe-xu", "author:yao-shu", "coauthor"]
    assert e["weight"] == 2 and e["papers"] == ["paper:p1", "paper:p5"] and e["undirected"] is True
    assert not G.has_edge("author:yao-shu", "author:renzhe-xu", "coauthor")
    for u, v, k in G.edges(keys=True):
        if k in ("coauthor", "shares"):
            assert u < v


def test_one_author_paper_has_no_coauthor_edges():
    G = build_graph([rec("a", "Solo Writer")])
    assert G.number_of_edges() == 1


def test_truncated_author_list_marked():
    G = build_graph([rec("a", "Ann Lee", "Bo Chen", truncated=True), rec("b", "Ann Lee", "Cy Dee")])
    assert G.nodes["author:ann-lee"]["truncated"] is True
    assert G.nodes["author:cy-dee"]["truncated"] is False
    assert G.nodes["paper:a"]["authors_truncated"] is True
    assert G.edges["author:ann-lee", "author:bo-chen", "coauthor"]["truncated"] is True
    assert "truncated" not in G.edges["author:ann-lee", "author:cy-dee", "coauthor"]


def test_300_author_paper_is_capped():
    letters = "abcdefghijklmnopqrst"
    names = [f"Author {letters[i // 20].upper()}{letters[i % 20]}x{letters[i // 20 % 15]}" for i in range(300)]
    assert len({n.lower() for n in names}) == 300
    G = build_graph([rec("big", *names), rec("small", names[5], names[7])], coauthor_cap=50)
    co = [(u, v, d) for u, v, k, d in G.edges(keys=True, data=True) if k == "coauthor"]
    assert len(co) == 2 * 300 - 3 + 1  # first/last spokes plus the small paper's pair
    assert G.nodes["paper:big"]["coauthors_capped"] is True
    first, last = (G.nodes["paper:big"]["authors"][i] for i in (0, -1))
    first, last = "author:" + first.lower().replace(" ", "-"), "author:" + last.lower().replace(" ", "-")
    assert G.edges[first, last, "coauthor"]["capped_papers"] == ["paper:big"]
    assert sum(1 for _, _, k in G.edges(keys=True) if k == "authored") == 302
    u, v = sorted("author:" + names[i].lower().replace(" ", "-") for i in (5, 7))
    small = G.edges[u, v, "coauthor"]
    assert small["weight"] == 1 and "capped_papers" not in small


def test_coauthor_pairs_below_cap_is_clique():
    assert len(coauthor_pairs(list("abcdef"), 6)) == 15
    assert coauthor_pairs(["a"], 6) == []


def test_duplicate_author_in_one_paper_counts_once():
    G = build_graph([rec("a", "Ann Lee", "Ann Lee", "Bo Chen")])
    assert G.nodes["author:ann-lee"]["n_papers"] == 1
    assert not G.has_edge("author:ann-lee", "author:ann-lee")


def _corpus_for_shares(n_filler: int = 40) -> list[Record]:
    records = [
        rec("a", "Ann Lee", entities=[ent("concept", "hypergraph clustering"), ent("concept", "large language models"),
                                      ent("method", "Transformer")]),
        rec("b", "Bo Chen", entities=[ent("concept", "hypergraph clustering"), ent("concept", "large language models")]),
        rec("c", "Cy Dee", entities=[ent("concept", "large language models"), ent("method", "Transformer")]),
    ]
    for i in range(n_filler):
        ents = [ent("concept", "large language models")] if i < 10 else []
        records.append(rec(f"f{i}", f"Filler Person{i}", entities=ents))
    return records


def test_shares_edges_weighted_by_rarity():
    G = build_graph(_corpus_for_shares(), top_k=5, min_weight=0.0, max_df=0.35)
    e = G.edges["paper:a", "paper:b", "shares"]
    n = 43
    assert e["undirected"] is True
    assert e["weight"] == pytest.approx(math.log(n / 2) + math.log(n / 13), abs=1e-3)
    assert [s["name"] for s in e["shared"]] == ["hypergraph clustering", "large language models"]
    assert e["shared"][0] == {"type": "concept", "name": "hypergraph clustering", "weight": round(math.log(n / 2), 4)}
    # Author–author aggregated over their papers.
    assert G.edges["author:ann-lee", "author:bo-chen", "shares"]["weight"] == pytest.approx(e["weight"], abs=1e-3)


def test_shares_skip_items_above_max_df():
    G = build_graph(_corpus_for_shares(), top_k=5, min_weight=0.0, max_df=0.1)
    e = G.edges["paper:a", "paper:b", "shares"]
    assert [s["name"] for s in e["shared"]] == ["hypergraph clustering"]
    # "large language models" (13 of 43 papers) is above 10%: filler papers get no edges at all.
    assert not any(k == "shares" and u.startswith("paper:f") for u, _, k in G.edges(keys=True))


def test_shares_min_weight_and_top_k():
    G = build_graph(_corpus_for_shares(), top_k=5, min_weight=4.0, max_df=0.5)
    shares = {(u, v) for u, v, k in G.edges(keys=True) if k == "shares" and u.startswith("paper:")}
    assert shares == {("paper:a", "paper:b"), ("paper:a", "paper:c")}
    G1 = build_graph(_corpus_for_shares(), top_k=1, min_weight=0.0, max_df=0.5)
    pp = [(u, v) for u, v, k in G1.edges(keys=True) if k == "shares" and u.startswith("paper:")]
    # Each of the 13 papers with entities keeps one partner (a node may be chosen by others).
    assert 0 < len(pp) <= 13
    assert G1.has_edge("paper:a", "paper:b", "shares")
    G5 = build_graph(_corpus_for_shares(), top_k=5, min_weight=0.0, max_df=0.5)
    assert sum(1 for u, _, k in G5.edges(keys=True) if k == "shares" and u.startswith("paper:")) > len(pp)
    G0 = build_graph(_corpus_for_shares(), top_k=0)
    assert not any(k == "shares" for _, _, k in G0.edges(keys=True))


def test_finder_cap_keeps_full_weight():
    from kg.graph import top_shared

    items = {"a": ["rare", "common"], "b": ["rare", "common"], "c": ["common"], "d": ["common"]}
    idf = {"rare": 2.0, "common": 0.5}
    # "common" (4 holders) is above the finder cap: it finds no partners, but counts in a-b.
    assert top_shared(items, idf, top_k=5, min_weight=0.0, max_postings=3) == {("a", "b"): 2.5}
    assert len(top_shared(items, idf, top_k=5, min_weight=0.0, max_postings=4)) == 6


def test_shares_deterministic():
    a = build_graph(_corpus_for_shares(), top_k=2, min_weight=0.0, max_df=0.5)
    b = build_graph(_corpus_for_shares(), top_k=2, min_weight=0.0, max_df=0.5)
    ea = sorted((u, v, k) for u, v, k in a.edges(keys=True))
    assert ea == sorted((u, v, k) for u, v, k in b.edges(keys=True))


def test_author_named_like_a_method():
    G = build_graph([rec("a", "Adam Smith", entities=[ent("method", "Adam")])])
    assert G.nodes["author:adam-smith"]["type"] == "author"
    assert G.nodes["method:adam"]["type"] == "method"


def test_title_only_and_empty_records():
    G = build_graph([rec("a", title="Only title"), rec("b", title=None)])
    assert G.nodes["paper:a"]["label"] == "Only title"
    assert G.nodes["paper:b"]["label"] == "b"
    assert build_graph([]).number_of_nodes() == 0
