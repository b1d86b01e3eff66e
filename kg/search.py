"""Full-text search over a build: papers ranked by BM25, and authors/entities found by name.

The index is one SQLite file (``OUT/search.sqlite``) with FTS5 tables using the ``unicode61``
tokenizer with ``remove_diacritics 2``, so ``candes`` finds ``Candès`` and case never matters.
Papers are ranked by FTS5's built-in BM25 (Robertson & Zaragoza, 2009) over four columns with
weights title 10, entity names 5, authors 3, abstract 1. Filters (author, method, benchmark,
category) are look-ups in a side table, and years one array indexed by rowid, so they cost no
scan; they become a mask over the papers' rowids.

FTS5 computes BM25 for every row that matches, about 2 µs a row: a word in 40% of 100k papers
(``learning``) cost 60-80 ms, and ``the`` 200-300 ms, whatever ``LIMIT`` says, because the top
rows by score cannot be known before all are scored (FTS5 cannot stop early for ``bm25``).
Frequent terms therefore get *impact lists* at index time, in the spirit of the precomputed
impacts of Manning, Raghavan & Schütze, *Introduction to Information Retrieval* (2008),
§7.1.3-7.1.5: for every term in at least ``impact_min_df`` papers (by default 5% of the papers,
at least 1,000 and at most 5,000: :func:`default_impact_min_df`), the table ``impact`` holds all
the papers containing it, with the
term's BM25 contribution to each, as FTS5 itself computed it for the one-word query. FTS5's
BM25 is a sum over the query's phrases of a contribution that depends only on the phrase and
the row (IDF and average length are global), so a query's score is the sum of its words':

- words without an impact list (in fewer than ``impact_min_df`` papers each) are matched and
  scored by FTS5, as before;
- with every word required, only those rows can match: each frequent word's contribution to
  them is found by binary search in its list and added;
- otherwise (frequent words only, or the any-word fallback) every list's contributions are
  added into one array indexed by rowid, with a count of the lists each paper is in: a paper
  matches when it is in all of them (or in any) and the filters allow it;
- the top ``limit`` are picked with ``numpy.argpartition``.

Unlike champion lists (the top *k* papers per term), nothing is truncated, so the ranking is
exact, not approximate: the same papers with the same scores as ``ORDER BY rank`` over FTS5
(tested against FTS5 and against the BM25 formula written out). Two differences remain: the
contributions are added in another order than FTS5's, so scores may differ in the last bits
(about 1e-15 relative), and papers with equal scores come in rowid order, where FTS5's order
among ties is unspecified. The lists hold the IDF and average length of the index they were
built with; the index is always rebuilt as a whole, never updated. They cost about 12 bytes per
(frequent term, paper): at 100k papers 270 terms, 3.5M pairs, 34 MB on a 171 MB index.

Examples
--------
>>> import tempfile, pathlib
>>> from kg.records import Record
>>> path = pathlib.Path(tempfile.mkdtemp()) / "search.sqlite"
>>> build_search_index([Record("p1", "Hypergraph clustering", None, ("Emmanuel Candès",))], path)
1
>>> [h.key for h in search(path, "hypergraph", author="emmanuel candes").papers]
['paper:p1']
"""

from __future__ import annotations

import contextlib
import difflib
import glob
import heapq
import os
import re
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

import numpy as np

from kg.errors import NotFoundError, QueryError, WorkspaceError
from kg.io import default_mode, remove_temporaries
from kg.records import Record
from kg.schema import EdgeType, NodeType
from kg.text import fold, match_key

if TYPE_CHECKING:  # networkx only to build an index: `kg search` starts 0.1 s sooner
    import networkx as nx

