"""In-text author-year citations: ``(Dütting et al., 2025)``, ``Livni, Moran, and Pabbaraju (2024)``.

The component ``paperkg_citations`` writes one span per cited work to
``doc.spans["paperkg_citations"]`` (label ``CITATION``); ``span._.citation_surnames`` (tuple of
str) and ``span._.citation_year`` (int or None) give what was cited.
:func:`citations_from_doc` turns them into plain :class:`kg.records.Citation` records.

Forms recognised (a later stage resolves them to papers by surname and year):

- parenthetical: ``(Smith, 2019)``, ``(Smith 2019)``, ``(Smith and Jones, 2020)``,
  ``(e.g., Smith et al., 2020; Lee, 2021a)`` (one span per work), ``(Smith, 2019a, 2019b)``
  (two works: the second span is the bare year ``2019b``);
- narrative: ``Smith et al. (2020)``, ``Smith and Jones (2020)``, ``Livni, Moran, Nissim, and
  Pabbaraju (2024)``, ``Smith et al.'s (2020)``, ``Smith et al. (2020, 2021)``;
- narrative with a numeric reference: ``Smith et al. [3]`` gives surnames and ``year=None``.

Bare numeric references (``[12]``, ``[3, 5-7]``) are not author-year citations and yield
nothing: there is no surname to resolve them with.

A surname is a capitalised word (``Dütting``, ``O'Neil``, ``Smith-Jones``, ``McMahan``,
``LeCun``, ``van der Maaten``); all-capitals words (``CIFAR``, ``ICML``), words with inner
capitals (``ImageNet``) or digits (``CIFAR-10``) and a list of capitalised non-names
(``Section``, ``Table``, ``However``, ...) are not, so ``(Section 3, 2024)`` or
``(CIFAR-10, 2009)`` give no citation. Years run 1900-2099 with an optional letter suffix.

All patterns are compiled once at import and have bounded repetition, so matching time is
linear in the length of the text (no nested unbounded quantifiers).
"""

from __future__ import annotations

import re
from typing import Iterator

from spacy.language import Language
from spacy.tokens import Doc, Span, SpanGroup

from extractors.abbreviations import doc_text
from kg.records import Citation

#: Span label and default ``doc.spans`` key.
CITATION = "CITATION"
SPANS_KEY = "paperkg_citations"
# Branches that start with a literal character let ``re`` skip ahead to a 1, 2 or [ (this test
# runs on every text; "(?:19|20)" in front would try each position).
_MAY_CITE = re.compile(r"19\d\d|20\d\d|\[")

# Upper-case letters of the Latin scripts (Basic Latin to Latin Extended-B), built once:
# Python's ``re`` has no ``\p{Lu}``.
_UPPER_CHARS = "".join(c for c in map(chr, range(0x41, 0x250)) if c.isupper() and c.isalpha())
_UP = "[" + re.escape(_UPPER_CHARS) + "]"
_LET = r"[^\W\d_]"  # any letter
_PARTICLE = r"(?:van|von|der|den|de|del|della|di|da|du|dos|das|le|la|ter|ten|bin|ibn)"
# One surname; shape is checked again in Python (_is_surname) for inner capitals.
_SURNAME = (rf"(?:{_PARTICLE}\s+){{0,3}}(?:O['’])?{_UP}{_LET}{{0,30}}"
            rf"(?:[-'’]{_LET}{{1,30}}){{0,2}}")
_ETAL = r"\s+et\.?\s+al(?:\.|\b)"
_AND = r"(?:,?\s+(?:and|&)\s+)"
_NAMES = (rf"(?P<names>{_SURNAME}(?:{_ETAL}|(?:,\s+{_SURNAME}){{0,12}}{_AND}{_SURNAME}(?:{_ETAL})?"
          rf"|(?:,\s+{_SURNAME}){{1,12}}(?:{_ETAL})?)?)")
_YEAR = r"(?:19|20)\d\d[a-z]?(?![\w])"
_YEARS = rf"(?P<years>{_YEAR}(?:\s*[,;]\s*{_YEAR}){{0,8}})"

