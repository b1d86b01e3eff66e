"""The extraction pipeline: records in, records with entities and citations out.

The rest of paperkg calls three functions and never sees a spaCy object:

- :func:`extract_raw` runs spaCy over each record's title and abstract (joined into one text,
  offsets mapped back to each field) and yields one :class:`RawExtraction` per record, in order;
  it is plain, JSON-serialisable and cacheable per record.
- :func:`consolidate` looks at the whole corpus (:mod:`extractors.consolidate`) and returns the
  records with their final entities and citations.
- :func:`extract_records` is both in one call.
"""

from __future__ import annotations

import gc
import importlib
import re
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator, Mapping, NamedTuple, Sequence

import spacy
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc

from extractors import EXTRACTOR_VERSION
from extractors.abbreviations import DEFS_KEY, Definition, TextKeepingTokenizer, doc_text
from extractors.entities import CANDIDATES_KEY, entities_from_doc
from extractors.learned import make_learned  # noqa: F401  (registers the paperkg_learned factory)
from extractors.makers import make_mention
from kg.errors import PaperkgError
from kg.readers.base import MAX_FIELD_CHARS
from kg.records import Citation, Entity, Mention, Record

#: Between title and abstract in the processed text; a paragraph break stops every rule.
SEPARATOR = "\n\n"

#: The components after the entities: (factory, module, function that reads a doc).
_OPTIONAL = (
    ("paperkg_concepts", "extractors.concepts", "concepts_from_doc"),
    ("paperkg_citations", "extractors.citations", "citations_from_doc"),
)

MentionMaker = Callable[[int, int, str, str], "Mention | None"]

#: Suffixes paperkg's tokenizer splits off besides spaCy's English ones (``{au}``: an upper-case
#: letter). spaCy splits a final period after a lower-case letter, a digit or two capitals, so
#: that it keeps an initial ("J.", "U.S."); after a single capital that follows a digit or a
#: hyphen it kept the period too, and a name at the end of a sentence ("ImageNet-C.",
#: "PaLM-540B.", "CIFAR-10N.", "GSM8K.") never matched the gazetteer. Hyphenated initials
#: ("J.-C.") keep theirs.
EXTRA_SUFFIXES = (r"(?<=[0-9\-\u2010\u2011][{au}])(?<!\.[\-\u2010\u2011][{au}])\.",)

#: Whitespace-separated chunks whose tokens spaCy's tokenizer remembers (its default is 10,000).
#: The confpapers abstracts (1.35M words) have about 80,000 distinct chunks; a chunk found in the
#: cache costs a tenth of one tokenized afresh. An entry takes a few hundred bytes.
TOKENIZER_CACHE_SIZE = 200_000


