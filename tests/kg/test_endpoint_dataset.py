"""The RDF dataset of a query: ``FROM`` / ``FROM NAMED`` and the SPARQL 1.1 Protocol's
``default-graph-uri`` / ``named-graph-uri``, through a real client (SPARQLWrapper) against the
real ``kg serve`` endpoint, and through ``kg sparql``.

Found by QA: the endpoint ran every query over the union of all graphs, so ``FROM <g>`` and
``default-graph-uri`` were silently ignored and a client got answers from graphs it had not
asked for. The protocol (2.1.4) says the request's graphs replace the query's dataset clause;
SPARQL 1.1 Query (13.2) says what FROM NAMED alone leaves in the default graph (nothing).
"""

from __future__ import annotations

import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest
from SPARQLWrapper import GET, JSON, POST, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import QueryBadFormed

from kg.cli import main
from kg.endpoint import SparqlServer, make_server
from kg.store import build_store

pytestmark = pytest.mark.server

EX = "https://w3id.org/paperkg/id/"
G1, G2 = f"{EX}graph/one", f"{EX}graph/two"
TITLE = "http://purl.org/dc/terms/title"
QUADS = (f'<{EX}paper/a> <{TITLE}> "A" <{G1}> .\n'
         f'<{EX}paper/b> <{TITLE}> "B" <{G2}> .\n')

TITLES = f"SELECT ?t WHERE {{ ?p <{TITLE}> ?t }} ORDER BY ?t"
GRAPHS = f"SELECT ?g ?t WHERE {{ GRAPH ?g {{ ?p <{TITLE}> ?t }} }} ORDER BY ?t"


