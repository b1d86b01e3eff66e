"""CSV (or TSV) with a header row.

Column names are matched case-insensitively, ignoring spaces, ``_`` and ``-``: ``title``,
``abstract``, ``authors`` (or ``author``), ``year``, ``venue`` (or ``journal``, ``booktitle``,
``conference``), ``doi``, ``arxiv``, ``category`` (or ``area``, ``primary_area``, ``topic``),
``subarea``, ``id``, ``references`` (ids separated by ``;`` or spaces). Other columns are
ignored. The delimiter (``,``, ``;`` or tab) is taken from the header line.

Authors are split on ``;`` when there is one (``Xu, Renzhe; Li, Haoxuan`` is two people written
``Last, First``), else on ``" and "``, else on ``,`` -- except that a list of single words in
pairs (``Xu, Renzhe``) is read as ``Last, First`` pairs.

Lines may end in ``\n``, ``\r\n`` or a lone ``\r`` (old Mac OS; some spreadsheet exports):
each is a line break, as in Python's universal-newlines mode. Errors name the file line the
row starts on (a quoted field may span lines). A row with fewer cells than the header, or with
neither title nor abstract, is bad input.
"""

from __future__ import annotations

import csv as _csv
import io
import re
from pathlib import Path
from typing import Iterator

from kg.readers.base import ReadContext, not_utf8_reason
from kg.readers.jsonl import split_prefixed_id
from kg.records import Category, Record, Source, make_record

NAME = "csv"
EXTENSIONS = (".csv", ".tsv")

#: Header name (lower case, no spaces/underscores/hyphens) -> field.
COLUMNS = {
    "title": "title", "papertitle": "title",
    "abstract": "abstract", "summary": "abstract",
    "authors": "authors", "author": "authors", "authornames": "authors",
    "year": "year", "publicationyear": "year",
    "venue": "venue", "journal": "venue", "booktitle": "venue", "conference": "venue",
    "doi": "doi",
    "arxiv": "arxiv", "arxivid": "arxiv", "eprint": "arxiv",
    "category": "category", "area": "category", "primaryarea": "category", "topic": "category",
    "subarea": "subarea",
    "id": "id",
    "references": "references",
}
_KEY = re.compile(r"[\s_\-]+")
_NEWLINE = re.compile(r"\r\n|\r|\n")
_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_REF_SPLIT = re.compile(r"[;\s]+")
#: The csv module refuses fields over 128 KiB by default; paperkg's own limit
#: (``ctx.check_field``) should be the one that speaks, so allow far more here.
_FIELD_LIMIT = 64 * 1024 * 1024


def _column_key(name: str) -> str:
    return _KEY.sub("", name.strip().lstrip("\ufeff").lower())


def split_authors(text: str | None) -> list[str]:
    """Author names from one text field.

    Examples
    --------
    >>> split_authors("Xu, Renzhe; Li, Haoxuan")
    ['Xu, Renzhe', 'Li, Haoxuan']
    >>> split_authors("Ada Lovelace, Charles Babbage")
    ['Ada Lovelace', 'Charles Babbage']
    >>> split_authors("Xu, Renzhe")
    ['Xu, Renzhe']
    """
    if not text or not text.strip():
        return []
    if ";" in text:
        parts = text.split(";")
    elif _AND.search(text) and "," not in text:
        parts = _AND.split(text)
    else:
        parts = text.split(",")
        words = [p.strip() for p in parts]
        if len(words) % 2 == 0 and all(w and " " not in w and not w.endswith(".") for w in words):
            parts = [f"{words[i]}, {words[i + 1]}" for i in range(0, len(words), 2)]
    return [p.strip() for p in parts if p.strip()]


def _delimiter(header: str) -> str | None:
    best, best_known = None, 0
    for delim in (",", "\t", ";"):
        cells = next(_csv.reader([header], delimiter=delim))
        known = sum(_column_key(c) in COLUMNS for c in cells)
        if known > best_known and len(cells) > 1:
            best, best_known = delim, known
    if best is None:
        return None
    cells = [_column_key(c) for c in next(_csv.reader([header], delimiter=best))]
    return best if ("title" in cells or "abstract" in cells
                    or "papertitle" in cells or "summary" in cells) else None


