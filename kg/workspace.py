"""The build folder (``kg build ... -o OUT/``): where each stage writes, and loading it back.

Layout::

    OUT/
      records.jsonl      merged records (kg ingest)
      extracted.jsonl    records plus entities and citations (kg extract)
      graph.pickle       the NetworkX MultiDiGraph (kg.graph.build_graph)
      search.sqlite      full-text index (kg search)
      rdf/               RDF serializations, ontology, shapes
      store/             embedded triple store (kg sparql, kg serve)
      html/              pyvis views and index.html (kg view)
      summary.json       what the build read, merged, skipped, and how long each stage took
      .cache/            content-keyed cache that makes re-runs incremental
      .staging-PID/      while ``kg build`` runs: its new outputs, renamed into place when every
                         stage succeeded (see :mod:`kg.build`); gone after the build
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from kg.errors import WorkspaceError
from kg.io import atomic_write
from kg.records import Record

if TYPE_CHECKING:
    import networkx as nx


class Workspace:
    """A build folder. Paths are attributes; loaders fail with a clear message when a stage is missing."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.records_path = self.path / "records.jsonl"
        self.extracted_path = self.path / "extracted.jsonl"
        self.graph_path = self.path / "graph.pickle"
        self.search_path = self.path / "search.sqlite"
        self.rdf_dir = self.path / "rdf"
        self.store_dir = self.path / "store"
        self.html_dir = self.path / "html"
        self.summary_path = self.path / "summary.json"
        self.cache_dir = self.path / ".cache"

    def __repr__(self) -> str:
        return f"Workspace({str(self.path)!r})"

    def require(self, path: Path, what: str) -> Path:
        if not self.path.is_dir():
            raise WorkspaceError(f"{self.path}: not a build folder; run `kg build INPUT... -o {self.path}` first")
        if not path.exists():
            raise WorkspaceError(f"{self.path}: has no {what}; run `kg build INPUT... -o {self.path}` first")
        return path

    def iter_records(self, *, extracted: bool = True) -> Iterator[Record]:
        """Records of the build, with extraction results when ``extracted`` and available."""
        path = self.extracted_path if extracted and self.extracted_path.exists() else self.records_path
        self.require(path, "records")
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    yield Record.from_dict(json.loads(line))

    def load_graph(self) -> "nx.MultiDiGraph":
        self.require(self.graph_path, "graph")
        with open(self.graph_path, "rb") as fh:
            try:
                return pickle.load(fh)
            except (pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError, ImportError,
                    IndexError, KeyError) as exc:  # what a damaged or foreign pickle raises
                raise WorkspaceError(f"{self.graph_path}: not a readable graph ({type(exc).__name__}); "
                                     f"run `kg build INPUT... -o {self.path}` again") from None

    def save_graph(self, G: "nx.MultiDiGraph") -> Path:
        with atomic_write(self.graph_path, "wb") as fh:
            pickle.dump(G, fh, protocol=pickle.HIGHEST_PROTOCOL)
        return self.graph_path

    def load_summary(self) -> dict[str, Any]:
        self.require(self.summary_path, "summary")
        return json.loads(self.summary_path.read_text(encoding="utf-8"))


def write_records(records: "Iterator[Record] | list[Record]", path: str | Path, *,
                  extraction: bool | None = None) -> int:
    """Write records as JSON Lines atomically; returns how many were written."""
    n = 0
    with atomic_write(path) as fh:
        for rec in records:
            fh.write(json.dumps(rec.to_dict(extraction=extraction), ensure_ascii=False))
            fh.write("\n")
            n += 1
    return n
