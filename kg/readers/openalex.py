"""OpenAlex works: one work, a list of works, an API page ``{"meta": ..., "results": [...]}``,
or JSON Lines of works (the OpenAlex snapshot).

Fields used (https://docs.openalex.org/api-entities/works/work-object):

- ``abstract_inverted_index`` (word -> positions) is turned back into the abstract;
- ``authorships`` in order: ``author.display_name`` (else ``raw_author_name``) and
  ``author.id`` (an ``A...`` id, kept in ``author_ids``);
- ``id`` / ``ids.openalex``, ``doi`` / ``ids.doi``, ``ids.mag``, ``ids.pmid``;
- ``display_name`` / ``title``, ``publication_year``;
- ``primary_location.source.display_name`` (else ``host_venue.display_name``) -> venue;
- ``referenced_works`` -> references as ``openalex:W...``;
- category: ``primary_topic`` -> ``field · subfield`` (both broad, like ``Computer Science ·
  Artificial Intelligence``); without it, the best level-0 concept as area and the best
  level-1 concept as subarea.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

from kg.readers.base import ReadContext
from kg.readers.jsonl import iter_json_values
from kg.records import Category, Record, Source, make_record, normalize_openalex

NAME = "openalex"
EXTENSIONS = ()

_MAX_POSITIONS = 200_000  # an inverted index claiming more words than this is broken


def abstract_from_inverted_index(index: Any) -> str | None:
    """The abstract text of an OpenAlex ``abstract_inverted_index``.

    Examples
    --------
    >>> abstract_from_inverted_index({"graphs": [1], "We": [0], "love": [2]})
    'We graphs love'
    """
    if not index:
        return None
    if not isinstance(index, dict):
        raise ValueError("abstract_inverted_index must be an object (word -> positions)")
    slots: dict[int, str] = {}
    for word, positions in index.items():
        if not isinstance(positions, list):
            raise ValueError(f"positions of {word!r} must be a list")
        for p in positions:
            if not isinstance(p, int) or p < 0 or p > _MAX_POSITIONS:
                raise ValueError(f"bad position {p!r} for {word!r}")
            slots[p] = word
    return " ".join(slots[p] for p in sorted(slots)) or None


def _name(obj: Any, key: str = "display_name") -> str | None:
    if isinstance(obj, dict):
        v = obj.get(key)
        return v if isinstance(v, str) and v.strip() else None
    return None


def work_category(work: dict[str, Any]) -> Category | None:
    """``primary_topic`` field and subfield, else the top concepts (see the module docstring)."""
    topic = work.get("primary_topic")
    if isinstance(topic, dict):
        field_name = _name(topic.get("field"))
        sub = _name(topic.get("subfield"))
        if field_name:
            return Category(field_name, sub)
    concepts = [c for c in work.get("concepts") or () if isinstance(c, dict) and _name(c)]
    if not concepts:
        return None

    def best(level: int) -> str | None:
        cands = [c for c in concepts if c.get("level") == level]
        cands.sort(key=lambda c: -(c.get("score") or 0))
        return _name(cands[0]) if cands else None

    area, sub = best(0), best(1)
    if area:
        return Category(area, sub)
    return Category(sub) if sub else None


def _work_record(work: Any, path: Path, line: int, ctx: ReadContext) -> Record | None:
    if not isinstance(work, dict):
        ctx.bad(f"not an OpenAlex work: expected a JSON object, got {type(work).__name__}", line=line)
        return None
    try:
        abstract = abstract_from_inverted_index(work.get("abstract_inverted_index"))
    except ValueError as exc:
        ctx.bad(f"bad abstract_inverted_index: {exc}", line=line)
        return None
    if abstract is None and isinstance(work.get("abstract"), str):
        abstract = work["abstract"]
    title = work.get("display_name") or work.get("title")
    title = title if isinstance(title, str) else None
    if not ctx.check_text(title, abstract, line=line):
        return None
    authors: list[str] = []
    author_ids: list[str | None] = []
    for a in work.get("authorships") or ():
        if not isinstance(a, dict):
            continue
        author = a.get("author") if isinstance(a.get("author"), dict) else {}
        name = _name(author) or _name(a, "raw_author_name")
        if not name:
            continue
        authors.append(name)
        author_ids.append(normalize_openalex(author.get("id")) if author.get("id") else None)
    raw_ids = work.get("ids") if isinstance(work.get("ids"), dict) else {}
    pmid = raw_ids.get("pmid")
    ids = {
        "openalex": work.get("id") or raw_ids.get("openalex"),
        "doi": work.get("doi") or raw_ids.get("doi"),
        "mag": str(raw_ids["mag"]) if raw_ids.get("mag") else None,
        "pmid": str(pmid).rstrip("/").rsplit("/", 1)[-1] if pmid else None,
    }
    refs = []
    for w in work.get("referenced_works") or ():
        wid = normalize_openalex(w) if isinstance(w, str) else None
        if wid:
            refs.append(f"openalex:{wid}")
    loc = work.get("primary_location") if isinstance(work.get("primary_location"), dict) else {}
    venue = _name(loc.get("source")) or _name(work.get("host_venue"))
    return make_record(
        source=Source(str(path), line, NAME),
        title=title,
        abstract=abstract,
        authors=authors,
        author_ids=author_ids,
        category=work_category(work),
        year=work.get("publication_year") if isinstance(work.get("publication_year"), (int, str)) else None,
        venue=venue,
        ids=ids,
        references=refs,
    )


def sniff(path: Path, head: str) -> bool:
    """OpenAlex work keys in the first object."""
    start = head.lstrip()[:8000]
    if not start or start[0] not in "{[":
        return False
    return ('"abstract_inverted_index"' in start or '"authorships"' in start
            or ('"openalex.org/W' in start and '"publication_year"' in start)
            or ('"https://openalex.org/W' in start and '"display_name"' in start))


def read(path: Path, ctx: ReadContext) -> Iterator[Record]:
    """One record per work, in file order."""
    for line, value in iter_json_values(path, ctx):
        if isinstance(value, dict) and isinstance(value.get("results"), list):
            for work in value["results"]:
                rec = _work_record(work, path, line, ctx)
                if rec is not None:
                    yield rec
            continue
        rec = _work_record(value, path, line, ctx)
        if rec is not None:
            yield rec