@dataclass(frozen=True)
class RawExtraction:
    """What one document yielded before corpus-level consolidation.

    ``definitions`` are abbreviation definitions ``(short, long, field)``; ``candidates`` are
    coined names the rules saw but did not type ``(text, start, end, field)``: consolidation
    turns them into mentions when the corpus knows them as methods or benchmarks.
    """

    record_id: str
    entities: tuple[Entity, ...] = ()
    citations: tuple[Citation, ...] = ()
    definitions: tuple[tuple[str, str, str], ...] = ()
    candidates: tuple[tuple[str, int, int, str], ...] = ()
    version: str = EXTRACTOR_VERSION

    def to_dict(self) -> dict[str, Any]:
        return {
            "record_id": self.record_id,
            "version": self.version,
            "entities": [e.to_dict() for e in self.entities],
            "citations": [c.to_dict() for c in self.citations],
            "definitions": [list(d) for d in self.definitions],
            "candidates": [list(c) for c in self.candidates],
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "RawExtraction":
        return cls(
            record_id=d["record_id"],
            entities=tuple(Entity.from_dict(e) for e in d.get("entities") or ()),
            citations=tuple(Citation.from_dict(c) for c in d.get("citations") or ()),
            definitions=tuple(tuple(x) for x in d.get("definitions") or ()),  # type: ignore[misc]
            candidates=tuple((c[0], int(c[1]), int(c[2]), c[3]) for c in d.get("candidates") or ()),
            version=d.get("version", ""),
        )


def _optional_components() -> list[tuple[str, Any]]:
    out = []
    for factory, module, func in _OPTIONAL:
        try:
            mod = importlib.import_module(module)
        except ImportError:
            continue
        reader = getattr(mod, func, None)
        if reader is not None:
            out.append((factory, reader))
    return out


def make_nlp(*, spacy_model: str | None = None) -> Language:
    """``spacy.blank("en")`` (or an installed trained pipeline) plus the paperkg components.

    Raises
    ------
    PaperkgError
        When ``spacy_model`` names a pipeline that is not installed (nothing is downloaded).
    """
    if spacy_model:
        try:
            nlp = spacy.load(spacy_model, exclude=["ner", "lemmatizer", "textcat"])
        except OSError:
            raise PaperkgError(
                f"spaCy pipeline {spacy_model!r} is not installed; install it (python -m spacy download "
                f"{spacy_model}) or leave out --spacy-model to use the built-in rules") from None
    else:
        nlp = spacy.blank("en")
        _lower_only_lexemes(nlp)
    _renew_tokenizer(nlp, TOKENIZER_CACHE_SIZE)  # before the components tokenize their patterns
    nlp.tokenizer = TextKeepingTokenizer(nlp.tokenizer)  # doc_text() without rebuilding doc.text
    # spaCy refuses texts over 1,000,000 characters (a guard for its parser's memory); the
    # readers accept a title and an abstract of MAX_FIELD_CHARS each, and _join puts both in one text.
    nlp.max_length = max(nlp.max_length, 2 * MAX_FIELD_CHARS + len(SEPARATOR))
    nlp.add_pipe("paperkg_abbreviations")
    nlp.add_pipe("paperkg_entities")
    nlp.add_pipe("paperkg_learned")
    for factory, _reader in _optional_components():
        nlp.add_pipe(factory)
    return nlp


#: The only lexical attribute that paperkg's components read from spaCy's word records: the
#: ``PhraseMatcher`` s match on ``LOWER``; everything else reads ``token.text``/``idx``/``i``.
#: ``tests/extractors/test_speed_identity.py`` fails when extractor code reads another one.
LEXEME_ATTRS = ("LOWER",)


def _lower_only_lexemes(nlp: Language) -> None:
    """Compute only :data:`LEXEME_ATTRS` for each new word of a blank pipeline.

    spaCy creates a record (``Lexeme``) the first time it sees a word and calls ~20 Python
    functions for it (``is_punct``, ``like_num``, ``shape``, ``norm``, ``is_stop`` ...); on the
    confpapers abstracts that is 36,600 new words, about 0.3 s of a first pass. paperkg's rules
    read none of them (they would read as False/0 here), so a blank pipeline skips them. A
    trained pipeline (``spacy_model``) keeps them: its tagger and parser read ``NORM``,
    ``SHAPE``, ``PREFIX`` and ``SUFFIX``.
    """
    from spacy.attrs import IDS

    keep = {IDS[a] for a in LEXEME_ATTRS}
    getters = nlp.vocab.lex_attr_getters
    nlp.vocab.lex_attr_getters = {k: f for k, f in getters.items() if k in keep}


class _EnglishSuffixSearch:
    """``search`` gives the same match as the regex's own (spaCy's English suffix pattern, plus
    :data:`EXTRA_SUFFIXES`), at a fraction of the cost.

    Every alternative of the pattern is anchored at the end (``piece$``), and all but
    ``\\.\\.+`` (a run of dots) match at most ``width`` characters; so, for a string
    without a line break (``$`` also matches before a final one) and not ending in two dots,
    the leftmost match starts within the last ``width`` characters, and ``re`` need not try
    the ~80 alternatives at every earlier position. When ``letters_never`` (every alternative
    needs a character that is not a letter, see :func:`_needs_non_letter`), a word of letters
    only has no suffix: half of the strings spaCy asks about. Other strings get the full
    search. ``pattern`` is the original's, so ``Tokenizer.to_bytes`` stores that.
    """

    def __init__(self, regex: re.Pattern[str], width: int, letters_never: bool = False) -> None:
        self.pattern = regex.pattern
        self.regex = regex
        self.width = width
        self.letters_never = letters_never

    def search(self, string: str) -> re.Match[str] | None:
        if self.letters_never and string.isalpha():
            return None
        n = len(string) - self.width
        if n <= 0 or "\n" in string or string.endswith(".."):
            return self.regex.search(string)
        return self.regex.search(string, n)


def _class_may_hold(items: list, test, safe_categories: tuple = ()) -> bool:
    """Can the parsed character class ``items`` (``re._parser`` form) match a character for which
    ``test`` is true? Literals and ranges are checked; a category in ``safe_categories`` is known
    to hold none; anything else (another category, a negation ...) is assumed to hold one."""
    from re import _constants as sre  # type: ignore[attr-defined]

    for op, av in items:
        if op is sre.LITERAL:
            if test(chr(av)):
                return True
        elif op is sre.RANGE:
            if any(test(chr(c)) for c in range(av[0], av[1] + 1)):
                return True
        elif not (op is sre.CATEGORY and av in safe_categories):
            return True
    return False


def _class_may_hold_letter(items: list) -> bool:
    """Can the parsed character class ``items`` match a letter? (Any category: assume it can.)"""
    return _class_may_hold(items, str.isalpha)


def _needs_non_letter(items: list) -> bool:
    """Does every match of the parsed pattern ``items`` consume, or look behind at, a
    character that is not a letter (``str.isalpha``)? False when unsure."""
    from re import _constants as sre  # type: ignore[attr-defined]

    for op, av in items:
        if op is sre.LITERAL and not chr(av).isalpha():
            return True
        if op is sre.IN and not _class_may_hold_letter(av):
            return True
        if op is sre.ASSERT and av[0] == -1 and _needs_non_letter(av[1]):  # a look-behind
            return True
        if op is sre.SUBPATTERN and _needs_non_letter(av[3]):
            return True
        if op is sre.BRANCH and all(_needs_non_letter(b) for b in av[1]):
            return True
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT) and av[0] >= 1 and _needs_non_letter(av[2]):
            return True
    return False


