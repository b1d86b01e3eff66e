"""Abbreviation definitions ("Error-Compensating Optimizer (ECO)") and a markup-free text view.

The abbreviation detector implements the algorithm of

    Ariel S. Schwartz and Marti A. Hearst (2003). "A Simple Algorithm for Identifying
    Abbreviation Definitions in Biomedical Text." Pacific Symposium on Biocomputing 8:451-462.

Candidates are ``long form (short form)`` and ``short form (long form)`` pairs inside one
sentence; the long form is searched right to left for the characters of the short form, the
first character of the short form having to start a word, within a window of
``min(|A| + 5, 2|A|)`` words before the parenthesis (|A| = characters of the short form).
Written for paperkg from the paper's description; differences: the short form must contain an
upper-case letter (abstracts use "(i)", "(ours)", "(e.g., ...)" in parentheses a lot), and the
search runs on a view of the text without LaTeX/Markdown emphasis, so
``\\textbf{Uni}fied Framework for \\textbf{D}eep ... (Uni-DHC)`` is found; a short form written
with math is read in that view too ("S$^2$AC" is S2AC, its superscript repeating the S), and a
superscript power repeats the letter group before it when nothing else matches ("Pro$^2$" =
PROject and PRObe, "S$^2$-Attn" = Shifted Sparse Attention). The view also drops old-style font
switches ("{\\sc Name}") and Markdown's underscore emphasis ("_Name_", "__Name__") when the marks
pair up at word edges.

The component ``paperkg_abbreviations`` sets ``doc._.abbreviations`` (short form -> long form,
the first definition wins) and puts the short and long forms of each definition in
``doc.spans["paperkg_abbreviations"]`` (labels ``SHORT`` and ``LONG``; ``span._.paperkg_pair``
is the other form's text). It first splits the tokens an inline HTML tag is glued to
("BERT</b" -> "BERT", "</b"), so that the later components' phrase matchers see the names.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from spacy.language import Language
from spacy.tokens import Doc, Span

SPANS_KEY = "paperkg_abbreviations"

#: ``doc.user_data`` key holding the definitions as plain tuples for the other components.
DEFS_KEY = "paperkg_abbreviation_defs"

if not Doc.has_extension("abbreviations"):
    Doc.set_extension("abbreviations", default=None)
if not Span.has_extension("paperkg_pair"):
    Span.set_extension("paperkg_pair", default=None)

GREEK_LETTERS = ("alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|vartheta|iota|kappa|lambda|mu|nu|xi|pi|rho|"
          "sigma|tau|upsilon|phi|varphi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Pi|Sigma|Upsilon|Phi|Psi|Omega")
# LaTeX commands with a braced argument and Markdown emphasis markers: removed in the clean view.
# markdown links keep their text: "[CoIC](https://...)" reads "CoIC". Every branch starts with
# a literal character ("\{|\}|\$|\*\**" for "[{}$]|\*+"), so ``re`` skips ahead to those.
_MARKUP = re.compile(r"\]\((?:https?://|www\.)[^()\s]{1,200}\)|\[(?=[^\[\]\n]{1,80}\]\((?:https?://|www\.))|"
                     r"</?[A-Za-z][^<>\n]{0,80}>|&(?:amp|lt|gt|quot|nbsp|#\d{1,5});|\\(?:textbf|textit|emph|texttt|textsc|textsf|textrm|mathbf|mathrm|mathit|mathtt|mathbb|mathsf|mathfrak|mathscr|boldsymbol|text|underline|bf|it)\s*\{|"
                     # old-style font switches inside braces: "{\sc Name}", "{\em term}"
                     # a star after a one-letter word is part of the name: "A* search" (not "**A**ttention")
                     r"\{\\(?:sc|em|bf|it|tt|sf|rm|sl)\s+|\{|\}|\$|\*(?:(?<![\s(][A-Z]\*)(?<!^[A-Z]\*)|(?=[\w*]))\**"
                     # (font commands around a letter are markup: "$\mathbb{D}^2$ Pruning" reads "D2 Pruning";
                     # not \mathcal, the order notation "$\mathcal{O}(n)$" is no name)
                     # inside a name a superscript mark and a Greek letter's backslash are markup:
                     # "PILOT$^+$" reads "PILOT+", "G-$\Delta$UQ" reads "G-DeltaUQ", "$S^3$" reads "S3"
                     rf"|\^|\\(?=(?:{GREEK_LETTERS})(?![A-Za-z]))")
# Emphasised names in the original text: **X**, *X*, \textbf{X}, \emph{X}, \textit{X}, _X_, __X__.
# Every branch starts with a literal (a star, a backslash, a brace or an underscore), so ``re``
# skips ahead to those characters; the single-star and underscore branches check the character
# before their mark after taking it, and "__" is one underscore then an optional second one (a
# leading look-behind or group made ``re`` try every position of the text: ~50 us an abstract).
_EMPHASIS = re.compile(
    r"\*\*(?P<a>[^*\n]{1,80}?)\*\*|\*(?<![*\w]\*)(?P<b>[^*\s][^*\n]{0,78}?)\*(?![*\w])"
    r"|\\(?:textbf|emph|textit|textsc|texttt)\s*\{(?P<c>[^{}\n]{1,80})\}"
    r"|\{\\(?:sc|em|bf|it|tt)\s+(?P<d>[^{}\n]{1,80})\}"
    r"|_(?:(?P<two>_)(?<![\w\\$^{_]__)|(?<![\w\\$^{_]_))(?P<e>[A-Za-z0-9][^_\n$\\]{0,78}?(?<=[\w)+]))(?(two)__|_)(?![\w$])"
)
# Markdown's underscore emphasis, "_Policy-Learn_" and "__Resona__": both marks are markup when
# they pair up around a phrase at word edges (an underscore inside a word or after math,
# "$x_i$", "snake_case", is not emphasis); the literal "_" first, as in _EMPHASIS
_UNDERSCORE_EMPHASIS = re.compile(r"_(?:(?P<two>_)(?<![\w\\$^{_]__)|(?<![\w\\$^{_]_))(?=[A-Za-z0-9])[^_\n$\\]{1,80}?"
                                  r"(?<=[\w)+])(?(two)__|_)(?![\w$])")
_MARKUP_CHARS = re.compile(r"[\\{}*$<&\[^_]")  # without one of these, clean_view changes nothing
_FIRST_PART = re.compile(r"[;,]\s")
_PAREN = re.compile(r"\(([^()\n]{1,120})\)")
_INNER_SHORT = re.compile(r"\s*(?P<long>[^,;:]{3,100}?),?\s+(?:short|abbreviated(?:\s+as)?)\s+(?P<short>[A-Za-z][\w+-]{1,14})\s*")
#: ``[.!?;:]\s|\n`` with a character class first (``re`` skips to those characters instead of trying
#: both alternatives at every position): a line break is a match of its own
_SENT_END = re.compile(r"[.!?;:\n](?:(?<=\n)|\s)")
_WORD = re.compile(r"\S+")
_HAS_UPPER = re.compile(r"[A-Z]")
_QUOTES = "\"“”‘’'`"
_EDGE_MARKS = _QUOTES + "_"  # quotes and Markdown's underscore emphasis around a long form
_ROMAN = re.compile(r"^(?:[ivxIVX]+|[a-zA-Z])$")


@dataclass(frozen=True, slots=True)
class CleanView:
    """Text with markup removed, and the way back to original offsets.

    ``starts[i]`` is where the i-th kept segment begins in the clean text and ``origins[i]``
    where it began in the original, so :meth:`to_orig` is one bisection.
    """

    text: str
    starts: tuple[int, ...]
    origins: tuple[int, ...]

    def to_orig(self, i: int) -> int:
        if not self.starts:
            return i
        k = bisect.bisect_right(self.starts, i) - 1
        if k < 0:
            return i
        return self.origins[k] + (i - self.starts[k])

    def to_clean(self, pos: int) -> int:
        """The clean position of original offset ``pos`` (the inverse of :meth:`to_orig`)."""
        if not self.starts:
            return pos
        k = bisect.bisect_right(self.origins, pos) - 1
        if k < 0:
            return pos
        return self.starts[k] + (pos - self.origins[k])

    def span_to_orig(self, start: int, end: int) -> tuple[int, int]:
        """Original offsets of a clean-text span (end exclusive; the end is mapped as last char + 1)."""
        if end <= start:
            o = self.to_orig(start)
            return o, o
        return self.to_orig(start), self.to_orig(end - 1) + 1


TEXT_KEY = "paperkg_text"


def doc_text(doc: Doc) -> str:
    """``doc.text``, computed once per document (spaCy rebuilds it from the tokens on each access)."""
    t = doc.user_data.get(TEXT_KEY)
    if t is None:
        t = doc.text
        doc.user_data[TEXT_KEY] = t
    return t


def expand_to_tokens(starts: list[int], text: str, start: int, end: int) -> tuple[int, int, int, int] | None:
    """``doc.char_span(start, end, alignment_mode="expand")`` as (start token, end token,
    start_char, end_char), from the tokens' start offsets ``starts``.

    A tokenizer's tokens tile the text (each ends where the next starts, its trailing space
    included), so the token holding a character is found by bisection; a token that is not
    white space ends before its trailing space, if any. None when an edge of the span is a
    white-space character (the caller asks spaCy then).

    Examples
    --------
    >>> expand_to_tokens([0, 4, 9], "the big model", 5, 11)  # "ig mod" -> "big model"
    (1, 3, 4, 13)
    """
    if not (0 <= start < end <= len(text)) or text[start].isspace() or text[end - 1].isspace():
        return None
    ts = bisect.bisect_right(starts, start) - 1
    te = bisect.bisect_right(starts, end - 1)
    stop = starts[te] if te < len(starts) else len(text)
    if text[stop - 1] == " ":
        stop -= 1
    return ts, te, starts[ts], stop


class TextKeepingTokenizer:
    """A tokenizer wrapper that stores each input text in ``doc.user_data`` for :func:`doc_text`.

    spaCy's ``doc.text`` joins every token's text on each access (about 1 ms per abstract);
    the tokenizer has the text already. Everything else is delegated to the wrapped tokenizer.
    """

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer

    def __call__(self, text: str) -> Doc:
        doc = self.tokenizer(text)
        doc.user_data[TEXT_KEY] = text
        return doc

    def pipe(self, texts: Iterable[str], batch_size: int = 1000) -> Iterable[Doc]:
        for text in texts:
            yield self(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.tokenizer, name)


#: an inline HTML tag (the clean view's markup removes these too)
_HTML_TAG = re.compile(r"</?[A-Za-z][^<>\n]{0,80}>")


def _split_html_tags(doc: Doc, text: str) -> None:
    """Split the tokens that an HTML tag starts or ends inside ("BERT</b" -> "BERT", "</b")."""
    cuts = sorted({i for m in _HTML_TAG.finditer(text) for i in m.span()})
    splits = []
    for tok in doc:
        s, e = tok.idx, tok.idx + len(tok.text)
        inner = [c - s for c in cuts[bisect.bisect_right(cuts, s):bisect.bisect_left(cuts, e)]]
        if inner:
            bounds = [0, *inner, e - s]
            splits.append((tok, [tok.text[a:b] for a, b in zip(bounds, bounds[1:])]))
    if splits:
        with doc.retokenize() as retokenizer:
            for tok, orths in splits:
                retokenizer.split(tok, orths, heads=[(tok, 0)] * len(orths))


VIEW_KEY = "paperkg_clean_view"


def doc_view(doc: Doc) -> CleanView:
    """:func:`clean_view` of the document's text, computed once per document."""
    t = doc.user_data.get(VIEW_KEY)
    if t is not None:
        return CleanView(t[0], tuple(t[1]), tuple(t[2]))
    v = clean_view(doc_text(doc))
    doc.user_data[VIEW_KEY] = (v.text, v.starts, v.origins)  # plain data: Doc serialisation must keep working
    return v


