"""kg.related: related authors and papers, reasons in words, exclusions, NotFoundError."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kg.errors import NotFoundError
from kg.graph import build_graph
from kg.records import Category, Entity, Record
from kg.related import (
    AUTHOR_WEIGHTS,
    SIGNALS,
    _index,
    author_scores,
    author_signals,
    coauthor_distances,
    combine,
    find_author,
    related_authors,
    related_papers,
)
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
    assert res["Yao Shu"].reasons[0] == "already co-authors on 1 paper"


def test_existing_coauthor_said_once_without_the_pair_itself():
    # Ann and Bo wrote p1 with Cy: Cy is not a *shared* co-author, only a co-author of their joint paper.
    G = build_graph([rec("p1", "Ann Lee", "Bo Chen", "Cy Dunn"), rec("p2", "Ann Lee", "Bo Chen"),
                     rec("p3", "Ann Lee", "Di Fox"), rec("p4", "Bo Chen", "Di Fox")])
    res = by_label(related_authors(G, "Ann Lee"))
    assert res["Bo Chen"].reasons == ("already co-authors on 2 papers", "shares co-author Di Fox")
    assert res["Cy Dunn"].reasons == ("already co-authors on 1 paper",)
    assert sum("co-author" in r for r in res["Bo Chen"].reasons) == 2
    assert not any(r.startswith("shares") for r in res["Cy Dunn"].reasons)


def test_topic_only_candidate_with_citation_and_category(G):
    pat = by_label(related_authors(G, "Renzhe Xu"))["Pat Kim"]
    assert pat.hops is None
    assert pat.reasons == ("both work on strategic classification and tabular foundation models",
                           "both publish in Game Theory", "1 citation between their papers",
                           "not connected by co-authorship within 3 hops")
    # Topic, category and citation: without co-author proximity the score is their sum alone.
    w = AUTHOR_WEIGHTS
    expected = (w["topics"] * math.log1p(pat.components["topics"])
                + w["categories"] * pat.components["categories"] + w["citations"] * math.log(2)
                + w["prior"] * math.log(2))
    assert pat.score == pytest.approx(expected)
    assert pat.components["topics"] > 0 and pat.components["citations"] == 1


def test_three_hops(G):
    mara = by_label(related_authors(G, "Renzhe Xu", top=50))["Mara Diaz"]
    assert mara.hops == 3 and mara.why == "linked through Yao Shu and Lin Zhou; 3 hops"
    assert mara.components["p3"] == pytest.approx(1 / (3 * 2))
    assert mara.components["n3"] == 1 and mara.components["paths2"] == 0


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
    with pytest.raises(NotFoundError, match="no close matches"):
        related_authors(G, "Qwxyz Zzzz")


def test_a_part_of_a_name_that_fits_one_author_is_that_author(G):
    # Found by QA: `kg related OUT kempe` was refused while `kg view --author kempe` took it
    assert find_author(G, "Shu") == find_author(G, "yao") == "author:yao-shu"
    assert find_author(G, "NUNEZ") == "author:jose-nunez"
    assert related_authors(G, "shu") == related_authors(G, "Yao Shu")
    with pytest.raises(NotFoundError) as e:
        related_authors(G, "filler")
    assert str(e.value) == ("'filler' fits several authors: Filler Persona, Filler Personb, Filler Personc, "
                            "Filler Persond, Filler Persone, Filler Personf, Filler Persong, Filler Personh "
                            "(and 12 more); give more of the name")
    with pytest.raises(NotFoundError, match="close matches: Renzhe Xu"):
        find_author(G, "Renzhe Xuu Yao")  # not every word fits one name: close matches as before


def test_author_scores_over_candidates(G):
    cands = ["author:lin-zhou", "author:filler-persona"]
    s = author_scores(G, "author:renzhe-xu", candidates=cands)
    assert set(s) == set(cands)
    assert s["author:lin-zhou"] > s["author:filler-persona"]
    no_prior = author_scores(G, "author:renzhe-xu", candidates=cands, weights={"prior": 0.0})
    assert s["author:filler-persona"] - no_prior["author:filler-persona"] == pytest.approx(0.5 * math.log(2))
    assert no_prior["author:filler-persona"] == 0.0  # no signal: nothing relates them
    # Without candidates: only authors related by some signal, never the author itself.
    related = author_scores(G, "author:renzhe-xu")
    assert "author:lin-zhou" in related and "author:filler-persona" not in related
    assert "author:renzhe-xu" not in related


def test_paths2_counts_pairs_of_joint_papers():
    # Ann -(2 papers)- Zed -(3 papers)- Cat; Ann -(1)- Yu -(1)- Cat: 2*3 + 1*1 = 7 pairs of papers.
    recs = [rec("a1", "Ann Lee", "Zed Ray"), rec("a2", "Ann Lee", "Zed Ray"), rec("z1", "Zed Ray", "Cat Orr"),
            rec("z2", "Zed Ray", "Cat Orr"), rec("z3", "Zed Ray", "Cat Orr"), rec("y1", "Ann Lee", "Yu Han"),
            rec("y2", "Yu Han", "Cat Orr"), rec("y3", "Yu Han", "Dan Ives")]
    G = build_graph(recs)
    idx = _index(G)
    sig = author_signals(G, "author:ann-lee")
    assert set(sig) == set(SIGNALS)
    cat, dan = idx.pos["author:cat-orr"], idx.pos["author:dan-ives"]
    assert sig["paths2"][cat] == 7 and sig["cn"][cat] == 2 and sig["paths2"][dan] == 1
    assert sig["aa"][cat] == pytest.approx(1 / math.log(2) + 1 / math.log(3))  # Zed has 2 co-authors, Yu 3
    score = combine(sig, idx.n_papers)
    assert score[cat] == pytest.approx(math.log(1 + 7 / 0.01) + 0.5 * math.log(1 + 4))
    assert score[cat] > score[dan]


def test_term_reasons_name_word_pairs_and_the_close_coauthor():
    def titled(rid, title, *authors):
        return Record(rid, title, None, tuple(authors), False, None, 2024)

    recs = [titled("p1", "Hypergraph clustering with spectral cuts", "Ann Lee", "Bo Chen"),
            titled("p2", "Spectral cuts for hypergraph clustering at scale", "Cat Orr"),
            titled("p3", "Optimal transport barycenters", "Dan Ives"),
            # a shared web address weighs in the score but is no reason in words
            titled("u1", "Sources at https github", "Ann Lee"), titled("u2", "Tools at https github", "Cat Orr")]
    recs += [titled(f"f{i}", f"Filler topic{i} words{i}", f"Filler Person{chr(97 + i)}") for i in range(30)]
    G = build_graph(recs)
    cat = by_label(related_authors(G, "Ann Lee"))["Cat Orr"]
    assert cat.components["terms"] > 0.3 and cat.components["nbmax"] > 0.3
    assert cat.reasons == ("both write about hypergraph clustering and spectral cuts",
                           "close in topic to co-author Bo Chen",
                           "not connected by co-authorship within 3 hops")
    assert "Dan Ives" not in by_label(related_authors(G, "Ann Lee", top=50))


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


def test_paper_count_is_a_reason_only_for_the_most_prolific():
    # Eve has 4 papers, more than 90% of the 40 authors; Bo's 2 papers set him apart from no one.
    recs = [rec(f"e{i}", "Eve Park", concepts=["strategic classification"]) for i in range(4)]
    recs += [rec("a1", "Ann Lee", concepts=["strategic classification"]),
             rec("b1", "Bo Chen", concepts=["strategic classification"]), rec("b2", "Bo Chen")]
    recs += [rec(f"f{i}", f"Filler Person{chr(97 + i // 26)}{chr(97 + i % 26)}") for i in range(37)]
    G = build_graph(recs, max_df=0.2)
    res = by_label(related_authors(G, "Ann Lee", top=5))
    assert "prolific: 4 papers (top 3% of authors)" in res["Eve Park"].reasons
    assert not any(r.startswith("prolific") for r in res["Bo Chen"].reasons)


def test_topic_words_are_phrases_both_authors_write():
    # "Generative Flow Networks (GFlowNets)" gives the pairs "generative flow", "flow networks" and,
    # across the parenthesis, "networks gflownets"; the reason names the phrase once, as written.
    def paper(rid, abstract, author):
        return Record(rid, None, abstract, (author,), False, None, 2024)

    recs = [paper("p1", "Generative Flow Networks (GFlowNets) sample molecules, which becomes increasingly "
                        "useful.", "Ann Lee"),
            paper("p2", "We train Generative Flow Networks (GFlowNets) on graphs, which becomes increasingly "
                        "common.", "Cat Orr")]
    recs += [paper(f"f{i}", f"Filler topic{chr(97 + i)} words{chr(97 + i)}", f"Filler Person{chr(97 + i)}")
             for i in range(30)]
    G = build_graph(recs)
    cat = by_label(related_authors(G, "Ann Lee"))["Cat Orr"]
    about = [r for r in cat.reasons if r.startswith("both write about")]
    assert about == ["both write about generative flow networks"], cat.reasons


def test_shared_items_inside_a_longer_one_are_not_repeated():
    recs = [rec("p1", "Ann Lee", concepts=["latent variable models", "variable models", "graphical models"]),
            rec("p2", "Cat Orr", concepts=["latent variable models", "variable models", "graphical models"])]
    recs += [rec(f"f{i}", f"Filler Person{chr(97 + i)}") for i in range(20)]
    recs += [rec("g1", "Gus Hale", concepts=["latent variable models", "variable models", "graphical models"])]
    G = build_graph(recs, max_df=0.2)
    cat = by_label(related_authors(G, "Ann Lee"))["Cat Orr"]
    (work,) = [r for r in cat.reasons if r.startswith("both work on")]
    assert "latent variable model" in work and "graphical model" in work
    assert "and variable model" not in work and ", variable model" not in work


def test_scores_are_never_negative_and_keep_their_order(G):
    # Found by QA: every candidate without a co-author path scored about -4 (log(eps))
    idx = _index(G)
    for a in idx.authors:
        sig = author_signals(G, a)
        shifted = combine(sig, idx.n_papers)
        assert shifted.min() >= 0
        w = AUTHOR_WEIGHTS
        old = shifted + math.log(w["eps"])  # the former score: the same order for every query
        assert list(np.argsort(-shifted, kind="stable")) == list(np.argsort(-old, kind="stable"))
    nothing = {k: np.zeros(1) for k in SIGNALS}
    assert combine(nothing, np.zeros(1))[0] == 0.0  # no signal at all: 0