class _EnglishInfixFinditer:
    """``finditer`` gives the same matches as spaCy's English infix pattern.

    Every infix alternative consumes a character that is not a letter or digit (dots,
    hyphens and dashes, ``,:<>=/+*^~``, symbols), so a string of letters and digits only has
    none; half of the strings spaCy asks about are such words. When, moreover, that is the
    first character every match consumes (``starts_non_alnum``, see :func:`_starts_non_alnum`),
    the other strings are searched with the pattern behind a look-ahead for such a character
    (``(?=[\\W_])``: not ``str.isalnum``): ``re`` then tries the dozens of alternatives only where
    a match can start, not at every letter (on a first pass over the confpapers abstracts,
    ~70,000 strings: 0.17 -> 0.13 s). The look-ahead consumes nothing, so the matches are the
    same. ``pattern`` is the original's, so ``Tokenizer.to_bytes`` stores that.
    """

    def __init__(self, regex: re.Pattern[str], starts_non_alnum: bool = False) -> None:
        self.pattern = regex.pattern
        self.regex = re.compile(r"(?=[\W_])(?:" + regex.pattern + ")", regex.flags) if starts_non_alnum else regex

    def finditer(self, string: str) -> Iterator[re.Match[str]]:
        if string.isalnum():
            return iter(())
        return self.regex.finditer(string)


def _class_never_alnum(items: list) -> bool:
    """Is no character of the parsed character class ``items`` alphanumeric (``str.isalnum``)?
    False when unsure (only white space and ``\\W`` categories are known to hold none)."""
    from re import _constants as sre  # type: ignore[attr-defined]

    return not _class_may_hold(items, str.isalnum, (sre.CATEGORY_SPACE, sre.CATEGORY_UNI_SPACE,
                                                    sre.CATEGORY_NOT_WORD, sre.CATEGORY_UNI_NOT_WORD))


def _starts_non_alnum(items: list) -> bool:
    """Is the first character that every match of the parsed pattern ``items`` consumes one
    that is not alphanumeric? Zero-width assertions before it are skipped; False when unsure."""
    from re import _constants as sre  # type: ignore[attr-defined]

    for op, av in items:
        if op in (sre.ASSERT, sre.ASSERT_NOT, sre.AT):
            continue  # consumes nothing: the first character comes after
        if op is sre.LITERAL:
            return not chr(av).isalnum()
        if op is sre.IN:
            return _class_never_alnum(av)
        if op is sre.SUBPATTERN:
            return _starts_non_alnum(av[3])
        if op is sre.BRANCH:
            return all(_starts_non_alnum(b) for b in av[1])
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            return av[0] >= 1 and _starts_non_alnum(av[2])
        return False
    return False