def clean_view(text: str) -> CleanView:
    """Remove ``\\textbf{``-style openers, braces and ``*`` runs, keeping a map to the original.

    Examples
    --------
    >>> v = clean_view(r"a \\textbf{Uni}fied **X**")
    >>> v.text
    'a Unified X'
    >>> text = r"a \\textbf{Uni}fied **X**"
    >>> s, e = v.span_to_orig(2, 9); text[s:e]
    'Uni}fied'
    """
    if _MARKUP_CHARS.search(text) is None:  # one C scan: most texts have no markup
        return CleanView(text, (), ())
    parts: list[str] = []
    starts: list[int] = []
    origins: list[int] = []
    pos = 0
    clean_len = 0
    for ms, me in _markup_spans(text):
        if ms < pos:
            continue  # inside a span already removed
        if ms > pos:
            starts.append(clean_len)
            origins.append(pos)
            parts.append(text[pos:ms])
            clean_len += ms - pos
        pos = me
    if pos < len(text):
        starts.append(clean_len)
        origins.append(pos)
        parts.append(text[pos:])
    return CleanView("".join(parts), tuple(starts), tuple(origins))


def _markup_spans(text: str) -> list[tuple[int, int]]:
    """The spans :func:`clean_view` removes: :data:`_MARKUP` and paired underscore emphasis marks."""
    spans = [m.span() for m in _MARKUP.finditer(text)]
    if "_" in text:
        marks = []
        for m in _UNDERSCORE_EMPHASIS.finditer(text):
            k = 2 if m.group("two") else 1
            marks += [(m.start(), m.start() + k), (m.end() - k, m.end())]
        if marks:
            spans = sorted(spans + marks)
    return spans


