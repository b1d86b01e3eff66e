"""Research concepts (topics and tasks) of a paper, normalised so that two papers share a node.

Without a tagger or parser (the default pipeline is ``spacy.blank("en")``), candidate phrases
come from cheap rules in the spirit of RAKE (Rose, Engel, Cramer & Cowley 2010, "Automatic
keyword extraction from individual documents", in *Text Mining: Applications and Theory*):
stopwords and punctuation delimit phrases. paperkg keeps only phrases that end in a topical
head word (``learning``, ``classification``, ``estimation``, ``optimization``, ``models``...,
list in ``data/concepts_heads.txt``) preceded by one to three content words, plus task and topic
names matched as written (``data/concepts_tasks.txt``, derived from the shared ML gazetteer by
:func:`build_task_list`, and the hand-curated ``data/concepts_topics.txt``). So "strategic
classification", "tabular foundation models", "KV cache eviction", "zeroth-order Hessian
estimation" are found; "extensive experiments" or "our method" are not (no topical head, or
in ``data/concepts_generic_phrases.txt``).

With a trained pipeline (``doc.has_annotation("DEP")``) a phrase must also stay inside one of
``doc.noun_chunks``, which gives cleaner left boundaries.

Normalisation (:func:`concept_key`): accents and case folded, British spellings folded
(``optimisation``), the head put in the singular, hyphens and spaces removed, so "Zeroth-Order
optimisation" and "zeroth order optimizations" are one key. Acronyms are expanded with
``doc._.abbreviations`` when the abbreviation component ran (else with a small local
"long form (SHORT)" check), so "ZO Hessian estimation" after "Zeroth-Order (ZO)" is
"Zeroth-Order Hessian estimation", and a bare "FL" after "federated learning (FL)" is a
mention of "federated learning".

Output: ``doc.spans["paperkg_concepts"]`` (label ``CONCEPT``), ``span.kb_id_`` = canonical
name (also ``span._.concept_name``), ``span.id_`` = the rule that fired (``concept_head``,
``concept_core``, ``concept_task``, ``concept_topic``, ``concept_abbreviation``).
:func:`concepts_from_doc` gives :class:`kg.records.Entity` records; :func:`consolidate_concepts`
unifies them across a corpus.

Every pattern is compiled once at import, with bounded repetition, so time is linear in the
length of the text.
"""

from __future__ import annotations

import json
import re
import unicodedata
from bisect import bisect_right
from collections import Counter, defaultdict
from functools import lru_cache
from operator import itemgetter
from pathlib import Path
from typing import Callable, Iterable, Sequence

from spacy.attrs import IDX
from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span, SpanGroup
from spacy.tokens.underscore import Underscore

from extractors.abbreviations import doc_text, expand_to_tokens
from extractors.consolidate import with_extraction
from extractors.makers import make_entity
from kg.records import Entity, Mention, Record
from kg.schema import EntityType

#: Span label and default ``doc.spans`` key.
CONCEPT = "CONCEPT"
SPANS_KEY = "paperkg_concepts"

RULE_HEAD = "concept_head"
RULE_CORE = "concept_core"
RULE_TASK = "concept_task"
RULE_TOPIC = "concept_topic"
RULE_ABBREVIATION = "concept_abbreviation"
#: ``doc.user_data`` key: {spans_key: [(start_char, end_char, name, rule), ...]}, the spans as plain data.
ITEMS_KEY = "paperkg_concept_items"
_HEAD_LABEL = "paperkg_concept_head"
# When two rules find the same span, the first of these names it.
_RULE_RANK = {RULE_TOPIC: 0, RULE_TASK: 1, RULE_HEAD: 2, RULE_CORE: 3, RULE_ABBREVIATION: 4}

DATA = Path(__file__).resolve().parent / "data"
_MAX_MODIFIERS = 3
_MAX_WORD = 32

if not Span.has_extension("concept_name"):
    Span.set_extension("concept_name", getter=lambda span: span.kb_id_ or None)


def _read_list(name: str) -> list[str]:
    """Lines of a word list in ``data/``, without ``#`` comments and blank lines."""
    out = []
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


def _read_words(name: str) -> frozenset[str]:
    return frozenset(w.lower() for line in _read_list(name) for w in line.split())


STOPWORDS = _read_words("concepts_stopwords.txt")
GENERIC_MODIFIERS = _read_words("concepts_generic_modifiers.txt")
HEADS = tuple(_read_list("concepts_heads.txt"))
MODIFIER_WORDS = _read_words("concepts_modifier_words.txt")
#: Words after a head that make it part of a measurement ("generalization error"): no concept.
MEASURE_TAILS = frozenset("""error errors bound bounds gap gaps rate rates loss losses accuracy
cost costs ability abilities capability capabilities guarantee guarantees complexity
complexities performance score scores quality speed time efficiency""".split())
#: Prefixes that do not make a hyphenated head a concept on their own ("post-manipulation").
_WEAK_PREFIXES = frozenset("post pre non re co sub anti semi over under well ill".split())

