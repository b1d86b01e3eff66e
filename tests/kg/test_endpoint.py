"""kg serve: the SPARQL 1.1 Protocol endpoint, queried by a real client (SPARQLWrapper) over HTTP."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest
import rdflib
from SPARQLWrapper import CSV, JSON, N3, POST, POSTDIRECTLY, TSV, TURTLE, XML, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import QueryBadFormed

from kg.endpoint import SparqlServer, make_server
from kg.store import query
from kg.workspace import Workspace

pytestmark = pytest.mark.server

NAMES = """PREFIX foaf: <http://xmlns.com/foaf/0.1/>
SELECT ?name WHERE { ?a foaf:name ?name } ORDER BY ?name"""
SLOW = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i }"


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory, seeds_dir: Path) -> Workspace:
    from kg.build import BuildOptions, build as run_build

    return run_build([seeds_dir], tmp_path_factory.mktemp("endpoint") / "out",
                     options=BuildOptions(html=False, progress=False)).workspace


@pytest.fixture(scope="module")
def server(build: Workspace, serving) -> Iterator[SparqlServer]:
    with serving(make_server(build, port=0, timeout=3, max_rows=1000)) as srv:
        yield srv


@pytest.fixture(scope="module")
def capped(build: Workspace, serving) -> Iterator[SparqlServer]:
    with serving(make_server(build, port=0, timeout=1, max_rows=5, workers=1)) as srv:
        yield srv


def _client(url: str, q: str, fmt: str = JSON, method: str | None = None) -> SPARQLWrapper:
    sw = SPARQLWrapper(url)
    sw.setQuery(q)
    sw.setReturnFormat(fmt)
    if method:
        sw.setMethod(POST)
        sw.setRequestMethod(method)
    return sw


def _http(url: str, *, data: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, str, dict]:
    req = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.read().decode("utf-8"), dict(resp.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8"), dict(exc.headers)


def test_binds_loopback_by_default(server: SparqlServer) -> None:
    assert server.server_address[0] == "127.0.0.1"
    assert server.url.startswith("http://127.0.0.1:")


def test_select_json_matches_the_local_store(server: SparqlServer, build: Workspace) -> None:
    local = [row[0] for row in query(build, NAMES).values()]
    res = _client(server.url, NAMES).query().convert()
    assert [b["name"]["value"] for b in res["results"]["bindings"]] == local
    assert len(local) > 100


@pytest.mark.parametrize("method", [None, "urlencoded", POSTDIRECTLY])
def test_get_and_both_posts(server: SparqlServer, build: Workspace, method: str | None) -> None:
    res = _client(server.url, NAMES, JSON, method).query()
    assert res.response.headers["Content-Type"].startswith("application/sparql-results+json")
    assert len(res.convert()["results"]["bindings"]) == len(query(build, NAMES).rows)


def test_select_xml(server: SparqlServer, build: Workspace) -> None:
    doc = _client(server.url, NAMES, XML).query().convert()
    names = [lit.firstChild.data for lit in doc.getElementsByTagName("literal")]
    assert names == [row[0] for row in query(build, NAMES).values()]


@pytest.mark.parametrize("fmt, ctype, sep", [(CSV, "text/csv", ","), (TSV, "text/tab-separated-values", "\t")])
def test_select_csv_and_tsv(server: SparqlServer, build: Workspace, fmt: str, ctype: str, sep: str) -> None:
    res = _client(server.url, NAMES, fmt).query()
    assert res.response.headers["Content-Type"].startswith(ctype)
    lines = res.convert().decode("utf-8").splitlines()
    assert lines[0] == ("name" if fmt == CSV else "?name")
    names = [row[0] for row in query(build, NAMES).values()]
    expected = names if fmt == CSV else [json.dumps(n, ensure_ascii=False) for n in names]
    assert lines[1:] == expected


def test_ask(server: SparqlServer) -> None:
    res = _client(server.url, "ASK { ?s a <http://xmlns.com/foaf/0.1/Person> }").query().convert()
    assert res["boolean"] is True


@pytest.mark.parametrize("fmt", [TURTLE, N3])
def test_construct_as_rdf(server: SparqlServer, fmt: str) -> None:
    q = ("PREFIX foaf: <http://xmlns.com/foaf/0.1/> "
         "CONSTRUCT { ?a foaf:name ?n } WHERE { ?a foaf:name ?n }")
    g = _client(server.url, q, fmt).query().convert()
    if isinstance(g, bytes):
        g = rdflib.Graph().parse(data=g, format="turtle")
    assert len(g) > 100


def test_example_query_over_http(server: SparqlServer, build: Workspace) -> None:
    from kg.store import load_example

    text = load_example("citation-indegree").text
    local = query(build, text)
    res = _client(server.url, text).query().convert()
    assert len(res["results"]["bindings"]) == len(local.rows)


def test_update_is_refused(server: SparqlServer, build: Workspace) -> None:
    before = query(build, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }").values()
    sw = SPARQLWrapper(server.url)
    sw.setQuery("INSERT DATA { <http://example.org/a> <http://example.org/b> <http://example.org/c> }")
    sw.setMethod(POST)
    with pytest.raises(urllib.error.HTTPError) as err:
        sw.query()
    assert err.value.code == 403
    # and every other way to send one
    for data, headers in [
        (b"INSERT DATA { <http://a> <http://b> <http://c> }", {"Content-Type": "application/sparql-update"}),
        (urllib.parse.urlencode({"query": "DELETE WHERE { ?s ?p ?o }"}).encode(), {}),
    ]:
        status, body, _ = _http(server.url, data=data, headers=headers)
        assert status == 403 and "read-only" in body
    assert query(build, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }").values() == before


def test_service_is_refused(server: SparqlServer) -> None:
    q = "SELECT * WHERE { SERVICE <http://127.0.0.1:9/sparql> { ?s ?p ?o } }"
    status, body, _ = _http(server.url + "?" + urllib.parse.urlencode({"query": q}))
    assert status == 403 and "SERVICE" in body


def test_malformed_query_gets_400_with_the_parser_message(server: SparqlServer) -> None:
    with pytest.raises(QueryBadFormed) as err:
        _client(server.url, "SELECT ?x WHERE { ?x ?y ").query()
    assert "malformed SPARQL query" in str(err.value)
    status, body, _ = _http(server.url + "?" + urllib.parse.urlencode({"query": "SELEC * {}"}))
    assert status == 400 and "found 'SELEC'" in body


def test_protocol_errors(server: SparqlServer) -> None:
    assert _http(server.url)[0] == 400  # no query
    assert _http(server.url.replace("/sparql", "/elsewhere"))[0] == 404
    q = urllib.parse.urlencode({"query": NAMES})
    assert _http(f"{server.url}?{q}", headers={"Accept": "image/png"})[0] == 406
    assert _http(server.url, data=b"x", headers={"Content-Type": "application/json"})[0] == 415


def test_result_cap(capped: SparqlServer) -> None:
    res = _client(capped.url, NAMES).query()
    assert res.response.headers["X-Paperkg-Truncated"] == "true"
    assert len(res.convert()["results"]["bindings"]) == 5
    small = _client(capped.url, "SELECT ?x WHERE { VALUES ?x { 1 2 } }").query()
    assert small.response.headers["X-Paperkg-Truncated"] == "false"


def test_timeout_stops_the_query_and_the_server_recovers(capped: SparqlServer) -> None:
    t0 = time.monotonic()
    status, body, _ = _http(capped.url + "?" + urllib.parse.urlencode({"query": SLOW}))
    assert status == 503 and "timeout" in body
    assert time.monotonic() - t0 < 20
    # the only worker was killed and replaced: the next query is answered
    res = _client(capped.url, "ASK { ?s ?p ?o }").query().convert()
    assert res["boolean"] is True


def test_in_memory_workers_answer_the_same(build: Workspace, server: SparqlServer, serving) -> None:
    with serving(make_server(build, port=0, workers=1, memory=True)) as mem:
        for q in (NAMES, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"):
            assert _client(mem.url, q).query().convert() == _client(server.url, q).query().convert()


def test_kg_serve_command(build: Workspace) -> None:
    """The installed ``kg serve`` on a free port, queried with SPARQLWrapper, stopped after."""
    proc = subprocess.Popen([sys.executable, "-m", "kg", "serve", str(build.path), "--port", "0", "--quiet"],
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        assert "serving" in line, line
        url = line.split(" at ")[1].split()[0]
        assert url.startswith("http://127.0.0.1:") and url.endswith("/sparql")
        res = _client(url, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }").query().convert()
        n = int(res["results"]["bindings"][0]["n"]["value"])
        assert n == query(build, "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }").values()[0][0]
    finally:
        proc.terminate()
        proc.wait(10)
