"""Readers: one module per input format, each turning a file into :class:`kg.records.Record` s.

A reader module defines

- ``NAME`` (the ``--format`` value), ``EXTENSIONS`` (file endings it claims),
- ``sniff(path, head: str) -> bool``: True when the text looks like this format, and
- ``read(path, ctx: ReadContext) -> Iterator[Record]``: the records, in file order; malformed
  items go to ``ctx.bad(reason, line=n)``.

:func:`detect_format` tries the readers by content first and by extension second;
:func:`read_file` is what the rest of paperkg calls.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Iterator

from kg.errors import InputError, UnknownFormatError
from kg.readers.base import ReadContext, check_binary, read_head
from kg.records import Record

#: Reader modules in sniffing order: the most specific formats first.
READER_MODULES = (
    "openalex",
    "semanticscholar",
    "arxiv",
    "confpapers",
    "jsonl",
    "bibtex",
    "csv",
    "seeds",
)

_loaded: dict[str, ModuleType] = {}


def _module(name: str) -> ModuleType:
    if name not in _loaded:
        _loaded[name] = importlib.import_module(f"kg.readers.{name}")
    return _loaded[name]


def formats() -> list[str]:
    """The ``--format`` names paperkg knows."""
    return [_module(m).NAME for m in READER_MODULES]


def reader_for(format_name: str) -> ModuleType:
    for m in READER_MODULES:
        mod = _module(m)
        if mod.NAME == format_name:
            return mod
    raise UnknownFormatError(f"unknown format {format_name!r}; known: {', '.join(formats())}")


def detect_format(path: Path) -> str:
    """The format of a file, by content, then by extension.

    Raises :class:`UnknownFormatError` naming the file when nothing fits, and
    :class:`InputError` for an empty or binary file.
    """
    head_bytes = read_head(path)
    if not head_bytes.strip():
        raise InputError("empty file", path=str(path))
    check_binary(path, head_bytes)
    head = head_bytes.decode("utf-8", errors="replace").lstrip("\ufeff")
    for m in READER_MODULES:
        mod = _module(m)
        if mod.sniff(path, head):
            return mod.NAME
    suffix = "".join(path.suffixes[-1:]).lower()
    for m in READER_MODULES:
        mod = _module(m)
        if suffix in mod.EXTENSIONS:
            return mod.NAME
    raise UnknownFormatError(
        f"cannot tell the format; use --format with one of: {', '.join(formats())}", path=str(path)
    )


def read_file(path: str | Path, *, format: str | None = None, skip_bad: bool = False,
              ctx: ReadContext | None = None) -> Iterator[Record]:
    """The records of one file, streamed in file order.

    Parameters
    ----------
    path
        The input file.
    format
        Force a format instead of detecting it.
    skip_bad
        Skip and count malformed items instead of stopping at the first.
    ctx
        A context to collect the skip counts in (one is made when omitted).
    """
    path = Path(path)
    fmt = format or detect_format(path)
    mod = reader_for(fmt)
    if format:  # detection checks these too; a forced format must not skip them
        head = read_head(path)
        if not head.strip():
            raise InputError("empty file", path=str(path))
        check_binary(path, head)
    if ctx is None:
        ctx = ReadContext(path=path, format=fmt, skip_bad=skip_bad)
    yield from mod.read(path, ctx)


__all__ = ["READER_MODULES", "ReadContext", "detect_format", "formats", "read_file", "reader_for"]
