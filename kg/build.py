"""``kg build``: every stage, in order, into one build folder, incrementally.

ingest -> extract -> authors -> graph (+ metrics, search index) -> RDF (+ store) -> HTML views.

Re-running on the same inputs plus a new file re-parses only the new file and extracts only
the new (or changed) abstracts: both are cached under ``OUT/.cache`` by content and code
version. Corpus-level steps (merging, consolidation, the graph and everything after it) are
recomputed each time from the cached parts, so the output equals a clean run's.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from kg import PIPELINE_VERSION, __version__
from kg.cache import Cache
from kg.errors import WorkspaceError
from kg.ingest import IngestResult, ingest, write_conflicts
from kg.io import atomic_write, remove_temporaries
from kg.records import Record
from kg.text import digest
from kg.workspace import Workspace, write_records

#: Files that builds of earlier paperkg versions left in the build folder and nothing reads any
#: more, relative to it: the term-profile cache of ``kg related`` before the stored index in
#: ``OUT/related/`` replaced it (hundreds of MB at 100k papers).
STALE_FILES = (".cache/related_terms.npz",)


def remove_stale_files(ws: Workspace, *, log: Callable[[str], None] = lambda msg: None) -> list[Path]:
    """Delete the :data:`STALE_FILES` of an earlier build in ``ws``, one ``log`` line each.

    Returns the paths removed. A file that cannot be removed is reported and left (the build
    goes on: it never reads them).

    Examples
    --------
    >>> remove_stale_files(Workspace("a-folder-never-built-into"))
    []
    """
    removed = []
    for rel in STALE_FILES:
        path = ws.path / rel
        if not path.is_file():
            continue
        try:
            size = path.stat().st_size
            path.unlink()
        except OSError as e:
            log(f"could not remove {path}, left by an earlier paperkg version ({e.strerror or e})")
            continue
        removed.append(path)
        log(f"removed {path} ({size / 1e6:,.1f} MB), left by an earlier paperkg version and no longer read")
    return removed


def _make_build_folder(path: Path) -> Path | None:
    """Create the build folder ``path`` (and its missing parents), or say in one line why not.

    Returns the topmost folder this created (``None`` when ``path`` already existed), so a
    failed first build can remove all of it.
    """
    for ancestor in (path, *path.parents):
        if ancestor.is_dir():
            break
        if ancestor.exists() or ancestor.is_symlink():
            where = "it" if ancestor == path else ancestor
            raise WorkspaceError(f"{path}: cannot be a build folder: {where} is a file, not a folder")
    if path.is_dir():
        return None
    top = path
    while not top.parent.exists() and top.parent != top:
        top = top.parent
    try:
        path.mkdir(parents=True)
    except OSError as exc:
        raise WorkspaceError(f"{path}: cannot create the build folder: {exc.strerror or exc}") from None
    return top


#: Temporary files a killed build leaves behind, as glob patterns relative to the build folder:
#: those of :func:`kg.io.atomic_write` beside records.jsonl, extracted.jsonl, conflicts.jsonl,
#: graph.pickle and summary.json (``.NAME.*.tmp``), and the arrays and metadata of the
#: related-authors index in ``related/``. The later stages clear their own (search, rdf,
#: store, html).
LEFTOVERS = (".*.tmp", "related/.*.tmp")


def remove_leftovers(ws: Workspace) -> None:
    """Delete the :data:`LEFTOVERS` of earlier builds that were killed (a graph temporary is as
    large as the graph); a build folder is written by one build at a time, so none is in use."""
    remove_temporaries(ws.path, *LEFTOVERS)


@dataclass
class BuildOptions:
    format: str | None = None
    skip_bad: bool = False
    n_process: int = 1
    spacy_model: str | None = None
    base_iri: str | None = None  # None: exports.rdf.DEFAULT_BASE_IRI
    evidence: bool = True
    # Serializations beside the N-Quads. None by default: at 100k papers the Turtle copy
    # alone took longer than the rest of the RDF stage, and every consumer reads the N-Quads.
    rdf_formats: tuple[str, ...] = ()
    authors_file: str | None = None
    extract: bool = True
    rdf: bool = True
    html: bool = True
    progress: bool = True


@dataclass
class BuildResult:
    workspace: Workspace
    summary: dict[str, Any]
    outputs: dict[str, str] = field(default_factory=dict)


class _Timer:
    """Times each stage for the summary and says which stage is running (progress on stderr)."""

    def __init__(self, log: Callable[[str], None]) -> None:
        self.stages: dict[str, float] = {}
        self.log = log

    def run(self, name: str, fn: Callable[[], Any]) -> Any:
        """Run one stage; only a stage that returned is reported done (and timed in the summary)."""
        t0 = time.perf_counter()
        try:
            value = fn()
        except BaseException as exc:
            how = "interrupted" if isinstance(exc, KeyboardInterrupt) else "failed"
            self.log(f"{name}: {how} after {time.perf_counter() - t0:.1f} s")
            raise
        self.stages[name] = round(time.perf_counter() - t0, 3)
        self.log(f"{name}: done in {self.stages[name]:.1f} s")
        return value


def _extract_cached(records: Sequence[Record], cache: Cache, opts: BuildOptions,
                    log: Callable[[str], None]) -> tuple[list[Record], dict[str, int]]:
    """Per-document extraction through the cache, then corpus-level consolidation."""
    from extractors import EXTRACTOR_VERSION
    from extractors.pipeline import RawExtraction, consolidate, extract_raw

    keys = [digest(EXTRACTOR_VERSION, opts.spacy_model or "", r.title or "", r.abstract or "", length=40)
            for r in records]
    hits = cache.get_many("extract", keys)
    todo = [i for i, k in enumerate(keys) if k not in hits]
    log(f"extracting {len(todo):,} of {len(records):,} papers ({len(records) - len(todo):,} cached)")
    if todo:
        fresh = extract_raw((records[i] for i in todo), n_process=opts.n_process,
                            spacy_model=opts.spacy_model)
        if opts.progress:
            from tqdm import tqdm

            fresh = tqdm(fresh, total=len(todo), desc="extract", unit="paper", leave=False)
        batch: list[tuple[str, Any]] = []
        for i, raw in zip(todo, fresh):
            d = raw.to_dict()
            hits[keys[i]] = d
            batch.append((keys[i], d))
            if len(batch) >= 2000:
                cache.put_many("extract", batch)
                batch = []
        cache.put_many("extract", batch)
    raws = [RawExtraction.from_dict(hits[k]) for k in keys]
    return consolidate(records, raws), {"extracted": len(todo), "cached": len(records) - len(todo)}


def build(inputs: Iterable[str | Path], out: str | Path, *, options: BuildOptions | None = None,
          log: Callable[[str], None] = lambda msg: None) -> BuildResult:
    """Run every stage on ``inputs`` into the build folder ``out``.

    Returns the workspace, the summary (also written to ``OUT/summary.json``) and the main
    output paths. Raises :class:`kg.errors.PaperkgError` for bad input; each output file is
    written atomically, so a failure leaves no half-written file.
    """
    opts = options or BuildOptions()
    ws = Workspace(out)
    created = _make_build_folder(ws.path)
    # A folder without a summary holds no complete build: if this one fails, what it wrote goes.
    first = not ws.summary_path.exists()
    before = {p.name for p in ws.path.iterdir()} if first else set()
    remove_stale_files(ws, log=log)
    remove_leftovers(ws)
    timer = _Timer(log)
    outputs: dict[str, str] = {}
    cache: Cache | None = None
    try:
        cache = Cache(ws.cache_dir)
        result: IngestResult = timer.run("ingest", lambda: ingest(
            inputs, format=opts.format, skip_bad=opts.skip_bad, cache=cache,
            on_file=lambda p: log(f"read {p}")))
        records = result.records
        summary: dict[str, Any] = {"paperkg": __version__, "pipeline_version": PIPELINE_VERSION}
        if opts.extract:
            from extractors import EXTRACTOR_VERSION

            # which rules found the entities: the extraction cache is keyed by it too
            summary["extractor_version"] = EXTRACTOR_VERSION
        summary["ingest"] = result.summary()
        ingested = records

        if opts.extract:
            records, counts = timer.run("extract", lambda: _extract_cached(records, cache, opts, log))
            summary["extract"] = counts | _entity_counts(records)

        from kg.authors import resolve_authors

        index, author_report = timer.run("authors", lambda: resolve_authors(records, overrides=opts.authors_file))
        summary["authors"] = author_report
        if opts.authors_file:
            from kg.authors import authors_file_record

            # `kg authors OUT` applies the same decisions, or says the file changed
            summary["authors"]["authors_file"] = authors_file_record(opts.authors_file)

        from kg.graph import build_graph
        from kg.metrics import add_metrics
        from kg.search import build_search_index

        G = timer.run("graph", lambda: build_graph(records, authors=index))
        if "extractor_version" in summary:
            G.graph["extractor_version"] = summary["extractor_version"]
        timer.run("metrics", lambda: add_metrics(G))
        # Written only now: a rebuild that fails or is interrupted before (in the extraction,
        # the longest stage) leaves the previous build's records, graph and all as they were.
        write_records(ingested, ws.records_path)
        write_conflicts(result.conflicts, ws.path / "conflicts.jsonl")
        outputs["records"] = str(ws.records_path)
        if opts.extract:
            write_records(records, ws.extracted_path, extraction=True)
            outputs["extracted"] = str(ws.extracted_path)
        # The graph holds all that the later stages read; the records and the author index
        # are about 1 GB at 100k papers.
        records = ingested = result = index = None  # type: ignore[assignment]
        ws.save_graph(G)
        outputs["graph"] = str(ws.graph_path)
        from kg.related_index import write_workspace_index  # OUT/related/: `kg related` without the graph

        timer.run("related", lambda: write_workspace_index(G, ws))
        summary["graph"] = {"nodes": G.number_of_nodes(), "edges": G.number_of_edges()}
        timer.run("search", lambda: build_search_index(G, ws.search_path))
        outputs["search"] = str(ws.search_path)

        if opts.rdf:
            from exports.rdf import write_build_rdf
            from kg.store import build_store

            iri = {"base_iri": opts.base_iri} if opts.base_iri else {}
            rdf_paths = timer.run("rdf", lambda: write_build_rdf(G, ws.rdf_dir, evidence=opts.evidence,
                                                                      formats=opts.rdf_formats, **iri))
            # The store loads the N-Quads just written: the graph is mapped to RDF once, not twice.
            timer.run("store", lambda: build_store(rdf_paths["nq"], ws, evidence=opts.evidence, **iri))
            outputs["rdf"] = str(rdf_paths["nq"])
            outputs["store"] = str(ws.store_dir)
        if opts.html:
            from exports.html import write_site

            timer.run("html", lambda: write_site(G, ws.html_dir))
            outputs["html"] = str(ws.html_dir / "index.html")
        removed, stale = _remove_skipped_outputs(ws, opts, log=log)
        if removed:
            summary["removed"] = removed
        if stale:
            summary["stale"] = stale
        summary["seconds"] = timer.stages
        summary["outputs"] = outputs
        with atomic_write(ws.summary_path) as fh:
            json.dump(summary, fh, indent=2, ensure_ascii=False)
        return BuildResult(ws, summary, outputs)
    except BaseException:
        if cache is not None:
            cache.close()
            cache = None
        if first:
            _remove_new_entries(ws.path, before, created)
        raise
    finally:
        if cache is not None:
            cache.close()


def _remove_skipped_outputs(ws: Workspace, opts: BuildOptions, *,
                            log: Callable[[str], None] = lambda msg: None) -> tuple[dict[str, str], dict[str, str]]:
    """Deal with what an earlier build wrote for a stage this build skipped; one ``log`` line each.

    A build folder describes one corpus, so ``extracted.jsonl`` (``--no-extract``; the
    workspace reads it in preference to ``records.jsonl``) and ``html/`` (``--no-html``; the
    views would show the earlier graph with no hint) are removed. ``rdf/`` and ``store/``
    (``--no-rdf``) are kept, as :func:`kg.store.stale_store_reason` expects: they take minutes
    to rebuild at 100k papers, and ``kg sparql``, ``serve`` and ``push`` warn on every use that
    they answer for the earlier build; the build says so once too. Runs only after every stage
    succeeded (a failed build keeps the previous one).

    Returns (removed, kept stale): path relative to the build folder -> the option.
    """
    import shutil

    removed: dict[str, str] = {}
    stale: dict[str, str] = {}
    gone = [(ws.extracted_path, "--no-extract")] if not opts.extract else []
    if not opts.html:
        gone.append((ws.html_dir, "--no-html"))
    for path, option in gone:
        if not (path.exists() or path.is_symlink()):
            continue
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
        removed[path.relative_to(ws.path).as_posix()] = option
        log(f"removed {path}: an earlier build's, for a stage this one skipped ({option})")
    if not opts.rdf:
        left = [p for p in (ws.rdf_dir, ws.store_dir) if p.exists()]
        for p in left:
            stale[p.relative_to(ws.path).as_posix()] = "--no-rdf"
        if left:
            log(f"kg: warning: {' and '.join(map(str, left))} are an earlier build's (--no-rdf): kg sparql, "
                "serve and push answer for that corpus; build without --no-rdf to refresh them")
    return removed, stale


def _remove_new_entries(folder: Path, before: set[str], created: Path | None) -> None:
    """Undo a failed first build: delete what it added to ``folder`` (the entries not in
    ``before``), and the folders it created (``created`` is the topmost, or ``None``)."""
    import shutil

    for p in folder.iterdir():
        if p.name in before:
            continue
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)
    if created is not None:
        # only the folders made for this build, and only if nothing else appeared in them
        for d in (folder, *folder.parents):
            try:
                d.rmdir()
            except OSError:
                break
            if d == created:
                break


def _entity_counts(records: Sequence[Record]) -> dict[str, Any]:
    from collections import Counter

    by_type: Counter = Counter()
    for r in records:
        for e in r.entities:
            by_type[f"{e.type.value}:{e.role.value if e.role else '-'}"] += 1
    return {"entities": dict(sorted(by_type.items())),
            "citations": sum(len(r.citations) for r in records),
            "papers_without_entities": sum(1 for r in records if not r.entities)}