@pytest.fixture(scope="module")
def two_graphs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding two named graphs: paper A in ``G1``, paper B in ``G2``."""
    d = tmp_path_factory.mktemp("two-graphs")
    (d / "in.nq").write_text(QUADS, encoding="utf-8")
    build_store(d / "in.nq", d / "out")
    return d / "out"


@pytest.fixture(scope="module")
def server(two_graphs: Path, serving) -> Iterator[SparqlServer]:
    with serving(make_server(two_graphs, port=0, timeout=10, workers=1)) as srv:
        yield srv


def ask(url: str, query: str, *, method: str = GET, default: tuple[str, ...] = (),
        named: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    sw = SPARQLWrapper(url)
    sw.setQuery(query)
    sw.setReturnFormat(JSON)
    sw.setMethod(method)
    for g in default:
        sw.addDefaultGraph(g)
    for g in named:
        sw.addNamedGraph(g)
    res = sw.queryAndConvert()
    names = res["head"]["vars"]
    return [tuple(b[v]["value"] for v in names) for b in res["results"]["bindings"]]


@pytest.mark.parametrize("method", [GET, POST])
def test_without_a_dataset_the_default_graph_is_every_graph(server: SparqlServer, method: str) -> None:
    assert ask(server.url, TITLES, method=method) == [("A",), ("B",)]
    assert ask(server.url, GRAPHS, method=method) == [(G1, "A"), (G2, "B")]


@pytest.mark.parametrize("method", [GET, POST])
def test_from_in_the_query_is_honoured(server: SparqlServer, method: str) -> None:
    assert ask(server.url, f"SELECT ?t FROM <{G1}> WHERE {{ ?p <{TITLE}> ?t }}", method=method) == [("A",)]
    assert ask(server.url, f"SELECT ?t FROM <{G1}> FROM <{G2}> WHERE {{ ?p <{TITLE}> ?t }} ORDER BY ?t",
               method=method) == [("A",), ("B",)]
    assert ask(server.url, f"SELECT ?t FROM <{EX}graph/none> WHERE {{ ?p <{TITLE}> ?t }}", method=method) == []
    # FROM NAMED alone: the named graphs for GRAPH, an empty default graph
    q = f"SELECT ?g ?t FROM NAMED <{G2}> WHERE {{ GRAPH ?g {{ ?p <{TITLE}> ?t }} }}"
    assert ask(server.url, q, method=method) == [(G2, "B")]
    assert ask(server.url, f"SELECT ?t FROM NAMED <{G2}> WHERE {{ ?p <{TITLE}> ?t }}", method=method) == []


@pytest.mark.parametrize("method", [GET, POST])
def test_the_protocol_graphs_choose_the_dataset(server: SparqlServer, method: str) -> None:
    assert ask(server.url, TITLES, method=method, default=(G2,)) == [("B",)]
    assert ask(server.url, TITLES, method=method, default=(G1, G2)) == [("A",), ("B",)]
    # named graphs only: the default graph is empty, GRAPH sees the ones named
    assert ask(server.url, GRAPHS, method=method, named=(G1,)) == [(G1, "A")]
    assert ask(server.url, TITLES, method=method, named=(G1,)) == []
    # default graphs only: no named graphs
    assert ask(server.url, GRAPHS, method=method, default=(G1,)) == []


@pytest.mark.parametrize("method", [GET, POST])
def test_the_protocol_graphs_take_precedence_over_from(server: SparqlServer, method: str) -> None:
    q = f"SELECT ?t FROM <{G1}> WHERE {{ ?p <{TITLE}> ?t }}"
    assert ask(server.url, q, method=method, default=(G2,)) == [("B",)]


def test_from_in_a_string_or_comment_is_no_dataset(server: SparqlServer) -> None:
    q = f'SELECT ?t WHERE {{ ?p <{TITLE}> ?t FILTER(?t != "from") }} # from <{G1}>\nORDER BY ?t'
    assert ask(server.url, q) == [("A",), ("B",)]


def _http(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as resp:
            return resp.status, resp.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8")


@pytest.mark.parametrize("param", ["default-graph-uri", "named-graph-uri"])
def test_a_graph_that_is_not_an_iri_is_a_400_naming_the_parameter(server: SparqlServer, param: str) -> None:
    url = server.url + "?" + urllib.parse.urlencode({"query": TITLES, param: "not an iri"})
    status, body = _http(url)
    assert status == 400
    assert body.startswith(f"{param}: 'not an iri' is not an absolute IRI")
    with pytest.raises(QueryBadFormed):
        ask(server.url, TITLES, **({"default": ("graph one",)} if param.startswith("default") else
                                   {"named": ("graph one",)}))


def test_kg_sparql_honours_from_and_the_graph_options(two_graphs: Path, capsys) -> None:
    def rows(*args: str) -> list[str]:
        assert main(["sparql", str(two_graphs), *args, "--format", "csv"]) == 0
        return capsys.readouterr().out.split()[1:]

    assert rows(TITLES) == ["A", "B"]
    assert rows(f"SELECT ?t FROM <{G2}> WHERE {{ ?p <{TITLE}> ?t }}") == ["B"]
    assert rows(TITLES, "--default-graph-uri", G1) == ["A"]
    assert rows(f"SELECT ?t FROM <{G2}> WHERE {{ ?p <{TITLE}> ?t }}", "--default-graph-uri", G1) == ["A"]
    assert rows(GRAPHS, "--named-graph-uri", G2) == [f"{G2},B"]
    assert main(["sparql", str(two_graphs), TITLES, "--named-graph-uri", "nope"]) == 1
    assert capsys.readouterr().err.startswith("kg: error: named-graph-uri: 'nope' is not an absolute IRI")


def test_a_build_answers_for_its_own_graph_named_with_from(tmp_path: Path, demo_dir: Path, capsys) -> None:
    from kg.build import BuildOptions, build
    from kg.store import store_info

    out = tmp_path / "out"
    build([demo_dir], out, options=BuildOptions(progress=False, html=False, extract=False))
    graph = store_info(out)["graph"]
    count = "SELECT (COUNT(*) AS ?n) {} WHERE {{ ?s ?p ?o }}"
    assert main(["sparql", str(out), count.format(""), "--format", "csv"]) == 0
    everything = capsys.readouterr().out.split()[1]
    assert int(everything) > 100
    assert main(["sparql", str(out), count.format(f"FROM <{graph}>"), "--format", "csv"]) == 0
    assert capsys.readouterr().out.split()[1] == everything
    assert main(["sparql", str(out), count.format(f"FROM <{graph}-other>"), "--format", "csv"]) == 0
    assert capsys.readouterr().out.split()[1] == "0"