def sniff(path: Path, head: str) -> bool:
    """A first line that is a header with a title or abstract column."""
    first = _NEWLINE.split(head.lstrip("\ufeff"), 1)[0]
    if not first or first[0] in "{[@<":
        return False
    return _delimiter(first) is not None


def _text_lines(path: Path, ctx: ReadContext) -> Iterator[tuple[int, str]]:
    """(1-based line number, text) of a file whose lines end in ``\n``, ``\r\n`` or ``\r``;
    strict UTF-8, a line that is not goes to ``ctx.bad``.

    Bytes are read as Latin-1 in universal-newlines mode (every byte is one character, and a
    CR or LF byte is never part of a UTF-8 sequence), then each line is decoded as UTF-8.
    """
    with io.TextIOWrapper(open(path, "rb"), encoding="latin-1", newline=None) as fh:
        for n, raw in enumerate(fh, 1):
            data = raw.rstrip("\n").encode("latin-1")
            try:
                text = data.decode("utf-8-sig" if n == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                ctx.bad(not_utf8_reason(data, exc), line=n)
                continue
            yield n, text


def _lines(path: Path, ctx: ReadContext, pos: list[int]) -> Iterator[str]:
    for n, line in _text_lines(path, ctx):
        pos[0] = n
        yield line + "\n"


def read(path: Path, ctx: ReadContext) -> Iterator[Record]:
    """One record per data row."""
    with open(path, encoding="utf-8-sig", errors="replace", newline=None) as fh:
        first = fh.readline().rstrip("\n")
    delim = _delimiter(first)
    if delim is None:
        ctx.bad("CSV header: no title or abstract column "
                f"(known columns: {', '.join(sorted(set(COLUMNS.values())))})", line=1)
        return
    if _csv.field_size_limit() < _FIELD_LIMIT:
        _csv.field_size_limit(_FIELD_LIMIT)
    pos = [0]
    reader = _csv.reader(_lines(path, ctx, pos), delimiter=delim)
    try:
        header = next(reader)
    except (StopIteration, _csv.Error):
        return
    fields = [COLUMNS.get(_column_key(h)) for h in header]
    width = len(header)
    start = pos[0] + 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except _csv.Error as exc:
            ctx.bad(f"malformed CSV: {exc}", line=start)
            start = pos[0] + 1
            continue
        line = start
        start = pos[0] + 1
        if not row or not any(c.strip() for c in row):
            continue
        if len(row) < width:
            ctx.bad(f"CSV row has {len(row)} columns, the header has {width}", line=line)
            continue
        values: dict[str, str] = {}
        for name, cell in zip(fields, row):
            if name and cell.strip() and name not in values:
                values[name] = cell
        title, abstract = values.get("title"), values.get("abstract")
        if not (title or abstract):
            ctx.bad("no title and no abstract in this row", line=line)
            continue
        if not (ctx.check_field(abstract, "abstract", line=line)
                and ctx.check_field(title, "title", line=line)):
            continue
        category: Category | None = None
        if values.get("category"):
            category = Category.parse(values["category"])
            if category and values.get("subarea") and not category.subarea:
                category = Category(category.area, values["subarea"].strip())
        ids: dict[str, str] = {}
        if values.get("id"):
            ids.update(split_prefixed_id(values["id"]))
        for kind in ("doi", "arxiv"):
            if values.get(kind):
                ids[kind] = values[kind]
        yield make_record(
            source=Source(str(path), line, NAME),
            title=title,
            abstract=abstract,
            authors=split_authors(values.get("authors")),
            category=category,
            year=values.get("year"),
            venue=values.get("venue"),
            ids=ids,
            references=[r for r in _REF_SPLIT.split(values.get("references", "")) if r],
        )