def emphasized_ranges(text: str) -> list[tuple[int, int]]:
    """Original-text ranges of emphasised phrases (``**X**``, ``*X*``, ``\\textbf{X}``, ``{\\sc X}``,
    ``_X_``, ``__X__``)."""
    if "*" not in text and "\\" not in text and "_" not in text:
        return []
    out = []
    for m in _EMPHASIS.finditer(text):
        g = m.lastgroup
        out.append((m.start(g), m.end(g)))
    return out


def _is_short_form(s: str) -> bool:
    if not 2 <= len(s) <= 15 or not s[0].isalnum():
        return False
    if len(s.split()) > 2 or _ROMAN.match(s) or not _HAS_UPPER.search(s):
        return False
    return any(c.isalpha() for c in s)


def best_long_form(short: str, long: str) -> str | None:
    """The shortest suffix of ``long`` whose characters spell ``short`` (Schwartz & Hearst, Fig. 2).

    Examples
    --------
    >>> best_long_form("ECO", "we introduce the Error-Compensating Optimizer")
    'Error-Compensating Optimizer'
    >>> best_long_form("SPN", "we propose Strategic Prior-data Fitted Network")
    'Strategic Prior-data Fitted Network'
    >>> best_long_form("XYZ", "nothing like it") is None
    True
    """
    s_idx = len(short) - 1
    l_idx = len(long) - 1
    while s_idx >= 0:
        c = short[s_idx].lower()
        if not c.isalnum():
            s_idx -= 1
            continue
        while l_idx >= 0 and (
            long[l_idx].lower() != c or (s_idx == 0 and l_idx > 0 and long[l_idx - 1].isalnum())
        ):
            l_idx -= 1
        if l_idx < 0:
            return None
        l_idx -= 1
        s_idx -= 1
    start = long.rfind(" ", 0, l_idx + 1) + 1
    return long[start:]


