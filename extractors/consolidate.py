"""Corpus-level consolidation of per-document extractions.

After every abstract has been read on its own (:func:`extractors.pipeline.extract_raw`):

- **Variants collapse**: names whose :func:`~extractors.gazetteer.entity_key` agree ("MoE",
  "MoEs", "Mixture-of-Experts", "mixture of experts"), or that one paper links as abbreviation
  and long form, form one group with one canonical name (the most frequent paper-level name)
  and the other spellings as aliases. An acronym defined with different long forms in different
  papers ("PO" = "policy optimization" / "preference optimization") links nothing across papers.
- **Type by majority, where the paper says nothing**: a name a paper's own rules typed keeps that
  type (the same letters are a benchmark in one paper and a method in another: "MUSE", "STAR",
  "CoLA"); the type most papers give the group types the mentions recognised from the corpus, and
  settles a paper that typed the name both ways.
- **Known names recognised everywhere**: a coined name a paper mentions without any rule firing
  (kept as a candidate) becomes a ``used`` mention (rule ``corpus``) when the group is known from
  another paper: an acronym defined in one abstract is recognised in the others. Only where the
  letters carry the name (:func:`_spreads`): not inside a URL, not an ordinary compound in Title
  Case ("Self-Supervised" in a title), and a name one other paper alone knows only in the
  abstract with evidence there (its long form, the coiner's coined spelling, or an acronym used
  as a name on its own rather than as a unit, a venue or the paper's own abbreviation). However
  many papers know it, an acronym is not carried to an abstract that gives its letters another
  meaning (:func:`_other_sense`): a measured quantity ("+0.2-0.3 TPR") or other words spelling
  them out there ("projected attention layers" beside "PALs"), nor where the words around the
  letters give them another kind (:func:`_context_disagrees`, :func:`_in_formula`): symbols of a
  formula ("$\\Omega(dM)$"), a condition, measure or software right after them ("the ABC
  condition", "the AIRS library"), a data head after a method's letters ("a new S3 suite"), or the
  head noun of the list they are an item of ("pruning strategies, such as ..., and GRASP").
  Letters that one other paper alone spells out, written here bare, take the group's type but
  not its name (:func:`_borrowed_letters`): "ADM" in a diffusion paper is a method called "ADM",
  not the "alternating direction method" of the one paper that defines the letters.

Roles stay per paper. The concepts module's ``consolidate_concepts(records)`` runs last when it
exists.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import re
from collections import Counter, defaultdict
from operator import attrgetter
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Mapping, Sequence

from extractors.gazetteer import entity_key
from extractors.makers import make_entity, make_mention
from kg.records import Entity, Mention, Record
from kg.schema import EntityType, Role

if TYPE_CHECKING:
    from extractors.pipeline import RawExtraction

#: Aliases kept per entity (the most frequent first).
MAX_ALIASES = 20

_RECORD_FIELDS = tuple(f.name for f in dataclasses.fields(Record))
_record_values = attrgetter(*_RECORD_FIELDS)
#: Every field of Record is a positional parameter of its ``__init__``, in this order.
_POSITIONAL_RECORD = all(f.init and not f.kw_only for f in dataclasses.fields(Record))
_ENTITIES_AT = _RECORD_FIELDS.index("entities")
_CITATIONS_AT = _RECORD_FIELDS.index("citations")


def with_extraction(rec: Record, entities: Iterable[Entity], citations: Iterable) -> Record:
    """``rec.with_extraction(entities, citations)`` at a fifth of the cost.

    That is ``dataclasses.replace``, which checks every field and passes them by keyword;
    here the record's values go positionally to the same ``__init__`` (so a validation it
    does still runs). Falls back to ``with_extraction`` for a subclass or another field layout.

    Examples
    --------
    >>> from kg.records import make_record, Source
    >>> r = make_record(source=Source("x.jsonl", 1, "test"), title="T", abstract="A")
    >>> with_extraction(r, (), ()) == r.with_extraction((), ())
    True
    """
    if type(rec) is not Record or not _POSITIONAL_RECORD:
        return rec.with_extraction(entities, citations)
    values = list(_record_values(rec))
    values[_ENTITIES_AT] = tuple(entities)
    values[_CITATIONS_AT] = tuple(citations)
    return Record(*values)


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
    long_forms: dict[str, tuple[str, ...]] = {
        g: tuple(sorted({f for f in (*c, *surfaces[g]) if " " in f.strip()}, key=len, reverse=True))
        for g, c in name_votes.items()}
    gtype = {g: c.most_common(1)[0][0] if len(c) == 1 or c.most_common(2)[0][1] > c.most_common(2)[1][1] else None
             for g, c in type_votes.items()}

    def spread(i: int, rec: Record, raw: "RawExtraction", seen_groups: set[str],
               lower_seen: Callable[[str], int]) -> Iterator[tuple[str, EntityType, Mention, bool]]:
        """Paper ``i``'s candidates that name a group known from other papers: (group, type, mention,
        linked); ``linked`` is False for letters that only one other paper spells out, written here
        bare (:func:`_borrowed_letters`): a mention of that type, not of that paper's name."""
        own_defs = {entity_key(s) for s, _l, _f in raw.definitions}
        for text, s, e_, field in raw.candidates:
            k = entity_key(text)
            if k in ambiguous or k in own_defs or k not in groups.parent:
                continue
            g = groups.find(k)
            if g not in gtype or g in seen_groups and (gtype[g] or "x") is None:
                continue
            etype = gtype[g]
            if etype is None:
                continue
            n_sources = len(papers[g]) - (i in papers[g])  # papers other than this one
            if n_sources < 1:
                continue
            if not _spreads(text, s, e_, field, rec, n_sources == 1, long_forms.get(g, ()), surfaces[g],
                            lower_seen, etype):
                continue
            linked = not (n_sources == 1 and _borrowed_letters(text, rec.abstract or "", long_forms.get(g, ())))
            yield g, etype, make_mention(s, e_, text, "corpus", field), linked

    # The lower-case questions the candidates will ask, answered in one pass over the abstracts.
    asked: set[str] = set()

    def ask(low: str) -> int:
        asked.add(low)
        return 0

    for i, (rec, raw) in enumerate(zip(records, raws)):
        if raw.candidates:
            seen = {groups.find(entity_key(e.name)) for e in raw.entities if e.type is not EntityType.CONCEPT}
            for _found in spread(i, rec, raw, seen, ask):
                pass
    lower_seen = _LowerSeen(records, asked)

    ranked_surfaces: dict[str, list[str]] = {}
    out: list[Record] = []
    for i, (rec, raw) in enumerate(zip(records, raws)):
        merged: dict[tuple[str, str], dict] = {}
        order: list[tuple[str, str]] = []
        concepts: list[Entity] = []
        # the types this paper's own rules gave each group: the corpus's type settles a paper's
        # disagreement with itself, never overrules it ("MUSE" a benchmark here, a method elsewhere)
        own: dict[str, list[EntityType]] = defaultdict(list)
        for e in raw.entities:
            if e.type is not EntityType.CONCEPT:
                own[groups.find(entity_key(e.name))].append(e.type)
        for e in raw.entities:
            if e.type is EntityType.CONCEPT:
                concepts.append(e)
                continue
            g = groups.find(entity_key(e.name))
            etype = _paper_type(own[g], gtype.get(g)) or e.type
            key = (etype.value, g)
            slot = merged.get(key)
            if slot is None:
                slot = merged[key] = {"type": etype, "role": e.role, "mentions": []}
                order.append(key)
            if e.role is Role.PROPOSED:
                slot["role"] = Role.PROPOSED
            slot["mentions"].extend(e.mentions)
        for g, etype, mention, linked in spread(i, rec, raw, {g for (_t, g) in merged}, lower_seen):
            if g in own:
                etype = _paper_type(own[g], etype) or etype
            elif not linked:
                g = _UNLINKED + entity_key(mention.text)  # its own name: not the other paper's entity
            key = (etype.value, g)
            slot = merged.get(key)
            if slot is None:
                slot = merged[key] = {"type": etype, "role": Role.USED, "mentions": []}
                order.append(key)
            slot["mentions"].append(mention)
        entities: list[Entity] = []
        for key in order:
            slot = merged[key]
            g = key[1]
            name = canonical.get(g) or slot["mentions"][0].text
            mentions = tuple(sorted(set(slot["mentions"]), key=lambda m: (m.field != "title", m.start, m.end, m.rule)))
            ranked = ranked_surfaces.get(g)
            if ranked is None:  # a group's surfaces by frequency, once (a big group has hundreds)
                ranked = ranked_surfaces[g] = [a for a, _n in surfaces[g].most_common()]
            aliases = [a for a in ranked[:MAX_ALIASES + 1] if a != name][:MAX_ALIASES]
            if len(aliases) < MAX_ALIASES:  # then every surface is in: this paper's other spellings follow
                aliases.extend(t for t in (_clean(m.text) for m in mentions) if t != name and t not in aliases)
            entities.append(make_entity(slot["type"], name, slot["role"], tuple(aliases[:MAX_ALIASES]), mentions))
        entities.extend(concepts)
        out.append(with_extraction(rec, entities, raw.citations))

    try:
        concepts_mod = importlib.import_module("extractors.concepts")
    except ImportError:
        concepts_mod = None
    fn = getattr(concepts_mod, "consolidate_concepts", None)
    if fn is not None:
        out = list(fn(out))
    return out