#: BM25 column weights: title, abstract, entities, authors.
BM25_WEIGHTS = (10.0, 1.0, 5.0, 3.0)
#: Most papers a term can be in without an impact list: FTS5 scores a rarer word's rows itself,
#: about 2 µs each, so at most about 10 ms.
IMPACT_MIN_DF = 5000
SEARCH_SCHEMA = "2"
_TOKEN = re.compile(r"\w+", re.UNICODE)
_ENTITY_EDGES = {EdgeType.PROPOSES.value: NodeType.METHOD.value, EdgeType.USES.value: NodeType.METHOD.value,
                 EdgeType.INTRODUCES.value: NodeType.BENCHMARK.value,
                 EdgeType.EVALUATES_ON.value: NodeType.BENCHMARK.value, EdgeType.ABOUT.value: NodeType.CONCEPT.value}
#: Per-paper columns also kept as one array indexed by rowid, and their numpy dtypes.
_ARRAYS = {"year": "<i2"}
_NAME_TYPES = (NodeType.AUTHOR.value, NodeType.METHOD.value, NodeType.BENCHMARK.value, NodeType.CONCEPT.value)

_DDL = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE paper(id INTEGER PRIMARY KEY, key TEXT NOT NULL, label TEXT, year INTEGER, category TEXT,
                   authors TEXT);
CREATE VIRTUAL TABLE paper_fts USING fts5(title, abstract, entities, authors, content='',
                                          tokenize='unicode61 remove_diacritics 2');
CREATE TABLE name(id INTEGER PRIMARY KEY, key TEXT NOT NULL, type TEXT NOT NULL, label TEXT NOT NULL,
                  folded TEXT NOT NULL, n_papers INTEGER);