@dataclass(frozen=True, slots=True)
class Definition:
    """One abbreviation definition, offsets into the original text (end exclusive)."""

    short: str
    long: str
    short_start: int
    short_end: int
    long_start: int
    long_end: int

    def as_tuple(self) -> tuple[str, str, int, int, int, int]:
        return (self.short, self.long, self.short_start, self.short_end, self.long_start, self.long_end)


def _valid_pair(short: str, long: str) -> bool:
    n_words = len(long.split())
    if len(long) <= len(short) or n_words < 1:
        return False
    n = len(short)
    if n_words > min(n + 5, 2 * n) or n_words < 2 and not any(c in long for c in "-/"):
        # a one-word long form is accepted only for hyphenated compounds ("Zeroth-Order (ZO)")
        return False
    if "(" in long or ")" in long:
        return False
    if any(c in long for c in ",;:") and any(w[:1].islower() for w in long.replace(",", " ").split()):
        return False  # a clause, not a name ("FooNet, a novel architecture"); "Lift, Map, Detect" is fine
    lw = long.lower()
    return short.lower() not in lw.split()


def find_definitions(text: str, view: CleanView | None = None) -> list[Definition]:
    """Abbreviation definitions in ``text``, in text order.

    Examples
    --------
    >>> [d.short + "=" + d.long for d in find_definitions(
    ...     "We introduce the Error-Compensating Optimizer (ECO). ECO works.")]
    ['ECO=Error-Compensating Optimizer']
    >>> [d.long for d in find_definitions("Mixture-of-Experts (MoE) scales; MoEs are big.")]
    ['Mixture-of-Experts']
    """
    view = view or clean_view(text)
    ct = view.text
    out: list[Definition] = []
    seen: set[str] = set()
    for m in _PAREN.finditer(ct):
        inner = m.group(1).strip()
        if " short " in inner or " abbreviated " in inner:
            im = _INNER_SHORT.fullmatch(m.group(1))
            if im is not None:
                # "(Local Curvature Profiles, short LCP)": both forms inside the parentheses
                short, long = im.group("short"), im.group("long")
                if _is_short_form(short) and short not in seen and best_long_form(short, long) == long \
                        and _valid_pair(short, long):
                    out.append(_definition(view, short, long, m.start(1) + im.start("short"),
                                           m.start(1) + im.end("short"), m.start(1) + im.start("long"),
                                           m.start(1) + im.end("long"), text))
                    seen.add(short)
                    continue
        # "(ECO; Smith et al.)" or "(MoE, for short)": the first part is the candidate
        first = _FIRST_PART.split(inner, maxsplit=1)[0].strip()
        sent_start, before = _sentence_before(ct, m.start())
        if _is_short_form(first):
            short = first
            words = before.split(" ")
            max_words = min(len(short) + 5, 2 * len(short))
            cand = " ".join(words[-max_words:])
            long = best_long_form(short, cand) or _capitals_form(short, cand)
            if not long and any(c.isdigit() for c in short):
                # also a short form written with math, read with the markup folded: in "S$^2$AC"
                # (clean "S2AC") the superscript repeats its letter as any digit after a letter does
                long = _digit_form(short, cand)
                if not long and "^" in text[view.to_orig(m.start(1)):view.to_orig(m.end(1) - 1) + 1]:
                    long = _power_form(short, cand)
            if long:
                long = _past_function_word(cand, long)
            if long:
                long = _past_lead_words(short, long)
            if long:
                long = _extend_title_case(cand, long, sentence_start=len(words) <= max_words)
            if long and long[0] in _EDGE_MARKS:
                long = long.lstrip(_EDGE_MARKS)  # '"Long Form (LF)"', '_Long Form_ (LF)': no part of the name
            if long and _valid_pair(short, long) and short not in seen:
                long_end = sent_start + len(before)
                while long and long[-1] in _EDGE_MARKS:  # '"Long Form" (LF)'
                    long = long[:-1]
                    long_end -= 1
                long_start = long_end - len(long)
                s0 = m.start(1) + m.group(1).find(first)
                out.append(_definition(view, short, long, s0, s0 + len(first), long_start, long_end, text))
                seen.add(short)
            continue
        # short form (long form): "ECO (Error-Compensating Optimizer)"
        # ``before`` has no trailing space: its last word is the candidate
        last = before.rsplit(None, 1)[-1] if before else ""
        if last and len(inner.split()) >= 2 and not any(ch.isdigit() for ch in inner[:4]):
            short = last.strip(",.;:\"'")
            if _is_short_form(short) and short not in seen:
                long = best_long_form(short, inner)
                if long == inner and _valid_pair(short, long):
                    s0 = sent_start + len(before) - len(last)
                    out.append(_definition(view, short, long, s0, s0 + len(short), m.start(1), m.end(1), text))
                    seen.add(short)
    if "dubbed" in ct or "termed" in ct or "abbreviated" in ct:
        _named_definitions(view, text, ct, out, seen)
    out.sort(key=lambda d: d.short_start)
    return out