_BRITISH = re.compile(r"isation|elling\b|defence|modelled|labelled")
_AMERICAN = {"isation": "ization", "elling": "eling", "defence": "defense", "modelled": "modeled",
             "labelled": "labeled"}
_NON_ALNUM = re.compile(r"[^0-9a-z]+")
_KEEP_S = ("ss", "us", "is", "ics", "ous", "sis", "ness")
#: Nouns ending in ``s`` that are the same in the singular ("time series", "k-means").
_INVARIANT = frozenset("series species means news lens chaos cosmos ethos pathos".split())
#: Model sizes ("13B", "1.5b", "70M"): not a modifier of a concept ("13B model").
_SIZE_WORD = re.compile(r"\d+(?:\.\d+)?[BbMmKkTt]")


@lru_cache(maxsize=1 << 16)
def _singular(word: str) -> str:
    """The singular of an English head noun (or acronym: ``LLMs`` -> ``LLM``).

    Examples
    --------
    >>> [_singular(w) for w in ["models", "strategies", "processes", "analyses", "dynamics", "LLMs", "series"]]
    ['model', 'strategy', 'process', 'analysis', 'dynamics', 'LLM', 'series']
    """
    lower = word.lower()
    if len(word) > 2 and word[-1] == "s" and word[:-1].isupper():
        return word[:-1]
    if len(lower) <= 3 or not lower.endswith("s") or lower.endswith(_KEEP_S):
        return word
    if lower.rsplit("-", 1)[-1] in _INVARIANT:
        return word
    if lower.endswith("ses") and lower.endswith(("lyses", "theses", "bases")):
        return word[:-2] + "is" if not lower.endswith("bases") else word[:-1]
    if lower.endswith("ies") and len(lower) > 4:
        return word[:-3] + "y"
    if lower.endswith(("sses", "xes", "ches", "shes", "zzes")):
        return word[:-2]
    return word[:-1]


def _fold(text: str) -> str:
    if text.isascii():
        text = text.lower()
    else:
        text = unicodedata.normalize("NFKD", text)
        text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return _BRITISH.sub(lambda m: _AMERICAN[m.group(0)], text)


@lru_cache(maxsize=1 << 16)
def concept_key(name: str) -> str:
    """The matching key of a concept name: folded, head in the singular, no spaces or hyphens.

    Examples
    --------
    >>> concept_key("Zeroth-Order Optimisation") == concept_key("zeroth order optimizations")
    True
    >>> concept_key("Tabular foundation models")
    'tabularfoundationmodel'
    """
    words = name.replace("‑", "-").split()
    if not words:
        return ""
    words[-1] = _singular(words[-1])
    return _NON_ALNUM.sub("", _fold(" ".join(words)))


GENERIC_KEYS = frozenset(concept_key(p) for p in _read_list("concepts_generic_phrases.txt"))
_HEAD_KEYS = frozenset(concept_key(h) for h in HEADS)



def _plurals(word: str) -> tuple[str, ...]:
    if word.endswith("y") and not word.endswith(("ay", "ey", "oy", "uy")):
        return (word, word[:-1] + "ies")
    if word.endswith(("s", "x", "ch", "sh")):
        return (word, word + "es")
    if word.endswith("sis"):
        return (word, word[:-2] + "es")
    return (word, word + "s")


#: Head words in lower case, singular and plural; hyphenated ones are matched by their last
#: part (the tokenizer splits hyphens) and rebuilt from the text ("fine-tuning").
HEAD_FORMS = frozenset(f for h in HEADS for f in _plurals(h.lower().split("-")[-1]))
# Text that must not be read as words: inline math, LaTeX commands, HTML tags, and
# parenthesised acronyms inside a phrase ("Zeroth-Order (ZO) Hessian estimation").
# Every branch starts with a literal character, so ``re`` skips ahead to those characters
# instead of trying each branch at every position (``\*\*{0,2}`` is ``\*{1,3}``).
_MASK = re.compile(r"\$[^$]{0,400}\$|\*\*{0,2}|\\[A-Za-z]{1,30}|<[^<>]{0,300}>|&[a-z]{2,8};|"
                   r"\((?P<acr>[A-Z][A-Za-z0-9\-]{0,9}[A-Z0-9]s?)\)")
_OTHER_SPACE = re.compile(r"[^\S ]")  # whitespace other than the space character
_WORD_OK = re.compile(r"[^\W_][\w\-‑'’]{0,40}")
_ACRONYM = re.compile(r"[A-Z][A-Za-z0-9\-]{0,9}[A-Z0-9]s?")
_QUICK = re.compile(r"[A-Za-z]{3}")
_ADVERB_ENDINGS = ("ally", "ely", "ily", "bly", "tly", "sly", "rly", "nly", "dly", "vely", "ously")
_NEXT_WORD = re.compile(r"[ \t]{1,5}([^\W_][\w\-‑]{0,40})")
_TOKEN_SPAN = itemgetter(0, 1)  # (start token, end token) of a found concept
_FIRST = itemgetter(0)
#: an enum member read once (``EntityType.CONCEPT`` costs ~0.2 µs a time on Python 3.11)
_CONCEPT_TYPE = EntityType.CONCEPT