CREATE VIRTUAL TABLE name_fts USING fts5(name, aliases, content='', tokenize='unicode61 remove_diacritics 2');
CREATE TABLE name_alias(folded TEXT NOT NULL, name INTEGER NOT NULL);
CREATE TABLE facet(kind TEXT NOT NULL, value TEXT NOT NULL, paper INTEGER NOT NULL);
CREATE TABLE impact(term TEXT PRIMARY KEY, df INTEGER NOT NULL, rowids BLOB NOT NULL, scores BLOB NOT NULL);
CREATE TABLE paper_array(name TEXT PRIMARY KEY, data BLOB NOT NULL);
"""
_INDEXES = """
CREATE INDEX facet_kv ON facet(kind, value, paper);
CREATE INDEX name_alias_folded ON name_alias(folded);
CREATE INDEX paper_year ON paper(year);
"""


@dataclass(frozen=True, slots=True)
class Hit:
    """One result: a node key, its type and label, and its score (higher is better)."""

    key: str
    type: str
    label: str
    score: float
    year: int | None = None
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "type": self.type, "label": self.label, "score": round(self.score, 4),
                "year": self.year, "detail": self.detail}


@dataclass(slots=True)
class SearchResults:
    """Papers ranked by relevance, and authors/entities whose names match the query."""

    papers: list[Hit] = field(default_factory=list)
    names: list[Hit] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"papers": [h.to_dict() for h in self.papers], "names": [h.to_dict() for h in self.names]}


def _graph_of(source: nx.MultiDiGraph | Iterable[Record]) -> nx.MultiDiGraph:
    import networkx as nx

    if isinstance(source, nx.Graph):
        return source
    from kg.graph import build_graph

    return build_graph(source, top_k=0)


def build_search_index(source: nx.MultiDiGraph | Iterable[Record], path: str | Path, *,
                       impact_min_df: int | None = None) -> int:
    """Write the search index of a graph (or of records) to ``path``, atomically.

    Parameters
    ----------
    source
        A graph from :func:`kg.graph.build_graph`, or records to build one from.
    path
        The index file, replaced as a whole.
    impact_min_df
        Terms in at least this many papers get an impact list (see the module docstring);
        ``None``: :func:`default_impact_min_df` of the number of papers; 0: no lists, so every
        query is scored by FTS5 alone.

    Returns
    -------
    int
        Number of papers indexed.
    """
    G = _graph_of(source)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_temporaries(path.parent, f".{glob.escape(path.name)}.*.tmp")  # left by a killed build
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    with contextlib.suppress(OSError):
        os.chmod(tmp, default_mode())  # mkstemp's 0600 would stay on the index
    try:
        con = sqlite3.connect(tmp)
        try:
            n = _fill(con, G, impact_min_df)
        finally:
            con.close()
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return n


def default_impact_min_df(n_papers: int) -> int:
    """Terms in this many of ``n_papers`` papers get impact lists by default: 5%, in [1000, 5000].

    Below 1,000 rows FTS5 scores a word in about 2 ms; above 5,000 a rare word would cost more
    than 10 ms. In between, 5% keeps the lists at about a fifth of the index.

    Examples
    --------
    >>> default_impact_min_df(10_000), default_impact_min_df(50_000), default_impact_min_df(1_000_000)
    (1000, 2500, 5000)
    """
    return min(IMPACT_MIN_DF, max(1000, n_papers // 20))


def _fill(con: sqlite3.Connection, G: nx.MultiDiGraph, impact_min_df: int | None) -> int:
    con.execute("PRAGMA journal_mode=OFF")
    con.execute("PRAGMA synchronous=OFF")
    con.executescript(_DDL)
    con.executemany("INSERT INTO meta VALUES (?, ?)", [
        ("search_schema", SEARCH_SCHEMA), ("schema_version", str(G.graph.get("schema_version"))),
        ("pipeline_version", str(G.graph.get("pipeline_version")))])
    name_ids: dict[str, int] = {}
    name_rows, name_fts, alias_rows = [], [], []
    for key, d in G.nodes(data=True):
        if d.get("type") not in _NAME_TYPES:
            continue
        nid = len(name_ids) + 1
        name_ids[key] = nid
        label = d.get("name") or d.get("label") or key
        aliases = list(d.get("aliases") or ())
        name_rows.append((nid, key, d["type"], label, match_key(label), d.get("n_papers") or 0))
        name_fts.append((nid, label, " ; ".join(aliases)))
        for a in dict.fromkeys(match_key(x) for x in [label, *aliases]):
            alias_rows.append((a, nid))
    con.executemany("INSERT INTO name VALUES (?, ?, ?, ?, ?, ?)", name_rows)
    con.executemany("INSERT INTO name_fts(rowid, name, aliases) VALUES (?, ?, ?)", name_fts)
    con.executemany("INSERT INTO name_alias VALUES (?, ?)", alias_rows)

    papers, fts, facets = [], [], []
    for pid, (key, d) in enumerate(((k, d) for k, d in G.nodes(data=True) if d.get("type") == NodeType.PAPER.value),
                                   start=1):
        ent_names: list[str] = []
        author_names: list[str] = []
        for u, _, k in G.in_edges(key, keys=True):
            if k == EdgeType.AUTHORED.value:
                ad = G.nodes[u]
                author_names += [ad.get("name") or u, *(ad.get("aliases") or ())]
                facets.append(("author", u, pid))
        for _, v, k in G.out_edges(key, keys=True):
            vd = G.nodes[v]
            if k in _ENTITY_EDGES:
                ent_names += [vd.get("name") or v, *(vd.get("aliases") or ())]
                facets.append((vd["type"], v, pid))
            elif k == EdgeType.IN_CATEGORY.value:
                for value in {match_key(vd.get("area") or ""), match_key(vd.get("name") or "")}:
                    if value:
                        facets.append(("category", value, pid))
        papers.append((pid, key, d.get("label"), d.get("year"), d.get("category"), "; ".join(d.get("authors") or ())))
        fts.append((pid, d.get("title") or "", d.get("abstract") or "", " ; ".join(dict.fromkeys(ent_names)),
                    " ; ".join(author_names)))
    con.executemany("INSERT INTO paper VALUES (?, ?, ?, ?, ?, ?)", papers)
    year_of = np.zeros(len(papers) + 1, dtype=_ARRAYS["year"])
    for pid, _, _, y, _, _ in papers:
        year_of[pid] = y if isinstance(y, int) and 0 < y < 2**15 else 0
    con.execute("INSERT INTO paper_array VALUES ('year', ?)", (year_of.tobytes(),))
    con.executemany("INSERT INTO paper_fts(rowid, title, abstract, entities, authors) VALUES (?, ?, ?, ?, ?)", fts)
    con.executemany("INSERT INTO facet VALUES (?, ?, ?)", sorted(set(facets)))
    con.executescript(_INDEXES)
    # The column weights become FTS5's own ``rank``, so ORDER BY rank LIMIT n is done inside FTS5.
    con.execute("INSERT INTO paper_fts(paper_fts, rank) VALUES ('rank', ?)",
                (f"bm25({', '.join(str(w) for w in BM25_WEIGHTS)})",))
    con.execute("INSERT INTO paper_fts(paper_fts) VALUES ('optimize')")
    con.execute("INSERT INTO name_fts(name_fts) VALUES ('optimize')")
    if impact_min_df is None:
        impact_min_df = default_impact_min_df(len(papers))
    con.execute("INSERT INTO meta VALUES ('impact_min_df', ?)", (str(impact_min_df),))
    if impact_min_df > 0:
        _write_impacts(con, impact_min_df)
    con.commit()
    return len(papers)


def _write_impacts(con: sqlite3.Connection, min_df: int) -> None:
    """One row per term in at least ``min_df`` papers: its papers and BM25 contributions.

    The contributions are FTS5's own ``rank`` for the one-word query (negated), so they carry
    FTS5's tokenizer, IDF, document lengths and column weights exactly.
    """
    con.execute("CREATE VIRTUAL TABLE temp.paper_vocab USING fts5vocab(main, paper_fts, row)")
    terms = con.execute("SELECT term, doc FROM temp.paper_vocab WHERE doc >= ?", (min_df,)).fetchall()
    con.execute("DROP TABLE temp.paper_vocab")
    for term, _ in terms:
        ids_scores = con.execute("SELECT rowid, rank FROM paper_fts WHERE paper_fts MATCH ?",
                                 (_quote(term),)).fetchall()
        ids = np.fromiter((r for r, _ in ids_scores), dtype="<i4", count=len(ids_scores))
        scores = np.fromiter((-s for _, s in ids_scores), dtype="<f8", count=len(ids_scores))
        order = np.argsort(ids, kind="stable")  # FTS5 returns rowid order; do not depend on it
        ids, scores = ids[order], scores[order]
        con.execute("INSERT INTO impact VALUES (?, ?, ?, ?)", (term, len(ids), ids.tobytes(), scores.tobytes()))


def _quote(word: str) -> str:
    return '"' + word.replace('"', '""') + '"'


def fts_query(text: str, *, any_word: bool = False) -> str:
    """An FTS5 query from free text: each word quoted (no syntax errors possible), all required.

    Examples
    --------
    >>> fts_query('Hypergraph "clustering" OR x*')
    '"hypergraph" AND "clustering" AND "or" AND "x"'
    """
    words = _TOKEN.findall(fold(text))
    return (" OR " if any_word else " AND ").join(f'"{w}"' for w in words)


def _connect(path: str | Path) -> sqlite3.Connection:
    path = Path(path)
    if not path.is_file():
        raise NotFoundError(f"{path}: no search index; run `kg build INPUT... -o {path.parent}` first")
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        (schema,) = con.execute("SELECT value FROM meta WHERE key = 'search_schema'").fetchone()
    except (sqlite3.DatabaseError, TypeError):
        schema = None
    if schema != SEARCH_SCHEMA:
        con.close()
        raise WorkspaceError(f"{path}: search index schema {schema}, this paperkg reads {SEARCH_SCHEMA}; "
                             f"run `kg build INPUT... -o {path.parent}` again")
    return con


def _parse_year(year: int | str | None) -> tuple[int, int] | None:
    if year is None or year == "":
        return None
    if isinstance(year, int):
        return year, year
    m = re.fullmatch(r"\s*(\d{4})\s*(?:[-–:]\s*(\d{4})\s*)?", str(year))
    if not m:
        raise QueryError(f"bad --year {year!r}: give a year (2024) or a range (2018-2020)")
    lo = int(m.group(1))
    hi = int(m.group(2) or lo)
    return (lo, hi) if lo <= hi else (hi, lo)


def _resolve_names(con: sqlite3.Connection, text: str, types: tuple[str, ...], what: str) -> list[str]:
    """Node keys of the names matching ``text`` exactly (folded), else containing all its words."""
    marks = ",".join("?" * len(types))
    rows = con.execute(
        f"SELECT DISTINCT n.key FROM name_alias a JOIN name n ON n.id = a.name "
        f"WHERE a.folded = ? AND n.type IN ({marks})", (match_key(text), *types)).fetchall()
    if not rows and fts_query(text):
        rows = con.execute(
            f"SELECT n.key FROM name_fts JOIN name n ON n.id = name_fts.rowid "
            f"WHERE name_fts MATCH ? AND n.type IN ({marks})", (fts_query(text), *types)).fetchall()
    if rows:
        return [r[0] for r in rows]
    # Close matches among the names sharing a word first: difflib over all 35k authors of a
    # 100k-paper index takes 300 ms, over those sharing a word a few ms.
    near = [r[0] for r in con.execute(
        f"SELECT n.label FROM name_fts JOIN name n ON n.id = name_fts.rowid "
        f"WHERE name_fts MATCH ? AND n.type IN ({marks})", (fts_query(text, any_word=True), *types))
    ] if fts_query(text) else []
    message = _no_match(what, text, near)
    if message.endswith("; no close matches"):
        labels = [r[0] for r in con.execute(f"SELECT label FROM name WHERE type IN ({marks})", types)]
        message = _no_match(what, text, labels)
    raise NotFoundError(message)


def _no_match(what: str, text: str, labels: list[str]) -> str:
    by_fold: dict[str, str] = {}
    for lab in labels:
        by_fold.setdefault(fold(lab), lab)
    close = difflib.get_close_matches(fold(text), list(by_fold), n=5, cutoff=0.6)
    hint = "; close matches: " + ", ".join(by_fold[c] for c in close) if close else "; no close matches"
    return f"no {what} named {text!r}{hint}"


def search(
    path: str | Path,
    query: str = "",
    *,
    author: str | None = None,
    method: str | None = None,
    benchmark: str | None = None,
    category: str | None = None,
    year: int | str | None = None,
    limit: int = 10,
) -> SearchResults:
    """Search a build's index.

    Parameters
    ----------
    path
        The index file (``Workspace.search_path``).
    query
        Free text; every word must occur in the title, abstract, entity names or authors
        (accents and case ignored). When no paper has them all, papers with any are ranked.
    author, method, benchmark, category
        Keep papers with this author / method / benchmark (matched by name or alias, accents and
        case ignored) or in this area or subarea. An unknown name raises
        :class:`kg.errors.NotFoundError` listing close matches.
    year
        A year (``2024``) or an inclusive range (``"2018-2020"``).
    limit
        Most papers (and names) returned.

    Returns
    -------
    SearchResults
        ``papers`` by BM25 (or newest first when ``query`` is empty), and ``names``: authors and
        entities whose name contains the query's words. The BM25 ranking is exact; see the module
        docstring for how frequent words are scored without scanning all their rows.
    """
    years = _parse_year(year)
    con = _connect(path)
    try:
        facets: list[tuple[str, list[Any]]] = []
        for kind_types, value, what in (
            ((NodeType.AUTHOR.value,), author, "author"),
            ((NodeType.METHOD.value,), method, "method"),
            ((NodeType.BENCHMARK.value,), benchmark, "benchmark"),
        ):
            if value:
                keys = _resolve_names(con, value, kind_types, what)
                marks = ",".join("?" * len(keys))
                facets.append((f"SELECT paper FROM facet WHERE kind = ? AND value IN ({marks})",
                               [kind_types[0], *keys]))
        if category:
            cat = match_key(category)
            if not con.execute("SELECT 1 FROM facet WHERE kind = 'category' AND value = ? LIMIT 1", (cat,)).fetchone():
                known = [r[0] for r in con.execute("SELECT DISTINCT value FROM facet WHERE kind = 'category'")]
                raise NotFoundError(_no_match("category", category, known))
            facets.append(("SELECT paper FROM facet WHERE kind = 'category' AND value = ?", [cat]))
        allowed = _allowed(con, facets, years)
        results = SearchResults()
        words = _TOKEN.findall(fold(query))
        if words:
            impacts = _impacts(con, words)
            results.papers = (_ranked(con, words, impacts, allowed, limit)
                              or _ranked(con, words, impacts, allowed, limit, any_word=True))
            results.names = _names(con, fts_query(query), limit)
        else:
            year_of = _array(con, "year")
            ids = np.flatnonzero(allowed) if allowed is not None else np.arange(1, len(year_of))
            order = np.lexsort((ids, -year_of[ids].astype(np.int32)))[:limit]
            results.papers = _hits(con, [(int(ids[i]), 0.0) for i in order])
        return results
    except sqlite3.OperationalError as exc:
        raise QueryError(f"search failed for {query!r}: {exc}") from exc
    finally:
        con.close()


def _array(con: sqlite3.Connection, name: str) -> np.ndarray:
    """A per-paper column kept as one array indexed by rowid (``year``: 0 when unknown)."""
    (data,) = con.execute("SELECT data FROM paper_array WHERE name = ?", (name,)).fetchone()
    return np.frombuffer(data, dtype=_ARRAYS[name])


def _allowed(con: sqlite3.Connection, facets: list[tuple[str, list[Any]]],
             years: tuple[int, int] | None) -> np.ndarray | None:
    """A mask by rowid of the papers every filter allows (``None``: no filter).

    The years come from one array, not from SQL: a year can hold half the papers, and fetching
    50k rowids row by row costs more than the 50 ms budget.
    """
    if not facets and years is None:
        return None
    if years is not None:
        year_of = _array(con, "year")
        mask = (year_of >= years[0]) & (year_of <= years[1])
    else:
        (n,) = con.execute("SELECT max(id) FROM paper").fetchone()
        mask = np.ones((n or 0) + 1, dtype=bool)
    mask[0] = False
    for sql, args in facets:
        ids = np.fromiter((r[0] for r in con.execute(sql, args)), dtype=np.int64)
        keep = np.zeros(len(mask), dtype=bool)
        keep[ids] = True
        mask &= keep
    return mask


def _impacts(con: sqlite3.Connection, words: list[str]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The impact lists of those ``words`` that have one: word -> (rowids, contributions)."""
    distinct = list(dict.fromkeys(words))
    rows = con.execute(f"SELECT term, rowids, scores FROM impact WHERE term IN ({','.join('?' * len(distinct))})",
                       distinct).fetchall()
    return {t: (np.frombuffer(r, dtype="<i4"), np.frombuffer(s, dtype="<f8")) for t, r, s in rows}