#: prefix of the group key of letters recognised without the other paper's name (no real key has it)
_UNLINKED = "\x00"


def _borrowed_letters(text: str, abstract: str, long_forms: Sequence[str]) -> bool:
    """Are ``text``'s letters an acronym that the one other paper knowing them spells out
    (``long_forms``), written here bare, without that long form?

    Then the letters say the kind of thing (the type), not which one: a few capitals are shared
    by many names ("ADM": an alternating direction method in one paper, a diffusion model in
    others; "SAN", "ISP", "DPG"), and one paper's definition is no evidence that another means
    the same. A coined spelling ("LoRe") or a name no paper spells out ("PRO") stays linked.
    """
    if not long_forms or not _ACRONYM.fullmatch(text):
        return False
    low = abstract.lower()
    return not any(f.lower() in low for f in long_forms)


def _paper_type(own: Sequence[EntityType], corpus: EntityType | None) -> EntityType | None:
    """A group's type in one paper: the corpus's type where the paper's own rules gave it that
    type (among others or alone), else the type the paper gave it first (None: no own type)."""
    if not own:
        return None
    return corpus if corpus in own else own[0]


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


# ----------------------------------------------------------------------------- spreading evidence
# A candidate is only letters the rules did not type. Another paper's name is recognised in it when
# the letters carry the name: not inside a URL, not an ordinary compound in Title Case or capitals
# ("Self-Supervised" in a title), and, for a name that one paper alone knows (a coined acronym is
# ambiguous: "SAN", "PCL", "ADM" name different things in different papers), only in the abstract
# with evidence there: a coined spelling ("NEFTune", "PriDe"), the long form, or an acronym used
# as a name on its own ("ECO is simple"; not "40 TiB", "AMD MI300", "the proposed PCL", "(DSS)").
_URL_CHUNK = re.compile(r"https?://|www\.|github\.|huggingface\.|\w\.(?:com|org|io|net|ai)\b")
_CAMEL = re.compile(r"[a-z][A-Z]|[A-Z]{2}[a-z]")
_ACRONYM = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*s?")
_TITLE_OR_CAPS = re.compile(r"[A-Z][a-z]+|[A-Z]+")
_WORD_BEFORE = re.compile(r"([\w#.,]+)\W*$")
_WORD_AFTER = re.compile(r"^\W{0,2}?([\w]+)")
_UNIT_BEFORE = re.compile(r"(?:\d[\d.,]*[KMBGTkmb]?\s*|[%#]\s*|\w|\))$")
_VENUE_AFTER = re.compile(r"\s*(?:,\s*)?['’]?\d{2,4}\b")
_OWN_DEF_BEFORE = re.compile(r"\(\s*(?:abbr\.?|abbreviated|short for|or)?\s*(?:\$?\{?\\\w+\s*)?$")
_OWN_DEF_AFTER = re.compile(r"\}?\$?\s*\)")
_OWN_BEFORE = re.compile(r"\b(?:proposed|novel|new|our|introduced|we)\s+(?:\w+\s+)?$", re.IGNORECASE)


