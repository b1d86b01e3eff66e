"""BibTeX, parsed with bibtexparser (v2), not with regular expressions.

Fields: ``title``, ``abstract``, ``author`` (split on ``and`` by bibtexparser; ``Last, First``
is turned round by :func:`kg.records.make_record`; a final ``others`` sets
``authors_truncated``), ``year``, ``journal`` / ``booktitle`` / ``publisher`` -> venue, ``doi``,
``eprint`` (an arXiv id when ``archivePrefix`` is arXiv or the value looks like one), ``url``
(an arXiv or DOI URL). ``keywords`` are not a category (they are free topics, not an
``Area · Subarea`` taxonomy) and are not read. ``@string`` macros are resolved.

LaTeX outside math is turned into text with pylatexenc (which bibtexparser itself uses):
braces go, accent commands become letters (``{\\"a}`` -> ``ä``), ``\\textbf{x}`` -> ``x``;
math (``$...$``) is kept as written, as the other readers keep it.

An entry bibtexparser cannot parse is bad input, reported on the line it starts on; a second
entry with a key already used is still read (de-duplication decides what it is).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from kg.readers.base import ReadContext
from kg.readers.jsonl import read_document
from kg.records import Record, Source, make_record, normalize_arxiv

NAME = "bibtex"
EXTENSIONS = (".bib", ".bibtex")

_ENTRY_START = re.compile(r"^\s*@[A-Za-z]+\s*[{(]", re.MULTILINE)
_MATH = re.compile(r"(\$\$.*?\$\$|\$[^$]*\$|\\\(.*?\\\)|\\\[.*?\\\])", re.DOTALL)
_VENUE_FIELDS = ("journal", "booktitle", "journaltitle", "series", "publisher", "howpublished")
_SKIP_TYPES = {"comment", "string", "preamble"}


@lru_cache(maxsize=1)
def _converter() -> Any:
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(math_mode="verbatim", strict_latex_spaces=True)


def latex_to_text(value: str | None) -> str | None:
    """Text of a LaTeX field value, math kept verbatim.

    Examples
    --------
    >>> latex_to_text(r'M{\\"u}ller and the $\\ell_1$ {B}all')
    'Müller and the $\\\\ell_1$ Ball'
    """
    if value is None:
        return None
    if "\\" not in value and "{" not in value and "~" not in value:
        return value
    conv = _converter()
    out = []
    for i, part in enumerate(_MATH.split(value)):
        if i % 2:
            out.append(part)
        elif part:
            try:
                out.append(conv.latex_to_text(part))
            except Exception:  # pylatexenc is lenient; never lose a field over odd LaTeX
                out.append(part.replace("{", "").replace("}", ""))
    return "".join(out)


def sniff(path: Path, head: str) -> bool:
    """An ``@type{`` entry start at the beginning of a line."""
    return _ENTRY_START.search(head) is not None


def _field(fields: dict[str, Any], *names: str) -> str | None:
    for name in names:
        value = fields.get(name)
        if isinstance(value, str) and value.strip():
            return value
    return None


def _authors(value: Any) -> tuple[list[str], bool]:
    names = list(value) if isinstance(value, list) else ([value] if value else [])
    names = [latex_to_text(n) or "" for n in names]
    truncated = bool(names) and names[-1].strip().lower() in ("others", "et al.", "et al")
    if truncated:
        names = names[:-1]
    return names, truncated


def _entry_record(entry: Any, path: Path, ctx: ReadContext, line_offset: int = 0) -> Record | None:
    line = entry.start_line + line_offset + 1
    fields = {f.key.lower(): f.value for f in entry.fields}
    title = latex_to_text(_field(fields, "title"))
    abstract = latex_to_text(_field(fields, "abstract"))
    if not ctx.check_text(title, abstract, line=line, what=f"BibTeX entry {entry.key!r}"):
        return None
    authors, truncated = _authors(fields.get("author"))
    ids: dict[str, str] = {}
    if _field(fields, "doi"):
        ids["doi"] = fields["doi"]
    eprint = _field(fields, "eprint", "arxivid", "arxiv")
    prefix = (_field(fields, "archiveprefix", "eprinttype") or "").lower()
    if eprint and (prefix in ("arxiv", "") and normalize_arxiv(eprint)):
        ids["arxiv"] = eprint
    url = _field(fields, "url")
    if url and "arxiv.org/" in url and "arxiv" not in ids:
        ids["arxiv"] = url
    elif url and "doi.org/" in url and "doi" not in ids:
        ids["doi"] = url
    return make_record(
        source=Source(str(path), line, NAME),
        title=title,
        abstract=abstract,
        authors=authors,
        authors_truncated=truncated,
        year=_field(fields, "year") or (_field(fields, "date") or "")[:4] or None,
        venue=latex_to_text(_field(fields, *_VENUE_FIELDS)),
        ids=ids,
    )


def read(path: Path, ctx: ReadContext) -> Iterator[Record]:
    """One record per BibTeX entry (``@comment``, ``@string`` and ``@preamble`` are not papers)."""
    import logging

    import bibtexparser
    from bibtexparser import middlewares as mw
    from bibtexparser.model import DuplicateBlockKeyBlock, Entry, ParsingFailedBlock

    text = read_document(path, ctx)
    if text is None:
        return
    # bibtexparser logs every failed block as a warning; paperkg reports them itself.
    log = logging.getLogger("bibtexparser")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        library = bibtexparser.parse_string(text, append_middleware=[mw.SeparateCoAuthors()])
    finally:
        log.setLevel(level)
    del text
    for block in library.blocks:
        line_offset = 0
        if isinstance(block, DuplicateBlockKeyBlock):
            # A second entry under a used key: middlewares skip it, so parse it on its own.
            sub = bibtexparser.parse_string(block.raw, append_middleware=[mw.SeparateCoAuthors()])
            if not sub.entries:
                continue
            line_offset = block.start_line or 0
            block = sub.entries[0]
        if isinstance(block, ParsingFailedBlock):
            start = (block.start_line or 0) + 1
            raw = (block.raw or "").lstrip()
            kind = raw[1:].split("{", 1)[0].split("(", 1)[0].strip().lower() if raw.startswith("@") else ""
            if kind in _SKIP_TYPES:
                continue
            ctx.bad(f"BibTeX entry does not parse: {_error_text(block)}", line=start)
            continue
        if isinstance(block, Entry):
            if block.entry_type.lower() in _SKIP_TYPES:
                continue
            rec = _entry_record(block, path, ctx, line_offset)
            if rec is not None:
                yield rec


def _error_text(block: Any) -> str:
    err = getattr(block, "error", None)
    msg = (getattr(err, "abort_reason", None) or str(err or "")).strip()
    return (msg.splitlines()[0] if msg else "syntax error")[:200]