def _ranked(con: sqlite3.Connection, words: list[str], impacts: dict[str, tuple[np.ndarray, np.ndarray]],
            allowed: np.ndarray | None, limit: int, *, any_word: bool = False) -> list[Hit]:
    """The top ``limit`` allowed papers by BM25 for ``words`` (all required, or any with ``any_word``).

    Rare words are matched and scored by FTS5. With every word required, only their rows can
    match: each frequent word's contribution to them is found by binary search in its list.
    Otherwise every list's contributions are added into one array indexed by rowid, with a count
    of the lists each paper is in. A word given twice counts twice, as in FTS5.
    """
    frequent: dict[str, int] = {}  # word -> times in the query, in query order
    for w in words:
        if w in impacts:
            frequent[w] = frequent.get(w, 0) + 1
    rare = [w for w in words if w not in impacts]
    fts = (" OR " if any_word else " AND ").join(map(_quote, rare))
    if not frequent and allowed is None:
        rows = con.execute("SELECT rowid, rank FROM paper_fts WHERE paper_fts MATCH ? ORDER BY rank LIMIT ?",
                           (fts, limit)).fetchall()
        return _hits(con, [(r, -s) for r, s in rows])
    parts = []
    if rare:  # in fewer than impact_min_df papers each
        rows = con.execute("SELECT rowid, rank FROM paper_fts WHERE paper_fts MATCH ?", (fts,)).fetchall()
        parts.append((np.fromiter((r for r, _ in rows), dtype=np.int64, count=len(rows)),
                      np.fromiter((-s for _, s in rows), dtype=np.float64, count=len(rows)), 1))
    parts += [(*impacts[w], times) for w, times in frequent.items()]
    if rare and not any_word:
        ids, score, _ = parts[0]
        if allowed is not None:
            inside = allowed[np.minimum(ids, len(allowed) - 1)] & (ids < len(allowed))
            ids, score = ids[inside], score[inside]
        for list_ids, contribution, times in parts[1:]:
            if not len(ids) or not len(list_ids):
                ids = ids[:0]
                break
            pos = np.minimum(np.searchsorted(list_ids, ids), len(list_ids) - 1)
            found = list_ids[pos] == ids
            ids, score = ids[found], score[found] + times * contribution[pos[found]]
    else:
        (n,) = con.execute("SELECT max(id) FROM paper").fetchone()
        total = np.zeros(n + 1)
        count = np.zeros(n + 1, dtype=np.int32)
        for list_ids, contribution, times in parts:  # each list holds a rowid once
            total[list_ids] += contribution if times == 1 else times * contribution
            count[list_ids] += 1
        matched = count > 0 if any_word else count == len(parts)
        if allowed is not None:
            matched &= allowed
        ids = np.flatnonzero(matched)
        score = total[ids]
    if len(ids) > limit:
        keep = np.argpartition(-score, limit - 1)[:limit]
        # Papers tied with the last kept score may lie outside ``keep``: take them all, then order.
        keep = np.flatnonzero(score >= score[keep].min())
        ids, score = ids[keep], score[keep]
    order = np.lexsort((ids, -score))[:limit]
    return _hits(con, [(int(ids[i]), float(score[i])) for i in order])