class _LowerSeen:
    """How often the corpus's abstracts write a form in lower case (0, 1, or 2 meaning "at least 2").

    A use of ``low`` (``"self-supervised"``) is the form itself or its words with spaces
    (``"self supervised"``), standing alone: no letter, digit, ``_`` or ``-`` right before it or
    right after it. Uses of one form are counted left to right without overlapping (as
    ``re.finditer`` finds them): in "a b a b a" the form "a b a" is used once.

    The forms given up front (``lows``) are counted in one pass over the abstracts
    (:func:`_count_lower`), so the cost is linear in the corpus however many forms there are; a
    form asked for later is counted on its own when first asked.
    """

    def __init__(self, records: Sequence[Record], lows: Iterable[str] = ()) -> None:
        self.records = records
        self.counts: dict[str, int] = _count_lower(records, lows)

    def __call__(self, low: str) -> int:
        n = self.counts.get(low)
        if n is None:
            n = self.counts[low] = _count_lower(self.records, (low,))[low]
        return n


#: Forms the one-pass scan counts: lower-case words joined by hyphens (one whole run of word
#: characters and hyphens), or by single spaces (a run of such words).
_RUN_FORM = re.compile(r"[a-z]+(?:-[a-z]+)*")
_PHRASE_FORM = re.compile(r"[a-z]+(?: [a-z]+)+")
#: Longer forms are counted one by one (the scan's pattern nests one group per branching letter).
_MAX_SCANNED = 120
#: Abstracts scanned before the forms already seen twice leave the pattern (then 4x as many, ...).
_FIRST_STEP = 1000


