"""kg.store: the embedded store of a real build, the example queries checked against the graph."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import networkx as nx
import pyoxigraph as ox
import pytest

from kg.errors import NotFoundError, QueryError, WorkspaceError
from kg.sparql_safety import ServiceRefusedError, UpdateRefusedError
from kg.store import (
    build_store, example_queries, load_example, open_store, parse_params, query, read_query_file,
    run_query, store_info,
)
from kg.workspace import Workspace

ROLE = {"proposes", "uses", "introduces", "evaluates_on", "about"}


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory, seeds_dir: Path, shared_data: Path) -> Workspace:
    """``kg build`` (library call) on the seed pages and 150 papers of a conference list with areas."""
    from kg.build import BuildOptions, build as run_build

    tmp = tmp_path_factory.mktemp("store")
    conf = tmp / "iclr2024_slice.jsonl"
    with open(shared_data / "confpapers" / "jsonl" / "iclr2024.jsonl", encoding="utf-8") as fh:
        conf.write_text("".join(line for _, line in zip(range(150), fh)), encoding="utf-8")
    result = run_build([seeds_dir, conf], tmp / "out", options=BuildOptions(html=False, progress=False))
    return result.workspace


@pytest.fixture(scope="module")
def G(build: Workspace) -> nx.MultiDiGraph:
    return build.load_graph()


def _typed(G: nx.MultiDiGraph, t: str) -> list[str]:
    return [n for n, d in G.nodes(data=True) if d["type"] == t]


def _out(G: nx.MultiDiGraph, n: str, kinds: set[str]) -> set[str]:
    return {v for _, v, k in G.out_edges(n, keys=True) if k in kinds}


def _authors(G: nx.MultiDiGraph, paper: str) -> set[str]:
    return {u for u, _, k in G.in_edges(paper, keys=True) if k == "authored"}


def _papers_of(G: nx.MultiDiGraph, author: str) -> set[str]:
    return {v for _, v, k in G.out_edges(author, keys=True) if k == "authored"}


# ----------------------------------------------------------------------------- the store

def test_build_writes_a_store_with_the_whole_graph(build: Workspace) -> None:
    info = store_info(build)
    assert info["engine"] == "pyoxigraph" and info["quads"] > 5_000
    nq = build.rdf_dir / "paperkg.nq"
    assert info["quads"] == sum(1 for line in nq.open(encoding="utf-8") if line.strip())
    r = query(build, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")
    assert r.values() == [(info["quads"],)]
    store = open_store(build)
    assert [g.value for g in store.named_graphs()] == [info["graph"]]


def test_store_from_file_equals_store_from_graph(build: Workspace, G: nx.MultiDiGraph, tmp_path: Path) -> None:
    a = build_store(build.rdf_dir / "paperkg.nq", tmp_path / "a")
    b = build_store(G, tmp_path / "b", base_iri=store_info(build)["base_iri"])
    dump = [ox.Store.read_only(str(p / "db")).dump(format=ox.RdfFormat.N_QUADS) for p in (a, b)]
    assert sorted(dump[0].splitlines()) == sorted(dump[1].splitlines())
    assert store_info(a)["graph"] == store_info(b)["graph"]


def test_rebuild_replaces_and_readers_coexist(G: nx.MultiDiGraph, tmp_path: Path) -> None:
    build_store(G, tmp_path, evidence=True)
    full = store_info(tmp_path)["quads"]
    build_store(G, tmp_path, evidence=False)
    lean = store_info(tmp_path)["quads"]
    assert lean < full
    one, two = open_store(tmp_path), open_store(tmp_path)  # several read-only opens at once
    assert len(one) == len(two) == lean
    assert not list((tmp_path / "store").parent.glob(".store-*"))  # no temporary folder left


def test_missing_store_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError, match="has no triple store"):
        query(tmp_path, "ASK {}")


# ----------------------------------------------------------------------------- example queries

def test_at_least_eight_documented_examples() -> None:
    ex = example_queries()
    assert len(ex) >= 8
    for name, q in ex.items():
        assert q.title, name
        assert q.text.lstrip().startswith("#"), name
    assert ex["coauthors"].params == {"author": ("string", ex["coauthors"].params["author"][1])}
    with pytest.raises(NotFoundError, match="known: .*coauthors"):
        load_example("co-authors-of")


def test_coauthors(build: Workspace, G: nx.MultiDiGraph) -> None:
    author = "author:renzhe-xu"
    expected = Counter(a for p in _papers_of(G, author) for a in _authors(G, p) if a != author)
    r = query(build, "coauthors", params={"author": G.nodes[author]["name"]})
    got = {(row[2], row[3]) for row in r.values()}
    assert got == {(G.nodes[a]["name"], n) for a, n in expected.items()}
    assert len(got) >= 10


def test_benchmark_users(build: Workspace, G: nx.MultiDiGraph) -> None:
    used = Counter(v for u, v, k in G.edges(keys=True) if k in ("evaluates_on", "introduces"))
    bench, _ = used.most_common(1)[0]
    papers = {u for u, v, k in G.in_edges(bench, keys=True) if k in ("evaluates_on", "introduces")}
    expected = {G.nodes[a]["name"] for p in papers for a in _authors(G, p)}
    r = query(build, "benchmark-users", params={"benchmark": G.nodes[bench]["name"]})
    assert {row[3] for row in r.values()} == expected


def test_methods_per_subarea(build: Workspace, G: nx.MultiDiGraph) -> None:
    per: dict[str, set[str]] = defaultdict(set)
    for p in _typed(G, "paper"):
        for c in _out(G, p, {"in_category"}):
            d = G.nodes[c]
            label = f"{d['area']} · {d['name']}" if d["level"] == "subarea" else d["name"]
            per[label] |= _out(G, p, {"proposes"})
    expected = {k: len(v) for k, v in per.items() if v}
    got = {row[0]: row[1] for row in query(build, "methods-per-subarea").values()}
    assert got == expected and got


def test_papers_sharing_methods(build: Workspace, G: nx.MultiDiGraph) -> None:
    methods = {p: _out(G, p, {"proposes", "uses"}) for p in _typed(G, "paper")}
    paper = max(methods, key=lambda p: sum(len(methods[p] & m) >= 2 for q, m in methods.items() if q != p))
    expected = {G.nodes[q]["record_id"]: len(methods[paper] & m) for q, m in methods.items()
                if q != paper and len(methods[paper] & m) >= 2}
    assert expected, "the test corpus should have papers sharing two methods"
    r = query(build, "papers-sharing-methods", params={"paper": G.nodes[paper]["record_id"]})
    assert {row[2]: row[4] for row in r.values()} == expected


def test_benchmarks_per_year(build: Workspace, G: nx.MultiDiGraph) -> None:
    c = Counter((G.nodes[u]["year"], G.nodes[v]["name"]) for u, v, k in G.edges(keys=True)
                if k == "evaluates_on" and G.nodes[u].get("year"))
    expected = {k: n for k, n in c.items() if n >= 2}
    got = {(row[0], row[1]): row[2] for row in query(build, "benchmarks-per-year").values()}
    assert got == expected


def _shared_not_coauthors(G: nx.MultiDiGraph, author: str) -> dict[str, int]:
    mine = {m for p in _papers_of(G, author) for m in _out(G, p, {"proposes", "uses"})
            if (G.nodes[m].get("n_papers") or 0) <= 20}
    coauthors = {a for p in _papers_of(G, author) for a in _authors(G, p)}
    out = {}
    for a in _typed(G, "author"):
        if a not in coauthors:
            theirs = {m for p in _papers_of(G, a) for m in _out(G, p, {"proposes", "uses"})}
            if mine & theirs:
                out[G.nodes[a]["name"]] = len(mine & theirs)
    return out


def test_shared_methods_not_coauthors(build: Workspace, G: nx.MultiDiGraph) -> None:
    author = max(_typed(G, "author")[:300], key=lambda a: len(_shared_not_coauthors(G, a)))
    expected = _shared_not_coauthors(G, author)
    assert expected, "the test corpus should have authors sharing methods"
    r = query(build, "shared-methods-not-coauthors", params={"author": G.nodes[author]["name"]})
    got = {row[2]: row[3] for row in r.values()}
    assert set(got.items()) <= set(expected.items())
    assert len(got) == min(50, len(expected))
    assert sorted(got.values(), reverse=True) == sorted(expected.values(), reverse=True)[: len(got)]


def test_citation_indegree(build: Workspace, G: nx.MultiDiGraph) -> None:
    indeg = Counter(v for u, v, k in G.edges(keys=True) if k == "cites")
    r = query(build, "citation-indegree").values()
    assert len(r) == min(10, len(indeg))
    assert [row[2] for row in r] == sorted(indeg.values(), reverse=True)[: len(r)]


def test_papers_without_entities(build: Workspace, G: nx.MultiDiGraph) -> None:
    expected = {G.nodes[p]["record_id"] for p in _typed(G, "paper") if not _out(G, p, ROLE)}
    got = {row[0] for row in query(build, "papers-without-entities").values()}
    assert got == expected


def test_evidence_matches_the_graph(build: Workspace, G: nx.MultiDiGraph) -> None:
    paper = max(_typed(G, "paper"), key=lambda p: len(_out(G, p, ROLE)))
    expected = {(G.nodes[v]["name"], m["text"], m["start"], m["end"])
                for _, v, k, d in G.out_edges(paper, keys=True, data=True) if k in ROLE
                for m in d.get("evidence") or ()}
    r = query(build, "evidence", params={"paper": G.nodes[paper]["record_id"]})
    assert {(row[2], row[3], row[5], row[6]) for row in r.values()} == expected
    abstract = G.nodes[paper]["abstract"] or ""
    for row in r.values():
        if row[4] == "abstract":
            assert abstract[row[5]:row[6]] == row[3]


# ----------------------------------------------------------------------------- parameters and safety

def test_parameters_are_checked(build: Workspace) -> None:
    with pytest.raises(QueryError, match=r"needs --param author=\.\.\."):
        query(build, "coauthors")
    with pytest.raises(QueryError, match="has no parameter 'who'"):
        query(build, "coauthors", params={"author": "x", "who": "y"})
    assert parse_params(['author=Renzhe Xu', "x=a=b"]) == {"author": "Renzhe Xu", "x": "a=b"}
    with pytest.raises(QueryError, match="bad --param"):
        parse_params(["no-equals"])


def test_parameters_are_values_not_text(build: Workspace) -> None:
    """A value with quotes and braces is bound as a literal, never spliced into the query."""
    r = query(build, "coauthors", params={"author": 'x" } ; DROP ALL ; SELECT * { "'})
    assert r.rows == []


@pytest.mark.parametrize("text, error", [
    ("INSERT DATA { <http://a> <http://b> <http://c> }", UpdateRefusedError),
    ("DELETE WHERE { ?s ?p ?o }", UpdateRefusedError),
    ("SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }", ServiceRefusedError),
    ("select * { optional { service silent <http://example.org/sparql> { ?s ?p ?o } } }", ServiceRefusedError),
    ("SELECT ?x WHERE { ?x ?y }", QueryError),
])
def test_refused_and_malformed(build: Workspace, text: str, error: type) -> None:
    for _ in range(2):  # the check is remembered per text: a refusal must not be
        with pytest.raises(error):
            query(build, text)


def test_service_in_a_string_is_not_a_service_call(build: Workspace) -> None:
    r = query(build, 'SELECT ?s WHERE { ?s ?p "SERVICE <http://x> { }" }')
    assert r.rows == []


def test_query_file_with_params(build: Workspace, tmp_path: Path) -> None:
    f = tmp_path / "q.rq"
    f.write_text("# mine: papers of a year\n# @param year integer  The year.\n"
                 "PREFIX fabio: <http://purl.org/spar/fabio/>\n"
                 "SELECT ?year (COUNT(?p) AS ?n) WHERE { ?p fabio:hasPublicationYear ?y . "
                 "BIND(YEAR(?y) AS ?year) } GROUP BY ?year", encoding="utf-8")
    ex = read_query_file(f)
    assert ex.params == {"year": ("integer", "The year.")}
    with pytest.raises(QueryError, match="expected an integer"):
        run_query(open_store(build), ex.text, params={"year": "soon"}, example=ex)


# ----------------------------------------------------------------------------- result formats

@pytest.mark.parametrize("fmt", ["json", "xml", "tsv"])
def test_results_parse_back_with_oxigraph(build: Workspace, fmt: str) -> None:
    r = query(build, "citation-indegree")
    back = ox.parse_query_results(r.serialize(fmt), format=getattr(ox.QueryResultsFormat, fmt.upper()))
    assert [v.value for v in back.variables] == r.variables
    assert [tuple(sol[v] for v in back.variables) for sol in back] == r.rows


def test_csv_results(build: Workspace) -> None:
    import csv
    import io

    r = query(build, "citation-indegree")
    rows = list(csv.reader(io.StringIO(r.serialize("csv").decode("utf-8"))))
    assert rows[0] == r.variables
    assert rows[1:] == [[t.value if t is not None else "" for t in row] for row in r.rows]


def test_ask_construct_and_limit(build: Workspace) -> None:
    assert query(build, "ASK { ?s a <http://purl.org/spar/fabio/ResearchPaper> }").boolean is True
    assert json.loads(query(build, "ASK { ?s a <http://nothing> }").serialize("json"))["boolean"] is False
    g = query(build, "CONSTRUCT { ?s a ?t } WHERE { ?s a ?t } LIMIT 5")
    assert g.kind == "graph" and len(g) == 5
    assert len(list(ox.parse(g.serialize("ttl"), format=ox.RdfFormat.TURTLE))) == 5
    r = query(build, "SELECT ?s WHERE { ?s ?p ?o }", limit=7)
    assert len(r.rows) == 7 and r.truncated
    table = r.to_table()
    assert table.splitlines()[0] == "s" and "(7 rows, truncated)" in table