@lru_cache(maxsize=1)
def _phrase_lists() -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(_read_list("concepts_tasks.txt")), tuple(_read_list("concepts_topics.txt"))


def _display_word(word: str, text: str, start: int, title_case: bool = False) -> str:
    """Lower-case a word unless it is an acronym or a proper adjective (``Hessian``).

    A capitalised word keeps its capital in mid-sentence, when it is not hyphenated and the
    phrase is not in title case ("Policy Optimization").
    """
    if word.islower():  # most words; ``str.lower`` changes no character of such a string
        return word
    rest = word[1:]
    if rest != rest.lower() and not ("-" in word and rest[:1].islower()):
        return word
    if word[:1].isupper() and not title_case and "-" not in word:
        before = text[max(0, start - 3):start]
        # a line break before it starts a new block (the abstract after the title)
        if "\n" not in before and before.rstrip() and before.rstrip()[-1] not in ".!?:\"'([{":
            return word
        # At a sentence start: keep the capital if the text writes the word so mid-sentence
        # and never in lower case ("Bayesian").
        if _capital_mid_sentence(word, text, start):
            return word
    return word.lower()


def _capital_mid_sentence(word: str, text: str, start: int) -> bool:
    """Does ``text`` write capitalised ``word`` mid-sentence elsewhere, and never in lower case?"""
    if (" " + word.lower()) in text:
        return False
    i = text.find(word)
    while i >= 0:
        if i != start and i >= 2 and text[i - 1] == " " and text[i - 2] not in ".!?:\n":
            return True
        i = text.find(word, i + 1)
    return False


def _initials_match(words: list[str], short: str) -> int:
    """How many trailing words spell ``short`` by initials (0 if none): ``Zeroth-Order`` = ZO.

    Examples
    --------
    >>> _initials_match(["we", "use", "Zeroth-Order"], "ZO"), _initials_match(["Graph", "of", "Thought"], "GoT")
    (1, 3)
    """
    letters = short.rstrip("s") if short[:-1].isupper() else short
    letters = "".join(c for c in letters if c.isalnum()).upper()
    every = content = ""  # initials of words[-k:], all parts / parts that are not stopwords
    for k in range(1, min(len(words), len(letters)) + 1):
        parts = [p for p in words[-k].replace("‑", "-").split("-") if p]
        every = "".join(p[0] for p in parts).upper() + every
        if every == letters:
            return k
        content = "".join(p[0] for p in parts if p.lower() not in STOPWORDS).upper() + content
        if content == letters:
            return k
    return 0


def _abbreviations_of(doc: Doc) -> object:
    """``doc._.abbreviations`` (None when no component registered it).

    A plain extension attribute (no getter or method) is read straight from
    ``doc.user_data``, where spaCy keeps it: ``doc._`` builds an accessor object per read.
    """
    ext = Doc.get_extension("abbreviations")
    if ext is None:
        return None
    default, method, getter, _setter = ext
    if method is None and getter is None and not isinstance(default, Underscore.mutable_types):
        return doc.user_data.get(("._.", "abbreviations", None, None), default)
    return doc._.abbreviations


def _local_abbreviations(masked: str, acronyms: list[tuple[int, int, str]]) -> dict[str, str]:
    """``long form (SHORT)`` pairs found next to each other, checked by initials only."""
    out: dict[str, str] = {}
    for start, _end, short in acronyms:
        words = masked[max(0, start - 160):start].split()[-(len(short) + 2):]
        clean: list[str] = []
        for w in reversed(words):
            if not _WORD_OK.fullmatch(w):
                break
            clean.insert(0, w)
        k = _initials_match(clean, short)
        if k:
            out.setdefault(short, " ".join(clean[-k:]))
    return out