def _count_lower(records: Sequence[Record], lows: Iterable[str]) -> dict[str, int]:
    """Lower-case uses of each of ``lows`` in the records' abstracts, at most 2 (see :class:`_LowerSeen`).

    One pass over the abstracts (each read once) with one pattern: after each character that is not a word
    character or a hyphen, a character trie of every form is tried inside a look-ahead, so forms
    sharing words ("deep learning", "learning rate") are all seen, and a form found there also
    finds the forms among its first words ("state of" in "state of the art"). A form that is one
    run of letters and hyphens is a whole run, so its uses never overlap. A form of several words
    can only overlap itself when its last words are its first ("end to end"): for those the trie
    also holds the words after the first, to find the places ``re.finditer`` would take as well
    (the first word ending a longer word: "backend to end to end" is no use, and hides the use
    overlapping it), and each abstract's places are kept left to right without overlap. Any other
    form (not lower-case ASCII words) is searched for on its own.

    The pass goes through the abstracts in slices of 1,000, 4,000, 16,000, ... abstracts; after
    each, the lows already used twice are settled and their forms leave the pattern. Those are
    the common phrases ("end to end", "in context"), the ones that lead the trie deepest at the
    most places. On the 100k benchmark corpus that saves about a tenth: 4.6 -> 4.1 s CPU for
    all its 1,923 Title Case compounds, 2.9 -> 2.8 s for the 158 that consolidation asks about.
    """
    lows = set(lows)
    forms = {f for low in lows for f in (low, low.replace("-", " "))}
    plain: set[str] = set()
    overlapping: set[str] = set()
    tails: dict[str, list[tuple[str, str]]] = defaultdict(list)  # "w2 ... wk" -> [(form, w1)]
    alone: set[str] = set()
    for f in forms:
        if len(f) > _MAX_SCANNED:
            alone.add(f)
        elif _RUN_FORM.fullmatch(f):
            plain.add(f)
        elif _PHRASE_FORM.fullmatch(f):
            words = f.split(" ")
            if any(words[j:] == words[:len(words) - j] for j in range(1, len(words))):
                overlapping.add(f)
                tails[" ".join(words[1:])].append((f, words[0]))
            else:
                plain.add(f)
        else:
            alone.add(f)
    seen: Counter = Counter()
    serves: dict[str, list[str]] = defaultdict(list)  # form -> the lows it is a form of
    for low in lows:
        for f in {low, low.replace("-", " ")}:
            serves[f].append(low)
    todo = plain | overlapping
    done = 0
    step = _FIRST_STEP
    while todo and done < len(records):
        _scan_lower(records[done:done + step], todo, tails, seen)
        done += step
        step *= 4
        # a low seen twice is settled: its forms leave the pattern (most settle within a few
        # thousand abstracts, and they are the common ones, which cost the trie most)
        settled = {low for low in lows if sum(seen[f] for f in {low, low.replace("-", " ")}) >= 2}
        todo = {f for f in todo if not all(low in settled for low in serves[f])}
    for f in alone:
        pattern = re.compile(re.escape(f) + r"(?![\w-])")
        for rec in records:
            text = rec.abstract or ""
            for m in pattern.finditer(text):
                if m.start() == 0 or not (text[m.start() - 1].isalnum() or text[m.start() - 1] in "-_"):
                    seen[f] += 1
            if seen[f] >= 2:
                break
    return {low: min(2, sum(seen[f] for f in {low, low.replace("-", " ")})) for low in lows}