def _digit_form(short: str, cand: str) -> str | None:
    """The long form of a short form with a digit in it, read as the letters it stands for.

    A digit after a letter repeats it ("MC2R" = Multiple Complex Compositional Reasoning, "P3O" =
    Pairwise Proximal Policy Optimization), or a 2/4 between letters stands for "to"/"for"
    ("L2MT" = Learning to MultiTask). Letters match word initials only (and the capitals inside a
    CamelCase word), right to left, skipping function words: the loose Schwartz & Hearst match would
    find "Proximal Policy Optimization" for "P3O" (the repeated letter inside a word).

    Examples
    --------
    >>> _digit_form("MC2R", "a benchmark, Multiple Complex Compositional Reasoning")
    'Multiple Complex Compositional Reasoning'
    >>> _digit_form("P3O", "we propose Pairwise Proximal Policy Optimization")
    'Pairwise Proximal Policy Optimization'
    >>> _digit_form("L2MT", "a framework called Learning to MultiTask")
    'Learning to MultiTask'
    """
    if not any(c.isdigit() for c in short) or not short[:1].isalpha():
        return None
    core = short.rstrip("s") if short.endswith("s") and len(short) > 2 and short[-2].isupper() else short
    repeated = []
    for m in _LETTER_DIGIT.finditer(core):
        if m.group(1):
            repeated.extend(m.group(1) * (int(m.group(2)) if m.group(2) else 1))
        elif m.group(0).isdigit():
            repeated.append("#")  # a digit that repeats no letter: this reading fails
    words = [{"2": "to", "4": "for"}.get(t, t) for t in _WORD_DIGIT_TOKENS.findall(core)]
    found = [long for tokens in (repeated, words)
             if tokens and all(t.isalpha() for t in tokens)
             for long in (_initials_long(tokens, cand),) if long]
    return min(found, key=len) if found else None


def _power_form(short: str, cand: str) -> str | None:
    """The long form of a short form with a superscript power of a letter group, "Pro$^2$" (clean
    "Pro2") = PROject and PRObe, "S$^2$-Attn" = Shifted Sparse Attention: the group of letters
    before the power (a capital and its small letters) is spelled that many times, then Schwartz &
    Hearst's match runs on the spelled-out form. Only for a "^" in the original text (called by
    :func:`find_definitions`): a plain digit ("GPT2", "L2") is no power.

    Examples
    --------
    >>> _power_form("Pro2", "Our approach, Project and Probe")
    'Project and Probe'
    >>> _power_form("S2-Attn", "we propose shifted sparse attention")
    'shifted sparse attention'
    """
    m = _POWER.search(short)
    if m is None:
        return None
    spelled = short[:m.start()] + m.group("g") * int(m.group("n")) + short[m.end():]
    long = best_long_form(spelled, cand)
    if long is None:
        return None
    # every repeated group starts its own word: the loose match may take a second letter inside a
    # word ("sparse attention" for "SS-Attn"), so the long form grows over the words before it
    # that start with the group's letter ("shifted sparse attention")
    first = m.group("g")[0].lower()
    words = long.split()
    before = cand[:len(cand) - len(long)].split()
    while sum(w[0].lower() == first for w in words) < int(m.group("n")) and before \
            and before[-1][0].lower() == first:
        words.insert(0, before.pop())
    if sum(w[0].lower() == first for w in words) < int(m.group("n")):
        return None
    return cand[len(cand) - len(" ".join(words)):] if cand.endswith(" ".join(words)) else None


_POWER = re.compile(r"(?P<g>[A-Z][a-z]{0,3})(?P<n>[23])(?![\d])")
_LETTER_DIGIT = re.compile(r"([A-Za-z])([2-4](?!\d))?|[^A-Za-z]")
_WORD_DIGIT_TOKENS = re.compile(r"(?<=[A-Za-z])[24](?=[A-Za-z])|[A-Za-z]|\d+")
_CAND_WORD = re.compile(r"[^\s/-]+")