class ConceptFinder:
    """Find concept phrases and store them in ``doc.spans[spans_key]``.

    Parameters
    ----------
    nlp : Language
        The pipeline (its tokenizer builds the task and topic patterns).
    name : str
        Component name.
    spans_key : str
        Key in ``doc.spans`` for the results.
    """

    def __init__(self, nlp: Language, name: str = "paperkg_concepts", *,
                 spans_key: str = SPANS_KEY) -> None:
        self.name = name
        self.spans_key = spans_key
        self.matcher = PhraseMatcher(nlp.vocab, attr="LOWER")
        tasks, topics = _phrase_lists()
        self.matcher.add(RULE_TASK, [nlp.make_doc(t) for t in tasks])
        self.matcher.add(RULE_TOPIC, [nlp.make_doc(t) for t in topics])
        self.matcher.add(_HEAD_LABEL, [nlp.make_doc(h) for h in sorted(HEAD_FORMS)])
        self._head_id = nlp.vocab.strings[_HEAD_LABEL]
        self._rules = {nlp.vocab.strings[r]: r for r in (RULE_TASK, RULE_TOPIC)}
        #: False: only the plain items in ``doc.user_data`` (see :meth:`__call__`), no
        #: ``doc.spans``; :func:`extractors.pipeline.extract_raw` sets it while it runs, as it
        #: reads the items only and its Docs never leave it.
        self.make_spans = True

    def __call__(self, doc: Doc) -> Doc:
        found: list[tuple[int, int, int, int, str, str]] = []
        text = doc_text(doc)
        if text and _QUICK.search(text):
            found = self._find(doc, text)
        if self.make_spans:
            spans = [Span(doc, ts, te, label=CONCEPT, kb_id=name, span_id=rule)
                     for ts, te, _s, _e, name, rule in found]
            doc.spans[self.spans_key] = SpanGroup(doc, name=self.spans_key, spans=spans)
        # the same, as plain data, for extract_raw (reading Span attributes back is slow)
        doc.user_data.setdefault(ITEMS_KEY, {})[self.spans_key] = [f[2:] for f in found]
        return doc

    # -- internals -------------------------------------------------------------------------
    def _find(self, doc: Doc, text: str) -> list[tuple[int, int, int, int, str, str]]:
        """Each concept span as (start token, end token, start_char, end_char, name, rule), in
        token order; the offsets are those of ``doc.char_span(..., alignment_mode="expand")``."""
        acronyms: list[tuple[int, int, str]] = []

        def blank(m: re.Match[str]) -> str:
            if m.group("acr"):
                acronyms.append((m.start(), m.end(), m.group("acr")))
            return " " * (m.end() - m.start())

        masked = _MASK.sub(blank, text)
        # ``masked`` with every whitespace character a plain space, for ``str.rfind``
        spaced = masked.replace("\n", " ")  # the title/abstract break: no text is printable with it
        if not spaced.isprintable():  # every other whitespace character but " " is not printable
            spaced = _OTHER_SPACE.sub(" ", masked)
        abbr = _local_abbreviations(masked, acronyms)
        ext = _abbreviations_of(doc)
        if isinstance(ext, dict):
            abbr.update({k: v for k, v in ext.items() if isinstance(k, str) and isinstance(v, str)})
        bounds = None
        # ``has_annotation`` scans every token; a parsed Doc has a dependency on its first.
        if len(doc) and doc[0].dep != 0:
            bounds = [(c.start_char, c.end_char) for c in doc.noun_chunks]

        # (start, end, display name, rule)
        found: list[tuple[int, int, str, str]] = []
        n = len(masked)
        matches = self.matcher(doc)
        # the tokens' start offsets: one C call, not a Token per match or span
        starts = doc.to_array(IDX).tolist() if matches else []
        n_starts = len(starts)
        head_id = self._head_id
        for match_id, s, e in matches:
            if match_id == head_id:
                # a head word ends where the next token starts, or before the one space between
                # them (a head is a word: no token of white space)
                hs = starts[s]
                he = starts[s + 1] if s + 1 < n_starts else n
                if text[he - 1] == " ":
                    he -= 1
                if he >= n or masked[he] not in "-‑":
                    found.extend(self._head_candidates(text, masked, spaced, hs, he, abbr, bounds))
                continue
            span = doc[s:e]
            title_case = span[-1].text[:1].isupper()
            display = "".join(_display_word(t.text, text, t.idx, title_case) + t.whitespace_
                              for t in span)
            display_words = display.split()
            display_words[-1] = _singular(display_words[-1])
            found.append((span.start_char, span.end_char, " ".join(display_words),
                          self._rules[match_id]))

        by_key: dict[str, list[tuple[int, int, str, str]]] = defaultdict(list)
        for cand in found:
            key = concept_key(cand[2])
            if key and key not in GENERIC_KEYS and key not in _HEAD_KEYS:
                by_key[key].append(cand)
        # Bare short forms of a concept's long form are mentions of it ("FL").
        for short, long in abbr.items():
            key = concept_key(long)
            if key in by_key and len(short) >= 2:
                for s in _find_word(text, short):
                    by_key[key].append((s, s + len(short), by_key[key][0][2], RULE_ABBREVIATION))

        made: list[tuple[int, int, int, int, str, str]] = []
        seen: set[tuple[int, int, str]] = set()
        n_text = len(text)
        for key, cands in by_key.items():
            if len(cands) == 1:  # most concepts: one mention, never an abbreviation alone
                name = cands[0][2]
            else:
                cands.sort(key=lambda c: _RULE_RANK.get(c[3], 9))
                name = _choose_name([c[2] for c in cands if c[3] != RULE_ABBREVIATION])
            for start, end, _display, rule in cands:
                if (start, end, key) in seen:
                    continue
                seen.add((start, end, key))
                if 0 <= start < end <= n_text and not text[start].isspace() and not text[end - 1].isspace():
                    # expand_to_tokens, inline (it runs for every concept)
                    ts = bisect_right(starts, start) - 1
                    te = bisect_right(starts, end - 1)
                    stop = starts[te] if te < n_starts else n_text
                    if text[stop - 1] == " ":
                        stop -= 1
                    made.append((ts, te, starts[ts], stop, name, rule))
                    continue
                span = doc.char_span(start, end, alignment_mode="expand")  # an edge on white space
                if span is not None:
                    made.append((span.start, span.end, span.start_char, span.end_char, name, rule))
        made.sort(key=_TOKEN_SPAN)  # stable: equal spans keep their order
        return made

    def _head_candidates(self, text: str, masked: str, spaced: str, hs: int, he: int, abbr: dict[str, str],
                         bounds: list[tuple[int, int]] | None) -> list[tuple[int, int, str, str]]:
        lo = 0
        if bounds is not None:
            inside = [b for b in bounds if b[0] <= hs and he <= b[1]]
            if not inside:
                return []
            lo = inside[0][0]
        # What follows decides whether this head ends a phrase: a following head word means
        # it is a modifier ("reasoning models"), a measurement word that it is part of a
        # measure ("generalization error").
        nxt = _NEXT_WORD.match(masked, he)
        if nxt:
            following = nxt.group(1).lower()
            if following in MEASURE_TAILS or following in HEAD_FORMS:
                return []
        # The head word may be the end of a hyphenated compound ("meta-learning").
        ws = hs
        if ws > lo and masked[ws - 1] in "-‑":
            k = ws - 1
            while k > lo and not masked[k - 1].isspace() and hs - k <= _MAX_WORD:
                k -= 1
            if _WORD_OK.fullmatch(masked[k:hs - 1]):
                ws = k
        compound = ws < hs
        # Up to three modifiers before it, stopping at punctuation, stopwords, adverbs, verb
        # forms and evaluative words ("novel", "efficient").
        mods: list[tuple[int, str]] = []
        pos = ws
        while len(mods) < _MAX_MODIFIERS and pos > lo and spaced[pos - 1] == " ":
            j = pos - 1
            while j > lo and spaced[j - 1] == " ":
                j -= 1
            # a phrase does not cross a line break (title / abstract); one space is the usual gap
            if masked[j] == "\n" if j == pos - 1 else "\n" in masked[j:pos]:
                break
            # the word ending at j: back to the previous space, at most _MAX_WORD + 1 characters
            bound = j - _MAX_WORD - 1
            if bound < lo:
                bound = lo
            k = spaced.rfind(" ", bound, j) + 1 or bound
            word = masked[k:j]
            if not _modifier_ok(word) or (k > lo and spaced[k - 1] != " "):
                break
            # "-ing" words are nouns before a noun ("learning rate") but verbs before an
            # adjective ("training large language models"): stop at one not followed by a head
            # word, unless it stands right before the head.
            if (mods and word[-3:].lower() == "ing" and _last_part(word) in _VERBISH_ING
                    and _last_part(mods[0][1]) not in HEAD_FORMS):
                break
            mods.insert(0, (k, word))
            pos = k
        if not mods:
            prefix = masked[ws:hs - 1].lower() if compound else ""
            if not prefix or prefix in _WEAK_PREFIXES or prefix in STOPWORDS or len(prefix) < 3:
                return []
        start = mods[0][0] if mods else ws
        head_text = text[hs:he]
        title_case = head_text[:1].isupper()
        words: list[str] = []
        for k, word in mods:
            long = (abbr.get(word) or (abbr.get(word[:-1]) if word.endswith("s") else None)) if abbr else None
            if long:
                words.extend(_display_word(w, text, k, True) for w in long.split())
            else:  # _display_word's own first test, inline: most modifiers are lower-case words
                words.append(word if word.islower() else _display_word(word, text, k, title_case))
        head = text[ws:he].lower()
        words.append(_singular(head))
        out = [(start, he, " ".join(words), RULE_HEAD)]
        # The last modifier and the head as a shorter concept ("policy optimization" inside
        # "proximal policy optimization"), unless the word before them is a capitalised name
        # that belongs to the whole compound ("Markov decision process", "Monte Carlo estimation").
        if len(mods) >= 2 and not (mods[-2][1][:1].isupper() and not title_case
                                   and not mods[-2][1].isupper()
                                   and _display_word(mods[-2][1], text, mods[-2][0]) != mods[-2][1].lower()):
            out.append((mods[-1][0], he, " ".join(words[-2:]), RULE_CORE))
        return out


