"""Fixtures for the extractor tests: one default pipeline per session, and a helper that runs it."""

from __future__ import annotations

import pytest

from kg.records import Record
from kg.text import normalize_text


@pytest.fixture(scope="session")
def nlp():
    from extractors.pipeline import make_nlp

    return make_nlp()


def record(abstract: str | None, title: str | None = None, rid: str = "t:1") -> Record:
    """A record as readers make them: text normalised (``kg.text.normalize_text``)."""
    return Record(id=rid, title=normalize_text(title), abstract=normalize_text(abstract))


@pytest.fixture(scope="session")
def rec():
    """The :func:`record` helper, for test modules (the tests folder is not a package)."""
    return record


@pytest.fixture(scope="session")
def extract(nlp):
    """``extract(abstract, title=None)`` -> {(type, name): entity} after consolidation of that one record."""
    from extractors.pipeline import consolidate, extract_raw

    def run(abstract: str | None, title: str | None = None):
        recs = [record(abstract, title)]
        out = consolidate(recs, list(extract_raw(recs, nlp=nlp)))[0]
        return [e for e in out.entities if e.type.value != "concept"]

    return run
