"""``kg serve OUT`` while ``kg build`` rebuilds OUT: the answers come from the old store, then
from the new one, never from a mix. Found with the staging build: a server kept answering from
the store it had opened before the rebuild, and a worker restarted after a timeout opened the
new one, so two workers of one server answered for two builds."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest

from kg.build import BuildOptions, build
from kg.endpoint import SparqlServer, make_server
from kg.store import open_store, run_query

pytestmark = pytest.mark.server

COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"


@pytest.fixture()
def out(tmp_path: Path, demo_dir: Path) -> Path:
    build([demo_dir], tmp_path / "out", options=BuildOptions(progress=False, html=False))
    return tmp_path / "out"


@pytest.fixture()
def server(out: Path, serving) -> Iterator[SparqlServer]:
    with serving(make_server(out, port=0, timeout=30, workers=2)) as srv:
        yield srv


def _count(url: str) -> int:
    with urllib.request.urlopen(url + "?" + urllib.parse.urlencode({"query": COUNT}), timeout=60) as resp:
        return int(json.loads(resp.read())["results"]["bindings"][0]["n"]["value"])


def _local_count(out: Path) -> int:
    store = open_store(out)
    try:
        return int(run_query(store, COUNT).rows[0][0].value)
    finally:
        del store


def test_a_server_answers_for_the_new_build_after_a_rebuild(server: SparqlServer, out: Path, tmp_path: Path,
                                                           demo_dir: Path) -> None:
    before = _local_count(out)
    assert [_count(server.url) for _ in range(4)] == [before] * 4  # both workers
    more = tmp_path / "more.jsonl"
    more.write_text(json.dumps({"title": "Served While Rebuilt", "abstract": "We rebuild a served graph.",
                                "authors": ["Rhea Server"], "year": 2025}) + "\n", encoding="utf-8")
    build([demo_dir, more], out, options=BuildOptions(progress=False, html=False))
    after = _local_count(out)
    assert after > before
    assert [_count(server.url) for _ in range(4)] == [after] * 4
    with urllib.request.urlopen(server.url.rsplit("/", 1)[0] + "/", timeout=30) as resp:
        assert f"quads: {after}" in resp.read().decode("utf-8")