#: "-ing" words that are verbs when an adjective follows ("training large models").
_VERB_ING = frozenset("training fine-tuning finetuning pretraining pre-training using applying "
                      "building designing developing improving understanding scaling deploying "
                      "evaluating aligning adapting learning".split())
_VERBISH_ING = frozenset(w for w in HEAD_FORMS | _VERB_ING if w.endswith("ing"))


def _last_part(word: str) -> str:
    return word.lower().replace("‑", "-").rsplit("-", 1)[-1]


@lru_cache(maxsize=1 << 16)
def _modifier_ok(word: str) -> bool:
    """May ``word`` stand before a head inside a concept phrase?"""
    low = word.lower()
    if (not word or len(word) > _MAX_WORD or not _WORD_OK.fullmatch(word) or word[-1] in "-‑'’"
            or low in STOPWORDS or low in GENERIC_MODIFIERS or word.isdigit() or _SIZE_WORD.fullmatch(word)):
        return False
    if "-" in low or "‑" in low:
        return True
    # English compounds take singular modifiers: a plural-looking word before the head is
    # usually a verb or a subject ("agents game", "optimization needs").
    if low.endswith("s") and not low.endswith(_KEEP_S) and word[:-1].islower():
        return False
    if low.endswith(_ADVERB_ENDINGS) or low.endswith(("ing", "ed")):
        return low in MODIFIER_WORDS or (low in HEAD_FORMS and low.endswith("ing"))
    return True


