"""De-duplication: the same paper read twice (in one file, across files or formats) becomes one record.

Two records are the same paper when they share any *match key*:

- an external id (DOI, arXiv, OpenAlex, Semantic Scholar, ...),
- the folded words of the abstract (abstracts of at least :data:`MIN_ABSTRACT_WORDS` words;
  shorter ones are too generic to identify a paper),
- the folded title together with the first author's family name.

Keys are joined with union-find, so A~B by DOI and B~C by abstract puts A, B and C together.
No key joins two records whose titles differ and whose author lists share nobody: real
sources attach one paper's abstract (or id) to another paper by mistake, and those stay two
papers (counted as ``kept_apart``).

Merge rule, field by field (documented in the README; conflicts are reported, never dropped):

- ``authors``: a complete list beats a truncated one (``等``), then the longer list, then the
  first read. The other list conflicts only when it is not a prefix of the kept one.
- ``category``: the first with a subarea beats one with only an area; different areas conflict.
- ``title``, ``abstract``, ``year``, ``venue``, ``doi``: the first value read; a different
  later value (compared folded) is a conflict.
- ``ids``: union; two values for one kind conflict. ``references`` and ``sources``: union, in order.
- ``id``: recomputed from the merged fields (:func:`kg.records.record_id`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable

from kg.names import name_key, split_name
from kg.records import Record, record_id
from kg.text import digest, match_key

MIN_ABSTRACT_WORDS = 20


@dataclass(frozen=True, slots=True)
class Conflict:
    """Two records of one paper disagree on a field; ``kept`` won by the merge rule."""

    id: str
    field: str
    kept: Any
    other: Any
    sources: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "field": self.field, "kept": self.kept, "other": self.other,
                "sources": list(self.sources)}


def match_keys(rec: Record) -> list[str]:
    """The keys under which ``rec`` is the same paper as another record."""
    keys = [f"id:{kind}:{value.lower()}" for kind, value in rec.ids.items()]
    if rec.abstract:
        words = match_key(rec.abstract)
        if words.count(" ") + 1 >= MIN_ABSTRACT_WORDS:
            keys.append("abs:" + digest(words))
    if rec.title:
        first = split_name(rec.authors[0])[1] if rec.authors else ""
        keys.append("title:" + digest(match_key(rec.title), name_key(first)))
    return keys


class _UnionFind:
    def __init__(self) -> None:
        self.parent: list[int] = []

    def add(self) -> int:
        self.parent.append(len(self.parent))
        return len(self.parent) - 1

    def find(self, i: int) -> int:
        root = i
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[i] != root:  # path compression
            self.parent[i], i = root, self.parent[i]
        return root

    def union(self, a: int, b: int) -> int:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            if rb < ra:
                ra, rb = rb, ra
            self.parent[rb] = ra  # the earlier record stays the root: output keeps read order
        return ra


@dataclass
class MergeResult:
    records: list[Record]
    read: int
    conflicts: list[Conflict] = field(default_factory=list)
    #: Pairs sharing a key but kept apart because title and authors say they differ.
    kept_apart: int = 0

    @property
    def merged(self) -> int:
        """How many records were folded into another one."""
        return self.read - len(self.records)


def merge_records(records: Iterable[Record]) -> MergeResult:
    """Group records of the same paper and merge each group (see the module docs for the rule).

    The output keeps the order in which each paper was first read.
    """
    items: list[Record] = []
    uf = _UnionFind()
    owner: dict[str, int] = {}
    kept_apart = 0
    for rec in records:
        i = uf.add()
        items.append(rec)
        for key in match_keys(rec):
            j = owner.setdefault(key, i)
            if j == i:
                continue
            if _different_papers(items[j], rec):
                kept_apart += 1
                continue
            uf.union(j, i)
    groups: dict[int, list[int]] = {}
    for i in range(len(items)):
        groups.setdefault(uf.find(i), []).append(i)
    out: list[Record] = []
    conflicts: list[Conflict] = []
    for root in sorted(groups):
        members = groups[root]
        if len(members) == 1:
            out.append(items[root])
        else:
            merged, found = _merge_group([items[i] for i in members])
            out.append(merged)
            conflicts.extend(found)
    return MergeResult(out, len(items), conflicts, kept_apart)


def _different_papers(a: Record, b: Record) -> bool:
    """Titles differ and no author in common: a shared key is a source's mistake."""
    if not (a.title and b.title and a.authors and b.authors):
        return False
    if match_key(a.title) == match_key(b.title):
        return False
    return not ({name_key(n) for n in a.authors} & {name_key(n) for n in b.authors})


def _source_names(recs: list[Record]) -> tuple[str, ...]:
    return tuple(f"{s.file}:{s.line}" for r in recs for s in r.sources)


def _authors_better(a: Record, b: Record) -> bool:
    """True when b's author list should replace a's."""
    if not b.authors:
        return False
    if not a.authors:
        return True
    if a.authors_truncated != b.authors_truncated:
        return a.authors_truncated
    return len(b.authors) > len(a.authors)


def _is_prefix(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    ks, kl = [name_key(n) for n in short], [name_key(n) for n in long]
    return len(ks) <= len(kl) and kl[: len(ks)] == ks


def _merge_group(recs: list[Record]) -> tuple[Record, list[Conflict]]:
    base = recs[0]
    conflicts: list[tuple[str, Any, Any]] = []
    fields: dict[str, Any] = {}
    for name in ("title", "abstract", "year", "venue", "doi"):
        kept = None
        for r in recs:
            value = getattr(r, name)
            if value is None:
                continue
            if kept is None:
                kept = value
            elif (match_key(str(value)) if isinstance(value, str) else value) != (
                    match_key(str(kept)) if isinstance(kept, str) else kept):
                conflicts.append((name, kept, value))
        fields[name] = kept

    best = base
    for r in recs[1:]:
        if _authors_better(best, r):
            best = r
    for r in recs:
        if r is not best and r.authors and not _is_prefix(r.authors, best.authors):
            conflicts.append(("authors", list(best.authors), list(r.authors)))
    fields["authors"] = best.authors
    fields["authors_truncated"] = best.authors_truncated if best.authors else any(r.authors_truncated for r in recs)
    fields["author_ids"] = best.author_ids

    category = None
    for r in recs:
        c = r.category
        if c is None:
            continue
        if category is None:
            category = c
        elif match_key(c.area) != match_key(category.area) or (
                c.subarea and category.subarea and match_key(c.subarea) != match_key(category.subarea)):
            conflicts.append(("category", str(category), str(c)))
        elif c.subarea and not category.subarea:
            category = c
    fields["category"] = category

    ids: dict[str, str] = {}
    for r in recs:
        for kind, value in r.ids.items():
            if kind not in ids:
                ids[kind] = value
            elif ids[kind].lower() != value.lower():
                conflicts.append((f"ids.{kind}", ids[kind], value))
    fields["ids"] = ids
    if fields["doi"] is None and "doi" in ids:
        fields["doi"] = ids["doi"]
    fields["references"] = tuple(dict.fromkeys(ref for r in recs for ref in r.references))
    fields["sources"] = tuple(s for r in recs for s in r.sources)
    new_id = record_id(ids=ids, abstract=fields["abstract"], title=fields["title"], authors=fields["authors"])
    merged = replace(base, id=new_id, **fields)
    srcs = _source_names(recs)
    return merged, [Conflict(new_id, f, kept, other, srcs) for f, kept, other in conflicts]