class _DotlessUrlMatch:
    """``match`` gives the same match as spaCy's URL pattern, skipping strings without a dot.

    Every match of the pattern holds a ``.`` (an IPv4 address or a host name with at least one
    dot; see :func:`_always_consumes`), so a string without one has none: nearly every word
    spaCy asks about (the core of each new chunk, ~87,000 on a first pass over the confpapers
    abstracts, ~0.06 s). ``pattern`` is the original's, so ``Tokenizer.to_bytes`` stores that.
    """

    def __init__(self, regex: re.Pattern[str]) -> None:
        self.pattern = regex.pattern
        self.regex = regex

    def match(self, string: str) -> re.Match[str] | None:
        if "." not in string:
            return None
        return self.regex.match(string)


def _always_consumes(items: list, char: str) -> bool:
    """Does every match of the parsed pattern ``items`` (``re._parser`` form) consume the
    literal ``char``? False when unsure (look-arounds consume nothing)."""
    from re import _constants as sre  # type: ignore[attr-defined]

    for op, av in items:
        if op is sre.LITERAL and av == ord(char):
            return True
        if op is sre.SUBPATTERN and _always_consumes(av[3], char):
            return True
        if op is sre.BRANCH and all(_always_consumes(b, char) for b in av[1]):
            return True
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT) and av[0] >= 1 and _always_consumes(av[2], char):
            return True
    return False


@lru_cache(maxsize=4)
def _url_needs_dot(pattern: str, flags: int) -> bool:
    """Is a ``.`` in every match of this URL pattern (see :class:`_DotlessUrlMatch`)?"""
    from re import _parser as sre_parse  # type: ignore[attr-defined]

    return _always_consumes(list(sre_parse.parse(pattern, flags).data), ".")


class _AffixPatterns(NamedTuple):
    english_suffix_pattern: str  # spaCy's English suffix pattern
    suffix_pattern: str  # paperkg's: the same plus EXTRA_SUFFIXES
    infix_pattern: str  # spaCy's English infix pattern
    width: int  # the width bound of paperkg's suffix alternatives but the run of dots
    letters_never: bool  # no suffix alternative can match letters only (_EnglishSuffixSearch)
    infix_starts_non_alnum: bool  # every infix match starts with no letter or digit (_EnglishInfixFinditer)


@lru_cache(maxsize=1)
def _english_affix_patterns() -> _AffixPatterns:
    """The affix patterns the tokenizer's searches are built from and what they allow (all empty
    or false for a spaCy version whose suffixes the bound does not hold for)."""
    from re import _parser as sre_parse  # type: ignore[attr-defined]

    from spacy.lang.char_classes import ALPHA_UPPER
    from spacy.lang.en import English
    from spacy.util import compile_infix_regex, compile_suffix_regex

    english = compile_suffix_regex(English.Defaults.suffixes)
    extra = [p.format(au=ALPHA_UPPER) for p in EXTRA_SUFFIXES]
    pieces = [p for p in (*English.Defaults.suffixes, *extra) if p.strip()]
    widths = {p: sre_parse.parse(p + "$").getwidth()[1] for p in pieces}
    unbounded = [p for p, w in widths.items() if w >= sre_parse.MAXREPEAT]
    if unbounded != [r"\.\.+"]:  # another spaCy version: the bound below would not hold
        return _AffixPatterns("", "", "", 0, False, False)
    width = max(w for w in widths.values() if w < sre_parse.MAXREPEAT)
    suffix = compile_suffix_regex(pieces)
    top = sre_parse.parse(suffix.pattern, suffix.flags).data
    letters_never = (len(top) == 1 and top[0][0] is sre_parse.BRANCH
                     and all(_needs_non_letter(list(b)) for b in top[0][1][1]))
    infix = compile_infix_regex(English.Defaults.infixes)
    infix_starts_non_alnum = _starts_non_alnum(list(sre_parse.parse(infix.pattern, infix.flags).data))
    return _AffixPatterns(english.pattern, suffix.pattern, infix.pattern, width, letters_never,
                          infix_starts_non_alnum)


@lru_cache(maxsize=1)
def _paperkg_suffix_regex() -> re.Pattern[str] | None:
    """spaCy's English suffix pattern plus :data:`EXTRA_SUFFIXES`, compiled (None: another spaCy
    version, whose suffixes are left as they are)."""
    ours = _english_affix_patterns().suffix_pattern
    return re.compile(ours) if ours else None


