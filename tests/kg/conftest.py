"""Fixtures for the tests of ``kg``'s modules."""

from __future__ import annotations

from pathlib import Path

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
