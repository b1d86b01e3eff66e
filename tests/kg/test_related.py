"""kg.related: related authors and papers, reasons in words, exclusions, NotFoundError."""

from __future__ import annotations

import math

import pytest

from kg.errors import NotFoundError
from kg.graph import build_graph
from kg.records import Category, Entity, Record
from kg.related import AUTHOR_WEIGHTS, author_scores, coauthor_distances, find_author, related_authors, related_papers
from kg.schema import EntityType


def rec(rid, *authors, concepts=(), category=None, references=()):
    return Record(rid, f"Paper {rid}", None, tuple(authors), False, category, 2024,
                  references=tuple(references),
                  entities=tuple(Entity(EntityType.CONCEPT, c, None) for c in concepts))


@pytest.fixture()
def G():
    records = [
        rec("p1", "Renzhe Xu", "Yao Shu", concepts=["strategic classification"],
            category=Category("Theory", "Game Theory")),
        rec("p2", "Yao Shu", "Lin Zhou", concepts=["tabular foundation models"]),
        rec("p3", "Lin Zhou", "Mara Diaz"),
        rec("p4", "Pat Kim", concepts=["strategic classification", "tabular foundation models"],
            category=Category("Theory", "Game Theory"), references=["p1"]),
        rec("p5", "Renzhe Xu", concepts=["tabular foundation models"]),
        rec("p6", "José Núñez", "Yao Shu"),
    ]
    # Filler papers make the two concepts rare (IDF well above zero).
    records += [rec(f"f{i}", f"Filler Person{chr(97 + i)}") for i in range(20)]
    return build_graph(records, max_df=0.2)


def by_label(results):
    return {r.label: r for r in results}


def test_two_hop_reason_names_common_coauthor(G):
    res = by_label(related_authors(G, "Renzhe Xu"))
    lin = res["Lin Zhou"]
    assert lin.hops == 2
    assert lin.why == "shares co-author Yao Shu; both work on tabular foundation models; 2 hops"
    assert res["Yao Shu"].reasons[0] == "already co-authors (1 joint paper)"


def test_topic_only_candidate_with_citation_and_category(G):
    pat = by_label(related_authors(G, "Renzhe Xu"))["Pat Kim"]
    assert pat.hops is None
    assert pat.reasons == ("both work on strategic classification and tabular foundation models",
                           "both publish in Game Theory", "1 citation between their papers",
                           "not connected by co-authorship within 3 hops")
    assert pat.components["topics"] > 0 and pat.components["citations"] == 1


def test_three_hops(G):
    mara = by_label(related_authors(G, "Renzhe Xu", top=50))["Mara Diaz"]
    assert mara.hops == 3 and mara.why.endswith("3 hops")
    assert mara.components["p3"] == pytest.approx(1 / (3 * 2))


def test_scores_sorted_and_top(G):
    res = related_authors(G, "Renzhe Xu", top=3)
    assert len(res) == 3
    assert [r.score for r in res] == sorted((r.score for r in res), reverse=True)


def test_exclude_coauthors_and_within(G):
    labels = {r.label for r in related_authors(G, "Renzhe Xu", top=50, exclude_coauthors=True)}
    assert "Yao Shu" not in labels and "Lin Zhou" in labels
    labels = {r.label for r in related_authors(G, "Renzhe Xu", top=50, exclude_within=2)}
    assert labels.isdisjoint({"Yao Shu", "Lin Zhou", "José Núñez"}) and "Pat Kim" in labels


def test_accent_insensitive_lookup(G):
    assert find_author(G, "jose nunez") == "author:jose-nunez"
    assert find_author(G, "JOSÉ NÚÑEZ") == "author:jose-nunez"
    assert related_authors(G, "Jose Nunez")[0].label == "Yao Shu"


def test_unknown_author_lists_close_matches(G):
    with pytest.raises(NotFoundError) as e:
        related_authors(G, "Renzhe Xuu")
    assert str(e.value) == "no author named 'Renzhe Xuu' in the graph; close matches: Renzhe Xu"
    with pytest.raises(NotFoundError, match="close matches: Yao Shu"):
        related_authors(G, "Shu")
    with pytest.raises(NotFoundError, match="no close matches"):
        related_authors(G, "Qwxyz Zzzz")


def test_author_scores_over_candidates(G):
    cands = ["author:lin-zhou", "author:filler-persona"]
    s = author_scores(G, "author:renzhe-xu", candidates=cands)
    assert set(s) == set(cands)
    assert s["author:lin-zhou"] > s["author:filler-persona"] == 0.0  # no signal, no activity prior
    s = author_scores(G, "author:renzhe-xu", candidates=cands, weights={**AUTHOR_WEIGHTS, "prior": 0.5})
    assert s["author:filler-persona"] == pytest.approx(0.5 * math.log(2))


def test_coauthor_distances(G):
    d = coauthor_distances(G, "author:renzhe-xu")
    assert d["author:yao-shu"] == 1 and d["author:lin-zhou"] == 2 and d["author:mara-diaz"] == 3
    assert "author:pat-kim" not in d


def test_author_without_anything_related():
    G = build_graph([rec("a", "Solo Writer")])
    assert related_authors(G, "Solo Writer") == []


def test_related_papers_reasons(G):
    res = by_label(related_papers(G, "p1"))
    assert res["Paper p4"].reasons == ("both on strategic classification", "cites this paper",
                                       "same category Game Theory")
    assert res["Paper p2"].reasons[0] == "shares author Yao Shu"
    assert res["Paper p5"].why == "shares author Renzhe Xu"
    assert related_papers(G, "paper:p1")[0].key == related_papers(G, "Paper p1")[0].key


def test_unknown_paper(G):
    with pytest.raises(NotFoundError, match=r"no paper with id or title 'Paper p99'.*close matches"):
        related_papers(G, "Paper p99")