def _fast_searches(tok: Tokenizer) -> dict[str, Any]:
    """paperkg's suffix search and faster, same-result infix searches when the tokenizer uses
    English's own, and a URL match that skips strings without a dot when its pattern needs one,
    as ``Tokenizer`` keyword arguments (empty when none applies).

    The suffix search is spaCy's English one plus :data:`EXTRA_SUFFIXES`, made faster
    (:class:`_EnglishSuffixSearch`); a tokenizer that has it already (one loaded from a
    serialised paperkg pipeline) gets the faster search too.
    On a first pass spaCy tokenizes every distinct word (~80,000 on the confpapers
    abstracts) with these regular expressions; the suffix and infix ones took ~0.7 s, about
    half of it wasted (see :class:`_EnglishSuffixSearch`, :class:`_EnglishInfixFinditer`,
    :class:`_DotlessUrlMatch`). A tokenizer with other affix patterns (a trained pipeline's
    own) keeps them.
    """
    pat = _english_affix_patterns()
    out: dict[str, Any] = {}
    search = tok.suffix_search
    regex = _paperkg_suffix_regex()
    current = getattr(getattr(search, "__self__", None), "pattern", None)
    if regex is not None and current in (pat.english_suffix_pattern, pat.suffix_pattern):
        out["suffix_search"] = _EnglishSuffixSearch(regex, pat.width, pat.letters_never).search
    finditer = tok.infix_finditer
    if pat.infix_pattern and getattr(getattr(finditer, "__self__", None), "pattern", None) == pat.infix_pattern:
        out["infix_finditer"] = _EnglishInfixFinditer(finditer.__self__, pat.infix_starts_non_alnum).finditer
    url = getattr(tok.url_match, "__self__", None)
    if isinstance(url, re.Pattern) and _url_needs_dot(url.pattern, url.flags):
        out["url_match"] = _DotlessUrlMatch(url).match
    return out


def _renew_tokenizer(nlp: Language, size: int) -> None:
    """Give the pipeline a tokenizer with a chunk cache of ``size`` chunks, paperkg's suffixes
    (:data:`EXTRA_SUFFIXES`) and the faster same-result searches of :func:`_fast_searches`.

    spaCy's cache holds 10,000 chunks and stops adding when full; the components' patterns
    (the gazetteer alone has thousands of forms) and the abstracts' ~80,000 distinct chunks
    did not fit, so words were tokenized afresh each time (the tokenizer ran at ~390k words/s
    instead of ~490k). A new ``Tokenizer`` with the same vocabulary, special cases, prefix
    search, token match and heuristics is made before the components are added, so that they
    tokenize their patterns as the texts will be tokenized.

    It is made once, here, with every search in its constructor: each of spaCy's setters
    (``tok.suffix_search = ...``, ``tok.rules = ...``) reloads the ~1,800 English special
    cases (~0.05 s each), whose own tokens depend on the affix searches. A tokenizer of
    another class (a trained pipeline's may be one) gets the searches and the size through
    those setters.
    """
    keeper = nlp.tokenizer
    tok = getattr(keeper, "tokenizer", keeper)  # inside TextKeepingTokenizer
    if not isinstance(tok, Tokenizer):
        return
    fast = _fast_searches(tok)
    cache_size = max(tok.max_cache_size, size)
    if type(tok) is Tokenizer:
        kw: dict[str, Any] = {
            "rules": tok.rules, "prefix_search": tok.prefix_search, "suffix_search": tok.suffix_search,
            "infix_finditer": tok.infix_finditer, "token_match": tok.token_match, "url_match": tok.url_match,
            "faster_heuristics": tok.faster_heuristics}
        kw.update(fast)
        new = Tokenizer(tok.vocab, max_cache_size=cache_size, **kw)
        if keeper is tok:
            nlp.tokenizer = new
        else:
            keeper.tokenizer = new  # the wrapper the components hold
        return
    for name, value in fast.items():
        setattr(tok, name, value)
    tok.max_cache_size = cache_size


def _join(record: Record) -> tuple[str, int]:
    """The processed text and where the abstract starts in it (-1: no abstract)."""
    title = record.title or ""
    abstract = record.abstract or ""
    if title and abstract:
        return title + SEPARATOR + abstract, len(title) + len(SEPARATOR)
    if abstract:
        return abstract, 0
    return title, -1


def _split_mention(m: Mention, abstract_start: int) -> Mention | None:
    """Map a mention of the joined text onto its field (None when it crosses the boundary)."""
    if abstract_start < 0:
        return Mention(m.start, m.end, m.text, m.rule, "title")
    if m.start >= abstract_start:
        return Mention(m.start - abstract_start, m.end - abstract_start, m.text, m.rule, "abstract")
    if m.end <= abstract_start - len(SEPARATOR):
        return Mention(m.start, m.end, m.text, m.rule, "title")
    return None