def _find_word(text: str, word: str) -> list[int]:
    """Start offsets of ``word`` in ``text`` as a whole word (no letter or digit either side)."""
    out = []
    i = text.find(word)
    while i >= 0:
        before = text[i - 1] if i else " "
        j = i + len(word)
        after = text[j] if j < len(text) else " "
        if not before.isalnum() and not after.isalnum():
            out.append(i)
        i = text.find(word, j)
    return out


def _choose_counted(counts: dict[str, int]) -> str:
    """:func:`_choose_name` of the names counted in ``counts`` (each count at least 1): the
    same answer, since no two names tie on (count, capitals kept, name)."""
    if len(counts) == 1:
        return next(iter(counts))
    return max(counts, key=lambda n: (counts[n], n != n.lower(), n))


def _choose_name(names: Iterable[str]) -> str:
    """The most frequent spelling; ties go to the one with more capitals kept (``Hessian``)."""
    names = names if isinstance(names, list) else list(names)
    if not names:
        return ""
    first = names[0]
    if all(n == first for n in names):  # the usual case: one spelling
        return first
    counts = Counter(names)
    return max(counts, key=lambda n: (counts[n], n != n.lower(), n))


@Language.factory("paperkg_concepts", default_config={"spans_key": SPANS_KEY},
                  assigns=["doc.spans"])
def make_concepts(nlp: Language, name: str, spans_key: str) -> ConceptFinder:
    """spaCy factory of :class:`ConceptFinder`."""
    return ConceptFinder(nlp, name, spans_key=spans_key)


def concepts_from_doc(doc: Doc, *, spans_key: str = SPANS_KEY,
                      field: str = "abstract") -> list[Entity]:
    """Plain concept entities (type ``concept``, role None) from a processed Doc.

    One entity per canonical key, in order of first mention; ``aliases`` are the other
    surface forms seen (short forms included); each mention keeps its rule.

    Parameters
    ----------
    doc : Doc
        A Doc that went through ``paperkg_concepts``.
    spans_key : str
        Where the component stored its spans.
    field : str
        ``"abstract"`` or ``"title"``: which record field the Doc's text is.
    """
    items = [(s.start_char, s.end_char, s.kb_id_, s.id_) for s in doc.spans.get(spans_key, ())]
    return entities_from_items(items, doc_text(doc), lambda s, e, t, r: Mention(s, e, t, r, field))


def entities_from_items(items: Iterable[Sequence], text: str,
                        mention: Callable[[int, int, str, str], Mention | None]) -> list[Entity]:
    """:func:`concepts_from_doc` on plain ``(start_char, end_char, name, rule)`` items.

    The component keeps its spans as such items in ``doc.user_data[ITEMS_KEY][spans_key]``;
    :func:`extractors.pipeline.extract_raw` reads them from there (reading Span attributes
    back costs more than finding the concepts). ``mention(start, end, text, rule)`` makes
    each mention (None drops it), so a caller maps offsets to a record field in the same pass.
    Entities are ordered by their first mention in ``text``, mentions by (start, end, rule).

    Examples
    --------
    >>> [e.name for e in entities_from_items([(9, 27, "federated learning", "concept_topic")],
    ...                                      "We study federated learning.", lambda *m: Mention(*m))]
    ['federated learning']
    """
    concept = _CONCEPT_TYPE
    groups: dict[str, list[Sequence]] = {}
    for item in items:
        if item[2]:
            groups.setdefault(concept_key(item[2]), []).append(item)
    out = []
    for group in groups.values():
        name = group[0][2]
        if len(group) == 1:  # most concepts: one mention (the same as below, without the sets)
            s, e, _n, r = group[0]
            m = mention(s, e, text[s:e], r)
            if m is not None:
                out.append((s, make_entity(concept, name, None, () if m.text == name else (m.text,), (m,))))
            continue
        spots = sorted({(s, e, r) for s, e, _n, r in group})  # (start, end, rule) each once
        mentions = tuple(m for m in (mention(s, e, text[s:e], r) for s, e, r in spots) if m is not None)
        aliases = tuple(sorted({m.text for m in mentions} - {name}))  # only spellings with evidence
        if mentions:  # a phrase across the title/abstract boundary has no evidence: no entity
            out.append((spots[0][0], make_entity(concept, name, None, aliases, mentions)))
    out.sort(key=_FIRST)
    return [x[1] for x in out]


