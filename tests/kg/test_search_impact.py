"""Impact lists give the exact BM25 ranking: same papers and scores as FTS5 and as the formula."""

from __future__ import annotations

import math
import random
import re
import sqlite3

import pytest

from kg.graph import build_graph
from kg.records import Category, Entity, Record
from kg.schema import EntityType, Role
from kg.search import BM25_WEIGHTS, build_search_index, search

# Word frequencies from "in every paper" to "in one": some words are in more than half of the
# papers (FTS5 then clamps their IDF to 1e-6), some get impact lists, some stay rare.
VOCAB = ["learning", "model", "neural", "network", "graph", "data", "robust", "sparse", "kernel", "bandit",
         "causal", "spectral", "hypergraph", "zyzzyva"]
FREQ = [0.9, 0.6, 0.45, 0.4, 0.3, 0.25, 0.15, 0.1, 0.08, 0.05, 0.04, 0.03, 0.02, 0.0]
QUERIES = ["learning", "model", "neural network", "network neural", "learning learning", "graph data",
           "learning model neural network graph", "bandit", "sparse kernel", "learning bandit", "neural spectral",
           "hypergraph learning", "learning zyzzyva", "model hypergraph zyzzyva", "zyzzyva", "the", "causal robust",
           "learning bandit learning model", "network network network sparse", "spectral spectral"]
N = 300


def _text(rng: random.Random, n_words: int) -> str:
    words = [w for w, f in zip(VOCAB, FREQ) if rng.random() < f]
    words += [f"filler{rng.randrange(400)}" for _ in range(n_words)]
    words += rng.choices(words, k=rng.randrange(3)) if words else []
    rng.shuffle(words)
    return " ".join(words)


def corpus(*, with_names: bool) -> list[Record]:
    rng = random.Random(7)
    out = []
    for i in range(N):
        title = _text(rng, rng.randrange(2, 8)) if rng.random() < 0.5 else f"paper {i}"
        abstract = _text(rng, rng.randrange(10, 60)) if rng.random() < 0.9 else None
        authors, entities, category = (), (), None
        if with_names:
            authors = tuple(rng.sample(["Ann Lee", "Bo Chen", "Model Learning", "Zoë Graph", "Renzhe Xu"],
                                       rng.randrange(0, 3)))
            entities = tuple(Entity(EntityType.METHOD, name, Role.USED, ())
                             for name in rng.sample(["Sparse Kernel Learning", "Graph Network", "BanditNet"],
                                                    rng.randrange(0, 2)))
            category = rng.choice([Category("Theory", "Learning Theory"), Category("Deep Learning", "Graphs")])
        out.append(Record(f"p{i}", title, abstract, authors, False, category, 2015 + i % 10, entities=entities))
    return out


@pytest.fixture(scope="module")
def indexes(tmp_path_factory):
    """Three indexes of one corpus with authors and entities: FTS5 only, impact lists, all terms listed."""
    tmp = tmp_path_factory.mktemp("impact")
    G = build_graph(corpus(with_names=True))
    out = {}
    for name, min_df in (("fts5", 0), ("impact", 40), ("all", 1)):
        out[name] = tmp / f"{name}.sqlite"
        build_search_index(G, out[name], impact_min_df=min_df)
    return out


def assert_same_ranking(a, b):
    """Same scores at every position (to 1e-9), and the same papers within each run of equal scores."""
    assert len(a) == len(b)
    assert [h.score for h in a] == pytest.approx([h.score for h in b], rel=1e-9, abs=1e-12)
    groups_a, groups_b = {}, {}
    for hits, groups in ((a, groups_a), (b, groups_b)):
        for h in hits:
            groups.setdefault(round(h.score, 9), set()).add(h.key)
    last = round(a[-1].score, 9) if a else None
    # The last run may be cut by the limit differently among equal scores.
    assert {s: k for s, k in groups_a.items() if s != last} == {s: k for s, k in groups_b.items() if s != last}


def test_some_terms_have_impact_lists(indexes):
    con = sqlite3.connect(indexes["impact"])
    listed = {t for (t,) in con.execute("SELECT term FROM impact")}
    assert {"learning", "model", "neural", "network"} <= listed
    assert not {"hypergraph", "bandit", "zyzzyva"} & listed
    assert con.execute("SELECT count(*) FROM impact").fetchone()[0] > 0
    assert sqlite3.connect(indexes["fts5"]).execute("SELECT count(*) FROM impact").fetchone() == (0,)


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("limit", [3, 10, N])
def test_same_ranking_as_fts5(indexes, query, limit):
    exact = search(indexes["fts5"], query, limit=limit).papers
    for name in ("impact", "all"):
        assert_same_ranking(search(indexes[name], query, limit=limit).papers, exact)
    if query not in ("the", "zyzzyva"):
        assert exact


@pytest.mark.parametrize("kw", [
    {"year": 2019}, {"year": "2016-2018"}, {"author": "Ann Lee"}, {"author": "zoe graph"},
    {"method": "Graph Network"}, {"category": "Theory"}, {"category": "Graphs", "year": "2015-2020"},
    {"author": "Bo Chen", "method": "BanditNet"},
])
@pytest.mark.parametrize("query", ["learning", "neural network", "learning bandit", "model zyzzyva", "graph",
                                   "kernel learning kernel model"])
def test_same_ranking_as_fts5_with_filters(indexes, query, kw):
    exact = search(indexes["fts5"], query, limit=N, **kw).papers
    for name in ("impact", "all"):
        assert_same_ranking(search(indexes[name], query, limit=N, **kw).papers, exact)
        assert_same_ranking(search(indexes[name], query, limit=5, **kw).papers, exact[:5])