def _initials_long(tokens: list[str], cand: str) -> str | None:
    """The shortest suffix of ``cand`` whose word initials spell ``tokens`` (letters, or whole
    words such as "to"), function words skippable; None when there is none."""
    words = [(m.start(), m.group(0)) for m in _CAND_WORD.finditer(cand)]
    ti = len(tokens) - 1
    wi = len(words) - 1
    start = None
    while ti >= 0:
        if wi < 0:
            return None
        pos, w = words[wi]
        tok = tokens[ti]
        if len(tok) > 1:
            if w.lower() == tok:
                ti -= 1
                start = pos
            elif w.lower() not in _FUNCTION_WORDS:
                return None
            wi -= 1
            continue
        caps = [w[0]] + [c for p, c in zip(w, w[1:]) if p.islower() and c.isupper()]
        k = len(caps) - 1
        while k >= 0 and ti >= 0 and len(tokens[ti]) == 1 and caps[k].lower() == tokens[ti].lower():
            k -= 1
            ti -= 1
        if k >= 0:  # the word's initial is not a letter of the short form
            if k == len(caps) - 1 and w.lower() in _FUNCTION_WORDS:
                wi -= 1
                continue
            return None
        start = pos
        wi -= 1
    if start is None:
        return None
    return cand[cand.rfind(" ", 0, start) + 1:]  # a hyphenated word whole: "Self-Supervised ..." for S$^3$


def _sentence_before(ct: str, pos: int, window: int = 300) -> tuple[int, str]:
    """Where the sentence holding ``pos`` starts (at most ``window`` characters back) and its
    text up to ``pos``, trailing spaces removed."""
    sent_start = 0
    window_start = max(0, pos - window)
    for sm in _SENT_END.finditer(ct, window_start, pos):
        sent_start = sm.end()
    sent_start = max(sent_start, window_start)
    return sent_start, ct[sent_start:pos].rstrip()


def _named_definitions(view: CleanView, text: str, ct: str, out: list[Definition], seen: set[str]) -> None:
    """``long form, dubbed SHORT``: a naming verb instead of parentheses (same long-form search)."""
    for m in _NAMED_SHORT.finditer(ct):
        short = m.group("s")
        if short in seen or not _is_short_form(short) or sum(c.isupper() for c in short) < 2:
            continue
        sent_start, before = _sentence_before(ct, m.start())
        words = before.split(" ")
        cand = " ".join(words[-min(len(short) + 5, 2 * len(short)):])
        long = _initials_form(short, cand)
        if long and _valid_pair(short, long) and all(w[:1].isupper() or w in _FUNCTION_WORDS for w in long.split()):
            long_end = sent_start + len(before)
            out.append(_definition(view, short, long, m.start("s"), m.end("s"), long_end - len(long), long_end, text))
            seen.add(short)


def _initials_form(short: str, cand: str) -> str | None:
    """The last words of ``cand`` whose initials (function words skipped) spell ``short``'s letters.

    Stricter than the character search: without parentheses a name's letters must start words
    ("Sparsification" alone spells "SAS" letter by letter).

    Examples
    --------
    >>> _initials_form("SAS", "a new concept of Structured Activation Sparsification")
    'Structured Activation Sparsification'
    >>> _initials_form("MSGT", "we introduce Multi-Scale Graph Transformers")
    'Multi-Scale Graph Transformers'
    """
    letters = "".join(c for c in short if c.isalpha()).lower()
    words = cand.split()
    initials = ""
    for k in range(len(words) - 1, -1, -1):
        w = words[k]
        if w.lower() in _FUNCTION_WORDS:
            continue
        parts = "".join(p[:1] for p in w.split("-") if p).lower()  # "Multi-Scale" -> "ms" or "m"
        initials = (parts if letters.endswith(parts + initials) else w[:1].lower()) + initials
        if initials == letters:
            return " ".join(words[k:])
        if not letters.endswith(initials):
            return None
    return None


# "Long Form Name, dubbed LFN": Title-Case long forms only (a lower-case clause before "dubbed"
# is a description, not a long form)
_NAMED_SHORT = re.compile(r",?\s+(?:dubbed|termed|abbreviated(?:\s+as)?)\s+(?:as\s+)?(?P<s>[A-Za-z][\w+-]{1,14})(?![\w+-])")
_SMALL_THEN_CAPITAL = re.compile(r"[a-z][A-Z]")


def _capitals_form(short: str, cand: str) -> str | None:
    """The last words of ``cand`` whose capital letters spell ``short`` (a fallback to Fig. 2).

    Authors often mark the acronym's letters by capitals inside words ("theoREm-from-prooF
    extrACTOR (REFACTOR)"), where the letters need not start words.

    Examples
    --------
    >>> _capitals_form("REFACTOR", "a method called theoREm-from-prooF extrACTOR")
    'theoREm-from-prooF extrACTOR'
    >>> _capitals_form("ABC", "we use plain words") is None
    True
    """
    if not short.isalpha() or len(short) < 3:
        return None  # "S2AC": a digit the capitals cannot spell
    target = short.upper()
    words = cand.split(" ")
    caps = ""
    for i in range(len(words) - 1, -1, -1):
        caps = "".join(c for c in words[i] if c.isupper()) + caps
        if caps == target:
            long = " ".join(words[i:])
            # a capital right after a small letter ("theoREm"): the capitals were chosen to mark the letters
            return long if any(_SMALL_THEN_CAPITAL.search(w) for w in words[i:]) else None
        if len(caps) > len(target) or not target.endswith(caps):
            return None
    return None


