"""The paper's own method when no naming cue marks it: a small learned scorer over candidate phrases.

The rules of :mod:`extractors.entities` find proposed names that look like names (coined words,
acronyms, emphasis, "called X"). A descriptive, lower-case name of the paper's own method ("we
introduce collider regression, a framework ...", "we then propose shadow paratope to ...", "a
mollifier smoothing method") has no such cue; rules written for each such form stopped
generalising. This component instead

1. **generates candidate phrases** cheaply from the text (regular expressions, no tagger):
   noun-phrase-like word runs after a proposal verb of the authors ("we (then) propose/introduce/
   present/develop/design/devise ..."), after a naming verb ("called", "termed", "dubbed"), after
   "our" and "novel/new/proposed", before an appositive (", a new framework/method/..."), after a
   dash or colon following a type noun ("a novel algorithm --- X ---"), inside emphasis (``*X*``,
   ``\\textit{X}``), and word runs of the abstract that also occur in the title;
2. **scores** each with a logistic regression over hand-designed features (where the phrase
   stands relative to the cue, determiners and type nouns around it, word shapes, length,
   repetitions, title overlap, generic-word lists of ``extractors/data``), with weights trained
   on the project's hand-annotated gold abstracts by ``bench/train_proposals.py`` and shipped in
   ``bench/learned_proposals_model.json``;
3. **adds** the best candidate of each cue whose probability passes the model's threshold and
   none of whose occurrences overlaps a span the rules produced (``doc.spans["paperkg_entities"]``),
   as a proposed method with every occurrence (title and abstract) as a mention (rule
   ``learned_proposal``).

**Measured, it does not help** (``python bench/train_proposals.py``: leave-one-split-out
cross-validation over the six development splits). The rules already find most proposed names of
those splits; among the candidates no rule span overlaps, about 20 are gold proposed names and
thousands are descriptive phrases the annotators did not mark (settings, phenomena, metrics,
unnamed techniques), and the features do not separate them: the most precise threshold that adds
any gold name adds 3 right and ~20 wrong ones, far from the 0.85 precision asked. So the shipped
model has threshold 1.0 (no probability reaches it: the component adds nothing and skips its work)
and the component is not part of :func:`extractors.pipeline.make_nlp` nor of the installed
package: it lives in ``bench/`` as the record of an experiment. Import this module (with ``bench/``
on ``sys.path``) and pass a lower ``threshold`` in its config to experiment.

The component keeps no state between documents: its results are a plain list in
``doc.user_data[ITEMS_KEY]`` (it survives ``nlp.pipe(..., n_process=2)``) mirrored as spans in
``doc.spans[SPANS_KEY]``; :func:`proposals_from_doc` turns them into :class:`kg.records.Entity`.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Sequence

from spacy.language import Language
from spacy.tokens import Doc

from extractors.abbreviations import doc_text
from extractors.entities import INFO_KEY as RULE_INFO_KEY
from extractors.entities import PROPOSED
from extractors.entities import SPANS_KEY as RULE_SPANS_KEY
from kg.records import Entity, Mention
from kg.schema import EntityType, Role
from kg.text import match_key

import extractors  # noqa: E402

#: The word lists of the extractors (stoplist, tasks, topics, gazetteer).
DATA = Path(extractors.__file__).resolve().parent / "data"
MODEL_PATH = Path(__file__).resolve().parent / "learned_proposals_model.json"

SPANS_KEY = "paperkg_proposals"
#: ``doc.user_data`` key: [[name, [[start, end], ...], probability], ...] in text order.
ITEMS_KEY = "paperkg_proposal_items"
RULE = "learned_proposal"
LABEL = "METHOD"
#: Between title and abstract in the pipeline's joined text (:data:`extractors.pipeline.SEPARATOR`).
_SEPARATOR = "\n\n"

#: Longest candidate in words.
MAX_WORDS = 7
#: Words of a region skipped at its start to find a candidate's first word.
MAX_SKIP = 2

# ----------------------------------------------------------------------------- word lists

_WORD = re.compile(r"[\w$\\^{}+'\u2019\-/]+(?:\.(?=[a-z0-9])\w+)*")

_DETERMINERS = frozenset("a an the this these that those its their our two three four several".split())
#: Words that say how new or good something is; a phrase of them only is no name.
_GENERIC_MODIFIERS = frozenset("""
novel new simple effective efficient general generic unified principled flexible lightweight
scalable robust powerful practical yet improved alternative original specific proposed
modified fast faster simpler accurate provable provably theoretically interpretable versatile
first second third dedicated tailored dual joint hybrid universal plug-and-play straightforward
elegant surprisingly conceptually intuitive natural systematic comprehensive holistic
training-free
""".split())
#: Type nouns: what the paper's contribution is (heads of "a new X framework").
_TYPE_HEADS = frozenset("""
method methods framework frameworks algorithm algorithms approach approaches model models
architecture architectures technique techniques scheme schemes strategy strategies procedure
procedures mechanism mechanisms module modules network networks estimator estimators paradigm
system systems pipeline pipelines operator operators layer layers loss objective regularizer
regularization principle test tests rule rules solver solvers policy family class variant
variants protocol recipe criterion metric measure score benchmark dataset toolkit library
formulation parameterization parametrization representation representations process sampler
optimizer encoder decoder transformer tree trees attack defense defence
""".split())
#: Heads that make a phrase a result, setting or observation rather than a method.
_NON_METHOD_HEADS = frozenset("""
analysis analyses results result bound bounds theory theorem theorems insight insights
experiments experiment study studies problem problems setting settings task tasks question
questions performance guarantees guarantee evidence perspective view understanding observation
observations phenomenon limitation limitations challenge challenges issue issues data
properties property condition conditions assumption assumptions work paper contribution
contributions findings finding way ways idea ideas notion notions definition definitions
characterization lens connection connections
""".split())
_VERBS_PROPOSE = ("propose|proposes|introduce|introduces|present|presents|develop|develops|design|designs|"
                  "devise|devises|establish|establishes|formulate|formulates|put forward|puts forward|"
                  "construct|constructs|build|builds|derive|derives|offer|offers|contribute|contributes|"
                  "create|creates|provide|provides|suggest|suggests|advocate|advocates|pioneer|pioneers")
_NAMING = r"(?:called|named|termed|dubbed|coined|referred to as|(?:we|which we) (?:call|term|name|dub|coin|refer to as))"
_SUBJECT = (r"(?:we|this (?:paper|work|study|article|note|submission)|our (?:paper|work|study)|"
            r"the (?:paper|present work|authors))")

_CUE_VERB = re.compile(rf"\b{_SUBJECT}(?:\s+(?:\w+ly|then|also|first|further|here|now|thus|therefore|hence|"
                       rf"instead|next|finally|additionally|furthermore|moreover|so)){{0,2}}\s+(?:{_VERBS_PROPOSE})\b"
                       r"(?:\s+(?:to\s+\w+|here|herein|in this (?:paper|work)))?", re.IGNORECASE)
#: A bare proposal verb after "and"/"then" ("we first explore X and then propose Y").
_CUE_VERB_BARE = re.compile(r"\b(?:and|then)\s+(?:then\s+|also\s+|further\s+)?(?:propose|introduce|present|develop|"
                            r"design|devise)\b", re.IGNORECASE)
_CUE_NAMING = re.compile(rf"\b{_NAMING}\b", re.IGNORECASE)
_CUE_OUR = re.compile(r"\b(?:our|the proposed|a novel|an? new|the new|this novel|our proposed)\b", re.IGNORECASE)
_APPOSITIVE = re.compile(r",\s+(?:(?:a|an|the|which is a|which is an)\s+)(?:[\w\-]+\s+){0,4}?(?:"
                         + "|".join(sorted(_TYPE_HEADS - {"test", "tests", "tree", "trees"})) + r")\b",
                         re.IGNORECASE)
#: A dash or colon; :func:`generate` keeps those right after a type noun ("a novel algorithm --- X").
_DASH = re.compile(r"\s*(?:---|--|\u2014|\u2013|:)\s*")
_WORD_BEFORE = re.compile(r"(\w+)$")
_EMPHASIS = re.compile(r"(?<![*\w])\*{1,2}([^*\n]{2,90}?)\*{1,2}(?![*\w])|\\(?:textit|textbf|emph|textsc)\{([^{}\n]{2,90})\}")


def _read_words(name: str) -> frozenset[str]:
    out: set[str] = set()
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            out.update(line.lower().split())
    return frozenset(out)


def _read_phrases(name: str) -> frozenset[str]:
    out: set[str] = set()
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            out.add(match_key(line))
    return frozenset(out)


def _singular(w: str) -> str:
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


def _gazetteer_words() -> tuple[frozenset[str], frozenset[str]]:
    """(common words of abstracts, head words of the gazetteer's descriptive method names).

    The gazetteer (:mod:`extractors.build_gazetteer`) lists the words common in abstracts (a
    phrase of them only is rarely a coined name) and its method entries; the last word of a
    lower-case multi-word method name ("beam search", "mirror descent") is a method head."""
    with open(DATA / "gazetteer.json", encoding="utf-8") as fh:
        gaz = json.load(fh)
    common = frozenset(w.lower() for w in gaz.get("common_words", ()))
    heads: dict[str, int] = {}
    for e in gaz.get("entries", ()):
        if e.get("type") != "method":
            continue
        for name in (e.get("name", ""), *e.get("aliases", ())):
            ws = name.split()
            if len(ws) >= 2 and name == name.lower() and ws[-1].isalpha():
                h = _singular(ws[-1])
                heads[h] = heads.get(h, 0) + 1
    return common, frozenset(h for h, n in heads.items() if n >= 2)


def _task_heads() -> frozenset[str]:
    heads: dict[str, int] = {}
    for line in (DATA / "concepts_tasks.txt").read_text(encoding="utf-8").splitlines():
        ws = line.split()
        if len(ws) >= 2 and not line.startswith("#"):
            h = _singular(ws[-1].lower())
            heads[h] = heads.get(h, 0) + 1
    return frozenset(h for h, n in heads.items() if n >= 3)


@lru_cache(maxsize=1)
def _lists() -> dict[str, frozenset[str]]:
    """The word lists shared with the concept extractor and the entity stoplist (read once)."""
    common, method_heads = _gazetteer_words()
    return {
        "common": common,
        "method_heads": method_heads,
        "task_heads": _task_heads() - method_heads,
        "stop": _read_words("concepts_stopwords.txt"),
        "heads": _read_words("concepts_heads.txt"),
        "topics": _read_phrases("concepts_topics.txt") | _read_phrases("concepts_tasks.txt"),
        "generic_phrases": _read_phrases("concepts_generic_phrases.txt"),
        "stoplist": _read_phrases("stoplist.txt"),
        "modifiers": _read_words("concepts_generic_modifiers.txt") | _GENERIC_MODIFIERS,
    }


#: Function words allowed inside a candidate (not at its edges): "mixture of experts", "noise to noise".
_INNER = frozenset(("of", "to", "as", "for", "with", "and"))

# ----------------------------------------------------------------------------- candidates

SOURCES = ("verb", "naming", "our", "appositive", "dash", "emphasis", "title")
_CUE_SOURCES = frozenset(("verb", "naming", "appositive", "dash", "emphasis"))


@dataclass
class Candidate:
    """One candidate phrase: character range in the text, where it came from and its features."""

    start: int
    end: int
    text: str
    source: str
    group: int
    features: dict[str, float] = field(default_factory=dict)
    score: float = 0.0
    sources: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.sources.add(self.source)


def _words(text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group()) for m in _WORD.finditer(text, start, end)]


def _sentence_bounds(text: str, pos: int) -> tuple[int, int]:
    s = max(text.rfind(". ", 0, pos), text.rfind("\n", 0, pos), text.rfind("? ", 0, pos))
    e = len(text)
    for sep in (". ", "\n", "? "):
        k = text.find(sep, pos)
        if k != -1:
            e = min(e, k)
    return s + 1, e


def _gap_ok(text: str, a: int, b: int) -> bool:
    """Only spaces between two words (a hyphen or slash is inside a word already)."""
    return text[a:b].strip() == ""


def _forward_region(text: str, pos: int, limit: int, stop: frozenset[str]) -> list[tuple[int, int, str]]:
    """Words from ``pos`` while they are joined by spaces only and are no stop words (determiners
    and generic modifiers at the start are kept: candidates may skip them)."""
    out: list[tuple[int, int, str]] = []
    prev_end = pos
    for m in _WORD.finditer(text, pos, limit):
        s, e, w = m.start(), m.end(), m.group()
        if not _gap_ok(text, prev_end, s):
            break
        if not any(ch.isalnum() for ch in w):
            break  # a dash between words ends the phrase
        lw = w.lower()
        leading = all(x[2].lower() in _DETERMINERS for x in out)
        if lw in stop and lw not in _INNER and not (leading and lw in _DETERMINERS):
            break
        out.append((s, e, w))
        prev_end = e
        if len(out) >= MAX_WORDS + MAX_SKIP + 2:
            break
    return out


def _backward_region(text: str, pos: int, floor: int, stop: frozenset[str]) -> list[tuple[int, int, str]]:
    """Words ending at ``pos`` going back while joined by spaces only and no stop words."""
    words = _words(text, floor, pos)
    out: list[tuple[int, int, str]] = []
    nxt = pos
    for s, e, w in reversed(words):
        if not _gap_ok(text, e, nxt) or not any(ch.isalnum() for ch in w):
            break
        lw = w.lower()
        if lw in stop and lw not in _INNER:
            break
        out.append((s, e, w))
        nxt = s
        if len(out) >= MAX_WORDS:
            break
    out.reverse()
    return out


def _spans_of_region(region: list[tuple[int, int, str]], *, anchored_end: bool) -> Iterable[tuple[int, int, int]]:
    """(first word index, last word index + 1, words skipped) of the candidate spans of a region."""
    n = len(region)
    if anchored_end:  # the phrase ends where the region ends (before an appositive)
        for i in range(max(0, n - MAX_WORDS), n):
            yield i, n, i
        return
    # skip leading determiners (always) and up to MAX_SKIP further words
    first = 0
    while first < n and region[first][2].lower() in _DETERMINERS:
        first += 1
    for skip in range(MAX_SKIP + 1):
        i = first + skip
        if i >= n:
            break
        for j in range(i + 1, min(n, i + MAX_WORDS) + 1):
            yield i, j, skip


def _edge_ok(words: Sequence[tuple[int, int, str]]) -> bool:
    lists = _lists()
    first, last = words[0][2].lower(), words[-1][2].lower()
    if first in _INNER or last in _INNER or first in _DETERMINERS or last in _DETERMINERS:
        return False
    if all(w[2].lower() in lists["modifiers"] or w[2].lower() in _TYPE_HEADS or w[2].lower() in _INNER
           for w in words):
        return False  # "a simple method", "novel framework": no name
    if not any(ch.isalnum() for ch in first) or not any(ch.isalnum() for ch in last):
        return False  # a dash or a lone sign
    if len(words) == 1 and (len(first) < 3 or first.isdigit() or first.endswith("ly")):
        return False  # "Lastly, a ..." is no name
    return True


def _title_range(text: str) -> tuple[int, int]:
    """(title end, abstract start) of the pipeline's joined text; (0, 0) when there is no title."""
    k = text.find(_SEPARATOR)
    if k <= 0 or k > 400 or text.count(" ", 0, k) > 40:
        return 0, 0
    return k, k + len(_SEPARATOR)


def _occurrences(text: str, phrase: str, start: int = 0, *, lower: str | None = None) -> list[tuple[int, int]]:
    """Case-insensitive whole-word occurrences of ``phrase`` (an optional plural s/es) from ``start``;
    ``lower`` is ``text.lower()`` when the caller has it."""
    low = lower if lower is not None else text.lower()
    p = phrase.lower()
    out = []
    k = low.find(p, start)
    while k != -1:
        e = k + len(p)
        if low.startswith("es", e) and not _word_char(low, e + 2):
            e += 2
        elif low.startswith("s", e) and not _word_char(low, e + 1):
            e += 1
        if not _word_char(low, k - 1) and not _word_char(low, e):
            out.append((k, e))
        k = low.find(p, k + 1)
    return out


def _word_char(s: str, i: int) -> bool:
    return 0 <= i < len(s) and (s[i].isalnum() or s[i] in "_-")


def generate(text: str) -> list[Candidate]:
    """Every candidate phrase of a document's text (title, separator, abstract), without features."""
    lists = _lists()
    stop = lists["stop"] - {"our"}
    title_end, abs_start = _title_range(text)
    out: list[Candidate] = []
    seen: dict[tuple[int, int], Candidate] = {}
    group = 0

    def add_region(region: list[tuple[int, int, str]], source: str, *, anchored_end: bool = False) -> None:
        nonlocal group
        if not region:
            return
        group += 1
        n = len(region)
        for i, j, skip in _spans_of_region(region, anchored_end=anchored_end):
            words = region[i:j]
            if not _edge_ok(words):
                continue
            s, e = words[0][0], words[-1][1]
            c = seen.get((s, e))
            if c is None:
                c = seen[(s, e)] = Candidate(s, e, text[s:e], source, group)
                c.features["_skip"] = skip
                c.features["_ends_region"] = float(j == n)
                out.append(c)
            else:
                c.sources.add(source)
                c.features["_skip"] = min(c.features["_skip"], skip)
                c.features["_ends_region"] = max(c.features["_ends_region"], float(j == n))

    for m in _CUE_VERB.finditer(text, abs_start):
        add_region(_forward_region(text, m.end(), len(text), stop), "verb")
    for m in _CUE_VERB_BARE.finditer(text, abs_start):
        add_region(_forward_region(text, m.end(), len(text), stop), "verb")
    for m in _CUE_NAMING.finditer(text, abs_start):
        add_region(_forward_region(text, m.end(), len(text), stop), "naming")
    for m in _CUE_OUR.finditer(text, abs_start):
        add_region(_forward_region(text, m.end(), len(text), stop), "our")
    for m in _APPOSITIVE.finditer(text, abs_start):
        s0, _ = _sentence_bounds(text, m.start())
        add_region(_backward_region(text, m.start(), max(s0, abs_start), stop), "appositive", anchored_end=True)
    for m in _DASH.finditer(text, abs_start):
        head = _WORD_BEFORE.search(text, max(abs_start, m.start() - 30), m.start())
        if head and head.group(1).lower() in _TYPE_HEADS:
            add_region(_forward_region(text, m.end(), len(text), stop), "dash")
    for m in _EMPHASIS.finditer(text, abs_start):
        gs, ge = (m.start(1), m.end(1)) if m.group(1) is not None else (m.start(2), m.end(2))
        add_region(_forward_region(text, gs, ge, frozenset()), "emphasis")
    if title_end:
        title_words = [w.lower() for _s, _e, w in _words(text, 0, title_end)]
        title_grams = {tuple(title_words[i:i + n]) for n in range(1, MAX_WORDS + 1)
                       for i in range(len(title_words) - n + 1)}
        title_set = set(title_words)
        aw = _words(text, abs_start, len(text))
        low = [w.lower() for _s, _e, w in aw]
        i = 0
        while i < len(aw):
            if low[i] not in title_set or low[i] in stop:
                i += 1
                continue
            # the longest run of abstract words from i that is a title n-gram (the grams hold every
            # prefix of a gram, so the run grows one word at a time)
            best = 1
            while (i + best < len(aw) and best < MAX_WORDS and _gap_ok(text, aw[i + best - 1][1], aw[i + best][0])
                   and tuple(low[i:i + best + 1]) in title_grams):
                best += 1
            if (best >= 2 or "-" in aw[i][2]) and (low[i],) in title_grams:
                region = aw[i:i + best]
                while region and region[-1][2].lower() in stop:
                    region = region[:-1]
                if region and not any(w[2].lower() in stop and w[2].lower() not in _INNER for w in region):
                    add_region(region, "title", anchored_end=True)  # the run and its tails
                i += best
            else:
                i += 1
    return out


# ----------------------------------------------------------------------------- features

def _shape_features(words: list[str]) -> dict[str, float]:
    f: dict[str, float] = {}
    joined = " ".join(words)
    f["all_lower"] = float(joined == joined.lower())
    f["title_case"] = float(all(w[:1].isupper() for w in words if w.lower() not in _INNER))
    f["inner_caps"] = float(any(any(ch.isupper() for ch in w[1:]) for w in words))
    f["all_caps_word"] = float(any(len(w) >= 2 and w.isupper() for w in words))
    f["digit"] = float(any(ch.isdigit() for ch in joined))
    f["hyphen"] = float("-" in joined)
    f["math"] = float("$" in joined or "\\" in joined)
    n = len(words)
    f["len1"] = float(n == 1)
    f["len2"] = float(n == 2)
    f["len3"] = float(n == 3)
    f["len4+"] = float(n >= 4)
    f["inner_function_word"] = float(any(w.lower() in _INNER for w in words[1:-1]))
    last = words[-1].lower()
    f["last_ing"] = float(last.endswith("ing"))
    f["last_plural"] = float(last.endswith("s") and not last.endswith("ss"))
    f["first_ed"] = float(words[0].lower().endswith("ed") and n > 1)
    return f


_TITLE_COLON = re.compile(r"^\s*([^:]{3,80}?)\s*:")
_TITLE_VIA = re.compile(r"\b(?:via|using|with|through|by)\s+(?:an?\s+|the\s+)?(.{3,80}?)\s*"
                        r"(?=:|$|\b(?:for|in|on|to|and|with|under|via|using|from)\b)", re.IGNORECASE)


_SENT_WE = re.compile(r"\bwe\b|\bour\b|this paper|this work")
_SENT_PROPOSE = re.compile(r"\b(?:propos|introduc|present|develop|design|devis)")


def _title_slots(title: str) -> frozenset[str]:
    """Keys of the phrases a title gives its method: the part before a colon ("X: ...") and the
    phrase after "via/using/with/through/by" ("... via X")."""
    out = {match_key(m.group(1)) for m in _TITLE_COLON.finditer(title)}
    out.update(match_key(m.group(1)) for m in _TITLE_VIA.finditer(title))
    return frozenset(out)


def featurize(text: str, cands: list[Candidate], rule_ranges: Sequence[tuple[int, int]], *,
              rules_proposed: bool = False) -> None:
    """Fill each candidate's ``features`` (in place); ``rules_proposed``: the rules found a
    proposed name in this document."""
    lists = _lists()
    title_end, abs_start = _title_range(text)
    title_l = text[:title_end].lower()
    title_keys = match_key(text[:title_end])
    abstract = text[abs_start:]
    abstract_l = abstract.lower()
    title_slots = _title_slots(text[:title_end]) if title_end else frozenset()
    counts: dict[str, int] = {}
    sent_cache: dict[int, tuple[float, float]] = {}
    for c in cands:
        f = c.features
        skip = f.pop("_skip", 0)
        ss, se = _sentence_bounds(text, c.start)
        words = [w for _s, _e, w in _words(text, c.start, c.end)]
        lw = [w.lower() for w in words]
        f.update(_shape_features(words))
        ends = f.pop("_ends_region", 0.0)
        for src in SOURCES:
            f["src_" + src] = float(src in c.sources)
        cue = bool(c.sources & _CUE_SOURCES)
        f["n_sources"] = float(len(c.sources) - 1)
        f["skip0"] = float(skip == 0)
        f["skip1+"] = float(skip >= 1)
        f["ends_region"] = ends
        f["whole_region"] = float(ends and skip == 0)
        f["verb_whole"] = float(ends and skip == 0 and "verb" in c.sources)
        before = text[max(abs_start, c.start - 40):c.start]
        bw = [w.lower() for w in _WORD.findall(before)][-3:]
        prev = bw[-1] if bw else ""
        f["prev_a"] = float(prev in ("a", "an"))
        f["prev_the"] = float(prev == "the")
        f["prev_novel"] = float(any(w in ("novel", "new", "proposed") for w in bw))
        f["prev_modifier"] = float(prev in lists["modifiers"])
        after = text[c.end:c.end + 40]
        nxt_m = _WORD.match(after.lstrip())
        gap = after[:len(after) - len(after.lstrip())]
        nxt = nxt_m.group().lower() if nxt_m and gap in (" ", "") else ""
        f["next_type_head"] = float(nxt in _TYPE_HEADS)
        f["next_paren_acronym"] = float(bool(re.match(r"\s*\(\s*[A-Za-z$\\]*[A-Z][\w$\\{}^+\-]*\s*\)", after)))
        f["next_comma"] = float(after.startswith(","))
        f["next_to_that"] = float(nxt in ("to", "that", "which", "for", "in", "with", "by", "using"))
        f["last_type_head"] = float(lw[-1] in _TYPE_HEADS)
        f["last_non_method"] = float(lw[-1] in _NON_METHOD_HEADS)
        f["last_concept_head"] = float(lw[-1] in lists["heads"])
        f["last_learning"] = float(lw[-1] == "learning")
        head = _singular(lw[-1])
        f["head_method"] = float(head in lists["method_heads"])
        f["head_task"] = float(head in lists["task_heads"])
        content = [w for w in lw if w not in lists["stop"] and w not in _INNER]
        rare = [w for w in content if w.isalpha() and len(w) >= 4 and _singular(w) not in lists["common"]
                and w not in lists["common"]]
        f["rare_word"] = float(bool(rare))
        f["rare_share"] = len(rare) / max(1, len(content))
        f["sentence_initial"] = float(text[ss:c.start].strip() == "")
        f["any_modifier"] = float(any(w in lists["modifiers"] for w in lw))
        f["stop_share"] = sum(w in lists["stop"] for w in lw) / len(lw)
        key = match_key(c.text)
        f["known_topic"] = float(key in lists["topics"] or key in lists["generic_phrases"])
        f["stoplisted"] = float(key in lists["stoplist"])
        n = counts.get(c.text.lower())
        if n is None:
            n = counts[c.text.lower()] = len(_occurrences(abstract_l, c.text.lower(), lower=abstract_l))
        f["count1"] = float(n <= 1)
        f["count2"] = float(n == 2)
        f["count3+"] = float(n >= 3)
        f["in_title"] = float(bool(title_end) and bool(key) and f" {key} " in f" {title_keys} ")
        f["title_and_cue"] = float(f["in_title"] and cue)
        f["title_slot"] = float(key in title_slots)
        f["title_slot_and_cue"] = float(key in title_slots and cue)
        f["repeated_and_cue"] = float(n >= 2 and cue)
        f["title_word_share"] = (sum(w in title_l for w in lw) / len(lw)) if title_end else 0.0
        sf = sent_cache.get(ss)
        if sf is None:
            sent = text[ss:se].lower()
            sf = sent_cache[ss] = (float(bool(_SENT_WE.search(sent))), float(bool(_SENT_PROPOSE.search(sent))))
        f["sent_we"], f["sent_propose"] = sf
        f["first_sentence"] = float(ss <= abs_start + 1)
        f["rules_proposed"] = float(rules_proposed)
        f["overlaps_rules"] = float(any(s < c.end and c.start < e for s, e in rule_ranges))
        f["name_elsewhere_rules"] = float(any(text[s:e].lower() == c.text.lower() for s, e in rule_ranges))


# ----------------------------------------------------------------------------- model

@lru_cache(maxsize=4)
def load_model(path: str = str(MODEL_PATH)) -> dict[str, Any]:
    """The shipped weights: ``{"features": [...], "weights": [...], "bias": b, "threshold": t}``."""
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def score(cands: list[Candidate], model: dict[str, Any]) -> None:
    """Set each candidate's probability (in place)."""
    w = model.get("_weight_map")
    if w is None:
        w = dict(zip(model["features"], model["weights"]))
    b = float(model["bias"])
    for c in cands:
        z = b
        for k, v in c.features.items():
            if v:
                z += w.get(k, 0.0) * v
        c.score = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def _never(c: Candidate) -> bool:
    """Phrases the annotation guidelines never make a method whatever the context: a stoplisted
    name ("ANN", "PyTorch"), a learning paradigm ("X learning", rule 4), a known task or topic."""
    f = c.features
    return bool(f.get("stoplisted") or f.get("last_learning") or f.get("known_topic"))


def select(text: str, cands: list[Candidate], rule_ranges: Sequence[tuple[int, int]],
           threshold: float) -> list[tuple[str, list[tuple[int, int]], float]]:
    """The names to add: the best candidate per cue above ``threshold``, none overlapping another
    chosen one or a rule span at any of its occurrences; ``[(name, occurrences, p), ...]``."""
    best: dict[int, Candidate] = {}
    for c in cands:
        if c.score < threshold or _never(c):
            continue
        cur = best.get(c.group)
        if cur is None or (c.score, -c.start, c.end) > (cur.score, -cur.start, cur.end):
            best[c.group] = c
    chosen: list[tuple[str, list[tuple[int, int]], float]] = []
    taken: list[tuple[int, int]] = list(rule_ranges)
    keys: set[str] = set()
    for c in sorted(best.values(), key=lambda c: (-c.score, c.start, c.end)):
        key = match_key(c.text)
        if not key or key in keys:
            continue
        occ = _occurrences(text, c.text)
        if not occ or any(s < e2 and s2 < e for s, e in occ for s2, e2 in taken):
            continue
        keys.add(key)
        taken.extend(occ)
        chosen.append((c.text, occ, round(c.score, 4)))
    chosen.sort(key=lambda t: t[1][0])
    return chosen


def rule_ranges_of(doc: Doc) -> list[tuple[int, int]]:
    """Character ranges of the spans the rules produced."""
    return [(s.start_char, s.end_char) for s in doc.spans.get(RULE_SPANS_KEY, ())]


def rules_proposed_in(doc: Doc) -> bool:
    """Whether the rules found a proposed name in the document (read from the entity
    component's per-document info, see :data:`extractors.entities.INFO_KEY`)."""
    info = doc.user_data.get(RULE_INFO_KEY) or {}
    return any(v and v[0] == PROPOSED for v in info.values())


def propose(text: str, rule_ranges: Sequence[tuple[int, int]], model: dict[str, Any],
            threshold: float | None = None, *,
            rules_proposed: bool = False) -> list[tuple[str, list[tuple[int, int]], float]]:
    """Candidates, features, scores and selection for one text (the component's work)."""
    cands = generate(text)
    if not cands:
        return []
    featurize(text, cands, rule_ranges, rules_proposed=rules_proposed)
    score(cands, model)
    return select(text, cands, rule_ranges, model["threshold"] if threshold is None else threshold)


class ProposalScorer:
    """spaCy component: learned proposals of the paper's own descriptive method name."""

    def __init__(self, nlp: Language, name: str = "paperkg_proposals", *, spans_key: str = SPANS_KEY,
                 model: str | None = None, threshold: float | None = None) -> None:
        self.name = name
        self.spans_key = spans_key
        loaded = load_model(model or str(MODEL_PATH))
        self.model = dict(loaded, _weight_map=dict(zip(loaded["features"], loaded["weights"])))
        self.threshold = float(self.model["threshold"] if threshold is None else threshold)

    def __call__(self, doc: Doc) -> Doc:
        items: list[tuple[str, list[tuple[int, int]], float]] = []
        if self.threshold < 1.0:  # no probability reaches 1 (the logit is clipped): nothing to add
            try:
                items = propose(doc_text(doc), rule_ranges_of(doc), self.model, self.threshold,
                                rules_proposed=rules_proposed_in(doc))
            except Exception:  # tolerant inside the pipeline: an odd text yields nothing
                items = []
        doc.user_data[ITEMS_KEY] = [[n, [list(o) for o in occ], p] for n, occ, p in items]
        spans = []
        for _n, occ, _p in items:
            for s, e in occ:
                span = doc.char_span(s, e, label=LABEL, alignment_mode="expand")
                if span is not None:
                    spans.append(span)
        doc.spans[self.spans_key] = spans
        return doc


@Language.factory("paperkg_proposals", default_config={"spans_key": SPANS_KEY, "model": None, "threshold": None},
                  assigns=["doc.spans"])
def make_proposals(nlp: Language, name: str, spans_key: str, model: str | None,
                   threshold: float | None) -> ProposalScorer:
    return ProposalScorer(nlp, name, spans_key=spans_key, model=model, threshold=threshold)


def entities_from_items(items: Iterable[Sequence[Any]], text: str) -> list[Entity]:
    """Entities from the plain items ``[[name, [[start, end], ...], p], ...]`` (offsets into ``text``)."""
    out = []
    for name, occ, _p in items:
        mentions = tuple(Mention(int(s), int(e), text[int(s):int(e)], RULE) for s, e in occ)
        aliases = tuple(sorted({m.text for m in mentions if m.text != name and match_key(m.text) != match_key(name)}))
        out.append(Entity(EntityType.METHOD, name, Role.PROPOSED, aliases, mentions))
    return out


def proposals_from_doc(doc: Doc) -> list[Entity]:
    """The component's proposed methods as :class:`kg.records.Entity` (offsets into the doc text;
    the pipeline maps them onto title and abstract)."""
    return entities_from_items(doc.user_data.get(ITEMS_KEY) or (), doc_text(doc))
