"""kg push against a real Oxigraph server (the ``oxigraph`` package's ``oxigraph serve``)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest
from click.testing import CliRunner
from SPARQLWrapper import JSON, SPARQLWrapper

from kg.cli import cli
from kg.push import PushError, push
from kg.store import example_queries, query, store_info
from kg.workspace import Workspace

pytestmark = pytest.mark.server


def _oxigraph_binary() -> str:
    local = Path(sys.executable).parent / "oxigraph"
    found = str(local) if local.exists() else shutil.which("oxigraph")
    if not found:
        pytest.fail("the `oxigraph` server binary is required (pip install oxigraph); it was not found "
                    f"beside {sys.executable} nor on PATH")
    return found


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def oxigraph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real Oxigraph server on a free loopback port, in a temporary folder; stopped after."""
    binary = _oxigraph_binary()
    port = _free_port()
    data = tmp_path_factory.mktemp("oxigraph")
    proc = subprocess.Popen([binary, "serve", "--location", str(data), "--bind", f"127.0.0.1:{port}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{base}/query?query=ASK%7B%7D", timeout=2).read()
                break
            except (urllib.error.URLError, ConnectionError):
                if proc.poll() is not None or time.monotonic() > deadline:
                    err = proc.stderr.read().decode() if proc.poll() is not None else "no answer in 30 s"
                    pytest.fail(f"oxigraph server did not start: {err}")
                time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory, seeds_dir: Path) -> Workspace:
    from kg.build import BuildOptions, build as run_build

    return run_build([seeds_dir], tmp_path_factory.mktemp("push") / "out",
                     options=BuildOptions(html=False, progress=False)).workspace


def _remote(base: str, q: str, graph: str) -> list[tuple[str | None, ...]]:
    sw = SPARQLWrapper(f"{base}/query")
    sw.setQuery(q)
    sw.addDefaultGraph(graph)
    sw.setReturnFormat(JSON)
    res = sw.query().convert()
    if "boolean" in res:
        return [(str(res["boolean"]).lower(),)]
    names = res["head"]["vars"]
    return [tuple(b[v]["value"] if v in b else None for v in names) for b in res["results"]["bindings"]]


def _local(build: Workspace, q: str, params: dict[str, str] | None = None) -> list[tuple[str | None, ...]]:
    r = query(build, q, params=params)
    return [tuple(t.value if t is not None else None for t in row) for row in r.rows]


def _params(build: Workspace) -> dict[str, dict[str, str]]:
    G = build.load_graph()
    paper = max((n for n, d in G.nodes(data=True) if d["type"] == "paper"), key=G.out_degree)
    bench = next((d["name"] for _, d in G.nodes(data=True) if d["type"] == "benchmark"), "none")
    return {"author": {"author": "Renzhe Xu"}, "paper": {"paper": G.nodes[paper]["record_id"]},
            "benchmark": {"benchmark": bench}}


def test_push_then_every_example_query_answers_the_same(oxigraph: str, build: Workspace) -> None:
    info = store_info(build)
    result = CliRunner().invoke(cli, ["push", str(build.path), "--endpoint", f"{oxigraph}/store"])
    assert result.exit_code == 0, result.output
    assert f"pushed {info['quads']:,} triples to <{info['graph']}>" in result.output
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    assert _remote(oxigraph, count, info["graph"]) == [(str(info["quads"]),)]
    params = _params(build)
    compared = 0
    for name, ex in example_queries().items():
        bound = next((v for v in params.values() if set(v) == set(ex.params)), {}) if ex.params else {}
        local = _local(build, name, bound)
        # the server has no parameter binding: the same values go in as a VALUES block
        text = ex.text
        if bound:
            var, value = next(iter(bound.items()))
            text = _with_values(text, var, value)
        assert sorted(_remote(oxigraph, text, info["graph"]), key=repr) == sorted(local, key=repr), name
        compared += bool(local)
    assert compared >= 5


def _with_values(text: str, var: str, value: str) -> str:
    """Bind one variable by appending a VALUES clause after the query (SPARQL 1.1 §10.2.2)."""
    literal = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"{text}\nVALUES ?{var} {{ {literal} }}\n"


def test_push_replaces_the_graph_and_batches(oxigraph: str, build: Workspace) -> None:
    info = store_info(build)
    graph = "https://example.org/graphs/test-batches"
    first = push(build, f"{oxigraph}/store", graph=graph, batch_size=1000)
    assert first.batches == -(-info["quads"] // 1000) > 1
    again = push(build, f"{oxigraph}/store", graph=graph, batch_size=100_000)
    assert again.batches == 1 and again.triples == info["quads"]
    # PUT replaced the graph: nothing doubled, nothing left over from the first push
    count = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"
    assert _remote(oxigraph, count, graph) == [(str(info["quads"]),)]


def test_unreachable_server(build: Workspace) -> None:
    port = _free_port()  # nothing listens there
    with pytest.raises(PushError, match=rf"127.0.0.1:{port}/store: cannot reach the server"):
        push(build, f"http://127.0.0.1:{port}/store")


def test_refusing_server(oxigraph: str, build: Workspace) -> None:
    with pytest.raises(PushError, match=r"refused the PUT with HTTP 4\d\d"):
        push(build, f"{oxigraph}/query")
    with pytest.raises(PushError, match="bad endpoint"):
        push(build, "ftp://example.org/store")


def test_cli_reports_errors_in_one_line(build: Workspace) -> None:
    proc = subprocess.run([sys.executable, "-m", "kg", "push", str(build.path), "--endpoint",
                           f"http://127.0.0.1:{_free_port()}/store"], capture_output=True, text=True)
    assert proc.returncode == 1
    assert proc.stderr.startswith("kg: error: http://127.0.0.1:") and "cannot reach the server" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