def _scan_lower(records: Sequence[Record], forms: set[str], tails: Mapping[str, list[tuple[str, str]]],
                seen: Counter) -> None:
    """Add the lower-case uses of ``forms`` in the records' abstracts to ``seen`` (see :func:`_count_lower`).

    ``tails`` maps the words after the first of each form that can overlap itself to
    ``(form, first word)``; the forms named there are counted as ``re.finditer`` would.
    """
    tails = {t: fs for t, fs in ((t, [x for x in fs if x[0] in forms]) for t, fs in tails.items()) if fs}
    overlapping = {f for fs in tails.values() for f, _first in fs}
    scanned = forms | tails.keys()
    # what the trie finds at a place: the longest form, then the forms among its first words
    found_with = {f: (f, *(f[:i] for i, ch in enumerate(f) if ch == " " and f[:i] in scanned)) for f in scanned}
    finder = re.compile(r"[^\w-](?=(" + _trie_pattern(scanned) + "))")
    for rec in records:
        text = " " + (rec.abstract or "")  # the start of the abstract is a place too
        places: dict[str, list[tuple[int, bool]]] = {}  # overlapping form -> (start, counted)
        for m in finder.finditer(text):
            at = m.end()
            for g in found_with[m.group(1)]:
                if g in overlapping:
                    places.setdefault(g, []).append((at, True))
                elif g in forms:
                    seen[g] += 1
                for f, first in tails.get(g, ()):
                    s = at - 1 - len(first)
                    if (s > 1 and text[at - 1] == " " and text.startswith(first, s)
                            and (text[s - 1].isalnum() or text[s - 1] in "-_")):
                        places.setdefault(f, []).append((s, False))
        for f, found in places.items():
            end = 0
            for s, counted in sorted(found):
                if s >= end:
                    end = s + len(f)
                    seen[f] += counted


def _trie_pattern(forms: Iterable[str]) -> str:
    """A regular expression matching any of ``forms`` (the longest first) when no word character or
    hyphen follows: alternatives grouped letter by letter, so each place costs a few comparisons
    whatever the number of forms."""
    trie: dict = {}
    for f in forms:
        node = trie
        for ch in f:
            node = node.setdefault(ch, {})
        node[""] = None

    def pattern(node: dict) -> str:
        out = ""
        while len(node) == 1 and "" not in node:  # a chain of single letters
            ch, node = next(iter(node.items()))
            out += re.escape(ch)
        alts = [re.escape(ch) + pattern(child) for ch, child in sorted(node.items()) if ch]
        if "" in node:
            alts.append(r"(?![\w-])")  # tried last: a longer form first
        return out + (alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")")

    return pattern(trie)


