"""JSON Lines or JSON in paperkg's own record schema, and the simple "one paper per object" layouts.

Accepted objects (one per line, or in a JSON array, or a single object):

- paperkg's own output (:meth:`kg.records.Record.to_dict`: ``id``, ``title``, ``abstract``,
  ``authors``, ``authors_truncated``, ``category``, ``year``, ``venue``, ``doi``,
  ``references``, ``sources`` ...). An object with both ``id`` and ``sources`` is read back
  exactly (:meth:`Record.from_dict`), so ``kg ingest`` output round-trips unchanged, sources
  included.
- anything else with ``title`` / ``abstract`` / ``authors`` keys, e.g. the derived
  ``confpapers/jsonl/*.jsonl`` (``area`` as ``"Area->Subarea"``) and ``citations/*_papers.jsonl``
  (``author_ids``, ``references`` as ``s2:`` / ``doi:`` / ``arxiv:`` / ``openalex:`` ids).

Ids. A source id of the form ``<kind>:<value>`` is kept as ``ids[kind] = value`` (``doi``,
``arxiv``, ``openalex``, ``s2`` are normalised; ``s2orc:`` ids are S2 corpus ids and are also
kept as ``corpusid``; ``iclr2024:abc`` becomes ``ids["iclr2024"] = "abc"``). So
``f"{kind}:{value}"`` always gives back the source's id, which is the form references use.
An id without a prefix becomes ``ids["source"]``. paperkg's own hash ids (``h:...``) are not
external ids and are dropped (the record id is recomputed from the content, so it is stable).
The record id itself is chosen by :func:`kg.records.make_record` (DOI, arXiv, OpenAlex, S2,
else a content hash).

This module also holds the JSON helpers the other JSON-based readers use
(:func:`iter_json_values`, :func:`iter_text_lines`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator, Mapping

from kg.errors import InputError
from kg.readers.base import ReadContext, not_utf8_reason, read_text
from kg.records import Category, Record, Source, make_record

NAME = "jsonl"
EXTENSIONS = (".jsonl", ".ndjson", ".json")

_DECODER = json.JSONDecoder()
_WS = " \t\r\n"
_ID_PREFIX = re.compile(r"^([A-Za-z][\w.\-]*):(.+)$")
#: Prefixes that are not namespaces of external ids but paperkg's own hash ids.
_OWN_HASH_PREFIXES = {"h"}
#: Extra id kinds implied by a prefix (an S2ORC paper_id is a Semantic Scholar corpus id).
_ALSO = {"s2orc": ("corpusid",)}
_OWN_KEYS = ("title", "abstract", "authors")


# --------------------------------------------------------------------------- text and JSON input

def iter_text_lines(path: Path, ctx: ReadContext) -> Iterator[tuple[int, str]]:
    """(1-based line number, text) with strict UTF-8, a bad line going to ``ctx.bad``.

    Like :func:`kg.readers.base.iter_lines`, but a line that is not UTF-8 is reported through
    the context, so ``skip_bad`` skips (and counts) it instead of ending the file.
    """
    with open(path, "rb") as fh:
        for n, raw in enumerate(fh, 1):
            try:
                text = raw.decode("utf-8-sig" if n == 1 else "utf-8")
            except UnicodeDecodeError as exc:
                ctx.bad(not_utf8_reason(raw, exc), line=n)
                continue
            yield n, text.rstrip("\r\n")


def read_document(path: Path, ctx: ReadContext) -> str | None:
    """The whole file as text (strict UTF-8), or None after reporting a decoding error."""
    try:
        return read_text(path)
    except InputError as exc:
        ctx.bad(exc.reason, line=exc.line)
        return None


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _WS:
        pos += 1
    return pos


def _iter_array(text: str, pos: int, line: int, ctx: ReadContext) -> Iterator[tuple[int, Any]]:
    """Items of the JSON array starting at ``text[pos] == "["``, one at a time, with lines."""
    last = pos
    pos = _skip_ws(text, pos + 1)
    if pos < len(text) and text[pos] == "]":
        return
    while True:
        line += text.count("\n", last, pos)
        last = pos
        try:
            value, end = _DECODER.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            ctx.bad(f"malformed JSON: {exc.msg} (column {exc.colno})", line=exc.lineno)
            return  # the rest of a broken document cannot be trusted
        yield line, value
        pos = _skip_ws(text, end)
        if pos < len(text) and text[pos] == ",":
            pos = _skip_ws(text, pos + 1)
            continue
        if pos < len(text) and text[pos] == "]":
            return
        line += text.count("\n", last, pos)
        ctx.bad("malformed JSON: expected ',' or ']' after an array item", line=line)
        return


def _json_lines(path: Path, ctx: ReadContext, *, after: int = 0) -> Iterator[tuple[int, Any]]:
    for n, line in iter_text_lines(path, ctx):
        if n <= after or not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError as exc:
            ctx.bad(f"malformed JSON: {getattr(exc, 'msg', exc)} "
                    f"(column {getattr(exc, 'colno', '?')})", line=n)
            continue
        if isinstance(value, list):
            for item in value:
                yield n, item
        else:
            yield n, value


def _looks_like_json_lines(path: Path) -> tuple[bool, int | None]:
    """(JSON Lines?, line of a broken first line when that is the only doubt).

    A file is JSON Lines when its first non-blank line looks like a whole JSON value (or is no
    JSON at all: then it is a broken line). When it starts like a document (``{`` or ``[`` without the closing bracket), the second
    non-blank line decides: a complete object or array there means JSON Lines with a broken
    first line -- unless the whole file parses as one document (checked by the caller).
    """
    first: tuple[int, str] | None = None
    with open(path, "rb") as fh:
        for n, raw in enumerate(fh, 1):
            line = raw.decode("utf-8-sig" if n == 1 else "utf-8", errors="replace").strip()
            if not line:
                continue
            if first is None:
                # A complete value on one line ends with its closing bracket; no need to parse
                # it here (a 3 MB one-line response would be parsed twice).
                if line[:1] not in "{[" or line[-1:] in "}]":
                    return True, None
                first = (n, line)
                continue
            try:
                value = json.loads(line)
            except ValueError:
                return False, None
            if isinstance(value, (dict, list)) and line[:1] in "{[":
                return False, first[0]
            return False, None
    return False, None


def iter_json_values(path: Path, ctx: ReadContext) -> Iterator[tuple[int, Any]]:
    """(line, value) for each top-level item of a JSON Lines or JSON file.

    JSON Lines: one value per non-blank line; a line that is an array gives its items. A JSON
    document: the items of a top-level array (each with the line it starts on), or the one
    top-level object. A malformed JSON line goes to ``ctx.bad("malformed JSON: ...")`` and
    reading goes on; a malformed document stops at the error.
    """
    lines, broken_first = _looks_like_json_lines(path)
    if lines:
        yield from _json_lines(path, ctx)
        return
    text = read_document(path, ctx)
    if text is None:
        return
    if broken_first is not None:
        try:
            json.loads(text)
        except ValueError:
            del text
            ctx.bad("malformed JSON: the line is not a complete JSON value", line=broken_first)
            yield from _json_lines(path, ctx, after=broken_first)
            return
    pos = _skip_ws(text, 0)
    line = 1 + text.count("\n", 0, pos)
    if pos < len(text) and text[pos] == "[":
        yield from _iter_array(text, pos, 1, ctx)
        return
    try:
        value, end = _DECODER.raw_decode(text, pos)
    except json.JSONDecodeError as exc:
        ctx.bad(f"malformed JSON: {exc.msg} (column {exc.colno})", line=exc.lineno)
        return
    rest = _skip_ws(text, end)
    if rest < len(text):
        ctx.bad("malformed JSON: extra data after the top-level value",
                line=1 + text.count("\n", 0, rest))
    yield line, value


def json_head_object(head: str) -> str:
    """The start of the first JSON object in a sniffed head (cheap, for sniffers)."""
    return head.lstrip()[:4000]


# --------------------------------------------------------------------------- field helpers

def get_str(obj: Mapping[str, Any], key: str, ctx: ReadContext, line: int) -> str | None:
    """A string field (numbers are accepted and turned into text); None when absent or empty."""
    value = obj.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    ctx.bad(f"bad field: {key!r} must be a string, not {type(value).__name__}", line=line)
    return None


def split_prefixed_id(value: str) -> dict[str, str]:
    """``"s2orc:123"`` -> ``{"s2orc": "123", "corpusid": "123"}``; ``"abc"`` -> ``{"source": "abc"}``."""
    value = value.strip()
    if not value:
        return {}
    m = _ID_PREFIX.match(value)
    if not m or "/" in m.group(1):
        return {"source": value}
    kind, rest = m.group(1).lower(), m.group(2)
    if kind in _OWN_HASH_PREFIXES:
        return {}
    if kind in ("http", "https"):
        return {"source": value}
    out = {kind: rest}
    for extra in _ALSO.get(kind, ()):
        out[extra] = rest
    return out


def authors_from_json(value: Any) -> tuple[list[str], list[str | None]]:
    """Names and author ids from a list of names, of ``{"name"/"first","last", "id"}`` objects,
    or a ``;``/``,`` separated string."""
    from kg.readers.csv import split_authors

    if value is None:
        return [], []
    if isinstance(value, str):
        return split_authors(value), []
    names: list[str] = []
    aids: list[str | None] = []
    if not isinstance(value, list):
        raise ValueError(f"'authors' must be a list or a string, not {type(value).__name__}")
    for a in value:
        if isinstance(a, str):
            names.append(a)
            aids.append(None)
        elif isinstance(a, dict):
            name = a.get("name") or a.get("display_name")
            if not name and ("last" in a or "first" in a):
                middle = a.get("middle") or []
                parts = [a.get("first") or "", *(middle if isinstance(middle, list) else [middle]),
                         a.get("last") or "", a.get("suffix") or ""]
                name = " ".join(p for p in parts if p)
            names.append(str(name or ""))
            aid = a.get("authorId") or a.get("id")
            aids.append(str(aid) if aid else None)
        elif a is not None:
            raise ValueError(f"an author must be a string or an object, not {type(a).__name__}")
    return names, aids


def category_from_json(value: Any) -> Category | None:
    """``{"area", "subarea"}``, ``"Area · Subarea"``, ``"Area->Subarea"`` or an arXiv code."""
    if value is None or value == "":
        return None
    if isinstance(value, dict):
        area = value.get("area")
        if not area:
            return None
        return Category.parse(str(area)) if not value.get("subarea") else Category(
            str(area).strip(), str(value["subarea"]).strip())
    if isinstance(value, list):
        return category_from_json(value[0]) if value else None
    text = str(value)
    from kg.readers.arxiv import ARCHIVES, ARXIV_CODE, arxiv_category

    code = text.strip()
    if ARXIV_CODE.match(code) and code.split(".")[0] in ARCHIVES:
        return arxiv_category(code)
    return Category.parse(text)


def _check_record_dict(d: Mapping[str, Any]) -> None:
    for key in ("id", "title", "abstract", "venue", "doi"):
        if d.get(key) is not None and not isinstance(d[key], str):
            raise ValueError(f"{key!r} must be a string")
    for key in ("authors", "references", "sources"):
        if d.get(key) is not None and not isinstance(d[key], list):
            raise ValueError(f"{key!r} must be a list")
    if not all(isinstance(a, str) for a in d.get("authors") or ()):
        raise ValueError("'authors' must be a list of strings")


def record_from_object(obj: Any, *, path: Path, line: int, ctx: ReadContext,
                       format: str = NAME) -> Record | None:
    """One record from one JSON object, or None after reporting what is wrong with it."""
    if not isinstance(obj, dict):
        ctx.bad(f"not a paper: expected a JSON object, got {type(obj).__name__}", line=line)
        return None
    if "id" in obj and isinstance(obj.get("sources"), list) and obj["sources"]:
        try:
            _check_record_dict(obj)
            rec = Record.from_dict(obj)
        except (KeyError, TypeError, ValueError) as exc:
            ctx.bad(f"bad record: {exc}", line=line)
            return None
        if not (ctx.check_field(rec.abstract, "abstract", line=line)
                and ctx.check_field(rec.title, "title", line=line)):
            return None
        return rec
    title = get_str(obj, "title", ctx, line)
    abstract = get_str(obj, "abstract", ctx, line)
    if not ctx.check_text(title, abstract, line=line):
        return None
    try:
        authors, aids = authors_from_json(obj.get("authors"))
    except ValueError as exc:
        ctx.bad(f"bad field: {exc}", line=line)
        return None
    if isinstance(obj.get("author_ids"), list):
        aids = [str(a) if a else None for a in obj["author_ids"]]
    ids: dict[str, str] = {}
    if isinstance(obj.get("id"), (str, int)) and not isinstance(obj.get("id"), bool):
        ids.update(split_prefixed_id(str(obj["id"])))
    if isinstance(obj.get("ids"), dict):
        ids.update({str(k): str(v) for k, v in obj["ids"].items() if v})
    for kind in ("doi", "arxiv", "openalex", "s2"):
        value = obj.get(kind)
        if isinstance(value, str) and value:
            ids[kind] = value
    category = category_from_json(
        obj.get("category") or obj.get("area") or obj.get("primary_area") or obj.get("topic"))
    refs = obj.get("references")
    refs = [] if refs is None else refs
    if not isinstance(refs, list):
        ctx.bad("bad field: 'references' must be a list of ids", line=line)
        return None
    return make_record(
        source=Source(str(path), line, format),
        title=title,
        abstract=abstract,
        authors=authors,
        authors_truncated=bool(obj.get("authors_truncated", False)),
        category=category,
        year=obj.get("year") if isinstance(obj.get("year"), (int, str)) else None,
        venue=get_str(obj, "venue", ctx, line),
        ids=ids,
        references=[str(r) for r in refs if r],
        author_ids=aids,
    )


# --------------------------------------------------------------------------- the reader

def sniff(path: Path, head: str) -> bool:
    """JSON whose first object has paper keys (``title``, ``abstract`` or ``authors``)."""
    start = json_head_object(head)
    if not start or start[0] not in "{[":
        return False
    return any(f'"{k}"' in start for k in _OWN_KEYS)


def read(path: Path, ctx: ReadContext) -> Iterator[Record]:
    """The records of a JSON Lines / JSON file in paperkg's own (or a simple) schema."""
    for line, obj in iter_json_values(path, ctx):
        if isinstance(obj, dict) and isinstance(obj.get("results"), list) and "title" not in obj:
            for item in obj["results"]:  # a {"results": [...]} wrapper of plain records
                rec = record_from_object(item, path=path, line=line, ctx=ctx)
                if rec is not None:
                    yield rec
            continue
        rec = record_from_object(obj, path=path, line=line, ctx=ctx)
        if rec is not None:
            yield rec
