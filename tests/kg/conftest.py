"""Fixtures for the tests of ``kg``'s modules."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from kg.store import build_store

ONE_QUAD = ('<https://w3id.org/paperkg/id/paper/a> <http://purl.org/dc/terms/title> "A" '
            '<https://w3id.org/paperkg/id/graph/qa> .\n')


@pytest.fixture(scope="module")
def one_quad_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A build folder whose store holds one quad (a paper's title in graph ``.../graph/qa``)."""
    d = tmp_path_factory.mktemp("one-quad")
    (d / "in.nq").write_text(ONE_QUAD, encoding="utf-8")
    build_store(d / "in.nq", d / "out")
    return d / "out"


@contextmanager
def _serving(server) -> Iterator:
    """Run ``server`` (a :class:`kg.endpoint.SparqlServer`) in a thread; shut it down after."""
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        t.join(5)


@pytest.fixture(scope="session")
def serving():
    """``with serving(make_server(...)) as srv:`` runs the server in a thread while inside."""
    return _serving
