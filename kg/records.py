"""The record model: one paper, as every reader produces it and every later stage consumes it.

Records and the extraction results attached to them are frozen dataclasses. ``to_dict`` /
``from_dict`` give the JSON Lines form written by ``kg ingest`` and ``kg extract``; its key names
are part of the public contract and do not change silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping

from kg.schema import EntityType, Role
from kg.text import digest, match_key, normalize_text

_DOI = re.compile(r"10\.\d{4,9}/\S+", re.IGNORECASE)
_ARXIV_NEW = re.compile(r"(\d{4}\.\d{4,5})(v\d+)?$")
_ARXIV_OLD = re.compile(r"([a-z\-]+(\.[A-Z]{2})?/\d{7})(v\d+)?$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Category:
    """A research area, optionally with a subarea (``Theory · Game Theory``)."""

    area: str
    subarea: str | None = None

    def __str__(self) -> str:
        return f"{self.area} · {self.subarea}" if self.subarea else self.area

    def to_dict(self) -> dict[str, str | None]:
        return {"area": self.area, "subarea": self.subarea}

    @classmethod
    def parse(cls, text: str | None) -> "Category | None":
        """Read ``"Area · Subarea"``, ``"Area->Subarea"`` or a bare ``"Area"``.

        Examples
        --------
        >>> Category.parse("Deep Learning->Large Language Models")
        Category(area='Deep Learning', subarea='Large Language Models')
        >>> str(Category.parse("Theory · Game Theory"))
        'Theory · Game Theory'
        """
        text = normalize_text(text)
        if not text:
            return None
        for sep in (" · ", "·", "->", "→", " > "):
            if sep in text:
                area, _, sub = text.partition(sep)
                area, sub = area.strip(), sub.strip()
                if area:
                    return cls(area, sub or None)
        return cls(text)


@dataclass(frozen=True, slots=True)
class Source:
    """Where a record came from: file, 1-based line (or entry number) and format."""

    file: str
    line: int
    format: str

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "format": self.format}


@dataclass(frozen=True, slots=True)
class Mention:
    """One span of text an extracted fact came from (character offsets, end exclusive)."""

    start: int
    end: int
    text: str
    rule: str
    field: str = "abstract"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"start": self.start, "end": self.end, "text": self.text, "rule": self.rule}
        if self.field != "abstract":
            d["field"] = self.field
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Mention":
        return cls(int(d["start"]), int(d["end"]), d["text"], d.get("rule", ""), d.get("field", "abstract"))


@dataclass(frozen=True, slots=True)
class Entity:
    """A method, benchmark or concept of one paper, with its role and evidence."""

    type: EntityType
    name: str
    role: Role | None = None
    aliases: tuple[str, ...] = ()
    mentions: tuple[Mention, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type.value,
            "name": self.name,
            "aliases": list(self.aliases),
            "role": self.role.value if self.role else None,
            "mentions": [m.to_dict() for m in self.mentions],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Entity":
        return cls(
            EntityType(d["type"]),
            d["name"],
            Role(d["role"]) if d.get("role") else None,
            tuple(d.get("aliases") or ()),
            tuple(Mention.from_dict(m) for m in d.get("mentions") or ()),
        )


@dataclass(frozen=True, slots=True)
class Citation:
    """An in-text citation such as ``(Dütting et al., 2025)``."""

    surnames: tuple[str, ...]
    year: int | None
    start: int
    end: int
    text: str
    field: str = "abstract"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"surnames": list(self.surnames), "year": self.year,
                             "start": self.start, "end": self.end, "text": self.text}
        if self.field != "abstract":
            d["field"] = self.field
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Citation":
        return cls(tuple(d["surnames"]), d.get("year"), int(d["start"]), int(d["end"]), d["text"],
                   d.get("field", "abstract"))


@dataclass(frozen=True, slots=True)
class Record:
    """One distinct paper.

    Build records with :func:`make_record`, which normalises text and ids and picks ``id``.
    ``author_ids`` holds source ids of authors (Semantic Scholar, OpenAlex) aligned with
    ``authors`` when the source has them; ``ids`` holds every external id known
    (``{"doi": ..., "arxiv": ..., "openalex": ..., "s2": ...}``).
    """

    id: str
    title: str | None
    abstract: str | None
    authors: tuple[str, ...] = ()
    authors_truncated: bool = False
    category: Category | None = None
    year: int | None = None
    venue: str | None = None
    doi: str | None = None
    references: tuple[str, ...] = ()
    sources: tuple[Source, ...] = ()
    author_ids: tuple[str | None, ...] = ()
    ids: Mapping[str, str] = field(default_factory=dict)
    entities: tuple[Entity, ...] = ()
    citations: tuple[Citation, ...] = ()

    def to_dict(self, *, extraction: bool | None = None) -> dict[str, Any]:
        """The JSON form. Extraction keys are written when present (or when asked for)."""
        d: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "abstract": self.abstract,
            "authors": list(self.authors),
            "authors_truncated": self.authors_truncated,
            "category": self.category.to_dict() if self.category else None,
            "year": self.year,
            "venue": self.venue,
            "doi": self.doi,
            "references": list(self.references),
            "sources": [s.to_dict() for s in self.sources],
        }
        if any(self.author_ids):
            d["author_ids"] = list(self.author_ids)
        if self.ids:
            d["ids"] = dict(sorted(self.ids.items()))
        if extraction or (extraction is None and (self.entities or self.citations)):
            d["entities"] = [e.to_dict() for e in self.entities]
            d["citations"] = [c.to_dict() for c in self.citations]
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Record":
        """Read the JSON form back (the inverse of :meth:`to_dict`; no re-normalisation)."""
        cat = d.get("category")
        if isinstance(cat, str):
            category = Category.parse(cat)
        elif cat:
            category = Category(cat["area"], cat.get("subarea"))
        else:
            category = None
        return cls(
            id=d["id"],
            title=d.get("title"),
            abstract=d.get("abstract"),
            authors=tuple(d.get("authors") or ()),
            authors_truncated=bool(d.get("authors_truncated", False)),
            category=category,
            year=d.get("year"),
            venue=d.get("venue"),
            doi=d.get("doi"),
            references=tuple(d.get("references") or ()),
            sources=tuple(Source(s["file"], s["line"], s["format"]) for s in d.get("sources") or ()),
            author_ids=tuple(d.get("author_ids") or ()),
            ids=dict(d.get("ids") or {}),
            entities=tuple(Entity.from_dict(e) for e in d.get("entities") or ()),
            citations=tuple(Citation.from_dict(c) for c in d.get("citations") or ()),
        )

    def with_extraction(self, entities: Iterable[Entity], citations: Iterable[Citation]) -> "Record":
        return replace(self, entities=tuple(entities), citations=tuple(citations))


def normalize_doi(value: str | None) -> str | None:
    """``https://doi.org/10.1/ABC`` -> ``10.1/abc`` (DOIs are case-insensitive)."""
    if not value:
        return None
    m = _DOI.search(value.strip())
    return m.group(0).rstrip(".,;").lower() if m else None


