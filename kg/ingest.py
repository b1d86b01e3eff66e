"""Ingest: read every input file, merge duplicates, and account for everything read.

This is the first stage of ``kg build`` and the whole of ``kg ingest``. Nothing is dropped
silently: every file's record count, every skipped item (with ``skip_bad``) and every merge
conflict ends up in :class:`IngestResult`.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from kg import PIPELINE_VERSION
from kg.cache import Cache, file_digest
from kg.errors import InputError
from kg.text import digest
from kg.io import atomic_write
from kg.merge import Conflict, merge_records
from kg.readers import ReadContext, detect_format, read_file
from kg.records import Record

#: Files skipped when a folder is given as input: documentation and code, not records.
_SKIP_IN_DIRS = (".md", ".py", ".rst", ".sh", ".lock")
#: ... and the licence and readme files that come with downloaded data (``LICENSE``,
#: ``README.txt``): without these, a folder as downloaded stopped at its licence file.
_SKIP_NAMES_IN_DIRS = frozenset({"LICENSE", "LICENCE", "COPYING", "NOTICE", "README", "AUTHORS",
                                 "CHANGELOG", "CHANGES", "CITATION"})
_SKIP_NAME_SUFFIXES = ("", ".txt", ".cff")


def _skipped_in_dir(f: Path) -> bool:
    suffix = f.suffix.lower()
    if suffix in _SKIP_IN_DIRS:
        return True
    stem = f.stem.upper()
    return suffix in _SKIP_NAME_SUFFIXES and (
        stem in _SKIP_NAMES_IN_DIRS or stem.startswith(("LICENSE-", "LICENSE_", "LICENCE-", "LICENCE_")))


@dataclass
class FileReport:
    path: str
    format: str
    records: int = 0
    skipped: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "format": self.format, "records": self.records, "skipped": self.skipped}


@dataclass
class IngestResult:
    records: list[Record]
    files: list[FileReport]
    read: int
    conflicts: list[Conflict]
    skipped_examples: list[str]
    kept_apart: int = 0

    @property
    def skipped(self) -> Counter:
        total: Counter = Counter()
        for f in self.files:
            total.update(f.skipped)
        return total

    def summary(self) -> dict[str, Any]:
        """The JSON-able account of the ingest (part of ``summary.json``)."""
        return {
            "files": [f.to_dict() for f in self.files],
            "records_read": self.read,
            "papers": len(self.records),
            "merged": self.read - len(self.records),
            "skipped": sum(self.skipped.values()),
            "skipped_reasons": dict(self.skipped),
            "skipped_examples": self.skipped_examples,
            "conflicts": len(self.conflicts),
            "same_key_kept_apart": self.kept_apart,
        }


def expand_inputs(inputs: Iterable[str | Path]) -> list[Path]:
    """Files to read: files as given; folders expanded to their files (sorted, recursively),
    leaving out hidden files, documentation/code (``.md``, ``.py``, ...) and licence/readme
    files (``LICENSE``, ``README.txt``, ``COPYING``, ...)."""
    out: list[Path] = []
    for item in inputs:
        p = Path(item)
        if p.is_dir():
            found = sorted(
                f for f in p.rglob("*")
                if f.is_file() and not any(part.startswith(".") for part in f.relative_to(p).parts)
                and not _skipped_in_dir(f)
            )
            if not found:
                raise InputError("folder holds no input files", path=str(p))
            out.extend(found)
        elif p.exists():
            out.append(p)
        else:
            raise InputError("no such file", path=str(p))
    return list(dict.fromkeys(out))


def iter_file_records(paths: Iterable[Path], *, format: str | None = None, skip_bad: bool = False,
                      reports: list[FileReport], examples: list[str],
                      on_file: Callable[[Path], None] | None = None) -> Iterator[Record]:
    """Stream the records of many files, filling one :class:`FileReport` per file."""
    for path in paths:
        fmt = format or detect_format(path)
        ctx = ReadContext(path=path, format=fmt, skip_bad=skip_bad)
        report = FileReport(str(path), fmt)
        reports.append(report)
        for rec in read_file(path, format=fmt, skip_bad=skip_bad, ctx=ctx):
            report.records += 1
            yield rec
        if report.records == 0 and not ctx.skipped:
            ctx.bad("no paper records found in the file", line=None)
        report.skipped = dict(ctx.skipped)
        examples.extend(ctx.skipped_examples[: max(0, 20 - len(examples))])
        if on_file:
            on_file(path)


def ingest(inputs: Iterable[str | Path], *, format: str | None = None, skip_bad: bool = False,
           on_file: Callable[[Path], None] | None = None, cache: "Cache | None" = None) -> IngestResult:
    """Read and merge all inputs.

    Parameters
    ----------
    inputs
        Files or folders.
    format
        Force one format for every file (default: detect per file).
    skip_bad
        Skip and count malformed items instead of failing on the first.
    on_file
        Called after each file is read (progress reporting).
    cache
        A build cache: a file whose content, path and options were read before is not parsed
        again (used by ``kg build``).

    Examples
    --------
    >>> import kg, pathlib
    >>> demo = pathlib.Path(kg.__file__).parent / "data" / "demo"
    >>> result = ingest([demo])
    >>> result.read > len(result.records) > 0
    True
    """
    paths = expand_inputs(inputs)
    reports: list[FileReport] = []
    examples: list[str] = []
    if cache is None:
        stream = iter_file_records(paths, format=format, skip_bad=skip_bad, reports=reports,
                                   examples=examples, on_file=on_file)
    else:
        stream = _cached_records(paths, cache, format=format, skip_bad=skip_bad, reports=reports,
                                 examples=examples, on_file=on_file)
    merged = merge_records(stream)
    return IngestResult(merged.records, reports, merged.read, merged.conflicts, examples, merged.kept_apart)


def write_conflicts(conflicts: Iterable[Conflict], path: str | Path) -> int:
    n = 0
    with atomic_write(path) as fh:
        for c in conflicts:
            fh.write(json.dumps(c.to_dict(), ensure_ascii=False) + "\n")
            n += 1
    return n


def _cached_records(paths: list[Path], cache: Cache, *, format: str | None, skip_bad: bool,
                    reports: list[FileReport], examples: list[str],
                    on_file: Callable[[Path], None] | None) -> Iterator[Record]:
    for path in paths:
        key = digest(PIPELINE_VERSION, str(path), file_digest(path), format or "", str(skip_bad), length=40)
        hit = cache.get("ingest", key)
        if hit is None:
            file_reports: list[FileReport] = []
            file_examples: list[str] = []
            recs = list(iter_file_records([path], format=format, skip_bad=skip_bad,
                                          reports=file_reports, examples=file_examples))
            hit = {"report": file_reports[0].to_dict(), "examples": file_examples,
                   "records": [r.to_dict() for r in recs]}
            cache.put("ingest", key, hit)
            yield from recs
        else:
            yield from (Record.from_dict(d) for d in hit["records"])
        reports.append(FileReport(**hit["report"]))
        examples.extend(hit["examples"][: max(0, 20 - len(examples))])
        if on_file:
            on_file(path)