_FUNCTION_WORDS = frozenset("and of the for in on to with a an or by from at as".split())


def _past_function_word(cand: str, long: str) -> str | None:
    """A long form must not start with a function word whose letter the short form borrowed.

    "Accuracy and Global-Local Fairness Optimality Problem (AGLFOP)": the first letter matched
    "and"; the word before it starts with the same letter, so the long form starts there. With
    no such word the pair is no definition (None).

    Examples
    --------
    >>> _past_function_word("the Accuracy and Global Fairness Problem", "and Global Fairness Problem")
    'Accuracy and Global Fairness Problem'
    >>> _past_function_word("we use and Global Fairness", "and Global Fairness") is None
    True
    """
    first = long.split(" ", 1)[0]
    if first.lower() not in _FUNCTION_WORDS:
        return long
    before = cand[:len(cand) - len(long)].rstrip().rsplit(" ", 1)[-1]
    if before and before[0].lower() == first[0].lower() and before.lower() not in _FUNCTION_WORDS:
        return before + " " + long
    return None


# words no name starts with: determiners, pronouns and the authors' verbs; "novel", "new" and
# "named" start a few names ("novel view synthesis (NVS)", "named entity recognition (NER)")
_LEAD_WORDS = frozenset("this these that those our we its their it they which propose proposes proposed "
                        "introduce introduces introduced present presents presented develop develops developed "
                        "call called dubbed termed is are was were uses using paper".split())
_LEAD_ADJECTIVES = frozenset(("novel", "new", "named"))


def _past_lead_words(short: str, long: str) -> str | None:
    """A long form that starts with a determiner, a pronoun, "novel" or a verb is cut after the last such word.

    Schwartz & Hearst's right-to-left match reaches back past the name when the short form has a
    letter more than the name's initials ("this paper introduces a novel Temporal-Spatial Enhanced
    Network (TSESNet)" matches the "t" of "this"). The rest is kept when it starts with the short
    form's first letter and is still longer than it, or when its capitals spell the short form
    ("propose an imPlicit self-ImprovemenT (PIT)"); otherwise the pair is no definition (None),
    unless the long form only starts with "novel", "new" or "named", which is then kept as it is.

    Examples
    --------
    >>> _past_lead_words("TSESNet", "this paper introduces a novel Temporal-Spatial Enhanced Network")
    'Temporal-Spatial Enhanced Network'
    >>> _past_lead_words("LRH", "this paper proposes a Learning to Rank with the Hessian")
    'Learning to Rank with the Hessian'
    >>> _past_lead_words("PIT", "propose an imPlicit self-ImprovemenT")
    'imPlicit self-ImprovemenT'
    >>> _past_lead_words("OUN", "our Universal Net") is None
    True
    >>> _past_lead_words("NER", "named entity recognition")
    'named entity recognition'
    """
    words = long.split(" ")
    first = words[0].lower()
    if first not in _LEAD_WORDS and first not in _LEAD_ADJECTIVES:
        return long
    i = max(i for i, w in enumerate(words) if w.lower() in _LEAD_WORDS or w.lower() in _LEAD_ADJECTIVES) + 1
    while i < len(words) and words[i].lower() in ("a", "an", "the"):
        i += 1
    rest = " ".join(words[i:])
    if rest[:1].lower() == short[:1].lower() and len(rest) > len(short):
        return rest
    if rest and _capitals_form(short, rest) == rest:
        return rest
    return long if first in _LEAD_ADJECTIVES else None


# Title-Case words and a connector right before a Title-Case long form: "Adversarial Training with"
_TITLE_LEAD = re.compile(r"(?:(?<=\s)|^)(?P<lead>(?:[A-Z][\w-]*\s+){1,3})(?:with|for|of|via|by|in|on|and|under|from)\s+$")
_LEAD_STOP = frozenset("we our the this these in on for with to by from a an its their it here then thus "
                       "moreover furthermore finally first second specifically unlike however".split())


def _extend_title_case(cand: str, long: str, *, sentence_start: bool = False) -> str:
    """Grow the shortest long form over the Title-Case words that start the same name.

    Schwartz & Hearst take the shortest long form that spells the short form, which drops the
    head of a name whose acronym skips its first words ("Adversarial Training with Consistent
    Prediction-based Rejection (CPR)" -> "Consistent Prediction-based Rejection"). When the long
    form is Title Case and is preceded, inside the candidate window, by one to three capitalised
    words and a connector, those words belong to the same name (not when they open the sentence
    ``cand`` starts, where every word is capitalised: "Results with Deep Q-Network (DQN)").

    Examples
    --------
    >>> _extend_title_case("we propose Robust Training with Calibrated Margin Abstention", "Calibrated Margin Abstention")
    'Robust Training with Calibrated Margin Abstention'
    >>> _extend_title_case("In Calibrated Margin Abstention", "Calibrated Margin Abstention")
    'Calibrated Margin Abstention'
    >>> _extend_title_case("Results with Deep Q-Network", "Deep Q-Network", sentence_start=True)
    'Deep Q-Network'

    Nor when the lead words end in the long form's own head noun: two names of one kind side by
    side ("equipping Group Normalization with Group Kalman Normalization (GKN)").

    >>> _extend_title_case("equipping Group Normalization with Group Kalman Normalization", "Group Kalman Normalization")
    'Group Kalman Normalization'
    """
    if not long[:1].isupper() or not cand.endswith(long):
        return long
    words = long.split()
    if sum(w[:1].isupper() for w in words) < max(2, len(words) - 1):
        return long
    m = _TITLE_LEAD.search(cand, 0, len(cand) - len(long))
    if m is None:
        return long
    lead = m.group("lead").split()
    while lead and lead[0].lower() in _LEAD_STOP:
        lead.pop(0)
    if not lead or any(w.lower() in _LEAD_STOP for w in lead) or (sentence_start and m.start("lead") == 0):
        return long
    if lead[-1].lower().rstrip("s") == words[-1].lower().rstrip("s"):
        return long
    return cand[m.start("lead") + m.group("lead").find(lead[0]):]