def _mention_maker(abstract_start: int) -> MentionMaker:
    """``mention(start, end, text, rule)`` for offsets into the joined text: the Mention in its
    field (None when it crosses the boundary); the same as :func:`_split_mention`."""
    if abstract_start < 0:
        return lambda s, e, t, r: make_mention(s, e, t, r, "title")
    title_end = abstract_start - len(SEPARATOR)

    def mention(s: int, e: int, t: str, r: str) -> Mention | None:
        if s >= abstract_start:
            return make_mention(s - abstract_start, e - abstract_start, t, r, "abstract")
        if e <= title_end:
            return make_mention(s, e, t, r, "title")
        return None

    return mention


def _read_concepts(doc: Any, mention: MentionMaker) -> list[Entity]:
    """The concept component's results from its plain copy in ``doc.user_data`` (see
    :func:`extractors.concepts.entities_from_items`): this pipeline ran it, so the copy
    matches ``doc.spans``."""
    concepts = _concepts_module()
    items = (doc.user_data.get(concepts.ITEMS_KEY) or {}).get(concepts.SPANS_KEY)
    if items is None:
        items = [(s.start_char, s.end_char, s.kb_id_, s.id_) for s in doc.spans.get(concepts.SPANS_KEY, ())]
    return concepts.entities_from_items(items, doc_text(doc), mention)


@lru_cache(maxsize=1)
def _concepts_module() -> Any:
    """:mod:`extractors.concepts`, imported on first use (an import statement per document
    costs ~1 µs)."""
    return importlib.import_module("extractors.concepts")


#: Readers that map mentions to their field themselves: factory -> reader(doc, mention).
_MAPPED_READERS: dict[str, Callable[[Any, MentionMaker], list[Entity]]] = {"paperkg_concepts": _read_concepts}


def _raw_from_doc(record: Record, doc: Any, abstract_start: int,
                  readers: list[tuple[str, Any]]) -> RawExtraction:
    def field_of(s: int) -> tuple[str, int]:
        if abstract_start < 0:
            return "title", 0
        return ("abstract", abstract_start) if s >= abstract_start else ("title", 0)

    mention = _mention_maker(abstract_start)
    entities = entities_from_doc(doc, mention=mention)  # each mention made once, in its field
    citations: list[Citation] = []
    for factory, reader in readers:
        try:
            mapped = _MAPPED_READERS.get(factory)
            if mapped is not None:
                entities.extend(mapped(doc, mention))
                continue
            found = reader(doc)
        except Exception:  # the other components must not take the whole extraction down
            continue
        for item in found:
            if isinstance(item, Citation):
                f, off = field_of(item.start)
                citations.append(Citation(item.surnames, item.year, item.start - off, item.end - off, item.text, f))
            elif isinstance(item, Entity):
                mentions = tuple(x for x in (_split_mention(m, abstract_start) for m in item.mentions) if x)
                if mentions:
                    entities.append(Entity(item.type, item.name, item.role, item.aliases, mentions))
    defs = []
    for t in doc.user_data.get(DEFS_KEY, ()):
        d = Definition(*t)
        defs.append((d.short, d.long, field_of(d.short_start)[0]))
    cands = []
    text = doc_text(doc)
    for s, e in doc.user_data.get(CANDIDATES_KEY, ()):
        m = mention(s, e, text[s:e], "")
        if m is not None:
            cands.append((m.text, m.start, m.end, m.field))
    return RawExtraction(record.id, tuple(entities), tuple(citations), tuple(defs), tuple(cands))