def _spreads(text: str, start: int, end: int, field: str, rec: Record, single_source: bool,
             long_forms: Sequence[str], spellings: Mapping[str, int], lower_seen: Callable[[str], int],
             etype: EntityType | None = None) -> bool:
    """Does the candidate ``text`` at ``start:end`` of ``rec``'s ``field`` name the corpus's entity?

    ``single_source``: one other paper alone names the entity; ``long_forms``: its names of
    several words; ``spellings``: the surfaces other papers write; ``etype``: its type in the corpus.
    """
    doc = (rec.title if field == "title" else rec.abstract) or ""
    if doc[start:end] != text:  # offsets from another text: keep the old behaviour
        return True
    lo = doc.rfind(" ", 0, start) + 1
    hi = doc.find(" ", end)
    if _URL_CHUNK.search(doc[lo:hi if hi >= 0 else len(doc)]):
        return False
    if _in_formula(doc, start, end):
        return False
    if etype is not None and _context_disagrees(doc, start, end, etype):
        return False
    if _other_sense(text, start, end, doc, long_forms):
        return False
    if single_source and not _single_source_evidence(text, start, end, field, doc, long_forms, spellings):
        return False
    if _lower_cased_acronym(text, spellings):
        return False
    parts = text.split("-")
    if all(_TITLE_OR_CAPS.fullmatch(p) for p in parts):
        if len(parts) == 1:
            # a word in capitals among words in capitals ("CODE ... AT SCALE") is an English word
            return not (text.isupper() and _shouting_context(doc, start, end) and _is_common(text))
        if lower_seen(text.lower()) >= 2:
            return False  # "Self-Supervised", "Low-Rank", "Black-Box": ordinary words in Title Case
    return True


#: a font command whose argument is text set in a formula ("$\\texttt{CLIP}$", "$\\mathrm{SGD}$")
_FONT_BEFORE = re.compile(r"\\(?:text\w*|math(?:rm|sf|tt|bf|it)|operatorname)\{\s*$")


def _in_formula(doc: str, start: int, end: int) -> bool:
    """Is ``start:end`` inside a short inline formula (a ``$`` on either side, within
    :data:`_FORMULA_REACH` characters and the same sentence), where letters are symbols
    ("$\\Omega(dM)$": the product of d and M), and not set in a text font there? A ``$`` far
    away is not enough: an amount ("at a cost of $5K") opens no formula."""
    lo = doc.rfind("$", max(0, start - _FORMULA_REACH), start)
    if lo < 0 or (lo > 0 and doc[lo - 1] == "\\"):
        return False
    hi = doc.find("$", end, end + _FORMULA_REACH)
    if hi < 0 or _PROSE_WORD.search(doc, lo, start) or _PROSE_WORD.search(doc, end, hi):
        return False  # words of a sentence between two formulas ("$2\\%$ mIoU on ADE20K. At $\\sim$")
    return _FONT_BEFORE.search(doc, max(0, start - 20), start) is None


#: characters between a formula's ``$`` and a name inside it
_FORMULA_REACH = 40
#: a lower-case word of prose (a command's letters, "\\log", are no word)
_PROSE_WORD = re.compile(r"(?<![\\\w])[a-z]{3,}\b")


#: the word right after a name that says the letters name something else: a condition or a
#: measure ("the ABC condition", "CVaR measure"), or software ("part of the AIRS library")
_NOT_NAME_AFTER = re.compile(
    r"[\"”’')]*\s+(?:conditions?|metrics?|measures?|librar(?:y|ies)|toolkits?|packages?|codebases?|"
    r"repositor(?:y|ies)|ontolog(?:y|ies))\b")
#: a data head right after a name: "a new S3 suite", "the STAR datasets"
_DATA_AFTER = re.compile(r"[\"”’')]*\s+(?:benchmarks?|datasets?|data\s+sets?|suites?|corpus|corpora|testbeds?)\b")
#: the head noun of a list the name is an item of: "pruning strategies, such as A, B, and X",
#: "risk metrics like mean, X, ..." (the items between are short and hold no clause break)
_LIST_HEAD_BEFORE = re.compile(
    r"\b(?P<head>[A-Za-z]+)\s*,?\s*(?:such as|like|including|e\.g\.,?)\s+(?:[^.;:()]{0,60}?,\s*)?(?:(?:and|or)\s+)?$")