#: ``Smith et al. (2020)``, ``Smith and Jones (2020a, 2021)``.
_NARRATIVE = re.compile(rf"(?<![\w\-]){_NAMES}(?:['’]s)?\s*\(\s*{_YEARS}\s*\)")
#: ``Smith et al. [3]``: surnames without a year.
_NUMBERED = re.compile(rf"(?<![\w\-]){_NAMES}(?:['’]s)?\s*\[\s*\d{{1,4}}(?:\s*[,–\-]\s*\d{{1,4}}){{0,12}}\s*\]")
#: A parenthesised group without nested parentheses (bounded length).
_GROUP = re.compile(r"\(([^()]{4,600})\)")
#: ``Smith et al., 2020`` inside a group, after its start, ``;``, ``,`` or a word like ``see``.
_UNIT = re.compile(rf"(?:^|(?<=[\s;,(]))(?P<unit>{_NAMES},?\s+{_YEARS})")
_YEAR_ONLY = re.compile(_YEAR)
_ETAL_RE = re.compile(_ETAL)
_SPLIT_NAMES = re.compile(rf"{_ETAL}|,?\s+(?:and|&)\s+|,\s+")
#: Cheap test: does the text contain anything that could be part of a citation?
_QUICK = re.compile(r"19\d\d|20\d\d|\[\s*\d")

#: Capitalised words that stand where a surname could but are not names.
NOT_SURNAMES = frozenset("""
Section Sections Sec Table Tables Figure Figures Fig Appendix Appendices Eq Equation Equations
Theorem Lemma Corollary Proposition Definition Algorithm Chapter Part Example Remark Step
Phase Stage Version Task Tasks Track Challenge Workshop Conference Proceedings Journal Vol
Volume Issue Page Pages Note Notes See Also And Or The This That These Those Our We It Its
In On At For From With Without By As Of To Into Under Over After Before During Since Until
However Moreover Furthermore Recently Similarly Notably Specifically Previously Instead Here
Thus Therefore Hence Finally First Second Third Following Unlike Like Inspired Building Based
Prior Early Later Recent Existing Some Many Most Several Both Each Other Further Indeed
Meanwhile Nevertheless Nonetheless Additionally Consequently Accordingly Overall Again Then
When While Where Although Though If Because Given Using Compared Contrary Despite Beyond
January February March April May June July August September October November December
Spring Summer Fall Autumn Winter Monday Tuesday Wednesday Thursday Friday Saturday Sunday
Transformer Transformers Adam Python Java Linux Windows Google Meta Microsoft Amazon Apple
Twitter Reddit Wikipedia English Chinese German French Spanish Japanese Korean Arabic Russian
Europe European America American Asia Africa China India Japan Germany France Canada Paris
London Beijing Shanghai Tokyo Earth Mars Bayes Markov Gaussian Euclidean Boolean Bayesian
Lipschitz Hessian Jacobian Laplacian Newton Fourier Monte Carlo Turing
""".split())
# Surname prefixes after which a second capital is normal (``McMahan``, ``LeCun``, ``DeVries``).
_INNER_CAP_PREFIXES = ("Mc", "Mac", "De", "Di", "Da", "Du", "La", "Le", "Van", "Von", "Fitz")
_PARTICLES = frozenset(_PARTICLE[3:-1].split("|"))

if not Span.has_extension("citation_surnames"):
    Span.set_extension("citation_surnames", getter=lambda span: _decode(span.id_)[0])
if not Span.has_extension("citation_year"):
    Span.set_extension("citation_year", getter=lambda span: _decode(span.id_)[1])


def _encode(surnames: tuple[str, ...], year: int | None, start: int, end: int) -> str:
    """The ``span_id`` string carrying one work and its exact character offsets.

    It is kept in the Doc's strings when serialised, so ``n_process > 1`` gives the same
    result; the offsets matter when a token runs past the citation (``2020).</p``).
    """
    return f"cite:{'|'.join(surnames)}#{'' if year is None else year}@{start}:{end}"


def _decode(span_id: str) -> tuple[tuple[str, ...], int | None]:
    if not span_id.startswith("cite:"):
        return (), None
    names, _, year = span_id[5:].partition("@")[0].rpartition("#")
    return tuple(n for n in names.split("|") if n), (int(year) if year else None)


