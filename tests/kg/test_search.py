"""kg.search: FTS5 index, BM25 ranking, filters, accent-insensitive names, errors."""

from __future__ import annotations

import sqlite3

import pytest

from kg.errors import NotFoundError, QueryError, WorkspaceError
from kg.graph import build_graph
from kg.records import Category, Entity, Record
from kg.schema import EntityType, Role
from kg.search import build_search_index, fts_query, search


def rec(rid, title, abstract, authors, *, entities=(), year=2024, category=None):
    return Record(rid, title, abstract, tuple(authors), False, category, year,
                  entities=tuple(Entity(EntityType(t), n, Role(r) if r else None, tuple(al))
                                 for t, n, r, al in entities))


@pytest.fixture()
def index(tmp_path):
    records = [
        rec("p1", "Hypergraph clustering at scale", "We cluster hypergraphs with spectral methods.",
            ["Emmanuel J. Candès", "Ann Lee"], entities=[("concept", "hypergraph clustering", None, ()),
                                                         ("method", "Spectral Clustering", "used", ("SC",))],
            year=2018, category=Category("Theory", "Graph Theory")),
        rec("p2", "Graph neural networks", "A note on clustering nodes; evaluated on Cora.",
            ["Ann Lee"], entities=[("benchmark", "Cora", "used", ())], year=2020,
            category=Category("Deep Learning", "Graph Neural Networks")),
        rec("p3", None, "Hypergraph clustering appears only in the abstract here, once.",
            [], entities=[("concept", "hypergraph clustering", None, ())], year=2024),
        rec("p4", "Strategic classification", "Agents respond to a classifier.", ["Renzhe Xu"], year=2024,
            category=Category("Theory", "Game Theory")),
    ]
    path = tmp_path / "search.sqlite"
    assert build_search_index(build_graph(records), path) == 4
    return path


def keys(res):
    return [h.key for h in res.papers]


def test_bm25_title_outranks_abstract(index):
    res = search(index, "hypergraph clustering")
    assert keys(res)[:2] == ["paper:p1", "paper:p3"]
    assert res.papers[0].score > res.papers[1].score > 0
    assert res.papers[0].detail == "Emmanuel J. Candès; Ann Lee"


def test_every_word_required_then_any_word_fallback(index):
    assert keys(search(index, "hypergraph spectral")) == ["paper:p1"]
    # No paper has both words: papers with either are ranked instead of nothing.
    assert set(keys(search(index, "hypergraph agents"))) == {"paper:p1", "paper:p3", "paper:p4"}


def test_entity_names_and_aliases_are_searchable(index):
    assert keys(search(index, "SC")) == ["paper:p1"]
    assert keys(search(index, "cora")) == ["paper:p2"]


def test_author_names_accent_and_case_insensitive(index):
    assert keys(search(index, "candes")) == ["paper:p1"]
    names = search(index, "CANDES").names
    assert [(h.type, h.label) for h in names] == [("author", "Emmanuel J. Candès")]
    assert [h.label for h in search(index, "hypergraph").names] == ["hypergraph clustering"]


@pytest.mark.parametrize(("kw", "expected"), [
    ({"author": "ann lee"}, ["paper:p1", "paper:p2"]),
    ({"author": "Emmanuel J Candes"}, ["paper:p1"]),
    ({"author": "candes"}, ["paper:p1"]),
    ({"method": "spectral clustering"}, ["paper:p1"]),
    ({"method": "sc"}, ["paper:p1"]),
    ({"benchmark": "Cora"}, ["paper:p2"]),
    ({"category": "theory"}, ["paper:p1", "paper:p4"]),
    ({"category": "Game Theory"}, ["paper:p4"]),
    ({"year": 2020}, ["paper:p2"]),
    ({"year": "2018-2020"}, ["paper:p1", "paper:p2"]),
    ({"author": "Ann Lee", "year": "2019-2024"}, ["paper:p2"]),
])
def test_filters_without_query(index, kw, expected):
    assert sorted(keys(search(index, "", **kw))) == expected


def test_filters_with_query(index):
    assert keys(search(index, "clustering", author="Ann Lee")) == ["paper:p1", "paper:p2"]
    assert keys(search(index, "clustering", year=2024)) == ["paper:p3"]
    assert keys(search(index, "clustering", category="Deep Learning")) == ["paper:p2"]


def test_empty_query_lists_newest_first(index):
    assert keys(search(index, "", limit=2)) == ["paper:p3", "paper:p4"]


def test_unknown_filter_names_close_matches(index):
    with pytest.raises(NotFoundError, match=r"no author named 'Ann Leee'; close matches: Ann Lee"):
        search(index, "x", author="Ann Leee")
    # No word in common with any author: the close matches come from all names.
    with pytest.raises(NotFoundError, match=r"no author named 'Renzh Xuu'; close matches: Renzhe Xu"):
        search(index, "x", author="Renzh Xuu")
    with pytest.raises(NotFoundError, match=r"no method named 'Transformer'; no close matches"):
        search(index, "x", method="Transformer")
    with pytest.raises(NotFoundError, match=r"no category named 'Theroy'; close matches: theory"):
        search(index, "x", category="Theroy")


def test_bad_year(index):
    with pytest.raises(QueryError, match="bad --year 'last year'"):
        search(index, "x", year="last year")


def test_query_syntax_is_never_an_error(index):
    for q in ['"unbalanced', "a AND OR NOT", "x*", "(", "NEAR(a b)", "title:foo"]:
        search(index, q)


def test_fts_query_quotes_words():
    assert fts_query("Candès-Lee") == '"candes" AND "lee"'
    assert fts_query("  ") == ""


def test_missing_index_is_clear(tmp_path):
    with pytest.raises(NotFoundError, match="no search index"):
        search(tmp_path / "nope.sqlite", "x")


def test_index_from_records_and_atomic_rewrite(tmp_path):
    path = tmp_path / "s.sqlite"
    build_search_index([rec("a", "First title", None, ["Ann Lee"])], path)
    build_search_index([rec("b", "Second title", None, ["Bo Chen"])], path)
    assert keys(search(path, "title")) == ["paper:b"]
    assert [p.name for p in tmp_path.iterdir()] == ["s.sqlite"]
    con = sqlite3.connect(path)
    assert con.execute("SELECT value FROM meta WHERE key='search_schema'").fetchone() == ("2",)


def test_index_of_another_schema_asks_for_a_rebuild(index):
    con = sqlite3.connect(index)
    con.execute("UPDATE meta SET value = '1' WHERE key = 'search_schema'")
    con.commit()
    con.close()
    with pytest.raises(WorkspaceError, match=r"search index schema 1, this paperkg reads 2; run `kg build"):
        search(index, "x")


def test_papers_without_year_come_last_in_the_newest_first_list(tmp_path):
    path = tmp_path / "s.sqlite"
    build_search_index([rec("a", "T", None, [], year=None), rec("b", "T", None, [], year=2019),
                        rec("c", "T", None, [], year=2021)], path)
    assert keys(search(path, "")) == ["paper:c", "paper:b", "paper:a"]
    assert keys(search(path, "", year="2000-2100")) == ["paper:c", "paper:b"]