def normalize_arxiv(value: str | None) -> str | None:
    """``arXiv:2101.00001v2`` or an abs/pdf URL -> ``2101.00001`` (version dropped)."""
    if not value:
        return None
    v = value.strip().removesuffix(".pdf")
    v = re.sub(r"^(https?://)?(www\.)?arxiv\.org/(abs|pdf)/", "", v, flags=re.IGNORECASE)
    v = re.sub(r"^arxiv:", "", v, flags=re.IGNORECASE)
    for pat in (_ARXIV_NEW, _ARXIV_OLD):
        m = pat.search(v)
        if m:
            return m.group(1)
    return None


def normalize_openalex(value: str | None) -> str | None:
    """``https://openalex.org/W123`` -> ``W123``."""
    if not value:
        return None
    m = re.search(r"([WAICSVP]\d+)$", value.strip(), re.IGNORECASE)
    return m.group(1).upper() if m else None


#: Which external id becomes the record id, in order of preference.
ID_PREFERENCE = ("doi", "arxiv", "openalex", "s2")


def record_id(*, ids: Mapping[str, str], abstract: str | None, title: str | None,
              authors: Iterable[str]) -> str:
    """The stable id: DOI, arXiv, OpenAlex or Semantic Scholar id when known, else a hash.

    The hash is of the normalised abstract when there is one, else of title and authors, so
    the same paper read from two files (or formats) gets the same id.
    """
    for kind in ID_PREFERENCE:
        if ids.get(kind):
            return f"{kind}:{ids[kind]}"
    if abstract:
        return "h:" + digest(match_key(abstract))
    names = ",".join(match_key(a) for a in authors)
    return "h:" + digest(match_key(title or ""), names)


def clean_ids(raw: Mapping[str, str | None]) -> dict[str, str]:
    """Normalise a mapping of external ids, dropping empty or unparseable ones."""
    out: dict[str, str] = {}
    for kind, value in raw.items():
        if not value:
            continue
        if kind == "doi":
            value = normalize_doi(value)
        elif kind == "arxiv":
            value = normalize_arxiv(value)
        elif kind == "openalex":
            value = normalize_openalex(value)
        else:
            value = str(value).strip() or None
        if value:
            out[kind] = value
    return out


def make_record(
    *,
    source: Source,
    title: str | None = None,
    abstract: str | None = None,
    authors: Iterable[str] = (),
    authors_truncated: bool = False,
    category: Category | str | None = None,
    year: int | str | None = None,
    venue: str | None = None,
    ids: Mapping[str, str | None] | None = None,
    references: Iterable[str] = (),
    author_ids: Iterable[str | None] = (),
) -> Record:
    """Build a normalised :class:`Record` from what a reader found.

    Text is NFKC-normalised, author names are put in display form
    (:func:`kg.names.display_name`), ids are cleaned and the record id is chosen.
    """
    from kg.names import display_name  # local: names imports nothing heavy, but keeps order clear

    title = normalize_text(title)
    abstract = normalize_text(abstract)
    names: list[str] = []
    aids: list[str | None] = []
    raw_aids = list(author_ids)
    for i, a in enumerate(authors):
        name = display_name(a)
        if name:
            names.append(name)
            aids.append(raw_aids[i] if i < len(raw_aids) and raw_aids[i] else None)
    if isinstance(category, str):
        category = Category.parse(category)
    year_int: int | None
    try:
        year_int = int(str(year).strip()[:4]) if year not in (None, "") else None
    except ValueError:
        year_int = None
    idmap = clean_ids(ids or {})
    refs = tuple(dict.fromkeys(r for r in references if r))
    return Record(
        id=record_id(ids=idmap, abstract=abstract, title=title, authors=names),
        title=title,
        abstract=abstract,
        authors=tuple(names),
        authors_truncated=authors_truncated,
        category=category,
        year=year_int,
        venue=normalize_text(venue),
        doi=idmap.get("doi"),
        references=refs,
        sources=(source,),
        author_ids=tuple(aids) if any(aids) else (),
        ids=idmap,
    )