_METHOD_LIST_HEADS = frozenset(
    "methods algorithms techniques approaches strategies baselines optimizers architectures".split())
_DATA_LIST_HEADS = frozenset("datasets benchmarks corpora suites".split())
_NOT_NAME_LIST_HEADS = frozenset("metrics measures conditions".split())


def _context_disagrees(doc: str, start: int, end: int, etype: EntityType) -> bool:
    """Do the words around a candidate give it another kind than the corpus's ``etype``?

    The corpus knows the letters as one kind of thing; here a head noun says they name another:
    a condition, a measure or software right after them, a data head after a method's letters,
    or the head of the list they are an item of ("pruning strategies, such as ..., and X" for a
    benchmark's letters, "datasets like ..." for a method's, "risk metrics like ..." for either).
    """
    after = doc[end:end + 40]
    if _NOT_NAME_AFTER.match(after):
        return True
    if etype is EntityType.METHOD and _DATA_AFTER.match(after):
        return True
    m = _LIST_HEAD_BEFORE.search(doc, max(0, start - 120), start)
    if m is None:
        return False
    head = m.group("head").lower()
    if head in _NOT_NAME_LIST_HEADS:
        return True
    return head in (_DATA_LIST_HEADS if etype is EntityType.METHOD else _METHOD_LIST_HEADS)


def _other_sense(text: str, start: int, end: int, doc: str, long_forms: Sequence[str]) -> bool:
    """Does this abstract give the short form ``text`` another meaning than the corpus's entity?

    However many papers name the entity, its letters are not carried to an abstract where they
    mean something else: a measured quantity ("+0.2-0.3 TPR", "95% TPR": an acronym right after
    a number), or an acronym whose letters this abstract spells out in other words ("true
    positive rate" beside "TPR", when the corpus's TPR is a "tensor product representation").
    A metric or generic name the gazetteer lists, or a short form of a modality, unit, number
    format or rate (``data/not_corpus_names.txt``), is never a candidate in the first place
    (:mod:`extractors.entities`), and an acronym the abstract defines itself is
    skipped before (``own_defs``).
    """
    if not _ACRONYM.fullmatch(text):
        return False
    if _NUMBER_BEFORE.search(doc[max(0, start - 20):start]):
        return True
    return _spelled_otherwise(text, doc, long_forms)


#: a number, with a sign, a range or a percent sign, right before a word: "+0.2-0.3 ", "95% "
_NUMBER_BEFORE = re.compile(r"(?<![\w.-])[+-]?\d[\d.,]*(?:\s*[-\u2013]\s*\d[\d.,]*)?\s*%?\s$")
_SMALL_WORDS = frozenset({
    "a", "about", "across", "after", "also", "an", "and", "are", "as", "at", "be", "between", "both", "but",
    "by", "can", "each", "for", "from", "has", "have", "how", "in", "into", "is", "it", "its", "more", "most",
    "not", "of", "on", "or", "our", "over", "such", "than", "that", "the", "their", "these", "this", "those",
    "through", "to", "under", "upon", "via", "was", "we", "were", "what", "when", "which", "while", "with",
    "within", "without"})


def _spelled_otherwise(text: str, doc: str, long_forms: Sequence[str]) -> bool:
    """Do words of ``doc`` spell out the acronym ``text`` in another way than the entity's
    ``long_forms`` ("true positive rate" for "TPR", one word per letter)?

    Only acronyms of three to six letters (shorter ones are spelled by chance too often), and
    only words that look like a name for the letters: set in Title Case ("Diffusion Bridge
    Network" for "DBN"), or written near one of the acronym's uses ("PALs or projected attention
    layers"), not words that happen to start with its letters far from it.
    """
    letters = text[:-1] if text.endswith("s") and text[:-1].isupper() else text
    if not (3 <= len(letters) <= 6 and letters.isalpha() and letters.isupper()):
        return False
    known = [f.lower().replace("-", " ") for f in long_forms]
    uses: list[int] | None = None
    found = False
    for m in _spelling_pattern(letters).finditer(doc):
        phrase = m.group(0)
        words = re.split(r"[\s-]+", phrase)
        if any(w.lower() in _SMALL_WORDS for w in words):
            continue
        low = phrase.lower().replace("-", " ")
        if any(low in k or k in low for k in known):
            return False  # the entity's own long form is written here
        if all(w[:1].isupper() for w in words):
            found = True
            continue
        if uses is None:
            uses = [u.start() for u in re.finditer(rf"(?<![A-Za-z]){letters}s?(?![A-Za-z])", doc)]
        if any(m.start() - _NEAR <= u <= m.end() + _NEAR for u in uses):
            found = True
    return found