def _offsets(span: Span) -> tuple[int, int]:
    """Exact character offsets of a citation span (the span itself may be token-expanded)."""
    _, _, where = span.id_.partition("@")
    start, _, end = where.partition(":")
    if start.isdigit() and end.isdigit():
        return int(start), int(end)
    return span.start_char, span.end_char


def _is_surname_part(part: str) -> bool:
    if not part or not part[0].isupper():
        return False
    rest = part[1:]
    if not rest or rest.islower():
        return bool(rest)  # a one-letter "surname" is an initial, not a name
    for prefix in _INNER_CAP_PREFIXES:
        if part.startswith(prefix) and len(part) > len(prefix) + 1:
            tail = part[len(prefix):]
            return tail[0].isupper() and tail[1:].islower()
    return False


def _is_surname(name: str) -> bool:
    """True for ``Smith``, ``O'Neil``, ``Smith-Jones``, ``LeCun``, ``van der Maaten``."""
    words = name.split()
    while words and words[0] in _PARTICLES:
        words = words[1:]
    if len(words) != 1 or words[0] in NOT_SURNAMES:
        return False
    word = words[0]
    if word[:2] in ("O'", "O’") and len(word) > 3:
        word = word[2:]
    return all(_is_surname_part(p) for p in re.split(r"[-'’]", word) if p) and word[-1].isalpha()


def _clean_names(names: str) -> tuple[tuple[str, ...], int] | None:
    """Split a names group into surnames; trim leading non-names (``However, Smith and Lee``).

    Returns the surnames and how many characters were trimmed from the front, or None when
    what is left is not a list of surnames.
    """
    parts: list[tuple[int, str]] = []
    pos = 0
    for m in _SPLIT_NAMES.finditer(names):
        parts.append((pos, names[pos:m.start()]))
        pos = m.end()
    if pos < len(names):
        parts.append((pos, names[pos:]))
    parts = [(p, s.strip()) for p, s in parts if s.strip()]
    # Only a leading run of non-names may be cut off, and only while a name follows.
    while len(parts) > 1 and not _is_surname(parts[0][1]):
        parts.pop(0)
    if not parts or not all(_is_surname(s) for _, s in parts):
        return None
    return tuple(s for _, s in parts), parts[0][0]


def _lone_word(names: str, surnames: tuple[str, ...], text: str, start: int) -> bool:
    """A single name without "et al." that opens a sentence ("Pruning (2019) ...")."""
    if len(surnames) > 1 or _ETAL_RE.search(names):
        return False
    before = text[max(0, start - 3):start].rstrip()
    return not before or before[-1] in ".!?:;"


def _years(text: str, offset: int) -> Iterator[tuple[int, int, int]]:
    """(year, start, end) of each year in a ``2020a, 2021`` list, offsets into the doc."""
    for m in _YEAR_ONLY.finditer(text):
        yield int(m.group(0)[:4]), offset + m.start(), offset + m.end()


