"""Fixtures for the CLI tests."""

from __future__ import annotations

import pytest

from extractors.pipeline import extract_records
from kg.graph import build_graph
from kg.metrics import add_metrics
from kg.readers import read_file
from kg.workspace import Workspace


@pytest.fixture(scope="session")
def seed_graph_ws(tmp_path_factory, seeds_dir):
    """A build folder holding only the graph of the real seed pages (with extraction)."""
    records = [r for f in sorted(seeds_dir.glob("*.txt")) for r in read_file(f)]
    G = build_graph(extract_records(records))
    add_metrics(G)
    path = tmp_path_factory.mktemp("build")
    Workspace(path).save_graph(G)
    return path