def test_names_unchanged(indexes):
    for q in ("learning", "graph network", "zoe"):
        assert search(indexes["impact"], q).names == search(indexes["fts5"], q).names


def _bm25(records: list[Record], words: list[str], *, any_word: bool) -> dict[str, float]:
    """BM25 as FTS5 computes it (``fts5_aux.c``: k1 1.2, b 0.75, IDF floored at 1e-6, each
    phrase's weighted hits over the columns), written out for title and abstract only."""
    tok = re.compile(r"[a-z0-9]+")
    docs = {f"paper:{r.id}": (tok.findall((r.title or "").lower()), tok.findall((r.abstract or "").lower()))
            for r in records}
    n = len(docs)
    avgdl = sum(len(t) + len(a) for t, a in docs.values()) / n
    idf = {}
    for w in set(words):
        hits = sum(1 for t, a in docs.values() if w in t or w in a)
        idf[w] = max(math.log((n - hits + 0.5) / (hits + 0.5)), 0.0) or 1e-6
    out = {}
    for key, (t, a) in docs.items():
        present = [w in t or w in a for w in words]
        if not (any(present) if any_word else all(present)):
            continue
        d = len(t) + len(a)
        score = 0.0
        for w in words:
            f = BM25_WEIGHTS[0] * t.count(w) + BM25_WEIGHTS[1] * a.count(w)
            score += idf[w] * (f * 2.2) / (f + 1.2 * (1 - 0.75 + 0.75 * d / avgdl))
        out[key] = score
    return out


@pytest.mark.parametrize("query", QUERIES)
def test_scores_are_the_bm25_formula(tmp_path, query):
    records = corpus(with_names=False)
    path = tmp_path / "s.sqlite"
    build_search_index(records, path, impact_min_df=40)
    words = query.split()
    expected = _bm25(records, words, any_word=False) or _bm25(records, words, any_word=True)
    got = {h.key: h.score for h in search(path, query, limit=N).papers}
    assert got.keys() == expected.keys()
    for key, score in expected.items():
        assert got[key] == pytest.approx(score, rel=1e-9, abs=1e-12), key


def test_equal_scores_come_in_index_order(tmp_path):
    # 50 copies of a weaker text, then 50 of a stronger one: two runs of equal scores.
    records = [Record(f"b{i:02}", "learning", "model", ()) for i in range(50)]
    records += [Record(f"a{i:02}", "learning model", "sparse learning", ()) for i in range(50)]
    path = tmp_path / "s.sqlite"
    build_search_index(records, path, impact_min_df=2)
    expected = [f"paper:a{i:02}" for i in range(50)] + [f"paper:b{i:02}" for i in range(50)]
    for limit in (3, 55):
        assert [h.key for h in search(path, "learning model", limit=limit).papers] == expected[:limit]


@pytest.mark.parametrize("query", ["learning", "graph network", "zoe", "model learning", "sparse"])
@pytest.mark.parametrize("limit", [1, 2, 10])
def test_names_ranked_as_by_sql(indexes, query, limit):
    con = sqlite3.connect(indexes["impact"])
    expected = con.execute(
        "SELECT n.key FROM name_fts JOIN name n ON n.id = name_fts.rowid WHERE name_fts MATCH ? "
        "ORDER BY bm25(name_fts, 2.0, 1.0), n.n_papers DESC, n.id LIMIT ?",
        (" AND ".join(f'"{w}"' for w in query.split()), limit)).fetchall()
    assert [h.key for h in search(indexes["impact"], query, limit=limit).names] == [k for (k,) in expected]
    assert expected


def test_default_threshold_is_recorded(tmp_path):
    path = tmp_path / "s.sqlite"
    build_search_index(corpus(with_names=False), path)
    con = sqlite3.connect(path)
    # 300 papers: the default (5%, at least 1,000 papers) lists no term.
    assert con.execute("SELECT value FROM meta WHERE key = 'impact_min_df'").fetchone() == ("1000",)
    assert con.execute("SELECT count(*) FROM impact").fetchone() == (0,)


@pytest.fixture(scope="module")
def colm(shared_data, tmp_path_factory):
    """A real conference (COLM 2024, 299 papers) indexed with impact lists down to 30 papers, and without."""
    from kg.readers import read_file

    records = list(read_file(shared_data / "confpapers" / "jsonl" / "colm2024.jsonl"))
    G = build_graph(records)
    tmp = tmp_path_factory.mktemp("colm")
    build_search_index(G, tmp / "fts5.sqlite", impact_min_df=0)
    build_search_index(G, tmp / "impact.sqlite", impact_min_df=30)
    return records, tmp / "fts5.sqlite", tmp / "impact.sqlite"


def test_real_conference_same_ranking(colm):
    records, fts5, impact = colm
    con = sqlite3.connect(impact)
    listed = [t for (t,) in con.execute("SELECT term FROM impact ORDER BY df DESC")]
    assert len(listed) > 100
    # The most frequent words alone, in pairs, with a rare word, and the authors' names.
    queries = listed[:25] + [f"{a} {b}" for a, b in zip(listed[:20], listed[5:25])]
    queries += [f"{w} {r.title.split()[-1]}" for w, r in zip(listed, records[:20]) if r.title]
    queries += [r.authors[0] for r in records[:20] if r.authors]
    for q in queries:
        for kw in ({}, {"year": 2024}):
            assert_same_ranking(search(impact, q, limit=N, **kw).papers, search(fts5, q, limit=N, **kw).papers)
            assert_same_ranking(search(impact, q, limit=5, **kw).papers, search(fts5, q, limit=5, **kw).papers)