def _hits(con: sqlite3.Connection, scored: list[tuple[int, float]]) -> list[Hit]:
    """Hits for (rowid, score) pairs, in the given order."""
    if not scored:
        return []
    rows = {r[0]: r[1:] for r in con.execute(
        f"SELECT id, key, label, year, authors FROM paper WHERE id IN ({','.join('?' * len(scored))})",
        [r for r, _ in scored])}
    return [Hit(k, NodeType.PAPER.value, lab, s, y, au or "") for r, s in scored
            for k, lab, y, au in [rows[r]]]


def _names(con: sqlite3.Connection, q: str, limit: int) -> list[Hit]:
    """Authors and entities by BM25 of their names, then by their number of papers."""
    scored = con.execute("SELECT rowid, bm25(name_fts, 2.0, 1.0) FROM name_fts WHERE name_fts MATCH ?", (q,)).fetchall()
    if not scored:
        return []
    # Only names scored as well as the limit-th can be returned; join just those (with all ties).
    cut = heapq.nsmallest(limit, (s for _, s in scored))[-1]
    scores = {r: s for r, s in scored if s <= cut}
    rows = con.execute(f"SELECT id, key, type, label, n_papers FROM name WHERE id IN ({','.join('?' * len(scores))})",
                       list(scores)).fetchall()
    rows.sort(key=lambda r: (scores[r[0]], -(r[4] or 0), r[0]))
    return [Hit(k, t, lab, -scores[i], None, f"{n} paper{'s' if n != 1 else ''}") for i, k, t, lab, n in rows[:limit]]