# -- corpus level ------------------------------------------------------------------------------

_STRONG_RULES = frozenset({RULE_TASK, RULE_TOPIC, RULE_ABBREVIATION})


def consolidate_concepts(records: Sequence[Record], *, min_papers: int | None = None,
                         auto_min_corpus: int = 20) -> list[Record]:
    """Unify concepts across a corpus and keep those useful for linking papers.

    - Concepts with the same :func:`concept_key` become one entity with one name (the most
      frequent spelling in the corpus) and the union of aliases in each paper.
    - An acronym defined in one paper (``federated learning (FL)``) expands it in papers that
      use it without defining it (``FL aggregation`` -> ``federated learning aggregation``),
      when the corpus gives it one long form only.
    - Generic phrases (``data/concepts_generic_phrases.txt``) are dropped.
    - A concept found only as the shorter "core" of a longer phrase (``fitted network`` from
      ``prior-data fitted network``) is kept only when another paper or the task and topic
      lists support it.
    - When the corpus has at least ``auto_min_corpus`` papers (or ``min_papers`` is given), a
      concept in fewer than ``min_papers`` (default 2) papers is dropped unless it is strong
      in its paper: in the title, from the task/topic lists, defined with an acronym, or
      mentioned at least twice. A single-paper corpus keeps its concepts.

    Other entity types are left untouched.

    Parameters
    ----------
    records : Sequence[Record]
        Records after per-document extraction.
    min_papers : int, optional
        Paper count under which a weak concept is dropped; None chooses by corpus size.
    auto_min_corpus : int
        Corpus size from which ``min_papers`` defaults to 2.

    Returns
    -------
    list[Record]
        The records, in the same order, with their concept entities replaced.
    """
    if min_papers is None:
        min_papers = 2 if len(records) >= auto_min_corpus else 1
    tasks, topics = _phrase_lists()
    known = {concept_key(p) for p in (*tasks, *topics)}

    # Corpus acronym map: short form -> long concept words, only when unambiguous.
    acr_long: dict[str, set[str]] = defaultdict(set)
    for rec in records:
        for ent in rec.entities:
            if ent.type is not EntityType.CONCEPT:
                continue
            for m in ent.mentions:
                if m.rule == RULE_ABBREVIATION:
                    acr_long[m.text].add(ent.name)
    acr = {s: next(iter(ls)) for s, ls in acr_long.items() if len(ls) == 1}

    expanded: dict[str, str] = {}  # expand()'s answers: a corpus repeats its concept names

    def expand(name: str) -> str:
        out = expanded.get(name)
        if out is None:
            out = expanded[name] = _expand(name)
        return out

    def _expand(name: str) -> str:
        words = name.split()
        if not any(w in acr or w.rstrip("s") in acr for w in words[:-1]):
            return name
        out: list[str] = []
        for w in words[:-1]:
            long = acr.get(w) or acr.get(w.rstrip("s"))
            out.extend(long.split() if long else [w])
        for w in words[-1:]:
            # "TD learning" -> "temporal difference learning", not "... learning learning"
            if not (out and out[-1].lower() == w.lower()):
                out.append(w)
        return " ".join(out)

    # Pass 1: per paper, concept key -> (names, mentions); corpus statistics.
    # (plain dicts of counts, not Counters: ``Counter.__missing__`` and ``update`` are Python code)
    per_paper: list[dict[str, tuple[list[str], list[Mention], set[str]]]] = []
    df: dict[str, int] = {}
    full_df: dict[str, int] = {}
    names: dict[str, dict[str, int]] = {}
    concept = EntityType.CONCEPT
    for rec in records:
        mine: dict[str, tuple[list[str], list[Mention], set[str]]] = {}
        for ent in rec.entities:
            if ent.type is not concept:
                continue
            name = expand(ent.name)
            key = concept_key(name)
            if not key or key in GENERIC_KEYS or key in _HEAD_KEYS:
                continue
            slot = mine.get(key)
            if slot is None:
                slot = mine[key] = ([], [], set())
            slot[0].append(name)
            slot[1].extend(ent.mentions)
            if ent.aliases:
                slot[2].update(ent.aliases)
        for key, (ns, ms, _a) in mine.items():
            df[key] = df.get(key, 0) + 1
            if any(m.rule != RULE_CORE for m in ms):
                full_df[key] = full_df.get(key, 0) + 1
            counts = names.get(key)
            if counts is None:
                counts = names[key] = {}
            for n in ns:
                counts[n] = counts.get(n, 0) + 1
        per_paper.append(mine)

    def keep(key: str, mentions: list[Mention]) -> bool:
        rules = {m.rule for m in mentions}
        if rules == {RULE_CORE} and key not in known and df[key] < 2:
            return False
        if rules == {RULE_CORE} and key not in known and full_df.get(key, 0) == 0 and df[key] < 3:
            return False
        if df[key] >= min_papers:
            return True
        return bool(rules & _STRONG_RULES or key in known
                    or any(m.field == "title" for m in mentions)
                    or len({(m.start, m.field) for m in mentions}) >= 2)

    canonical = {key: _choose_counted(c) for key, c in names.items()}
    out: list[Record] = []
    for rec, mine in zip(records, per_paper):
        if not mine and isinstance(rec.entities, tuple) and not any(e.type is concept for e in rec.entities):
            out.append(rec)  # no concept to replace: the record as it is (replace() made an equal copy)
            continue
        concepts = []
        for key, (_ns, ms, aliases) in mine.items():
            if not keep(key, ms):
                continue
            name = canonical[key]
            if len(ms) == 1:  # most concepts: one mention, so nothing to de-duplicate or sort
                mentions: tuple[Mention, ...] = (ms[0],)
            else:
                mentions = tuple(sorted(set(ms), key=lambda m: (m.field != "title", m.start, m.end, m.rule)))
            al = tuple(sorted((aliases | {m.text for m in mentions} | set(_ns)) - {name}))
            concepts.append(make_entity(concept, name, None, al, mentions))
        concepts.sort(key=lambda e: (e.mentions[0].field != "title", e.mentions[0].start)
                      if e.mentions else (True, 0))
        others = [e for e in rec.entities if e.type is not concept]
        out.append(with_extraction(rec, others + concepts, rec.citations))
    return out