#: characters between an acronym and words spelling it out that still count as near
_NEAR = 100


@functools.lru_cache(maxsize=4096)
def _spelling_pattern(letters: str) -> re.Pattern[str]:
    """Words, one per letter of ``letters``, joined by a space or a hyphen, in any case."""
    words = r"[\s-]".join(f"[{c}{c.lower()}][a-z]+" for c in letters)
    return re.compile(rf"(?<![\w-]){words}(?![\w-])")


def _lower_cased_acronym(text: str, spellings: Mapping[str, int]) -> bool:
    """Is ``text`` an acronym the other papers write in capitals, here with lower-case letters?

    "PhD" and "PhDs" are not the persistent homology dimension "PHD": their keys agree, but no
    paper writes the acronym that way. Only acronyms of letters alone: a name with digits keeps its
    usual respellings ("Cifar-10", "ADE20k"), and a spelling the corpus knows as written ("MoE"
    beside "MOE") still spreads.
    """
    forms = {text, text[:-1]} if text.endswith("s") else {text}
    if forms & spellings.keys():
        return False
    folded = {f.casefold() for f in forms}
    return any(sp.isalpha() and sp.isupper() and sp.casefold() in folded for sp in spellings)


def _is_common(word: str) -> bool:
    from extractors.gazetteer import load_gazetteer

    return load_gazetteer().is_common_word(word)


def _single_source_evidence(text: str, start: int, end: int, field: str, doc: str,
                            long_forms: Sequence[str], spellings: Mapping[str, int]) -> bool:
    """Evidence in this abstract that a name known from one other paper is meant here."""
    if field != "abstract":
        return False  # a title is set in Title Case: its capitals say nothing
    before = doc[max(0, start - 40):start]
    after = doc[end:end + 30]
    if _UNIT_BEFORE.search(before) or _VENUE_AFTER.match(after) or after.startswith("- "):
        return False  # a unit, a class, a venue or a modifier: "8.5M SOPs", "#EXP", "(SODA, 2023)", "S1- and"
    if _OWN_DEF_BEFORE.search(before) and _OWN_DEF_AFTER.match(after):
        return False  # "(DSS)", "(abbr. ASAP)": the paper's own abbreviation, defined in a way the detector missed
    low_doc = doc.lower()
    if any(f.lower() in low_doc for f in long_forms):
        return True
    if _CAMEL.search(text.rstrip("s")) and text in spellings:
        return True  # the coiner's own spelling: "NEFTune", "PriDe" ("STeering" is not "STEERING")
    if not _ACRONYM.fullmatch(text):
        return False
    if _OWN_BEFORE.search(before):
        return False  # "the proposed PCL", "a novel DFF": the paper's own name for its own thing
    m = _WORD_AFTER.match(after)
    if m is not None and after[:1] == " " and (m.group(1)[:1].isupper() or m.group(1)[:1].isdigit()):
        return False  # part of a longer name: "AMD MI300"
    return True


def _shouting_context(doc: str, start: int, end: int) -> bool:
    """Is a word in capitals next to another word in capitals (a title set in capitals)?"""
    b = _WORD_BEFORE.search(doc[max(0, start - 30):start])
    a = _WORD_AFTER.match(doc[end:end + 30])
    return any(x is not None and len(x.group(1)) > 1 and x.group(1).isupper() for x in (a, b))
