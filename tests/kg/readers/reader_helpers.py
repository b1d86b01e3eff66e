"""Shared by the reader tests (a plain module: a conftest.py here would be imported under the
name ``kg.readers.conftest`` and shadow the real package)."""

from __future__ import annotations

from pathlib import Path

from kg.readers import detect_format, read_file
from kg.readers.base import ReadContext
from kg.records import Record

FIXTURES = Path(__file__).resolve().parents[2] / "data" / "readers"


def read_all(path: Path, *, format: str | None = None, skip_bad: bool = False) -> tuple[list[Record], ReadContext]:
    """Every record of a file and the context holding the skip counts."""
    fmt = format or detect_format(path)
    ctx = ReadContext(path=path, format=fmt, skip_bad=skip_bad)
    return list(read_file(path, format=format, ctx=ctx)), ctx


_CACHE: dict[Path, list[Record]] = {}


def read_shared(path: Path) -> list[Record]:
    """Records of a real shared-data file, read once per test session (they never change)."""
    if path not in _CACHE:
        recs, ctx = read_all(path)
        assert not ctx.skipped, ctx.skipped_examples
        _CACHE[path] = recs
    return _CACHE[path]