def _definition(view: CleanView, short: str, long: str, ss: int, se: int, ls: int, le: int,
                text: str | None = None) -> Definition:
    cls, css = ls, ss
    ss, se = view.span_to_orig(ss, se)
    ls, le = view.span_to_orig(ls, le)
    if text is not None and view.starts:
        ls = _open_markup_start(view, text, cls, ls, le)
        ss = _open_markup_start(view, text, css, ss, se)  # "($\mathcal{I}$-EDL)" starts at "$"
        if text.count("$", ss, se) % 2 and text.startswith("$", se):
            se += 1  # "(IG$^2$)" ends after the "$" that closes its superscript
    return Definition(short, long, ss, se, ls, le)


def _open_markup_start(view: CleanView, text: str, cls: int, ls: int, le: int) -> int:
    """Move a long form's start left over markup that opens before it and closes inside it.

    ``$\\underline{\\text{c}}$ode-based`` starts at ``$``, not at ``c}}$ode``: a span must not cut
    a markup group in two. Markup closed before the long form ends ("*Long Form* (LF)") or
    enclosing the whole definition stays outside.
    """
    gap_start = view.to_orig(cls - 1) + 1 if cls > 0 else 0
    while gap_start < ls and text[gap_start].isspace():
        gap_start += 1
    if gap_start >= ls:
        return ls
    inner = text[ls:le]
    unbalanced = inner.count("}") > inner.count("{") or inner.count("$") % 2 == 1 \
        or inner.count("**") % 2 == 1
    return gap_start if unbalanced else ls


class AbbreviationDetector:
    """Sets ``doc._.abbreviations`` and ``doc.spans[spans_key]`` (see the module docstring)."""

    def __init__(self, nlp: Language, name: str = "paperkg_abbreviations", *,
                 spans_key: str = SPANS_KEY) -> None:
        self.name = name
        self.spans_key = spans_key
        #: False: no ``doc.spans[spans_key]`` (the definitions are in ``doc.user_data[DEFS_KEY]``
        #: either way); :func:`extractors.pipeline.extract_raw` sets it while it runs, as it reads
        #: the definitions only and its Docs never leave it.
        self.make_spans = True

    def __call__(self, doc: Doc) -> Doc:
        text = doc_text(doc)
        if "<" in text and _HTML_TAG.search(text) is not None:
            # an inline HTML tag glued to a word ("<b>BERT</b>"): its own tokens, so that the later
            # components' phrase matchers see the name (the text and its offsets do not change)
            _split_html_tags(doc, text)
        defs = find_definitions(text, doc_view(doc))
        doc._.abbreviations = {d.short: d.long for d in defs}
        doc.user_data[DEFS_KEY] = [d.as_tuple() for d in defs]
        if not self.make_spans:
            return doc
        spans = []
        for d in defs:
            short = doc.char_span(d.short_start, d.short_end, label="SHORT", alignment_mode="expand")
            long = doc.char_span(d.long_start, d.long_end, label="LONG", alignment_mode="expand")
            if short is None or long is None:
                continue
            short._.paperkg_pair = d.long
            long._.paperkg_pair = d.short
            spans.extend((long, short))
        doc.spans[self.spans_key] = spans
        return doc

    def initialize(self, get_examples: Callable[[], Iterable[Any]] | None = None, *,
                   nlp: Language | None = None) -> None:
        """Nothing to load: the algorithm has no data."""

    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        Path(path).mkdir(parents=True, exist_ok=True)

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> "AbbreviationDetector":
        return self


@Language.factory("paperkg_abbreviations", default_config={"spans_key": SPANS_KEY},
                  assigns=["doc._.abbreviations", "doc.spans"])
def make_abbreviations(nlp: Language, name: str, spans_key: str) -> AbbreviationDetector:
    return AbbreviationDetector(nlp, name, spans_key=spans_key)


def definitions_of(doc: Doc) -> list[Definition]:
    """The definitions the component found in ``doc`` (empty when it did not run)."""
    return [Definition(*t) for t in doc.user_data.get(DEFS_KEY, ())]