def extract_raw(records: Iterable[Record], *, n_process: int = 1, spacy_model: str | None = None,
                batch_size: int = 256, nlp: Language | None = None) -> Iterator[RawExtraction]:
    """Per-document extraction, one :class:`RawExtraction` per record, in input order.

    Parameters
    ----------
    records
        The records; title and abstract are processed (a record with neither yields an empty result).
    n_process
        Worker processes. Each worker builds its own pipeline and sends back only the plain
        results (cheaper than shipping spaCy ``Doc`` s back); the output is identical to one
        process.
    spacy_model
        An installed trained spaCy pipeline to use instead of ``spacy.blank("en")``.
    batch_size
        Documents per batch handed to spaCy (and per task sent to a worker).
    nlp
        A pipeline from :func:`make_nlp` to reuse (also by the workers where they are forked).
    """
    recs = records if isinstance(records, list) else list(records)
    if n_process > 1 and len(recs) > batch_size:
        yield from _extract_parallel(recs, n_process=n_process, spacy_model=spacy_model,
                                     batch_size=batch_size, nlp=nlp)
        return
    nlp = nlp or make_nlp(spacy_model=spacy_model)
    yield from _extract_chunk(recs, nlp, batch_size)


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the block (and back on after, if it was on).

    Extraction allocates many small objects, and each collection also walks the pipeline's
    long-lived data (vocab, gazetteer, matchers) and the results so far: measured on 2,000
    abstracts it cost about a tenth of extract_raw. spaCy Docs with span groups are reference
    cycles, freed only by the collector, so the pause covers one batch at a time: memory stays
    bounded by one batch of Docs.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            _age_young_objects()
            gc.enable()


def _age_young_objects() -> None:
    """Count every object the collector tracks as old, without walking them.

    After a paused block the youngest generation holds everything the block allocated and
    kept (the results: about a thousand small objects per abstract), so the first allocation
    after ``gc.enable()`` walked them all, and every tenth batch the next generation walked
    ten batches' worth: 0.3 s of a 9.5 s pass over the confpapers abstracts, which collected
    nothing (extraction leaves no reference cycles, ``tests/extractors/test_no_cycles.py``).
    ``gc.freeze()`` then ``gc.unfreeze()`` moves the tracked objects to the oldest generation
    in constant time and resets the youngest's count; a full collection still visits them.
    Skipped when the caller froze objects itself (``unfreeze`` would release those too).
    """
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()


@contextmanager
def _plain_results(nlp: Language) -> Iterator[None]:
    """The components keep their results as plain data only during the block (``make_spans``).

    :func:`_read_concepts` reads the concept component's plain items, :func:`entities_from_doc`
    the rules' and the learned component's plain ``(start_char, end_char, label)`` spans, and
    nothing reads the abbreviation spans (the definitions are plain data anyway); the Docs of
    :func:`_extract_chunk` never leave it, so building a ``Span`` per concept, name and
    definition and the ``doc.spans`` groups is wasted there (about 0.2 s over the confpapers
    abstracts for the concepts alone); the results are the same either way
    (:meth:`extractors.concepts.ConceptFinder.__call__`,
    :meth:`extractors.entities.EntityRecognizer.__call__`).
    """
    comps = [c for _name, c in nlp.pipeline if hasattr(c, "make_spans")]
    before = [c.make_spans for c in comps]
    for c in comps:
        c.make_spans = False
    try:
        yield
    finally:
        for c, b in zip(comps, before):
            c.make_spans = b


def _extract_chunk(recs: Sequence[Record], nlp: Language, batch_size: int) -> Iterator[RawExtraction]:
    readers = [(f, r) for f, r in _optional_components() if f in nlp.pipe_names]
    for i in range(0, len(recs), batch_size):
        part = recs[i:i + batch_size]
        # neither across a yield: the caller's code runs with the collector on, and with the
        # pipeline as it was
        with _gc_paused(), _plain_results(nlp):
            joined = [_join(r) for r in part]
            docs = _process_batch(nlp, [text for text, _ in joined], batch_size)
            out = [_raw_from_doc(record, doc, abstract_start, readers)
                   for record, doc, (_, abstract_start) in zip(part, docs, joined)]
            del docs  # freed here, by reference counting (no cycles), with the collector paused
        yield from out


def _process_batch(nlp: Language, texts: Sequence[str], batch_size: int) -> list[Doc]:
    """``list(nlp.pipe(texts, batch_size=batch_size))``, one component at a time.

    ``nlp.pipe`` takes each document through every component before it starts the next one,
    so every component finds its tables (the tokenizer's cache, the phrase matchers' maps,
    the compiled patterns, the memo tables) pushed out of the processor's caches by the
    others. Here the tokenizer makes every Doc of the batch, then each component runs over
    all of them: on the confpapers abstracts the tokenizer took 0.55 s this way against 1.0 s
    interleaved, the three phrase matchers 0.1 s each against 0.3-0.4 s, and a warm pass
    ~0.85x the CPU time. The components keep no state between documents (house style; the
    determinism and identity tests compare with one document at a time), so each Doc gets the
    same annotations. A component with its own ``pipe`` (a trained pipeline's tagger or
    parser) gets the batch through it, as ``nlp.pipe`` does; an exception propagates, as with
    ``nlp.pipe``'s default error handler.
    """
    docs = [nlp.make_doc(text) for text in texts]
    for _name, proc in nlp.pipeline:
        pipe = getattr(proc, "pipe", None)
        if pipe is not None:
            docs = list(pipe(docs, batch_size=batch_size))
        else:
            docs = [proc(doc) for doc in docs]
    return docs