def find_citations(text: str) -> list[tuple[int, int, tuple[str, ...], int | None]]:
    """All citations in a text as ``(start, end, surnames, year)``, in text order.

    Examples
    --------
    >>> find_citations("as shown (Smith, 2019; Lee et al., 2021a).")
    [(10, 21, ('Smith',), 2019), (23, 40, ('Lee',), 2021)]
    >>> find_citations("bounds from (Dütting et al., 2025) up to")
    [(12, 34, ('Dütting',), 2025)]
    >>> find_citations("see [12] and (Section 3, 2024)")
    []
    """
    if not text or not _QUICK.search(text):
        return []
    found: list[tuple[int, int, tuple[str, ...], int | None]] = []
    for m in _NARRATIVE.finditer(text):
        cleaned = _clean_names(m.group("names"))
        if cleaned is None:
            continue
        surnames, cut = cleaned
        start = m.start("names") + cut
        if _lone_word(m.group("names"), surnames, text, start):
            continue
        for i, (year, ys, ye) in enumerate(_years(m.group("years"), m.start("years"))):
            found.append((start, m.end(), surnames, year) if i == 0 else (ys, ye, surnames, year))
    for m in _NUMBERED.finditer(text):
        cleaned = _clean_names(m.group("names"))
        if cleaned is not None:
            surnames, cut = cleaned
            # "Pruning [12]": one capitalised word before a number is too weak a signal.
            if len(surnames) > 1 or _ETAL_RE.search(m.group("names")):
                found.append((m.start("names") + cut, m.end(), surnames, None))
    for g in _GROUP.finditer(text):
        inner = g.group(1)
        if not _YEAR_ONLY.search(inner):
            continue
        base = g.start(1)
        units = []
        for m in _UNIT.finditer(inner):
            cleaned = _clean_names(m.group("names"))
            if cleaned is None:
                continue
            surnames, cut = cleaned
            units.append((m, surnames, base + m.start("names") + cut))
        # A group citing one work is the evidence as a whole, parentheses included.
        whole = len(units) == 1 and len(_YEAR_ONLY.findall(units[0][0].group("years"))) == 1
        for m, surnames, start in units:
            for i, (year, ys, ye) in enumerate(_years(m.group("years"), base + m.start("years"))):
                if whole:
                    found.append((g.start(), g.end(), surnames, year))
                elif i == 0:
                    found.append((start, ye, surnames, year))
                else:
                    found.append((ys, ye, surnames, year))
    # A narrative citation inside a group must not be found twice.
    found.sort(key=lambda c: (c[0], -c[1]))
    out: list[tuple[int, int, tuple[str, ...], int | None]] = []
    seen: set[tuple[int, int, int | None]] = set()
    for c in found:
        key = (c[0], c[1], c[3])
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


class CitationFinder:
    """Find author-year citations and store one span per cited work.

    Parameters
    ----------
    nlp : Language
        The pipeline (only its vocab is used).
    name : str
        Component name.
    spans_key : str
        Key in ``doc.spans`` for the results.
    """

    def __init__(self, nlp: Language, name: str = "paperkg_citations", *,
                 spans_key: str = SPANS_KEY) -> None:
        self.name = name
        self.spans_key = spans_key

    def _may_cite(self, text: str) -> bool:
        # a year or an opening bracket: a text without either has no citation
        # substring tests (memchr speed) first: most abstracts have neither a "[" nor a 19xx/20xx
        return "[" in text or (("19" in text or "20" in text) and _MAY_CITE.search(text) is not None)

    def __call__(self, doc: Doc) -> Doc:
        spans = []
        found = []
        text = doc_text(doc) if len(doc) else ""
        if text and self._may_cite(text):
            found = find_citations(text)
        for start, end, surnames, year in found:
            span = doc.char_span(start, end, label=CITATION, alignment_mode="expand",
                                 span_id=_encode(surnames, year, start, end))
            if span is not None:
                spans.append(span)
        doc.spans[self.spans_key] = SpanGroup(doc, name=self.spans_key, spans=spans)
        return doc


@Language.factory("paperkg_citations", default_config={"spans_key": SPANS_KEY},
                  assigns=["doc.spans"])
def make_citations(nlp: Language, name: str, spans_key: str) -> CitationFinder:
    """spaCy factory of :class:`CitationFinder`."""
    return CitationFinder(nlp, name, spans_key=spans_key)


def citations_from_doc(doc: Doc, *, spans_key: str = SPANS_KEY,
                       field: str = "abstract") -> list[Citation]:
    """Plain :class:`~kg.records.Citation` records from a processed Doc, in text order.

    Parameters
    ----------
    doc : Doc
        A Doc that went through ``paperkg_citations``.
    spans_key : str
        Where the component stored its spans.
    field : str
        ``"abstract"`` or ``"title"``: which record field the Doc's text is.
    """
    out = []
    for span in doc.spans.get(spans_key, ()):
        surnames, year = _decode(span.id_)
        if surnames:
            start, end = _offsets(span)
            text = doc_text(doc)[start:end]
            out.append(Citation(surnames, year, start, end, text, field))
    out.sort(key=lambda c: (c.start, c.end))
    return out