# -- data build --------------------------------------------------------------------------------

_TASK_TRAILERS = frozenset("""task tasks problem problems literature papers paper benchmark
benchmarks dataset datasets data systems system experiments research setting purpose
competition challenge solutions tests test performance accuracy api algorithms scenarios signal
loss architecture technology subnets applications process evaluation tools approaches methods
results models model tracker trackers detector detectors""".split())
_TASK_LEADERS = frozenset("""accurate fast high evaluating enhanced automated automatic general
generic hard downstream initial full current flagship explicit example-based deep the a""".split())
_TASK_SINGLE = frozenset({"summarization", "super-resolution", "denoising", "disentanglement",
                          "coreference", "supertagging"})


def build_task_list(gazetteer: Path, out: Path | None = None) -> list[str]:
    """Derive ``data/concepts_tasks.txt`` from ``ml-gazetteer/gazetteer.jsonl`` (TASK entries).

    Keeps names and variants of two to five words without digits or brackets, drops those
    ending in a container word ("... task", "... benchmarks") or starting with an evaluative
    one ("accurate ...", "fast ..."), plus a few distinctive one-word tasks.

    Parameters
    ----------
    gazetteer : Path
        The shared ``gazetteer.jsonl``.
    out : Path, optional
        Where to write the list (one a line, sorted); nothing is written when None.
    """
    names: set[str] = set()
    with open(gazetteer, encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            if d.get("type") != "TASK":
                continue
            for n in [d["name"], *d.get("variants", [])]:
                n = " ".join(n.lower().split())
                words = n.split()
                if len(words) == 1:
                    if n in _TASK_SINGLE:
                        names.add(n)
                    continue
                if (len(words) > 5 or re.search(r"[\d()/’',:;]", n) or words[-1] in _TASK_TRAILERS
                        or words[0] in _TASK_LEADERS or words[-1] in STOPWORDS
                        or concept_key(n) in GENERIC_KEYS):
                    continue
                names.add(n)
    result = sorted(names)
    if out is not None:
        header = ("# Task names derived from shared/data/ml-gazetteer/gazetteer.jsonl (TASK) by\n"
                  "# extractors.concepts.build_task_list; regenerate with\n"
                  "# python -m extractors.concepts GAZETTEER.jsonl\n")
        Path(out).write_text(header + "\n".join(result) + "\n", encoding="utf-8")
    return result


if __name__ == "__main__":  # pragma: no cover - data build
    import sys

    if len(sys.argv) != 2:
        sys.exit("usage: python -m extractors.concepts PATH/TO/gazetteer.jsonl")
    print(len(build_task_list(Path(sys.argv[1]), DATA / "concepts_tasks.txt")), "task names")
