"""``kg build``: every stage, in order, into one build folder, incrementally.

ingest -> extract -> authors -> graph (+ metrics, search index) -> RDF (+ store) -> HTML views.

Re-running on the same inputs plus a new file re-parses only the new file and extracts only
the new (or changed) abstracts: both are cached under ``OUT/.cache`` by content and code
version. Corpus-level steps (merging, consolidation, the graph and everything after it) are
recomputed each time from the cached parts, so the output equals a clean run's.

Staging and the swap
--------------------
Every stage writes into a staging folder inside the build folder, ``OUT/.staging-<pid>/``
(same file system, so moving its outputs into ``OUT`` is a rename, never a copy); only the
cache is used in place (``OUT/.cache``: content-keyed, it can never be stale, so what a failed
build added to it is kept and makes the next try faster). When every stage has succeeded,
:func:`swap_in` moves the outputs into ``OUT`` one entry at a time, ``summary.json`` last,
each with ``renameat2(RENAME_EXCHANGE)`` (Linux 3.15+, on ext4, xfs, btrfs and tmpfs among
others): the new entry and the previous one trade places in one atomic step, so a reader
finds either the whole old ``store/`` or the whole new one, never a missing or half-filled
folder. Where the exchange is not available, an old entry is first renamed aside and the new
one renamed in, so for the time between those two renames that entry is missing (never half
written). An exception during the swap (e.g. Ctrl-C) puts back what it had swapped.

What the swap cannot give: Linux has no atomic rename of a set of entries, so for the time the
renames take (microseconds; no data is copied) a reader can see some new entries beside old
ones, e.g. the new ``graph.pickle`` with the old ``store/``; and a build killed outright
(``kill -9``, a power cut) during those renames leaves such a mix until the next build.
A failure or interruption at any earlier point -- any stage, a full disk, Ctrl-C, ``kill -9`` --
leaves ``OUT`` exactly as the previous successful build left it (a failed first build leaves
nothing), and the next build deletes staging folders that killed builds left. While a build
runs it needs room for the new outputs beside the previous ones (about twice a build's size).
An output in ``OUT`` that is a symbolic link (e.g. ``html`` -> a web server's folder) keeps the
link: the folder it points to is what gets swapped, which must then be on OUT's file system.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import shutil
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


#: Temporary files killed builds of earlier paperkg versions (which wrote in the build folder
#: itself, not in a staging folder) left behind, as glob patterns relative to the build folder:
#: those of :func:`kg.io.atomic_write` beside records.jsonl, extracted.jsonl, conflicts.jsonl,
#: graph.pickle, search.sqlite and summary.json (``.NAME.*.tmp``), the arrays and metadata of
#: the related-authors index in ``related/``, and the RDF files and views.
LEFTOVERS = (".*.tmp", "related/.*.tmp", "rdf/.paperkg.*.tmp", "rdf/paperkg.*.tmp", "html/.*.html.*.tmp",
             "html/views/.*.html.*.tmp")

#: Folders killed builds left in the build folder: a build's staging folder (see the module
#: docstring), and the half-built and moved-aside stores of versions that wrote in place.
LEFTOVER_FOLDERS = (".staging-*", ".store-*", "store.old")

#: Prefix of the staging folder in the build folder; the building process's id follows.
STAGING_PREFIX = ".staging-"

#: What a build writes, in the order :func:`swap_in` moves it into the build folder. The graph
#: goes before ``related/`` (a ``kg related`` that finds the new graph beside the old index
#: rebuilds the index from the graph: slower, never wrong), ``rdf/`` just before ``store/``
#: (a reader compares them), ``summary.json`` last: it tells a complete build.
OUTPUTS = ("records.jsonl", "conflicts.jsonl", "extracted.jsonl", "graph.pickle", "related",
           "search.sqlite", "rdf", "store", "html", "summary.json")


def remove_leftovers(ws: Workspace) -> None:
    """Delete what earlier builds that were killed left: the :data:`LEFTOVERS` temporaries (a
    graph temporary is as large as the graph) and the :data:`LEFTOVER_FOLDERS`, but not the
    staging folder of a build still running (a build folder is written by one build at a time:
    that other build fails or wins, and this one must not pull its files away)."""
    remove_temporaries(ws.path, *LEFTOVERS)
    for pattern in LEFTOVER_FOLDERS:
        for p in ws.path.glob(pattern):
            if not p.is_dir() or p.is_symlink():
                continue
            if p.name.startswith(STAGING_PREFIX) and _is_running(p.name[len(STAGING_PREFIX):]):
                continue
            shutil.rmtree(p, ignore_errors=True)


def _is_running(pid: str) -> bool:
    """Whether the process ``pid`` (a decimal string) exists on this machine; False for junk."""
    if not pid.isdigit() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's process (or a number too large to be one: left alone)
    return True


def _make_staging(ws: Workspace) -> Workspace:
    """The empty staging folder of this build in ``ws`` (see the module docstring)."""
    path = ws.path / f"{STAGING_PREFIX}{os.getpid()}"
    shutil.rmtree(path, ignore_errors=True)
    try:
        path.mkdir()
    except OSError as exc:
        raise WorkspaceError(f"{ws.path}: cannot write in the build folder: {exc.strerror or exc}") from None
    return Workspace(path)


def _check_linked_outputs(ws: Workspace) -> None:
    """Fail before any stage runs when an output of ``ws`` cannot be swapped by renaming: a
    mount point, or a symbolic link to another file system."""
    home = os.stat(ws.path).st_dev
    for name in OUTPUTS:
        p = ws.path / name
        if not p.is_symlink():
            if p.is_dir() and os.stat(p).st_dev != home:
                raise WorkspaceError(f"{p}: a mount point: a build swaps its outputs in by renaming; "
                                     "unmount it, or build into another folder and copy")
            continue
        target = Path(os.path.realpath(p))
        try:
            dev = os.stat(target.parent).st_dev
        except OSError as exc:
            raise WorkspaceError(f"{p}: a link to {target}, whose folder cannot be used: "
                                 f"{exc.strerror or exc}") from None
        if dev != home:
            raise WorkspaceError(f"{p}: a link to {target}, on another file system than {ws.path}: a build "
                                 "swaps its outputs in by renaming; point the link into that file system "
                                 "or remove it")


def _renameat2_exchange() -> Callable[[Path, Path], bool]:
    """A function that exchanges two paths atomically with Linux's ``renameat2`` (True), or
    returns False where the C library or the file system does not offer it."""
    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return lambda a, b: False
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    at_fdcwd, rename_exchange = -100, 2

    def exchange(a: Path, b: Path) -> bool:
        if fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
            return True
        err = ctypes.get_errno()
        if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
            return False
        raise OSError(err, os.strerror(err), str(b))

    return exchange


_exchange = _renameat2_exchange()


def swap_in(stage: Workspace, ws: Workspace, *, remove: Sequence[str] = (),
            exchange: Callable[[Path, Path], bool] | None = None) -> int:
    """Move the outputs a build wrote into ``stage`` into the build folder ``ws`` by renaming;
    returns how many entries of ``ws`` were replaced, added or removed.

    Each entry of :data:`OUTPUTS` that ``stage`` holds replaces the one in ``ws`` (in that
    order), atomically per entry where ``exchange`` (default: ``renameat2(RENAME_EXCHANGE)``)
    works; the entries named in ``remove`` are taken out of ``ws``. What ``ws`` held goes into
    ``stage`` (for the caller to delete). An exception undoes the renames done so far, so ``ws``
    is as it was. See the module docstring for what readers can see meanwhile.
    """
    exchange = exchange or _exchange
    aside = stage.path / ".previous"
    done: list[tuple[str, Path, Path]] = []  # (how, staged path, path in ws)
    try:
        for name in OUTPUTS:
            new, dst = stage.path / name, ws.path / name
            if name in remove:  # a link goes as a link
                if dst.exists() or dst.is_symlink():
                    aside.mkdir(exist_ok=True)
                    os.rename(dst, aside / name)
                    done.append(("removed", aside / name, dst))
                continue
            if dst.is_symlink():
                dst = Path(os.path.realpath(dst))  # the link stays; what it points to is replaced
            there = dst.exists() or dst.is_symlink()
            if not (new.exists() or new.is_symlink()):
                continue
            if not there:
                os.rename(new, dst)
                done.append(("added", new, dst))
            elif exchange(new, dst):
                done.append(("exchanged", new, dst))
            else:
                aside.mkdir(exist_ok=True)
                os.rename(dst, aside / name)
                done.append(("removed", aside / name, dst))
                os.rename(new, dst)
                done.append(("added", new, dst))
        return len({dst for _, _, dst in done})
    except BaseException as exc:
        for how, staged, dst in reversed(done):
            try:
                if how == "exchanged":
                    if not exchange(staged, dst):
                        raise OSError(errno.ENOTSUP, "cannot exchange back", str(dst))
                else:  # "added": move the new entry out; "removed": move the old one back
                    os.rename(*((dst, staged) if how == "added" else (staged, dst)))
            except OSError:
                pass  # the next build replaces everything anyway; the first error is the one to see
        if isinstance(exc, OSError):
            where = exc.filename or ws.path
            raise WorkspaceError(f"{where}: cannot swap the new build in: {exc.strerror or exc}; "
                                 "the previous build is kept") from None
        raise


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
    output paths. Raises :class:`kg.errors.PaperkgError` for bad input. The stages write into a
    staging folder that replaces the outputs in ``out`` only when all succeeded (see the module
    docstring), so a failed or interrupted build leaves ``out`` as the previous build left it.
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
    stage: Workspace | None = None
    try:
        _check_linked_outputs(ws)
        stage = _make_staging(ws)
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

        G = timer.run("graph", lambda: build_graph(records, authors=index))
        if "extractor_version" in summary:
            G.graph["extractor_version"] = summary["extractor_version"]
        timer.run("metrics", lambda: add_metrics(G))
        write_records(ingested, stage.records_path)
        write_conflicts(result.conflicts, stage.path / "conflicts.jsonl")
        outputs["records"] = str(ws.records_path)
        if opts.extract:
            write_records(records, stage.extracted_path, extraction=True)
            outputs["extracted"] = str(ws.extracted_path)
        # The graph holds all that the later stages read; the records and the author index
        # are about 1 GB at 100k papers.
        records = ingested = result = index = None  # type: ignore[assignment]
        stage.save_graph(G)
        outputs["graph"] = str(ws.graph_path)
        from kg.related_index import write_workspace_index  # OUT/related/: `kg related` without the graph

        timer.run("related", lambda: write_workspace_index(G, stage))
        summary["graph"] = {"nodes": G.number_of_nodes(), "edges": G.number_of_edges()}
        timer.run("search", lambda: _build_search_index(G, stage.search_path))
        outputs["search"] = str(ws.search_path)

        if opts.rdf:
            from exports.rdf import write_build_rdf
            from kg.store import build_store

            iri = {"base_iri": opts.base_iri} if opts.base_iri else {}
            rdf_paths = timer.run("rdf", lambda: write_build_rdf(G, stage.rdf_dir, evidence=opts.evidence,
                                                                      formats=opts.rdf_formats, **iri))
            # The store loads the N-Quads just written: the graph is mapped to RDF once, not twice.
            timer.run("store", lambda: build_store(rdf_paths["nq"], stage, evidence=opts.evidence, **iri))
            outputs["rdf"] = str(ws.rdf_dir / rdf_paths["nq"].name)
            outputs["store"] = str(ws.store_dir)
        if opts.html:
            from exports.html import write_site

            timer.run("html", lambda: write_site(G, stage.html_dir))
            outputs["html"] = str(ws.html_dir / "index.html")
        removed, stale = _skipped_outputs(ws, opts)
        if removed:
            summary["removed"] = removed
        if stale:
            summary["stale"] = stale
        summary["seconds"] = timer.stages
        summary["outputs"] = outputs
        with atomic_write(stage.summary_path) as fh:
            json.dump(summary, fh, indent=2, ensure_ascii=False)
        cache.close()
        cache = None
        t0 = time.perf_counter()
        moved = swap_in(stage, ws, remove=list(removed))
        log(f"swap: {moved} outputs renamed into {ws.path} in {(time.perf_counter() - t0) * 1000:.2f} ms")
        for rel, option in removed.items():
            log(f"removed {ws.path / rel}: an earlier build's, for a stage this one skipped ({option})")
        if stale:
            left = " and ".join(str(ws.path / rel) for rel in stale)
            log(f"kg: warning: {left} are an earlier build's (--no-rdf): kg sparql, "
                "serve and push answer for that corpus; build without --no-rdf to refresh them")
        return BuildResult(ws, summary, outputs)
    except BaseException:
        if cache is not None:
            cache.close()
            cache = None
        if stage is not None:
            shutil.rmtree(stage.path, ignore_errors=True)
            stage = None
        if first:
            _remove_new_entries(ws.path, before, created)
        raise
    finally:
        if cache is not None:
            cache.close()
        if stage is not None:
            # the previous outputs, swapped out; deleted after OUT is whole again
            shutil.rmtree(stage.path, ignore_errors=True)


def _build_search_index(G: Any, path: Path) -> int:
    """:func:`kg.search.build_search_index`, with SQLite's full disk as one line naming the file
    (SQLite reports it as ``OperationalError: database or disk is full``, not as an OSError)."""
    import sqlite3

    from kg.search import build_search_index

    try:
        return build_search_index(G, path)
    except sqlite3.OperationalError as exc:
        if getattr(exc, "sqlite_errorcode", None) == 13 or "disk is full" in str(exc):  # SQLITE_FULL
            raise WorkspaceError(f"{path}: cannot write: No space left on device ({exc}; "
                                 "nothing was replaced)") from None
        raise


def _skipped_outputs(ws: Workspace, opts: BuildOptions) -> tuple[dict[str, str], dict[str, str]]:
    """What an earlier build wrote in ``ws`` for a stage this build skipped.

    A build folder describes one corpus, so ``extracted.jsonl`` (``--no-extract``; the
    workspace reads it in preference to ``records.jsonl``) and ``html/`` (``--no-html``; the
    views would show the earlier graph with no hint) are to be removed (:func:`swap_in` does it
    with the rest of the swap). ``rdf/`` and ``store/`` (``--no-rdf``) are kept, as
    :func:`kg.store.stale_store_reason` expects: they take minutes to rebuild at 100k papers,
    and ``kg sparql``, ``serve`` and ``push`` warn on every use that they answer for the
    earlier build; the build says so once too.

    Returns (to remove, kept stale): path relative to the build folder -> the option.
    """
    removed: dict[str, str] = {}
    stale: dict[str, str] = {}
    gone = [(ws.extracted_path, "--no-extract")] if not opts.extract else []
    if not opts.html:
        gone.append((ws.html_dir, "--no-html"))
    for path, option in gone:
        if path.exists() or path.is_symlink():
            removed[path.relative_to(ws.path).as_posix()] = option
    if not opts.rdf:
        for p in (ws.rdf_dir, ws.store_dir):
            if p.exists():
                stale[p.relative_to(ws.path).as_posix()] = "--no-rdf"
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
