"""Corpus-level consolidation of per-document extractions.

After every abstract has been read on its own (:func:`extractors.pipeline.extract_raw`):

- **Variants collapse**: names whose :func:`~extractors.gazetteer.entity_key` agree ("MoE",
  "MoEs", "Mixture-of-Experts", "mixture of experts"), or that one paper links as abbreviation
  and long form, form one group with one canonical name (the most frequent paper-level name)
  and the other spellings as aliases. An acronym defined with different long forms in different
  papers ("PO" = "policy optimization" / "preference optimization") links nothing across papers.
- **Type by majority**: a group typed as a method in most papers is a method everywhere.
- **Known names recognised everywhere**: a coined name a paper mentions without any rule firing
  (kept as a candidate) becomes a ``used`` mention (rule ``corpus``) when the group is known from
  another paper: an acronym defined in one abstract is recognised in the others.

Roles stay per paper. The concepts module's ``consolidate_concepts(records)`` runs last when it
exists.
"""

from __future__ import annotations

import importlib
import re
from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Sequence

from extractors.gazetteer import entity_key
from kg.records import Entity, Mention, Record
from kg.schema import EntityType, Role

if TYPE_CHECKING:
    from extractors.pipeline import RawExtraction

#: Aliases kept per entity (the most frequent first).
MAX_ALIASES = 20


class _Groups:
    """Union-find over name keys."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, k: str) -> str:
        p = self.parent.setdefault(k, k)
        while p != self.parent[p]:
            self.parent[p] = self.parent[self.parent[p]]
            p = self.parent[p]
        self.parent[k] = p
        return p

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _ambiguous_acronyms(raws: Sequence["RawExtraction"]) -> set[str]:
    longs: dict[str, set[str]] = defaultdict(set)
    for raw in raws:
        for short, long, _field in raw.definitions:
            longs[entity_key(short)].add(entity_key(long))
    return {k for k, v in longs.items() if len(v) > 1}


def consolidate_corpus(records: Sequence[Record], raws: Sequence["RawExtraction"]) -> list[Record]:
    """Records with their consolidated entities and citations (same order as ``records``)."""
    if len(records) != len(raws):
        raise ValueError(f"{len(records)} records but {len(raws)} extraction results")
    ambiguous = _ambiguous_acronyms(raws)
    groups = _Groups()
    for raw in raws:
        for e in raw.entities:
            if e.type is EntityType.CONCEPT:
                continue
            k = entity_key(e.name)
            groups.find(k)
            for a in e.aliases:
                ka = entity_key(a)
                if ka and ka not in ambiguous and k not in ambiguous:
                    groups.union(k, ka)

    # per group: paper counts by type, name counts, surfaces, proposed-somewhere
    type_votes: dict[str, Counter] = defaultdict(Counter)
    name_votes: dict[str, Counter] = defaultdict(Counter)
    surfaces: dict[str, Counter] = defaultdict(Counter)
    papers: dict[str, set[int]] = defaultdict(set)
    for i, raw in enumerate(raws):
        for e in raw.entities:
            if e.type is EntityType.CONCEPT:
                continue
            g = groups.find(entity_key(e.name))
            type_votes[g][e.type] += 1
            name_votes[g][e.name] += 1
            papers[g].add(i)
            for m in e.mentions:
                surfaces[g][_clean(m.text)] += 1
            for a in e.aliases:
                surfaces[g][a] += 0
    canonical = {g: _pick_name(c) for g, c in name_votes.items()}
    gtype = {g: c.most_common(1)[0][0] if len(c) == 1 or c.most_common(2)[0][1] > c.most_common(2)[1][1] else None
             for g, c in type_votes.items()}

    out: list[Record] = []
    for i, (rec, raw) in enumerate(zip(records, raws)):
        merged: dict[tuple[str, str], dict] = {}
        order: list[tuple[str, str]] = []
        concepts: list[Entity] = []
        for e in raw.entities:
            if e.type is EntityType.CONCEPT:
                concepts.append(e)
                continue
            g = groups.find(entity_key(e.name))
            etype = gtype.get(g) or e.type
            key = (etype.value, g)
            slot = merged.get(key)
            if slot is None:
                slot = merged[key] = {"type": etype, "role": e.role, "mentions": []}
                order.append(key)
            if e.role is Role.PROPOSED:
                slot["role"] = Role.PROPOSED
            slot["mentions"].extend(e.mentions)
        seen_groups = {g for (_t, g) in merged}
        own_defs = {entity_key(s) for s, _l, _f in raw.definitions}
        for text, s, e_, field in raw.candidates:
            k = entity_key(text)
            if k in ambiguous or k in own_defs or k not in groups.parent:
                continue
            g = groups.find(k)
            if g not in gtype or g in seen_groups and (gtype[g] or "x") is None:
                continue
            if len(papers[g] - {i}) < 1:
                continue
            etype = gtype.get(g)
            if etype is None:
                continue
            key = (etype.value, g)
            slot = merged.get(key)
            if slot is None:
                slot = merged[key] = {"type": etype, "role": Role.USED, "mentions": []}
                order.append(key)
            slot["mentions"].append(Mention(s, e_, text, "corpus", field))
        entities: list[Entity] = []
        for key in order:
            slot = merged[key]
            g = key[1]
            name = canonical.get(g) or slot["mentions"][0].text
            mentions = tuple(sorted(set(slot["mentions"]), key=lambda m: (m.field != "title", m.start, m.end, m.rule)))
            aliases = [a for a, _n in surfaces[g].most_common() if a != name]
            aliases.extend(t for t in (_clean(m.text) for m in mentions) if t != name and t not in aliases)
            entities.append(Entity(slot["type"], name, slot["role"], tuple(aliases[:MAX_ALIASES]), mentions))
        entities.extend(concepts)
        out.append(rec.with_extraction(entities, raw.citations))

    try:
        concepts_mod = importlib.import_module("extractors.concepts")
    except ImportError:
        concepts_mod = None
    fn = getattr(concepts_mod, "consolidate_concepts", None)
    if fn is not None:
        out = list(fn(out))
    return out


_MARKUP_ANY = re.compile(r"[\\{}*$<&\[]")  # the characters clean_view acts on


def _clean(text: str) -> str:
    """A mention's text without markup, as an alias (``**X**`` -> ``X``)."""
    if _MARKUP_ANY.search(text) is None:
        return text.strip()
    from extractors.abbreviations import clean_view

    return clean_view(text).text.strip()


def _pick_name(names: Counter) -> str:
    """Most frequent paper-level name; ties go to the longer (more explicit) one."""
    return max(sorted(names), key=lambda n: (names[n], len(n)))