_worker_nlp: Language | None = None
_worker_recs: Sequence[Record] = ()


def _worker_init(spacy_model: str | None) -> None:
    global _worker_nlp
    _worker_nlp = make_nlp(spacy_model=spacy_model)


def _pack(raw: RawExtraction) -> tuple:
    """``raw`` as nested tuples: pickling frozen slotted dataclasses costs about as much as
    extracting, plain tuples a fraction of it."""
    return (raw.record_id, raw.version,
            tuple((e.type, e.name, e.role, e.aliases,
                   tuple((m.start, m.end, m.text, m.rule, m.field) for m in e.mentions)) for e in raw.entities),
            tuple((c.surnames, c.year, c.start, c.end, c.text, c.field) for c in raw.citations),
            raw.definitions, raw.candidates)


def _unpack(t: tuple) -> RawExtraction:
    """The inverse of :func:`_pack`."""
    record_id, version, entities, citations, definitions, candidates = t
    return RawExtraction(
        record_id,
        tuple(Entity(typ, name, role, aliases, tuple(Mention(*m) for m in mentions))
              for typ, name, role, aliases, mentions in entities),
        tuple(Citation(*c) for c in citations), definitions, candidates, version)


def _worker_run(args: tuple[Any, int]) -> list[tuple]:
    """One task: records (spawned workers) or a (start, end) range of the inherited ones (forked)."""
    recs, batch_size = args
    if isinstance(recs, tuple):
        recs = _worker_recs[recs[0]:recs[1]]
    assert _worker_nlp is not None
    return [_pack(r) for r in _extract_chunk(recs, _worker_nlp, batch_size)]


def _extract_parallel(recs: list[Record], *, n_process: int, spacy_model: str | None,
                      batch_size: int, nlp: Language | None = None) -> Iterator[RawExtraction]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    global _worker_nlp, _worker_recs
    ranges = [(i, min(i + batch_size, len(recs))) for i in range(0, len(recs), batch_size)]
    if "fork" in multiprocessing.get_all_start_methods():
        # forked workers inherit the pipeline and the records: no start-up cost per worker, and
        # a task is just a range of records
        _worker_nlp = nlp or make_nlp(spacy_model=spacy_model)
        _worker_recs = recs
        ctx = multiprocessing.get_context("fork")
        init: Any = None
        initargs: tuple = ()
        tasks: list[tuple[Any, int]] = [(r, batch_size) for r in ranges]
    else:  # pragma: no cover - Windows/macOS spawn
        make_nlp(spacy_model=spacy_model)  # fail here, in the parent, on a missing model
        ctx = multiprocessing.get_context("spawn")
        init, initargs = _worker_init, (spacy_model,)
        tasks = [(recs[a:b], batch_size) for a, b in ranges]
    try:
        with ProcessPoolExecutor(max_workers=n_process, mp_context=ctx, initializer=init,
                                 initargs=initargs) as pool:
            for part in pool.map(_worker_run, tasks):
                with _gc_paused():  # many small objects at once, as in _extract_chunk
                    out = [_unpack(t) for t in part]
                yield from out
    finally:
        _worker_nlp = None
        _worker_recs = ()


def consolidate(records: Sequence[Record], raws: Sequence[RawExtraction]) -> list[Record]:
    """Corpus-level consolidation; see :func:`extractors.consolidate.consolidate_corpus`.

    The garbage collector is paused meanwhile: consolidation builds no reference cycles, but
    its many new objects made the collector walk the whole corpus again and again (on the
    confpapers abstracts 2.3 s with it, 0.95 s without).
    """
    from extractors.consolidate import consolidate_corpus

    with _gc_paused():
        return consolidate_corpus(records, raws)


def extract_records(records: Iterable[Record], **kw: Any) -> list[Record]:
    """:func:`extract_raw` then :func:`consolidate`: records with ``entities`` and ``citations``."""
    recs = list(records)
    return consolidate(recs, list(extract_raw(recs, **kw)))
