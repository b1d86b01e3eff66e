"""The paper's own names that no rule typed: a small learned classifier over clean candidates.

The rules of :mod:`extractors.entities` know the proposal cues they were written for; a name
defined with an acronym and no cue they know ("Gradient Information Optimization (GIO)") or a
coined token ("HyperT5", "MO-PBT", "NINCO") is left untyped. The same surface kinds are often not
the paper's own (a defined task "Indirect Object Identification (IOI)", a metric, a setting, a
cited method), so the decision is learned from annotated abstracts rather than written as rules.

The component ``paperkg_learned`` runs after ``paperkg_entities`` and

1. **generates candidates** the rules left alone: every abbreviation definition of the document
   (:mod:`extractors.abbreviations`; Schwartz & Hearst 2003) none of whose occurrences a rule span
   overlaps, and the coined tokens the rules saw but did not type
   (``doc.user_data[CANDIDATES_KEY]``: internal capitals, letters and digits, hyphenated
   capitals, all-capitals words), each with every occurrence in the text;
2. **classifies** each into ``none``, ``method/proposed``, ``method/used``,
   ``benchmark/proposed`` or ``benchmark/used`` with a multinomial logistic regression over
   hand-designed features (:func:`features`: word shapes, the long form's head noun, proposal,
   naming, comparison and data cue words around the first occurrence and their distance, title
   occurrence, repetitions, position, gazetteer membership, the words right before and after
   the name, how the paper goes on to use it (a later sentence that starts with it, results
   reported right after it: "X outperforms ...") and whether the guard of step 3 keeps it out),
   trained by ``bench/train_learned.py`` on the silver batches
   (``tests/gold/silver/``) and shipped as ``extractors/data/learned_model.json``;
3. **adds** an untyped candidate whose most likely non-``none`` class is a ``proposed`` one and
   passes that class's threshold (chosen by the training script on out-of-fold predictions of the
   silver batches), unless a guard the rules also apply says otherwise (the name is described as
   existing work, named as a metric/task/setting, or is a compound like "RL-training"), as spans
   of ``doc.spans["paperkg_entities"]`` for every occurrence, with rule ``learned``, the type of
   the class, and the long form as canonical name (the acronym is then an alias):
   :func:`extractors.entities.entities_from_doc` reads them like the rules' spans.

4. **extends** a rule's name found inside a longer annotated name ("importance sampling" in
   "adaptive importance sampling", "Transformer" and "Hawkes process" in "Transformer Hawkes
   process", "Sinkhorn" in "Sinkhorn divergences"): every rule span grown by one or two
   neighbouring words of its sentence (:func:`extensions`: content words only, joined by a space
   or a hyphen, never across punctuation, never cutting another rule span) is a candidate of a
   second, separate model (:func:`extension_features`, ``Model.extend``); where ``1 - P(none)``
   passes its threshold ``extend``, the extended span replaces the rule spans inside it at every
   occurrence of the extended text (rule ``learned-extended``; the rules' role; a type the rules
   gave the same name elsewhere, or the inner name's group when it had an acronym, which is then
   renamed so that "Statistical Rejection Sampling Optimization (RSO)" stays one entity). The
   training script ships the threshold only when it is better out of fold on the silver batches
   *and* on the development gold; otherwise the extension model is kept for measuring but off.

5. **names descriptive phrases** the paper gives its contribution with no acronym and no coined
   token ("we propose stochastic frame averaging", "a novel algorithm --- expertise trees ---",
   "*outer momentum clipping*", "two components: dual focal loss and ..."): :func:`phrases` takes
   every run of 1-7 content words right after a proposal or naming cue word (a few determiners and
   novelty adjectives may come between), before ", a/an ..." in its sentence, after a list opener
   (":", " - ", "(i)"), inside emphasis or quotes, and every run of the title's words that recurs in
   the abstract; never across punctuation, never touching a rule span, never a generic head alone
   ("method", "framework"), a head the guidelines never label ("metric", "problem") or a long form
   defined right after ("X (ABC)", the abbreviations' business). Every prefix of a run is a
   candidate (the run cannot tell a name from the verb after it), one per lower-cased surface. A
   third model (:func:`phrase_features`: the cues and what was skipped, length, case, head noun,
   the token after, repetition, title, gazetteer, the sentence's cue words; ``Model.phrase``)
   classifies them; the most probable phrase of a proposed class passing ``thresholds["phrase"]``
   is added at every occurrence (rule ``learned-phrase``, role ``proposed``), most probable first,
   no two overlapping. The training script ships the threshold only when it is better out of
   fold on the silver batches *and* on the development gold.

6. **filters used names** by their context: every name the rules or the gazetteer give with role
   ``used`` everywhere in the paper (:func:`used_candidates`, one per canonical name, the
   gazetteer's names included) is a candidate of a fourth, binary model (``Model.used``, classes
   :data:`USED_CLASSES`) over :func:`used_features`: who found it (the rules, the gazetteer entry's
   source, an entry of the other type), its shape (capitals, digits, one common English word,
   words, a plural), its head noun and its name (word identities), repetition, title and position,
   and what surrounds its occurrences: comparison and baseline cues ("outperforms", "than X",
   "baselines"), examples ("e.g.", "such as", "including"), use ("use/apply/build on/with"),
   study ("we analyze", "the dynamics of"), evaluation ("on X"), existing-work adjectives, a list
   with other names, parentheses, an acronym definition, a modifier use ("ReLU networks",
   "Transformer-based"), the authors' and proposal cues of its sentence, a proposed name nearby.
   Where ``P(keep)`` is below ``thresholds["keep"]`` every span of the name is dropped. The
   training script builds the examples of each silver fold with a gazetteer mined from the other
   folds only (no fold's labels reach its own features) and ships the threshold only when it is
   better out of fold on the silver batches *and* on the development gold; the ninth session's
   filter ships off (threshold 0): at every cut-off it dropped about as many right names as wrong
   ones, on both. With it off no feature is computed, so it costs nothing.

Every model is trained without gazetteer leakage: the shipped gazetteer holds names mined from
every silver batch, so ``bench/train_learned.py`` computes each silver fold's candidates, rule
spans and features with a gazetteer mined from the other folds only (as on a new abstract, whose
names the gazetteer has never mined), trains the shipped models on the union of those
out-of-fold examples and chooses every threshold out of fold the same way.

7. **promotes** a name the rules typed ``used`` (not one only the gazetteer found) to the role
   ``proposed`` when the main model's most likely class is the proposed class of the same type and
   passes ``thresholds["promote:<class>"]`` (component config ``promote``, on; it acts only when the
   model has such a threshold): the rules give a defined long form the role ``used`` unless a cue
   they know says otherwise ("Causal Proxy Model (CPM)" of the paper's own system). Only the role
   changes, never the type, and no name is dropped; the rules' evidence is kept. The training script
   chooses the threshold as shipped (untyped names added, nothing else changed) out of fold on the
   silver batches and ships it only when the proposed-name F1 is higher and its precision not lower
   there *and* on the development gold.

Two more decisions are measured but off by default (component config): ``add_used`` adds
untyped names as ``used`` (neutral on the development gold), and ``change_rules`` lets the model
change the class of a name the rules typed, or drop it, when it is confident (better on the silver
batches out of fold and on the validation splits, but it overrules the hand-written expectations
of the rules' unit tests on one-sentence texts; the lead decides). Names only the gazetteer found
are never candidates (changing them lost as many right names as it fixed, on silver).

The component keeps no state between documents; what it adds is in ``doc.spans`` and
``doc.user_data`` (plain lists and strings), so it survives ``nlp.pipe(..., n_process=2)``.
"""

from __future__ import annotations

import json
import math
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Iterable, Sequence

from spacy.language import Language
from spacy.tokens import Doc

from extractors import BENCHMARK, METHOD
from extractors.abbreviations import DEFS_KEY, clean_view, doc_text
from extractors.entities import CANDIDATES_KEY, INFO_KEY, PLAIN_SPANS_KEY, PROPOSED, SPANS_KEY, USED
from extractors.gazetteer import Gazetteer, entity_key, load_gazetteer

DATA = Path(__file__).resolve().parent / "data"
MODEL_PATH = DATA / "learned_model.json"

#: The rule name of the mentions this component adds.
RULE = "learned"
#: The rule name of a mention a rule found and this component extended ("adaptive" + "importance sampling").
EXTENDED_RULE = "learned-extended"
#: The extension model's threshold key.
EXTEND = "extend"
#: The rule name of a descriptive phrase this component adds ("stochastic frame averaging").
PHRASE_RULE = "learned-phrase"
#: The phrase model's threshold key.
PHRASE = "phrase"
#: The prefix of the role promotion's threshold keys (``promote:method/proposed``, ``promote:benchmark/proposed``).
PROMOTE = "promote:"
#: The classes, in the model's order; ``none`` first.
CLASSES = ("none", "method/proposed", "method/used", "benchmark/proposed", "benchmark/used")
#: Between title and abstract in the pipeline's joined text (:data:`extractors.pipeline.SEPARATOR`).
_SEPARATOR = "\n\n"
#: Characters of context read on each side of a candidate's first occurrence (within its sentence).
_WINDOW = 300
#: Longest long form or token considered, in characters (a 1 MB abstract stays linear).
_MAX_NAME = 80
#: Most candidates classified per document (definitions first, then tokens in text order).
_MAX_CANDIDATES = 40


def _inflect(*stems: str) -> tuple[str, ...]:
    """A verb's forms: "propos" + e/es/ed/ing, "present" + ""/s/ed/ing."""
    out = []
    for stem in stems:
        if stem.endswith("e"):
            out += [stem, stem + "s", stem + "d", stem[:-1] + "ing"]
        else:
            out += [stem, stem + "s", stem + "ed", stem + "ing"]
    return tuple(out)


#: Cue words by kind, looked up word by word (a regular expression of all of them, tried at
#: every position of the sentence, cost more than the rest of the features together).
_CUE_WORDS: dict[str, str] = {}
for _kind, _words in (
        ("propose", _inflect("propose", "introduce", "present", "develop", "design", "devise", "construct",
                             "create", "formulate", "establish", "offer", "release", "curate", "collect",
                             "contribute") + ("build", "builds", "built", "building")),
        ("we", ("we", "our", "here")),
        ("naming", ("called", "named", "dubbed", "termed", "coined", "namely", "denoted")),
        ("novel", ("novel", "new", "first", "simple", "efficient", "effective", "unified", "general", "principled")),
        ("bench", ("dataset", "datasets", "benchmark", "benchmarks", "corpus", "corpora", "suite", "suites",
                   "collection", "collections", "testbed", "testbeds", "leaderboard", "leaderboards", "data")),
        ("none", ("task", "tasks", "problem", "problems", "setting", "settings", "metric", "metrics", "score",
                  "scores", "measure", "measures", "assumption", "assumptions", "condition", "conditions",
                  "hypothesis", "hypotheses", "phenomenon", "phenomena", "property", "properties", "principle",
                  "principles", "paradigm", "paradigms", "regime", "regimes", "criterion", "criteria", "theorem",
                  "theorems", "law", "laws", "bound", "bounds", "game", "games")),
        ("used", ("existing", "previous", "prior", "popular", "standard", "classic", "classical", "conventional",
                  "well-known", "widely", "commonly", "state-of-the-art", "sota", "baseline", "baselines",
                  "than", "versus", "vs", "including", "like", "recent", "recently", "traditional", "typical",
                  "typically", "vanilla", "using", "use", "uses", "extend", "extends")
         + _inflect("compare", "adopt", "follow") + ("comparison", "comparisons"))):
    for _w in _words:
        _CUE_WORDS.setdefault(_w, _kind)
#: Two-word cues: (previous word, word) -> kind.
_CUE_PAIRS = {("this", "paper"): "we", ("this", "work"): "we", ("this", "study"): "we", ("in", "this"): "we",
              ("refer", "to"): "naming", ("referred", "to"): "naming", ("call", "it"): "naming",
              ("name", "it"): "naming", ("such", "as"): "used", ("based", "on"): "used", ("built", "on"): "used",
              ("e", "g"): "used", ("et", "al"): "used", ("put", "forward"): "propose"}
_PAIR_SECOND = frozenset(w for _, w in _CUE_PAIRS)
_USED_PREFIXES = ("outperform", "surpass", "leverag")
_DATA_VERBS = ("releas", "curat", "collect", "annotat", "gather", "crowdsourc", "contribut")
_CUE_TOKEN = re.compile(r"[a-z][a-z-]*")


def _cues(words: list[str]) -> list[tuple[int, str]]:
    """(word index, kind) of every cue word of ``words`` (lower case)."""
    out = []
    get = _CUE_WORDS.get
    for k, w in enumerate(words):
        g = get(w)
        if g is None:
            if w in _PAIR_SECOND and k:
                g = _CUE_PAIRS.get((words[k - 1], w))
            elif w.startswith(_USED_PREFIXES):
                g = "used"
            if g is None:
                continue
        out.append((k, g))
    return out


#: words after a name the paper reports on: "X outperforms ...", "X achieves ...", "X consistently ..."
_SUCCESS = ("outperform", "achiev", "surpass", "improv", "consistent", "significant", "beat", "attain",
            "establish", "yield", "reduc", "boost", "enabl", "exceed", "deliver", "match")
_WE_PROPOSE = re.compile(r"(?i:\b(?:we|our|this (?:paper|work|study)|here)\b)[^.;]{0,60}?\b(?P<verb>propos|introduc|present|develop)")
#: a coined token that is a modifier, not a name: "LLM-generated", "RL-based", "GPT-like"
_MODIFIER_TAIL = re.compile(r"-(?:[a-z]+(?:ed|en|like|based|wise|free|aware|specific|level|style|scale|type|only|"
                            r"driven|guided|inspired|friendly|agnostic|dependent|independent|invariant|efficient))$")
#: a citation right after a name: "X (Fang et al., 2018)", "X [12]", "[BCMV14]"
_CITED_AFTER = re.compile(r"\s*(?:\(\s*[A-Z][^()]{0,60}?\d{4}[a-z]?\s*\)|\[[^\]]{1,20}\])")
_EXISTING = frozenset(("existing", "known", "classic", "classical", "popular", "standard", "conventional",
                       "well-known", "prior", "previous", "original", "vanilla", "traditional"))
#: an acronym and a plain word: "RL-training", "LLM-agents" (a compound, not a name)
_ACRONYM_COMPOUND = re.compile(r"[A-Z]{2,5}-[a-z]{4,}")
_MARKUP_RUN = re.compile(r"\\[A-Za-z]+\s*\{|[*{}$\\]")
_PAREN_START = re.compile(r"^\s*(?:\([^()]{0,20}\)|\))")
_URL_BEFORE = re.compile(r"(?:https?://|www\.|github\.com)\S*$")
_SENT_BREAK = re.compile(r"[.!?;]\s+(?=[A-Z(\[$\\*\"'`0-9])|\n")
_WORD = re.compile(r"[A-Za-z][\w'-]*|\d[\w.-]*")
_HAS_UPPER = re.compile(r"[A-Z]")
_CAMEL = re.compile(r"[a-z][A-Z]")
_DIGIT = re.compile(r"\d")
_MARKUP = re.compile(r"[\\{}$*^_]")
_PREPOSITIONS = frozenset(("on", "across", "over", "from", "in", "with"))
_APPOSITIVE = re.compile(r"\s*,\s*(?:a|an|the)\s")
_CITATION_AFTER = re.compile(r"\s*\(\s*[A-Z][^()]{0,40}\d{4}")
#: Every feature :func:`features` can give that is not a word identity, in the model's column order.
FIXED_FEATURES = (
    "bias", "kind=definition", "kind=token", "kind=rule",
    *("rule_class=" + c for c in CLASSES[1:]),
    "s_allcaps", "s_camel", "s_lowerstart", "s_digit", "s_hyphen", "s_symbol",
    "s_len<=3", "s_len4-5", "s_len6-9", "s_len10+", "gaz_method", "gaz_benchmark",
    "long_nwords", "long_titlecase", "long_lower", "long_mixed",
    "headcls=method", "headcls=benchmark", "headcls=none", "headcls=field", "gaz_long", "short_extra_s",
    "log_count", "count>=3", "count=1", "in_title", "title_start", "title_overlap",
    "position", "pos_first", "pos_late", "first_sentence",
    "propose_before", "propose_gap<=3", "propose_gap<=8", "propose_gap>8", "we_propose", "data_verb",
    "propose_after", "we_in_sentence", "novel_before", "naming_before", "naming_after", "our_before",
    "appositive_after", "used_before", "used_after", "bench_after", "bench_before", "none_after",
    "none_before", "prep_before", "det_before", "citation_after", "no_proposal_before",
    "in_proposal_sentence", "doc_has_proposed", "novel_after", "in_url", "variant_of_proposed", "comma_before",
    *("prev_headcls=" + c for c in ("method", "benchmark", "none", "field")),
    *("next_headcls=" + c for c in ("method", "benchmark", "none", "field")),
    # (seventeenth session; last, so a model trained before them loads and ignores them)
    "not_own", "success_after", "subject_later",
)
#: Prefixes of the word-identity features (the rules that fired, the long form's head noun, the
#: words around the name); the training script keeps those seen often enough.
WORD_FEATURE_PREFIXES = ("rule=", "head=", "prev=", "prev2=", "next=")

#: Head nouns of a long form, by what they usually name (the last word, plural folded).
_HEADS = {
    "method": frozenset((
        "network", "model", "method", "algorithm", "framework", "architecture", "optimizer", "optimiser",
        "estimator", "transformer", "attention", "encoder", "decoder", "autoencoder", "policy", "search",
        "sampling", "sampler", "regression", "training", "tuning", "distillation", "pruning", "prompting",
        "planning", "inference", "module", "mechanism", "approach", "technique", "strategy", "scheme",
        "system", "agent", "procedure", "descent", "machine", "layer", "embedding", "alignment",
        "augmentation", "aggregation", "adaptation", "normalization", "regularization", "quantization",
        "decoding", "learner", "classifier", "generator", "operator", "solver", "tree", "forest", "flow",
        "memory", "unit", "block", "pipeline", "kernel", "process", "filter", "filtering", "tokenizer",
        "adapter", "router", "routing", "merging", "editing", "attack", "defense", "compression",
        "initialization", "optimization", "gradient", "update", "iteration", "programming", "field",
        "representation", "loss", "objective", "regularizer", "toolkit", "library", "simulator", "engine")),
    "benchmark": frozenset((
        "dataset", "benchmark", "corpus", "suite", "set", "collection", "bank", "arena", "gym",
        "environment", "challenge", "database", "leaderboard", "bench", "test", "testbed", "data")),
    "none": frozenset((
        "task", "problem", "metric", "measure", "score", "setting", "condition", "assumption", "hypothesis",
        "phenomenon", "property", "principle", "theorem", "law", "bound", "rate", "error", "distance",
        "divergence", "ratio", "index", "gap", "bias", "shift", "effect", "risk", "equation", "game",
        "regime", "criterion", "complexity", "dimension", "capacity", "entropy", "accuracy", "analysis",
        "paradigm", "question", "function", "space", "distribution", "information", "value", "density",
        "coefficient", "variance", "norm", "constraint", "attribution", "interpretability", "privacy",
        "fairness", "robustness", "generalization", "language", "graph", "matrix", "order", "curve")),
    "field": frozenset((
        "learning", "recognition", "classification", "segmentation", "detection", "generation", "estimation",
        "reasoning", "answering", "translation", "understanding", "retrieval", "tracking", "forecasting",
        "prediction", "control", "processing", "vision", "synthesis", "identification", "localization",
        "completion", "captioning", "summarization", "verification", "discovery", "modeling", "modelling")),
}


@dataclass(frozen=True, slots=True)
class Candidate:
    """A name the rules left untyped, with every occurrence of its forms (original offsets).

    ``kind`` is ``definition`` (an abbreviation's long form and short form) or ``token`` (a
    coined token); ``long`` is the markup-free long form (``None`` for a token) and ``short``
    the acronym or the token; ``anchor`` is the first occurrence in the abstract (the long form
    of a definition).
    """

    kind: str
    long: str | None
    short: str
    occurrences: tuple[tuple[int, int], ...]
    anchor: tuple[int, int]
    #: for a name the rules typed (``kind == "rule"``): their class ("method/used" ...), the
    #: rules that fired, and the ``(start, end, label)`` keys of its spans
    rule_class: str | None = None
    rules: tuple[str, ...] = ()
    span_keys: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.long or self.short


def _plural_fold(word: str) -> str:
    w = word.lower()
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith("ses") or w.endswith("xes"):
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3:
        return w[:-1]
    return w


def _word_char(c: str) -> bool:
    return c.isalnum() or c == "_" or c == "-"


def _abstract_start(text: str) -> int:
    """Where the abstract begins in ``doc_text`` (after the title and its separator; 0 without one)."""
    sep = text.find(_SEPARATOR)
    return sep + len(_SEPARATOR) if sep >= 0 else 0


def _occurrences(text: str, form: str, start: int = 0) -> list[tuple[int, int]]:
    """Where ``form`` occurs as a whole word (a plural ``s``/``es`` absorbed), in text order.

    The same matches as ``(?<![\\w-])form(?:e?s)?(?![\\w-])``, found with ``str.find`` (a regular
    expression with a look-behind tried at every position of the text cost 30 µs a form).
    """
    if not form or len(form) > _MAX_NAME or "\n" in form:
        return []
    out = []
    n = len(text)
    i = text.find(form, start)
    while i >= 0:
        j = i + len(form)
        if i == 0 or not _word_char(text[i - 1]):
            for end in (j, j + 1, j + 2):
                if end > j and text[j:end] not in ("s", "es"):
                    continue
                if end >= n or not _word_char(text[end]):
                    out.append((i, end))
                    break
        i = text.find(form, i + 1)
    return out


def _overlaps(occupied: bytearray, spans: Iterable[tuple[int, int]]) -> bool:
    return any(any(occupied[s:e]) for s, e in spans)


def _rule_spans(doc: Doc, text: str) -> tuple[list[tuple[str, str, list[Any], int, int]], bytearray]:
    """The rules' spans ``(key, label, info, start, end)``, read from their plain per-document dict
    (no spaCy Span objects to build: "start:end:LABEL" -> [role, canonical, rule, [start, end]]),
    and a byte per character of ``text``, 1 where a rule span covers it."""
    occupied = bytearray(len(text) + 1)
    spans = []
    for k, v in (doc.user_data.get(INFO_KEY) or {}).items():
        if v[3]:
            s, e = v[3]
            label = k.rsplit(":", 1)[1]
        else:
            ss, se, label = k.split(":", 2)
            s, e = int(ss), int(se)
        occupied[s:e] = b"\x01" * (e - s)
        spans.append((k, label, v, s, e))
    return spans, occupied


def _may_have_candidates(doc: Doc, text: str, gaz: Gazetteer) -> bool:
    """Does a definition or token of ``doc`` pass the tests of :func:`candidates` that need no rule
    span (in the abstract, short enough, no stop name, common word or modifier compound)? When
    none does, :func:`candidates` gives no untyped candidate, and the rule spans need not be read."""
    abstract_start = _abstract_start(text)
    for short, _long, _ss, _se, ls, le in doc.user_data.get(DEFS_KEY, ()):
        if ls >= abstract_start and le - ls <= _MAX_NAME and not gaz.is_stop(short):
            return True
    for s, e in doc.user_data.get(CANDIDATES_KEY, ()):
        surface = text[s:e]
        if len(surface) <= _MAX_NAME and not gaz.is_stop(surface) and not gaz.is_common_word(surface) \
                and not _MODIFIER_TAIL.search(surface):
            return True
    return False


def _has_proposed(spans: list[tuple[str, str, list[Any], int, int]], abstract_start: int, text: str) -> bool:
    """Is a name of the rules proposed, as :func:`_rule_candidates` would give it (a group with an
    abstract mention, not found by :data:`_KEEP_RULES` alone)? Cheaper than building the groups."""
    keys = {entity_key(v[1] or text[s:e]) for _k, _l, v, s, e in spans if v[0] == PROPOSED}
    if not keys:
        return False
    rules: dict[str, set[str]] = {}
    in_abstract: set[str] = set()
    for _k, _l, v, s, e in spans:
        key = entity_key(v[1] or text[s:e])
        if key in keys:
            rules.setdefault(key, set()).add(v[2] or "")
            if s >= abstract_start:
                in_abstract.add(key)
    return any(key in in_abstract and not rules[key] <= _KEEP_RULES for key in keys)


def candidates(doc: Doc, gazetteer: Gazetteer | None = None, *, include_rules: bool = True,
               rule_spans: tuple[list[tuple[str, str, list[Any], int, int]], bytearray] | None = None) -> list[Candidate]:
    """The document's candidates: the names the rules typed (``kind == "rule"``, one per
    canonical name with a mention in the abstract; with ``include_rules``), then the definitions
    and coined tokens none of whose occurrences a rule span overlaps.

    Reads the definitions of ``paperkg_abbreviations`` and the untyped coined tokens and spans
    of ``paperkg_entities`` (both must have run). Gazetteer stop names (metrics, generic names)
    and common English words are left out of the untyped ones.
    """
    gaz = gazetteer or load_gazetteer()
    text = doc_text(doc)
    abstract_start = _abstract_start(text)
    spans, occupied = rule_spans if rule_spans is not None else _rule_spans(doc, text)
    out: list[Candidate] = []
    seen: set[str] = set()
    if include_rules:
        out.extend(_rule_candidates(spans, text, abstract_start))
    for t in doc.user_data.get(DEFS_KEY, ()):
        short, long, ss, se, ls, le = t
        if len(out) >= _MAX_CANDIDATES:
            break
        if ls < abstract_start or le - ls > _MAX_NAME:
            continue
        if any(occupied[ls:le]) or any(occupied[ss:se]):
            continue  # typed where it is defined (most definitions): no need to find the others
        long_surface = text[ls:le]
        short_surface = text[ss:se]
        long_clean = clean_view(long_surface).text.strip() if _MARKUP.search(long_surface) else long_surface
        key = entity_key(long_clean)
        if not key or key in seen or gaz.is_stop(short) or gaz.is_stop(long_clean):
            continue
        occ = sorted(set(_occurrences(text, long_surface) + _occurrences(text, short_surface)
                         + [(ls, le), (ss, se)]))
        if _overlaps(occupied, occ):
            continue
        seen.add(key)
        seen.add(entity_key(short))
        out.append(Candidate("definition", long_clean, short, tuple(occ), (ls, le)))
    tokens: dict[str, None] = {}
    for s, e in doc.user_data.get(CANDIDATES_KEY, ()):
        tokens.setdefault(text[s:e], None)
    for surface in tokens:
        if len(out) >= _MAX_CANDIDATES:
            break
        key = entity_key(surface)
        if not key or key in seen or len(surface) > _MAX_NAME or gaz.is_stop(surface) or gaz.is_common_word(surface) \
                or _MODIFIER_TAIL.search(surface):
            continue
        seen.add(key)
        occ = _occurrences(text, surface)
        first = next((o for o in occ if o[0] >= abstract_start), None)
        if first is None or _overlaps(occupied, occ):
            continue
        out.append(Candidate("token", None, surface, tuple(occ), first))
    return out


#: Rules whose names alone the component leaves as they are: a gazetteer name (and its repeats)
#: is rarely changed for the better (measured on the silver batches, out of fold: changing them
#: lost as many right names as it fixed), and half of the rules' names are such.
_KEEP_RULES = frozenset(("gazetteer", "repeat"))


def _rule_candidates(spans: list[tuple[str, str, list[Any], int, int]], text: str,
                     abstract_start: int) -> list[Candidate]:
    """One candidate per canonical name of the rules' spans that has a mention in the abstract,
    unless only :data:`_KEEP_RULES` found it."""
    groups: dict[str, dict[str, Any]] = {}
    for k, label, v, s, e in spans:
        role, canonical, rule, _offsets = v
        g = groups.setdefault(entity_key(canonical or text[s:e]), {
            "canonical": canonical or text[s:e], "label": label, "role": USED, "rules": set(),
            "occ": [], "keys": []})
        if role == PROPOSED:
            g["role"] = PROPOSED
        g["rules"].add(rule or "")
        g["occ"].append((s, e))
        g["keys"].append(k)
    out = []
    for g in groups.values():
        if g["rules"] <= _KEEP_RULES:
            continue
        occ = sorted(g["occ"])
        first = next((o for o in occ if o[0] >= abstract_start), None)
        if first is None or len(out) >= _MAX_CANDIDATES:
            continue
        surfaces = sorted({text[s:e] for s, e in occ}, key=len)
        canonical = g["canonical"]
        long = canonical if " " in canonical else (surfaces[-1] if " " in surfaces[-1] else None)
        short = surfaces[0] if len(surfaces[0]) <= _MAX_NAME else surfaces[0][:_MAX_NAME]
        etype = "benchmark" if g["label"] == BENCHMARK else "method"
        out.append(Candidate("rule", long, short, tuple(occ), first, f"{etype}/{g['role']}",
                             tuple(sorted(g["rules"])), tuple(g["keys"])))
    return out


# ----------------------------------------------------------------------------- extensions
#: Words an extension never takes in (function words, the cue words, generic modifiers that are no
#: part of a name); a name's own modifier is a content word ("adaptive", "Wasserstein", "V2").
_EXT_STOP = frozenset((
    "a", "an", "the", "and", "or", "but", "nor", "of", "in", "on", "at", "to", "for", "from", "by", "with",
    "without", "into", "onto", "over", "under", "via", "as", "is", "are", "was", "were", "be", "been", "being",
    "has", "have", "had", "do", "does", "did", "can", "could", "may", "might", "will", "would", "shall", "should",
    "must", "that", "this", "these", "those", "which", "who", "whom", "whose", "what", "when", "where", "while",
    "than", "then", "thus", "hence", "also", "both", "each", "every", "all", "any", "some", "such", "other",
    "its", "their", "his", "her", "it", "they", "them", "we", "our", "us", "you", "your", "not", "no", "only",
    "more", "most", "less", "least", "very", "much", "many", "few", "several", "between", "among", "through",
    "across", "about", "after", "before", "during", "since", "until", "if", "so", "yet", "i", "e", "g", "ie",
    "eg", "etc", "vs", "via", "per", "up", "down", "out", "off", "there", "here", "how", "why", "like", "unlike",
    "based", "using", "used", "use", "uses", "whether", "either", "neither", "same", "different", "further",
    "however", "moreover", "first", "second", "third", "one", "two", "three", "new", "novel",
    # verbs that open a sentence's object ("we study X", "we train X")
    "study", "studies", "studied", "analyze", "analyse", "analyzes", "analyses", "analyzed", "apply", "applies",
    "applied", "applying", "show", "shows", "showed", "train", "trains", "trained", "training", "investigate",
    "investigates", "consider", "considers", "employ", "employs", "employed", "leverage", "leverages", "improve",
    "improves", "improved", "combine", "combines", "combined", "achieve", "achieves", "obtain", "obtains",
    "make", "makes", "run", "runs", "revisit", "revisits", "enable", "enables", "yields", "via", "call",
    *_CUE_WORDS))
#: One word of an extension: letters/digits with inner apostrophes, dots, slashes, plus signs or
#: hyphens ("Lloyd's", "1.1", "V2", "full-matrix", "70B").
_EXT_WORD = r"[A-Za-z0-9](?:[A-Za-z0-9'’.+/]*[A-Za-z0-9'+])?(?:-[A-Za-z0-9](?:[A-Za-z0-9'’.+/]*[A-Za-z0-9'+])?)*"
_EXT_LEFT = re.compile(r"(?:^|(?<=[\s(\[\"“]))(?:(" + _EXT_WORD + r")( |-))?(" + _EXT_WORD + r")( |-)$")
_EXT_RIGHT = re.compile(r"( |-)(" + _EXT_WORD + r")(?:( |-)(" + _EXT_WORD + r"))?")
_VERSION = re.compile(r"(?:[vV]\d+(?:\.\d+)*|\d+(?:\.\d+)*[BMKbmk]?|\d+x\d+)$")
_ADJ_SUFFIX = ("al", "ed", "ive", "ic", "ous", "ar", "ary", "ent", "ant", "ing", "ized", "ised", "less", "ful")


@dataclass(frozen=True, slots=True)
class Extension:
    """A rule's name grown by one or two neighbouring words of its sentence: "importance sampling"
    -> "adaptive importance sampling" (``side`` ``left``), "Sinkhorn" -> "Sinkhorn divergences"
    (``right``).

    ``surface`` is the extended text, ``words`` the words taken in (text order), ``inner_class``
    and ``inner_rule`` the class ("method/used" ...) and rule of the rule span it grew from,
    ``occurrences`` every whole-word occurrence of ``surface`` in the text and ``anchor`` the
    first one in the abstract.
    """

    side: str
    surface: str
    words: tuple[str, ...]
    inner: str
    inner_class: str
    inner_rule: str
    occurrences: tuple[tuple[int, int], ...]
    anchor: tuple[int, int]
    #: the words taken in are (or hold) another rule name: "Transformer" + "Hawkes process"
    merges: bool = False


def _ext_word_ok(w: str) -> bool:
    """Can ``w`` be part of a name? Not a stop word, and no modifier compound ("Transformer-based")."""
    return w.lower() not in _EXT_STOP and len(w) <= 30 and not _MODIFIER_TAIL.search(w)


def extensions(text: str, spans: Sequence[tuple[int, int, str, str, str]], abstract_start: int,
               occupied: bytearray) -> list[Extension]:
    """Every extension of the rules' spans ``(start, end, label, role, rule)`` by one or two
    neighbouring words (:data:`_EXT_WORD`, not in :data:`_EXT_STOP`, joined by one space or a
    hyphen: no punctuation in between, so the sentence is never left), one per extended surface.

    An extension that would cut another rule span in two is not made (taking in the whole of a
    neighbouring span, "Transformer" + "Hawkes process", is allowed).
    """
    out: dict[str, Extension] = {}
    n = len(text)
    for s, e, label, role, rule in spans:
        if s < abstract_start or e - s > _MAX_NAME:
            continue
        inner = text[s:e]
        cls = ("benchmark/" if label == BENCHMARK else "method/") + role
        grown: list[tuple[str, int, int, tuple[str, ...]]] = []
        if s > abstract_start and text[s - 1] in " -":
            m = _EXT_LEFT.search(text, max(abstract_start, s - 70), s)
            if m is not None:
                w1 = m.group(3)
                if _ext_word_ok(w1) and not (w1[-1] == "s" and m.group(4) == " " and w1[:1].islower()
                                             and not w1.endswith(("ss", "us", "is", "'s", "’s"))):
                    grown.append(("left", m.start(3), e, (w1,)))
                    w2 = m.group(1)
                    if w2 and _ext_word_ok(w2):
                        grown.append(("left", m.start(1), e, (w2, w1)))
        if e < n and text[e] in " -":
            m = _EXT_RIGHT.match(text, e, min(n, e + 70))
            if m is not None:
                w1 = m.group(2).rstrip(".")
                if w1 and _ext_word_ok(w1):
                    end1 = e + len(m.group(1)) + len(w1)
                    grown.append(("right", s, end1, (w1,)))
                    w2 = (m.group(4) or "").rstrip(".")
                    if w2 and _ext_word_ok(w2) and m.group(2) == w1:
                        grown.append(("right", s, m.start(4) + len(w2), (w1, w2)))
        for side, gs, ge, words in grown:
            if len(out) >= _MAX_CANDIDATES:
                return list(out.values())  # a huge abstract stays linear
            # no rule span may cross the new boundary
            if (gs > 0 and occupied[gs] and occupied[gs - 1]) or (occupied[ge - 1] and occupied[ge]):
                continue
            surface = text[gs:ge]
            if surface in out or len(surface) > _MAX_NAME:
                continue
            occ = tuple(_occurrences(text, surface)) or ((gs, ge),)
            first = next((o for o in occ if o[0] >= abstract_start), (gs, ge))
            merges = any(occupied[gs:s]) if side == "left" else any(occupied[e:ge])
            out[surface] = Extension(side, surface, words, inner, cls, rule or "", occ, first, merges)
    return list(out.values())


#: The features of an extension (:func:`extension_features`), in the extension model's order.
EXT_FIXED_FEATURES = (
    "bias", "side=left", "side=right", "two_words", "hyphen_joined",
    *("inner_class=" + c for c in CLASSES[1:]),
    "w_cap", "w_allcaps", "w_lower", "w_possessive", "w_version", "w_digit", "w_hyphen", "w_adj_suffix",
    "w_plural", "w_camel", "sentence_start", "inner_allcaps", "inner_lower", "inner_multiword",
    "w_headcls=method", "w_headcls=benchmark", "w_headcls=none", "w_headcls=field",
    "ext_count>=2", "ext_in_title", "inner_alone", "inner_alone>=2", "ext_gaz", "w_gaz", "w_common",
    "defined_after", "det_before", "our_before", "propose_in_sentence", "capitalised_run", "merges_rule_name",
)
EXT_WORD_PREFIXES = ("w=", "inner_rule=", "prev=", "next=")


def extension_features(ext: Extension, text: str, gazetteer: Gazetteer, abstract_start: int) -> dict[str, float]:
    """Features of one extension: the shape and identity of the words taken in, what the rule
    span was, and how the extended surface is used in the abstract (repeats, title, a definition
    "(ABC)" right after, the inner name occurring alone)."""
    f: dict[str, float] = {"bias": 1.0, "side=" + ext.side: 1.0, "inner_class=" + ext.inner_class: 1.0,
                           "inner_rule=" + ext.inner_rule: 1.0}
    s, e = ext.anchor
    w = ext.words[0] if ext.side == "left" else ext.words[-1]  # the word farthest from the inner name
    if len(ext.words) == 2:
        f["two_words"] = 1.0
    if ext.merges:
        f["merges_rule_name"] = 1.0
    k = s + len(ext.surface) - len(ext.inner) - 1 if ext.side == "left" else s + len(ext.inner)
    if text[k:k + 1] == "-":
        f["hyphen_joined"] = 1.0
    for word in ext.words:
        low = word.lower()
        f["w=" + low] = 1.0
        if word.endswith(("'s", "’s")):
            f["w_possessive"] = 1.0
        elif _VERSION.match(word):
            f["w_version"] = 1.0
        elif word.isupper() and len(word) > 1:
            f["w_allcaps"] = 1.0
        elif _CAMEL.search(word):
            f["w_camel"] = 1.0
        elif word[:1].isupper():
            f["w_cap"] = 1.0
        else:
            f["w_lower"] = 1.0
            if low.endswith(_ADJ_SUFFIX):
                f["w_adj_suffix"] = 1.0
            if low.endswith("s") and not low.endswith(("ss", "us", "is")):
                f["w_plural"] = 1.0
        if _DIGIT.search(word):
            f["w_digit"] = 1.0
        if "-" in word:
            f["w_hyphen"] = 1.0
        if gazetteer.is_common_word(word):
            f["w_common"] = 1.0
        entry = gazetteer.lookup(word)
        if entry is not None:
            f["w_gaz"] = 1.0
    head = _plural_fold(w)
    for cls, heads in _HEADS.items():
        if head in heads:
            f["w_headcls=" + cls] = 1.0
    inner = ext.inner
    letters = [c for c in inner if c.isalpha()]
    if letters and all(c.isupper() for c in letters):
        f["inner_allcaps"] = 1.0
    elif inner[:1].islower():
        f["inner_lower"] = 1.0
    if " " in inner:
        f["inner_multiword"] = 1.0
    in_abs = [o for o in ext.occurrences if o[0] >= abstract_start]
    if len(in_abs) >= 2:
        f["ext_count>=2"] = 1.0
    if any(o[1] < abstract_start for o in ext.occurrences):
        f["ext_in_title"] = 1.0
    cover = _Cover(in_abs)
    alone = len([o for o in _occurrences(text, inner, abstract_start) if not cover.covers(*o)])
    if alone:
        f["inner_alone"] = 1.0
        if alone >= 2:
            f["inner_alone>=2"] = 1.0
    if gazetteer.lookup(ext.surface) is not None:
        f["ext_gaz"] = 1.0
    words = ext.surface.split()
    if len(words) >= 2 and all(x[:1].isupper() or not x[:1].isalpha() for x in words):
        f["capitalised_run"] = 1.0
    tail = text[e:e + 16]
    if tail.startswith(" (") and _HAS_UPPER.search(tail[2:6] or ""):
        f["defined_after"] = 1.0
    before = text[max(abstract_start, s - 60):s]
    if s == abstract_start or re.search(r"[.!?]\s+$", before) or not before.strip():
        f["sentence_start"] = 1.0
    pw = _WORD.findall(before[-30:].lower())
    if pw:
        f["prev=" + pw[-1]] = 1.0
        if pw[-1] in ("the", "a", "an"):
            f["det_before"] = 1.0
        if "our" in pw[-3:]:
            f["our_before"] = 1.0
    nw = _WORD.findall(text[e:e + 30].lower())
    if nw:
        f["next=" + nw[0]] = 1.0
    ss, se = _sentence(text, s, e, abstract_start)
    if any(_CUE_WORDS.get(x) == "propose" for x in _CUE_TOKEN.findall(text[ss:s].lower())):
        f["propose_in_sentence"] = 1.0
    return f


def _add_position(f: dict[str, float], s: int, text: str, abstract_start: int, *, first: bool = True) -> None:
    """The position features of an occurrence starting at ``s``: where in the abstract it is (0 to
    1), ``pos_late`` past 70% and (``first``) ``pos_first`` before 15%."""
    rel = (s - abstract_start) / max(1, len(text) - abstract_start)
    f["position"] = rel
    if first and rel < 0.15:
        f["pos_first"] = 1.0
    elif rel > 0.7:
        f["pos_late"] = 1.0


def _sentence(text: str, s: int, e: int, lo: int) -> tuple[int, int]:
    """Start and end of the sentence around ``text[s:e]`` (within :data:`_WINDOW`, not before ``lo``)."""
    a = max(lo, s - _WINDOW)
    start = a
    for m in _SENT_BREAK.finditer(text, a, s):
        start = m.end()
    m = _SENT_BREAK.search(text, e, min(len(text), e + _WINDOW))
    return start, (m.start() + 1 if m else min(len(text), e + _WINDOW))


def _shape(prefix: str, s: str, f: dict[str, float]) -> None:
    letters = [c for c in s if c.isalpha()]
    if letters and all(c.isupper() for c in letters):
        f[prefix + "allcaps"] = 1.0
    elif _CAMEL.search(s):
        f[prefix + "camel"] = 1.0
    if s[:1].islower():
        f[prefix + "lowerstart"] = 1.0
    if _DIGIT.search(s):
        f[prefix + "digit"] = 1.0
    if "-" in s:
        f[prefix + "hyphen"] = 1.0
    if "+" in s or "$" in s or "\\" in s:
        f[prefix + "symbol"] = 1.0
    n = len(s)
    f[prefix + ("len<=3" if n <= 3 else "len4-5" if n <= 5 else "len6-9" if n <= 9 else "len10+")] = 1.0


def _first_proposal(text: str, abstract_start: int) -> int:
    """Where the abstract's first proposal verb of the authors ("we propose ...") is, or -1."""
    m = _WE_PROPOSE.search(text, abstract_start)
    return m.start("verb") if m else -1


@lru_cache(maxsize=256)
def _title_words(title: str) -> frozenset[str]:
    return frozenset(w.lower() for w in _WORD.findall(title))


def features(cand: Candidate, text: str, gazetteer: Gazetteer, *, doc_proposed: bool = False,
             first_proposal: int = -2, proposed_forms: frozenset[str] = frozenset()) -> dict[str, float]:
    """Hand-designed features of one candidate in the joined title + abstract ``text``.

    ``doc_proposed``: another candidate of the document is a name the rules call proposed;
    ``proposed_forms``: the surfaces of the rules' proposed names (a coined token that is one of
    them plus a suffix, "MOGFN-PC" beside "MOGFNs", is a variant of the paper's own name);
    ``first_proposal``: :func:`_first_proposal` of the text, when the caller has it (-2: compute).

    Names with ``=`` (``prev=``, ``next=``, ``head=``) are word-identity features; the model
    keeps only those in its vocabulary (``bench/train_learned.py`` chooses them).
    """
    f: dict[str, float] = {"bias": 1.0, "kind=" + cand.kind: 1.0}
    if cand.rule_class:
        f["rule_class=" + cand.rule_class] = 1.0
        for r in cand.rules:
            f["rule=" + r] = 1.0
    sep = text.find(_SEPARATOR)
    abstract_start = sep + len(_SEPARATOR) if sep >= 0 else 0
    title = text[:sep] if sep >= 0 else ""
    s, e = cand.anchor
    # the short form / token
    _shape("s_", cand.short, f)
    entry = gazetteer.lookup(cand.short)
    if entry is not None:
        f["gaz_" + entry.type] = 1.0
    # the long form
    if cand.long:
        words = cand.long.replace("-", " ").split()
        f["long_nwords"] = min(len(words), 8) / 4.0
        content = [w for w in words if len(w) > 3 or w[:1].isupper()]
        if content and all(w[:1].isupper() for w in content):
            f["long_titlecase"] = 1.0
        elif all(not _HAS_UPPER.search(w) for w in words):
            f["long_lower"] = 1.0
        else:
            f["long_mixed"] = 1.0
        head = _plural_fold(words[-1]) if words else ""
        for cls, heads in _HEADS.items():
            if head in heads:
                f["headcls=" + cls] = 1.0
        f["head=" + head] = 1.0
        if gazetteer.lookup(cand.long) is not None:
            f["gaz_long"] = 1.0
        if len(cand.short) >= 2 and cand.short[-1] in "sS" and not words[-1].lower().endswith("s"):
            f["short_extra_s"] = 1.0
    # occurrences
    in_abs = [o for o in cand.occurrences if o[0] >= abstract_start]
    f["log_count"] = math.log1p(len(in_abs))
    if len(in_abs) >= 3:
        f["count>=3"] = 1.0
    if len(in_abs) == 1:
        f["count=1"] = 1.0
    if any(o[1] <= sep for o in cand.occurrences) if sep >= 0 else False:
        f["in_title"] = 1.0
        t = title.lstrip("*\\{ ")
        if t.startswith(cand.short) or (cand.long and t.startswith(cand.long)):
            f["title_start"] = 1.0
    elif cand.long and title:
        tw = _title_words(title)
        lw = [w.lower() for w in _WORD.findall(cand.long) if len(w) > 3]
        if lw and sum(w in tw for w in lw) / len(lw) >= 0.5:
            f["title_overlap"] = 1.0
    _add_position(f, s, text, abstract_start)
    # the sentence of the first occurrence
    ss, se = _sentence(text, s, e, abstract_start)
    before = _MARKUP_RUN.sub("", text[ss:s]).lower()
    after = _MARKUP_RUN.sub("", text[e:se]).lower()
    if cand.kind == "definition" or after.startswith(")"):
        after = _PAREN_START.sub("", after, count=1)  # "(ABC), a novel ..." / the ")" of "(ABC)"
    if ss == abstract_start:
        f["first_sentence"] = 1.0
    # the cue words of the sentence, word by word (see _CUE_WORDS)
    bw = _CUE_TOKEN.findall(before)
    nb = len(bw)
    pm = -1
    we_before = False
    for k, g in _cues(bw):
        if g == "propose":
            pm = k
        elif g == "we":
            we_before = True
        elif g == "novel" and k >= nb - 8:
            f["novel_before"] = 1.0
        elif g == "naming" and k >= nb - 6:
            f["naming_before"] = 1.0
        elif g == "used":
            f["used_before"] = 1.0
        elif g == "bench" and k >= nb - 6:
            f["bench_before"] = 1.0
        elif g == "none" and k >= nb - 5:
            f["none_before"] = 1.0
    if pm >= 0:
        gap = nb - 1 - pm
        f["propose_before"] = 1.0
        f["propose_gap<=3" if gap <= 3 else "propose_gap<=8" if gap <= 8 else "propose_gap>8"] = 1.0
        if we_before:
            f["we_propose"] = 1.0
        if bw[pm].startswith(_DATA_VERBS):
            f["data_verb"] = 1.0
    we_after = False
    for k, g in _cues(_CUE_TOKEN.findall(after)):
        if g == "propose":
            f["propose_after"] = 1.0
        elif g == "we":
            we_after = True
        elif g == "naming" and k < 6:
            f["naming_after"] = 1.0
        elif g == "used":
            f["used_after"] = 1.0
        elif g == "bench" and k < 6:
            f["bench_after"] = 1.0
        elif g == "none" and k < 6:
            f["none_after"] = 1.0
        elif g == "novel" and k < 6:
            f["novel_after"] = 1.0
    if we_before or we_after:
        f["we_in_sentence"] = 1.0
    if _APPOSITIVE.match(after):
        f["appositive_after"] = 1.0
    if "/" in text[max(0, s - 100):s] and _URL_BEFORE.search(text, max(0, s - 100), s):
        f["in_url"] = 1.0
    pw = _WORD.findall(before[-40:])
    if "our" in pw[-4:]:
        f["our_before"] = 1.0
    if pw and (pw[-1] in _PREPOSITIONS or (len(pw) >= 2 and pw[-1] == "the" and pw[-2] in _PREPOSITIONS)):
        f["prep_before"] = 1.0
    if pw and pw[-1] in ("the", "a", "an"):
        f["det_before"] = 1.0
    if "et al" in after[:80] or _CITATION_AFTER.match(text, e, e + 60):
        f["citation_after"] = 1.0
    # is the first "we propose" of the abstract before this name?
    if first_proposal == -2:
        first_proposal = _first_proposal(text, abstract_start)
    if first_proposal < 0 or first_proposal >= s:
        f["no_proposal_before"] = 1.0
    elif first_proposal >= ss:
        f["in_proposal_sentence"] = 1.0
    if doc_proposed:
        f["doc_has_proposed"] = 1.0
    if proposed_forms and cand.kind == "token" and "-" in cand.short:
        stem = cand.short.split("-")[0]
        if any(len(p) >= 3 and (p == stem or (p.endswith("s") and p[:-1] == stem)) for p in proposed_forms):
            f["variant_of_proposed"] = 1.0
    if re.search(r"(?:,|\s-|--|—)\s*(?:the\s+)?$", text[max(abstract_start, s - 8):s]):
        f["comma_before"] = 1.0  # "a multi-objective version of PBT, MO-PBT", "a new primitive, the TensorDict"
    # how the paper goes on to use the name: a sentence that starts with it at a later occurrence
    # ("X also ...") or its results right after it ("X outperforms ...", "X achieves ...")
    for o in in_abs[:20]:
        os_, oe = o
        if o != (s, e) and "subject_later" not in f:
            k = os_ - 1
            while k >= abstract_start and text[k] in " \t\"'(“*":
                k -= 1
            if k < abstract_start or text[k] in ".!?:\n":
                f["subject_later"] = 1.0
        if "success_after" not in f and any(w.startswith(_SUCCESS) for w in _WORD.findall(text[oe:oe + 40].lower())[:2]):
            f["success_after"] = 1.0
    if cand.kind != "rule" and _not_own(text, cand):
        # the guard that keeps the name out whatever the model says ("an automatic metric, X"): the
        # model learns from the untyped names it lets through, and the thresholds see the same
        f["not_own"] = 1.0
    # the words right before and after
    nw = _WORD.findall(after[:40])
    if pw:
        f["prev=" + pw[-1]] = 1.0
        head = _plural_fold(pw[-1])
        for cls, heads in _HEADS.items():
            if head in heads:
                f["prev_headcls=" + cls] = 1.0
    if nw:
        head = _plural_fold(nw[0])
        for cls, heads in _HEADS.items():
            if head in heads:
                f["next_headcls=" + cls] = 1.0
    if len(pw) >= 2:
        f["prev2=" + pw[-2]] = 1.0
    if nw:
        f["next=" + nw[0]] = 1.0
    return f


def featurize(doc: Doc, gazetteer: Gazetteer | None = None, *, rules: bool = True, used_rules: bool = False,
              rule_spans: tuple[list[tuple[str, str, list[Any], int, int]], bytearray] | None = None
              ) -> list[tuple[Candidate, dict[str, float]]]:
    """Every candidate of ``doc`` (:func:`candidates`) with its :func:`features`; the names the
    rules typed only with ``rules``, or (``used_rules``) only those they gave the role ``used``
    (all of them still count for ``doc_has_proposed``)."""
    gaz = gazetteer or load_gazetteer()
    text = doc_text(doc)
    spans = rule_spans if rule_spans is not None else _rule_spans(doc, text)
    cands = candidates(doc, gaz, include_rules=rules or used_rules, rule_spans=spans)
    if not cands:
        return []
    abstract_start = _abstract_start(text)
    first = _first_proposal(text, abstract_start)
    if rules or used_rules:
        proposed = [c for c in cands if c.rule_class and c.rule_class.endswith(PROPOSED)]
        forms = frozenset(text[s:e] for _k, _l, v, s, e in spans[0] if v[0] == PROPOSED)
        if not rules:
            cands = [c for c in cands if not c.rule_class or c.rule_class.endswith("/" + USED)]
        return [(c, features(c, text, gaz, doc_proposed=any(p is not c for p in proposed), first_proposal=first,
                             proposed_forms=forms)) for c in cands]
    doc_proposed = _has_proposed(spans[0], abstract_start, text)
    forms = frozenset(text[s:e] for _k, _l, v, s, e in spans[0] if v[0] == PROPOSED) if doc_proposed else frozenset()
    return [(c, features(c, text, gaz, doc_proposed=doc_proposed, first_proposal=first, proposed_forms=forms))
            for c in cands]


def _doc_inputs(doc: Doc, gazetteer: Gazetteer | None,
                rule_spans: tuple[list[tuple[str, str, list[Any], int, int]], bytearray] | None
                ) -> tuple[Gazetteer, str, list[tuple[str, str, list[Any], int, int]], bytearray, int]:
    """What every feature builder starts from: the gazetteer, the document's text, its rule spans
    and occupied characters (:func:`_rule_spans`, unless given) and where the abstract starts."""
    gaz = gazetteer or load_gazetteer()
    text = doc_text(doc)
    spans, occupied = rule_spans if rule_spans is not None else _rule_spans(doc, text)
    return gaz, text, spans, occupied, _abstract_start(text)


def featurize_extensions(doc: Doc, gazetteer: Gazetteer | None = None, *,
                         rule_spans: tuple[list[tuple[str, str, list[Any], int, int]], bytearray] | None = None
                         ) -> list[tuple[Extension, dict[str, float]]]:
    """Every :func:`extensions` candidate of ``doc``'s rule spans with its :func:`extension_features`."""
    gaz, text, spans, occupied, abstract_start = _doc_inputs(doc, gazetteer, rule_spans)
    if not spans:
        return []
    exts = extensions(text, [(s, e, label, v[0], v[2]) for _k, label, v, s, e in spans], abstract_start, occupied)
    return [(x, extension_features(x, text, gaz, abstract_start)) for x in exts]


# ----------------------------------------------------------------------------- descriptive phrases
#: Cue words after which the paper's own descriptive name may follow ("we propose stochastic frame
#: averaging", "which we call layer rewinding", "the proposed joint-rational activation", "our X").
#: Cue words after which the paper's own descriptive name may follow, by kind: stem -> (endings, kind)
#: ("we propose stochastic frame averaging", "which we call layer rewinding", "the proposed X", "our X",
#: "namely X"; "our X" and "a novel X" alone were measured as cues and gave no phrase the model took,
#: out of fold on the silver batches). Found with ``str.find`` in the lower-cased text (a regular expression of
#: the alternatives tried at every position cost more than the rest of the component).
_PH_CUE_STEMS: dict[str, tuple[tuple[str, ...], str]] = {
    "propos": (("e", "es", "ed", "ing"), "propose"), "introduc": (("e", "es", "ed", "ing"), "propose"),
    "present": (("", "s", "ed", "ing"), "propose"), "develop": (("", "s", "ed", "ing"), "propose"),
    "devis": (("e", "es", "ed", "ing"), "propose"), "design": (("", "s", "ed", "ing"), "propose"),
    "call": (("", "s", "ed"), "naming"), "term": (("", "s", "ed"), "naming"), "dub": (("", "s", "bed"), "naming"),
    "name": (("", "s", "d"), "naming"), "coin": (("", "s", "ed"), "naming"), "namely": (("",), "naming"),
    "to as": (("",), "naming"), "known as": (("",), "naming"), "denoted as": (("",), "naming"),
}
#: List openers: "two components: X and Y", "-- X --", "(i) X", "1) X".
_PH_LIST_MARKS = (": ", " - ", " -- ", " --- ", " — ")
_PH_ENUM = re.compile(r"(?:^|[\s(])(?:[1-9]|i{1,3}|iv|v)\)$")


def _ph_cue_sites(low: str, start: int) -> list[tuple[int, str, str]]:
    """(end of the cue, cue word, kind) of every cue of ``low`` (lower-cased text) from ``start``."""
    out = []
    n = len(low)
    for stem, (endings, kind) in _PH_CUE_STEMS.items():
        i = low.find(stem, start)
        while i >= 0:
            j = i + len(stem)
            if i == 0 or not (low[i - 1].isalnum() or low[i - 1] in "-_/\\"):
                while j < n and low[j].isalpha():
                    j += 1
                if low[i + len(stem):j] in endings:
                    out.append((j, low[i:j], kind))
            i = low.find(stem, j)
    for mark in _PH_LIST_MARKS:
        i = low.find(mark, start)
        while i >= 0:
            out.append((i + len(mark), mark.strip(), "list"))
            i = low.find(mark, i + len(mark))
    i = low.find(")", start)
    while i >= 0:
        if _PH_ENUM.search(low, max(start, i - 4), i + 1):
            out.append((i + 1, low[max(start, i - 3):i + 1].strip(" ("), "list"))
        i = low.find(")", i + 1)
    out.sort()
    return out


#: Emphasised or quoted text (``*X*``, ``\\textit{X}``, ```X''``, ``"X"``), each with a character that
#: must occur in a text for its expression to be tried.
_PH_EMPH = (("*", re.compile(r"\*{1,2}([^*\n]{3,80}?)\*{1,2}")),
            ("\\", re.compile(r"\\(?:textit|emph|textbf|texttt|textsc|underline)\{([^{}]{3,80})\}")),
            ("``", re.compile(r"``([^`'\n]{3,80})''")),
            ('"', re.compile(r'"([^"\n]{3,80})"')),
            ("“", re.compile(r"“([^“”\n]{3,80})”")))
#: ", a novel ...": the phrase before the comma is described by what follows.
_PH_APPOS = re.compile(r",\s+(?:a|an)\s+")
#: One token of a phrase window: a word (hyphenated parts, inner apostrophes), a quote or emphasis
#: mark (``\\textit{``, ``*``, quotes, ``$``), or any other character (punctuation).
_PH_TOKEN = re.compile(r"(?P<w>[A-Za-z](?:[A-Za-z'’]*[A-Za-z])?(?:-[A-Za-z0-9](?:[A-Za-z0-9'’]*[A-Za-z0-9])?)*)"
                       r"|(?P<q>\\[A-Za-z]+\s*\{|\$|\*+|``|''|[\"“”‘’`{}])|(?P<p>\S)")
#: Words skipped between a cue and the phrase ("we propose a simple yet effective X").
_PH_SKIP = frozenset((
    "a", "an", "the", "our", "this", "these", "two", "three", "novel", "new", "simple", "effective", "efficient",
    "general", "generic", "unified", "principled", "flexible", "lightweight", "first", "so-called", "yet",
    "and", "highly", "very", "called", "named", "termed", "dubbed", "it", "them", "this", "to", "as", "we",
    "here", "then", "also", "further", "furthermore", "proposed", "surprisingly", "remarkably", "thus", "hence"))
#: Words inside a name only between other words ("monotonic groves of neural additive models",
#: "noise to noise mapping", "masked knowledge distillation with bootstrapped teachers").
_PH_CONNECT = frozenset(("of", "with", "to", "for", "as", "via", "in", "on", "from", "by", "and"))
#: Words a phrase never holds: function words, pronouns, auxiliaries, the cue words, common verbs.
_PH_STOP = frozenset((
    "a", "an", "the", "but", "nor", "or", "at", "into", "onto", "over", "under", "is", "are", "was", "were", "be",
    "been", "being", "has", "have", "had", "do", "does", "did", "can", "could", "may", "might", "will", "would",
    "shall", "should", "must", "that", "this", "these", "those", "which", "who", "whom", "whose", "what", "when",
    "where", "while", "than", "then", "thus", "hence", "also", "both", "each", "every", "all", "any", "some",
    "such", "other", "its", "their", "his", "her", "it", "they", "them", "we", "our", "us", "you", "your", "not",
    "no", "only", "more", "most", "less", "very", "much", "many", "few", "several", "between", "among",
    "through", "across", "about", "after", "before", "during", "since", "until", "if", "so", "yet", "i", "e",
    "g", "ie", "eg", "etc", "vs", "per", "up", "there", "here", "how", "why", "like", "unlike", "based",
    "using", "used", "use", "uses", "whether", "either", "same", "different", "however", "moreover", "novel",
    "new", "show", "shows", "showed", "shown", "demonstrate", "demonstrates", "achieve", "achieves", "enables",
    "allows", "leads", "provides", "provide", "yields", "improves", "outperforms", "significantly",
    "substantially", "further", "namely", "respectively", "specifically", "particular", "existing", "prior",
    "previous", "recent", "standard", "well", "able", "instead", "without", "within", "toward", "towards",
    "upon", "against", "along", "around", "because", "although", "though", "via", *_CUE_WORDS))
#: Heads that alone name nothing ("a new method", "our framework").
_PH_GENERIC = frozenset((
    "method", "approach", "framework", "algorithm", "model", "technique", "strategy", "scheme", "procedure",
    "system", "architecture", "module", "mechanism", "network", "solution", "pipeline", "paradigm", "tool",
    "objective", "loss", "family", "class", "variant", "set", "way", "idea", "notion", "formulation",
    "methodology", "recipe", "benchmark", "dataset", "task", "problem", "analysis", "study", "work", "paper",
    "version", "extension", "alternative", "estimator", "learner", "policy", "agent", "layer", "function",
    "perspective", "view", "setting", "measure", "metric", "term", "notion", "concept", "principle", "form",
    "kind", "type", "number", "series", "suite", "collection", "library", "toolkit", "package", "data",
    "training", "learning", "regularization", "regularizer", "attention", "optimization", "inference"))
#: "a X of Y": Y is the phrase ("a notion of universal graph canonization").
_PH_OF_HEADS = frozenset(("notion", "family", "class", "kind", "type", "form", "variant", "set", "suite", "series",
                          "version", "generalization", "extension", "combination", "framework", "method"))
#: A hyphenated modifier: "training-free", "gradient-guided", "phase-level", "model-agnostic".
_PH_MODIFIER = re.compile(r"-(?:[a-z]+ed|[a-z]*(?:like|based|wise|free|aware|specific|level|style|scale|type|only|"
                          r"driven|guided|inspired|friendly|agnostic|dependent|independent|invariant|efficient))$")
_PH_NEXT_WORD = re.compile(r"[\"'”’`*}$]*\s+([A-Za-z]+)")
#: Heads of what the annotation guidelines never label (metrics, phenomena, problems, settings).
_PH_NEVER_HEADS = frozenset((
    "metric", "measure", "score", "index", "bias", "effect", "phenomenon", "problem", "task", "setting",
    "hypothesis", "property", "assumption", "condition", "theorem", "bound", "rate", "error", "gap", "risk",
    "law", "regime", "criterion", "accuracy", "complexity", "question", "paradigm", "collapse", "phase",
    "issue", "trade-off", "tradeoff", "challenge", "consistency"))
#: "X (ABC)": an acronym defined right after; the definition's long form is the abbreviations' and
#: the untyped definitions' (:func:`candidates`), not a phrase of its own.
_DEFINED_AFTER = re.compile(r"\s*\(\s*(?:[A-Z$\\]|[a-z]+[A-Z])")
#: Most words in a phrase (connectors included) and phrase candidates per document.
_PH_MAX_WORDS = 7
_PH_MAX = 40


@dataclass(frozen=True, slots=True)
class Phrase:
    """A descriptive phrase in reach of a proposal cue that no rule typed ("stochastic frame
    averaging", "expertise trees", "dual focal loss").

    ``surface`` is the text at ``anchor`` (its first cue site, or its first abstract occurrence for
    a title phrase), ``words`` its words in lower case, ``cues`` the kinds of cue that reached it
    (``propose``, ``naming``, ``our``, ``appos``, ``title``), ``skipped`` the words between the cue
    word and the phrase at the anchor ("a", "novel"), ``cue_word`` the cue word there, ``after``
    the token after the anchor (a word in lower case, or a punctuation character; ``""`` at the
    end), ``longer`` whether the phrase could have gone on (a longer candidate of the same run
    exists), ``count`` how often its lower-cased text occurs in the abstract (as a substring: the
    whole-word occurrences, :func:`phrase_occurrences`, are found only for the phrases chosen) and
    ``in_title`` whether it occurs in the title.
    """

    surface: str
    words: tuple[str, ...]
    cues: tuple[str, ...]
    anchor: tuple[int, int]
    count: int
    in_title: bool
    skipped: tuple[str, ...] = ()
    cue_word: str = ""
    after: str = ""
    longer: bool = False


def _ph_tokens(text: str, start: int, end: int) -> list[tuple[str, int, int]]:
    """(kind ``w``/``q``/``p``, start, end) of the tokens of ``text[start:end]``."""
    return [(m.lastgroup or "p", m.start(), m.end()) for m in _PH_TOKEN.finditer(text, start, end)]


def _ph_word_ok(w: str) -> bool:
    return w not in _PH_STOP and len(w) <= 30 and not _PH_MODIFIER.search(w)


def _ph_forward(text: str, toks: list[tuple[str, int, int]], i: int, occupied: bytearray
                ) -> tuple[list[tuple[int, int]], list[str], int]:
    """The run of phrase words starting at token ``i`` (after the skipped words): the
    ``(start, end)`` of each word, the words in lower case, and the index of the token after."""
    spans: list[tuple[int, int]] = []
    words: list[str] = []
    k = i
    while k < len(toks) and len(words) < _PH_MAX_WORDS:
        kind, s, e = toks[k]
        if kind != "w" or any(occupied[s:e]):
            break
        w = text[s:e].lower()
        if w in _PH_CONNECT:
            if not words or words[-1] in _PH_CONNECT:
                break
        elif w in _PH_STOP or len(w) > 30:
            break
        spans.append((s, e))
        words.append(w)
        k += 1
    while words and (words[-1] in _PH_CONNECT or _PH_MODIFIER.search(words[-1])):
        spans.pop()
        words.pop()
        k -= 1
    return spans, words, k


def _ph_variants(spans: list[tuple[int, int]], words: list[str], *, backward: bool = False
                 ) -> list[tuple[int, int, bool]]:
    """The candidate phrases of one run: ``(first word, last word + 1, longer)``; every prefix (a
    suffix for a run read backward from ", a ...") that ends (starts) in a content word and is not
    made of generic heads and connectors alone."""
    n = len(words)
    out = []
    lead = 1 if n > 1 and _PH_MODIFIER.search(words[0]) else 0  # "training-free X": X too
    starts = {0, lead} | {i + 1 for i, w in enumerate(words) if w == "and"}  # "X and Y": Y too
    for a in range(n):
        for b in range(a + 1, n + 1):
            if backward and b != n or not backward and a not in starts:
                continue
            ws = words[a:b]
            if ws[0] in _PH_CONNECT or ws[-1] in _PH_CONNECT or _PH_MODIFIER.search(ws[-1]):
                continue
            if all(w in _PH_GENERIC or w in _PH_CONNECT for w in ws):
                continue
            out.append((a, b, (b < n) if not backward else (a > 0)))
    return out


def phrases(text: str, abstract_start: int, occupied: bytearray, gazetteer: Gazetteer | None = None
            ) -> list[Phrase]:
    """The descriptive phrase candidates of ``text`` (title, separator, abstract) that no rule span
    (``occupied``) touches: every phrase of 1-7 words (:func:`_ph_forward`, :func:`_ph_variants`)
    right after a proposal or naming cue word or "our" (a few determiners and novelty adjectives
    may come between, :data:`_PH_SKIP`), before ", a/an ..." in the same sentence, or a run of
    the title's words that recurs in the abstract; one per lower-cased surface (its cues merged),
    at most :data:`_PH_MAX`; none that is a stop name of ``gazetteer`` (metrics, generic names)."""
    found: dict[str, dict[str, Any]] = {}
    n = len(text)
    low = text.lower()
    if len(low) != n:
        low = text  # a character whose lower case is longer: offsets would move

    def add(s: int, e: int, cue: str, skipped: tuple[str, ...], cue_word: str, after: str, longer: bool) -> None:
        surface = text[s:e]
        key = surface.lower()
        c = found.get(key)
        if c is None:
            head = key.rsplit(" ", 1)[-1].rsplit("-", 1)[-1]
            if len(found) >= _PH_MAX or (gazetteer is not None and gazetteer.is_stop(key)) or head in _PH_NEVER_HEADS \
                    or _plural_fold(head) in _PH_NEVER_HEADS or _DEFINED_AFTER.match(text, e) \
                    or _CAMEL.search(surface) or after in _PH_NEVER_HEADS:
                return  # "Graph cOmplementAry Learning": an acronym spelled out, defined elsewhere
            found[key] = {"s": s, "e": e, "cues": {cue}, "skipped": skipped, "cue_word": cue_word,
                          "after": after, "longer": longer}
        else:
            c["cues"].add(cue)

    def after_of(toks: list[tuple[str, int, int]], k: int) -> str:
        while k < len(toks) - 1 and toks[k][0] == "q":
            k += 1  # '"X" issue': the word after the closing quote
        if k >= len(toks):
            return ""
        kind, s, e = toks[k]
        return text[s:e].lower() if kind == "w" else text[s:s + 1]

    for end, cue_word, cue in _ph_cue_sites(low, abstract_start):
        toks = _ph_tokens(text, end, min(n, end + 110))
        i = 0
        skipped: list[str] = []
        while i < len(toks) and len(skipped) < 5:
            kind, s, e = toks[i]
            if kind == "q":
                i += 1
                continue
            w = text[s:e].lower() if kind == "w" else ""
            if w in _PH_SKIP:
                skipped.append(w)
                i += 1
                continue
            if w in _PH_OF_HEADS and i + 1 < len(toks) and text[toks[i + 1][1]:toks[i + 1][2]] == "of":
                skipped += [w, "of"]  # "a notion of X", "a new family of X"
                i += 2
                continue
            break
        spans, words, k = _ph_forward(text, toks, i, occupied)
        if not words:
            continue
        # "a novel algorithm --- X ---", "a new method, X, ...": the name after a lone generic head
        if len(words) == 1 and words[0] in _PH_GENERIC and k < len(toks) and toks[k][0] == "p" \
                and text[toks[k][1]] in ",:-—(":
            j = k
            while j < len(toks) and toks[j][0] != "w":
                j += 1
            spans2, words2, k2 = _ph_forward(text, toks, j, occupied)
            if words2 and j - k <= 3:
                for a, b, longer in _ph_variants(spans2, words2):
                    add(spans2[a][0], spans2[b - 1][1], "naming", tuple(skipped) + (words[0],), cue_word,
                        after_of(toks, k2) if not longer else words2[b], longer)
            continue
        for a, b, longer in _ph_variants(spans, words):
            add(spans[a][0], spans[b - 1][1], cue, tuple(skipped), cue_word,
                words[b] if longer else after_of(toks, k), longer)
    for m in _PH_APPOS.finditer(text, abstract_start):
        lo = max(abstract_start, m.start() - 120)
        toks = _ph_tokens(text, lo, m.start())
        k = len(toks)
        while k > 0 and toks[k - 1][0] == "q":
            k -= 1
        j = k
        while j > 0 and toks[j - 1][0] == "w" and (k - j) < _PH_MAX_WORDS:
            w = text[toks[j - 1][1]:toks[j - 1][2]].lower()
            if any(occupied[toks[j - 1][1]:toks[j - 1][2]]) or (w not in _PH_CONNECT and not _ph_word_ok(w)):
                break
            j -= 1
        while j < k and text[toks[j][1]:toks[j][2]].lower() in _PH_CONNECT:
            j += 1
        if j >= k:
            continue
        spans = [(s, e) for _kind, s, e in toks[j:k]]
        words = [text[s:e].lower() for s, e in spans]
        prev = text[toks[j - 1][1]:toks[j - 1][2]].lower() if j > 0 else ""
        for a, b, longer in _ph_variants(spans, words, backward=True):
            add(spans[a][0], spans[b - 1][1], "appos", (words[a - 1],) if longer else (prev,), "", ",", longer)
    for marker, emph in _PH_EMPH:
        if marker not in text:
            continue
        for m in emph.finditer(text, abstract_start):
            g = m.lastindex or 1
            toks = _ph_tokens(text, m.start(g), m.end(g))
            if not toks or any(kind != "w" for kind, _s, _e in toks):
                continue
            spans, words, k = _ph_forward(text, toks, 0, occupied)
            if words and k == len(toks) and not all(w in _PH_GENERIC for w in words):
                nxt = _PH_NEXT_WORD.match(text, m.end())
                add(spans[0][0], spans[-1][1], "emph", (), "", nxt.group(1).lower() if nxt else text[m.end():m.end() + 1],
                    False)  # '"X" issue': the word after the closing mark
                if len(words) > 1 and words[-1] in _PH_GENERIC or words[-1] in ("operation", "operator", "unit"):
                    add(spans[0][0], spans[-2][1], "emph", (), "", words[-1], True)  # "*X mechanism*"
    sep = abstract_start - len(_SEPARATOR)
    if sep > 0:
        title_toks = _ph_tokens(text, 0, sep)
        runs: list[list[tuple[int, int]]] = [[]]
        for kind, s, e in title_toks:
            w = text[s:e].lower()
            if kind == "w" and _ph_word_ok(w) and w not in _PH_CONNECT:
                runs[-1].append((s, e))
            elif runs[-1]:
                runs.append([])
        for run in runs:
            for a in range(len(run)):
                for b in range(a + 2, min(len(run), a + 5) + 1):
                    words = [text[s:e].lower() for s, e in run[a:b]]
                    if all(w in _PH_GENERIC for w in words):
                        continue
                    phrase = " ".join(words)
                    if low.find(phrase, abstract_start) < 0:
                        continue
                    occ = [o for o in _occurrences(low, phrase, abstract_start) if not any(occupied[o[0]:o[1]])]
                    if occ:
                        s, e = occ[0]
                        add(s, e, "title", (), "", text[e:e + 1], False)
    out = []
    title = low[:max(0, abstract_start - len(_SEPARATOR))]
    for key, c in found.items():
        out.append(Phrase(text[c["s"]:c["e"]], tuple(_PH_TOKEN_WORDS.findall(key)), tuple(sorted(c["cues"])),
                          (c["s"], c["e"]), low.count(key, abstract_start), key in title, c["skipped"],
                          c["cue_word"], c["after"], c["longer"]))
    return out


def phrase_occurrences(ph: Phrase, text: str, occupied: bytearray) -> list[tuple[int, int]]:
    """Every whole-word occurrence of ``ph`` in ``text`` (either case, a plural ``s`` absorbed)
    that no rule span (``occupied``) touches, its anchor included, in text order."""
    low = text.lower()
    if len(low) != len(text):
        low = text
    occ = [o for o in _occurrences(low, ph.surface.lower()) if not any(occupied[o[0]:o[1]])]
    if ph.anchor not in occ:
        occ = sorted({*occ, ph.anchor})
    return occ


_PH_TOKEN_WORDS = re.compile(r"[a-z][a-z'’]*(?:-[a-z0-9][a-z0-9'’]*)*")


#: The features of a phrase (:func:`phrase_features`), in the phrase model's order.
PHRASE_CUES = ("propose", "naming", "appos", "title", "emph", "list")
PHRASE_FIXED_FEATURES = (
    "bias", *("cue=" + c for c in PHRASE_CUES), "cues>=2", "gap0", "skip_a", "skip_the", "skip_novel", "skip_our",
    "skip_of", "skip_generic", "nw=1", "nw=2", "nw=3", "nw>=4", "connector", "longer", "after_punct",
    "after_comma", "after_period", "after_paren", "after_word", "after_generic", "after_connector", "after_clause",
    "after_is", "all_lower", "title_case", "mixed_case", "hyphen", "head_generic", "head_plural", "head_ing",
    "head_tion", "first_adj", "first_modifier", *("headcls=" + c for c in ("method", "benchmark", "none", "field")),
    "gaz_phrase", "gaz_head", "gaz_word", "log_count", "count>=2", "count>=3", "in_title", "title_overlap",
    "position", "first_sentence", "pos_late", "we_in_sentence", "propose_in_sentence", "used_in_sentence",
    "none_near", "bench_near", "doc_has_proposed", "sentence_start",
)
PHRASE_WORD_PREFIXES = ("head=", "first=", "cw=", "after=", "prev=")
_CLAUSE = frozenset(("that", "which", "where", "who", "whose", "to", "for", "by", "using", "via", "with"))
_IS = frozenset(("is", "are", "was", "were", "can", "has", "have", "achieves", "outperforms", "improves"))


def phrase_features(ph: Phrase, text: str, gazetteer: Gazetteer, abstract_start: int, *,
                    doc_proposed: bool = False) -> dict[str, float]:
    """Features of one descriptive phrase: the cues that reached it and what came between, its
    length, case and head noun, where it stops (punctuation, a clause, a generic head "X
    method"), how often and where it recurs, title overlap, gazetteer membership and the cue
    words of its sentence."""
    f: dict[str, float] = {"bias": 1.0}
    for c in ph.cues:
        f["cue=" + c] = 1.0
    if len(ph.cues) >= 2:
        f["cues>=2"] = 1.0
    if ph.cue_word:
        f["cw=" + ph.cue_word.split()[0]] = 1.0
    sk = ph.skipped
    if not sk:
        f["gap0"] = 1.0
    for w in sk:
        if w in ("a", "an"):
            f["skip_a"] = 1.0
        elif w == "the":
            f["skip_the"] = 1.0
        elif w == "our":
            f["skip_our"] = 1.0
        elif w == "of":
            f["skip_of"] = 1.0
        elif w in _PH_GENERIC:
            f["skip_generic"] = 1.0
        elif _CUE_WORDS.get(w) == "novel":
            f["skip_novel"] = 1.0
    words = ph.words
    n = len([w for w in words if w not in _PH_CONNECT])
    f["nw=1" if n == 1 else "nw=2" if n == 2 else "nw=3" if n == 3 else "nw>=4"] = 1.0
    if any(w in _PH_CONNECT for w in words):
        f["connector"] = 1.0
    if ph.longer:
        f["longer"] = 1.0
    a = ph.after
    if not a or not a[0].isalpha():
        f["after_punct"] = 1.0
        if a == ",":
            f["after_comma"] = 1.0
        elif a in (".", ";", ""):
            f["after_period"] = 1.0
        elif a in "([":
            f["after_paren"] = 1.0
    else:
        f["after_word"] = 1.0
        f["after=" + a] = 1.0
        if _plural_fold(a) in _PH_GENERIC:
            f["after_generic"] = 1.0
        if a in _PH_CONNECT:
            f["after_connector"] = 1.0
        if a in _CLAUSE:
            f["after_clause"] = 1.0
        if a in _IS:
            f["after_is"] = 1.0
    surface = ph.surface
    parts = surface.replace("-", " ").split()
    content = [w for w in parts if w.lower() not in _PH_CONNECT]
    if not _HAS_UPPER.search(surface):
        f["all_lower"] = 1.0
    elif content and all(w[:1].isupper() for w in content):
        f["title_case"] = 1.0
    else:
        f["mixed_case"] = 1.0
    if "-" in surface:
        f["hyphen"] = 1.0
    head = words[-1].split("-")[-1] if words else ""
    hf = _plural_fold(head)
    f["head=" + hf] = 1.0
    if hf in _PH_GENERIC:
        f["head_generic"] = 1.0
    if head != hf:
        f["head_plural"] = 1.0
    if head.endswith("ing"):
        f["head_ing"] = 1.0
    elif head.endswith(("tion", "sion", "ment")):
        f["head_tion"] = 1.0
    for cls, heads in _HEADS.items():
        if hf in heads:
            f["headcls=" + cls] = 1.0
    first = words[0] if words else ""
    if n > 1:
        f["first=" + first] = 1.0
        if first.endswith(_ADJ_SUFFIX):
            f["first_adj"] = 1.0
        if _PH_MODIFIER.search(first):
            f["first_modifier"] = 1.0
    if gazetteer.lookup(surface) is not None:
        f["gaz_phrase"] = 1.0
    if n > 1:
        if gazetteer.lookup(head) is not None:
            f["gaz_head"] = 1.0
        if any(gazetteer.lookup(w) is not None for w in words[:-1] if w not in _PH_CONNECT):
            f["gaz_word"] = 1.0
    f["log_count"] = math.log1p(ph.count)
    if ph.count >= 2:
        f["count>=2"] = 1.0
        if ph.count >= 3:
            f["count>=3"] = 1.0
    sep = abstract_start - len(_SEPARATOR)
    if ph.in_title:
        f["in_title"] = 1.0
    elif sep > 0:
        tw = _title_words(text[:sep])
        lw = [w for w in words if len(w) > 3]
        if lw and sum(w in tw for w in lw) / len(lw) >= 0.5:
            f["title_overlap"] = 1.0
    s, e = ph.anchor
    _add_position(f, s, text, abstract_start, first=False)
    ss, se = _sentence(text, s, e, abstract_start)
    if ss == abstract_start:
        f["first_sentence"] = 1.0
    before = text[ss:s].lower()
    if not before.strip(" *`'\"{}$\\") or before.rstrip().endswith((":", "(")):
        f["sentence_start"] = 1.0
    bw = _CUE_TOKEN.findall(before)
    aw = _CUE_TOKEN.findall(text[e:se].lower())
    if bw:
        f["prev=" + bw[-1]] = 1.0
    for k, g in _cues(bw):
        if g == "we":
            f["we_in_sentence"] = 1.0
        elif g == "propose":
            f["propose_in_sentence"] = 1.0
        elif g == "used":
            f["used_in_sentence"] = 1.0
        elif g == "none" and k >= len(bw) - 4:
            f["none_near"] = 1.0
        elif g == "bench" and k >= len(bw) - 4:
            f["bench_near"] = 1.0
    for k, g in _cues(aw[:4]):
        if g == "none":
            f["none_near"] = 1.0
        elif g == "bench":
            f["bench_near"] = 1.0
        elif g == "we":
            f["we_in_sentence"] = 1.0
    if doc_proposed:
        f["doc_has_proposed"] = 1.0
    return f


def featurize_phrases(doc: Doc, gazetteer: Gazetteer | None = None, *,
                      rule_spans: tuple[list[tuple[str, str, list[Any], int, int]], bytearray] | None = None
                      ) -> list[tuple[Phrase, dict[str, float]]]:
    """Every :func:`phrases` candidate of ``doc`` with its :func:`phrase_features`."""
    gaz, text, spans, occupied, abstract_start = _doc_inputs(doc, gazetteer, rule_spans)
    phs = phrases(text, abstract_start, occupied, gaz)
    if not phs:
        return []
    proposed = _has_proposed(spans, abstract_start, text)
    return [(p, phrase_features(p, text, gaz, abstract_start, doc_proposed=proposed)) for p in phs]


def _choose_phrases(model: Model, predicted: list[tuple[Phrase, list[float]]], text: str, occupied: bytearray
                    ) -> list[tuple[int, int, str, str, str]]:
    """``(start, end, label, role, canonical)`` of every occurrence of the phrases whose most likely
    class other than ``none`` is a proposed one and passes ``thresholds["phrase"]``, most
    probable first; a phrase overlapping one already chosen is left out."""
    th = model.thresholds.get(PHRASE, 1.01)
    chosen = []
    for ph, probs in predicted:
        best = max(range(1, len(probs)), key=lambda i: probs[i])
        cls = model.classes[best]
        if cls.endswith(PROPOSED) and probs[best] >= th:
            chosen.append((probs[best], ph, cls))
    if not chosen:
        return []
    chosen.sort(key=lambda t: -t[0])
    taken: list[tuple[int, int]] = []
    out = []
    for _p, ph, cls in chosen:
        occ = [(a, b) for a, b in phrase_occurrences(ph, text, occupied)
               if not any(a < y and x < b for x, y in taken)]
        if ph.anchor not in occ:
            continue
        canonical = ph.surface
        rest = canonical.split()[1:]
        if rest and canonical[:1].isupper() and canonical[1:2].islower() and not any(w[:1].isupper() for w in rest):
            canonical = canonical[:1].lower() + canonical[1:]  # "Shuffle coding" at a sentence start
        label = BENCHMARK if cls.startswith("benchmark") else METHOD
        for a, b in occ:
            taken.append((a, b))
            out.append((a, b, label, PROPOSED, canonical))
    return out


# ----------------------------------------------------------------------------- the used-name filter
#: The used-name filter's classes (:attr:`Model.used`): drop the name, or keep it.
USED_CLASSES = ("drop", "keep")
#: The used-name filter's threshold key: a used name is dropped when ``P(keep)`` is below it
#: (0: off).
USED_FILTER = "keep"
#: Most occurrences of a used name whose neighbourhood is read.
_UF_MAX_OCC = 6
#: Cue words around a used name, by kind (looked up word by word in the 6 words before / 4 after).
_UF_BEFORE: dict[str, str] = {}
for _kind, _words in (
        ("cmp", ("than", "outperform", "outperforms", "outperforming", "outperformed", "surpass", "surpasses",
                 "surpassing", "beats", "beat", "versus", "vs", "against", "compared", "compare", "comparing",
                 "comparison", "comparisons", "baseline", "baselines", "over", "competitive", "relative")),
        ("example", ("e", "g", "eg", "including", "include", "includes", "like", "such", "instance", "example")),
        ("use", ("use", "uses", "using", "used", "apply", "applies", "applying", "applied", "employ", "employs",
                 "employing", "employed", "leverage", "leverages", "leveraging", "adopt", "adopts", "adopting",
                 "adopted", "via", "with", "through", "build", "builds", "built", "building", "based", "upon",
                 "extend", "extends", "extending", "combine", "combines", "combining", "integrate", "integrates",
                 "train", "trains", "trained", "training", "fine-tune", "fine-tuned", "finetune", "finetuned",
                 "initialize", "initialized", "backbone", "backbones", "plug", "replace", "replacing")),
        ("study", ("study", "studies", "studied", "analyze", "analyzes", "analyse", "analysis", "analyzing",
                   "understand", "understanding", "investigate", "investigates", "investigating", "theory",
                   "theoretical", "explain", "explains", "examine", "examines", "characterize", "interpret",
                   "behavior", "behaviour", "dynamics", "convergence", "properties", "success", "limitations")),
        ("eval", ("on", "across", "evaluate", "evaluated", "evaluating", "evaluation", "experiments", "benchmark",
                  "benchmarks", "dataset", "datasets", "tasks", "results")),
        ("of", ("of", "for", "to", "in", "from", "by")),
        ("det", ("the", "a", "an")),
        ("our", ("our", "we", "this", "here")),
        ("known", ("existing", "previous", "prior", "popular", "standard", "classic", "classical", "conventional",
                   "well-known", "widely", "commonly", "state-of-the-art", "sota", "traditional", "vanilla",
                   "original", "recent", "strong", "common", "typical", "representative", "mainstream",
                   "established", "famous", "celebrated", "seminal", "prominent", "leading"))):
    for _w in _words:
        _UF_BEFORE.setdefault(_w, _kind)
_UF_AFTER = {w: k for w, k in _UF_BEFORE.items() if k in ("cmp", "use", "eval", "study")}
_UF_LIST_AFTER = re.compile(r"\s*(?:,|/|;)?\s*(?:and|or)?\s*$")
_UF_WORDS = re.compile(r"[a-z][a-z'-]*")
_UF_UPPER_WORD = re.compile(r"\b[A-Z][A-Za-z0-9-]*")
#: The features of a used name (:func:`used_features`), in the filter model's order.
USED_FIXED_FEATURES = (
    "bias", "type=method", "type=benchmark", "only_gazetteer", "rules>=2", "gaz_none", "gaz_other_type",
    "n_allcaps", "n_camel", "n_digit", "n_hyphen", "n_lower", "n_multiword", "n_titlecase", "n_lowerwords",
    "n_len<=3", "n_len4-9", "n_len10+", "n_common", "n_plural", "n_forms>=2", "defined", "acronym_form",
    *("headcls=" + c for c in ("method", "benchmark", "none", "field")),
    "log_count", "count=1", "count>=3", "in_title", "title_start", "title_words", "position", "pos_first",
    "pos_late", "first_sentence", "last_sentence",
    *("b_" + k for k in ("cmp", "example", "use", "study", "eval", "of", "det", "our", "known")),
    *("a_" + k for k in ("cmp", "use", "eval", "study")),
    "first_b_of", "first_b_det", "first_b_use", "first_b_example", "first_b_cmp",
    "list_before", "list_after", "in_parens", "next_headcls=method", "next_headcls=benchmark",
    "next_headcls=none", "next_headcls=field", "sent_we", "sent_propose", "sent_names>=3", "near_proposed",
    "doc_used>=5", "doc_has_proposed", "sentence_start", "a_hyphen", "next_noun", "once_first_sentence",
    "once_lower", "lower_next_noun",
)
#: Word-identity features of the filter (kept when seen often enough in training).
USED_WORD_PREFIXES = ("name=", "rule=", "src=", "head=", "prev=", "next=")


def used_candidates(spans: list[tuple[str, str, list[Any], int, int]], text: str, abstract_start: int
                    ) -> list[Candidate]:
    """One candidate per canonical name of the rules' spans whose role is ``used`` everywhere and
    that has a mention in the abstract, every rule included (the gazetteer's names too), text order."""
    groups: dict[str, dict[str, Any]] = {}
    for k, label, v, s, e in spans:
        role, canonical, rule, _offsets = v
        g = groups.get(entity_key(canonical or text[s:e]))
        if g is None:
            g = groups[entity_key(canonical or text[s:e])] = {
                "canonical": canonical or text[s:e], "label": label, "proposed": False, "rules": set(),
                "occ": [], "keys": []}
        if role == PROPOSED:
            g["proposed"] = True
        g["rules"].add(rule or "")
        g["occ"].append((s, e))
        g["keys"].append(k)
    out = []
    for g in groups.values():
        if g["proposed"]:
            continue
        occ = sorted(g["occ"])
        first = next((o for o in occ if o[0] >= abstract_start), None)
        if first is None:
            continue
        surfaces = sorted({text[s:e] for s, e in occ}, key=len)
        canonical = g["canonical"]
        short = surfaces[0][:_MAX_NAME]
        long = canonical if " " in canonical else (surfaces[-1] if " " in surfaces[-1] else None)
        etype = "benchmark" if g["label"] == BENCHMARK else "method"
        out.append(Candidate("rule", long, short, tuple(occ), first, f"{etype}/{USED}",
                             tuple(sorted(g["rules"])), tuple(g["keys"])))
    out.sort(key=lambda c: c.anchor)
    return out


def used_features(cand: Candidate, text: str, gazetteer: Gazetteer, abstract_start: int, occupied: bytearray, *,
                  doc_used: int = 0, proposed_at: Sequence[int] = ()) -> dict[str, float]:
    """Features of one used name the rules or the gazetteer gave: who found it (rules, gazetteer
    source, an entry of the other type), its shape (capitals, digits, words, a common English word,
    a plural), its head noun and name (word identities), how often and where it occurs (title,
    position, first/last sentence), and what surrounds its occurrences in the abstract: comparison
    and baseline cues ("outperforms", "than", "baselines"), examples ("e.g.", "such as",
    "including"), use ("use/apply/build on/with"), study ("we analyze", "the dynamics of"),
    evaluation ("on X"), "of/for" and a determiner right before, existing-work adjectives, another
    name of the rules right before or after (a list), parentheses, the head noun right after, the
    authors' and proposal cues and the number of names in its sentence, a proposed name nearby.

    ``doc_used``: how many used names the document has; ``proposed_at``: the start offsets of the
    rules' proposed names.
    """
    f: dict[str, float] = {"bias": 1.0, "type=" + cand.rule_class.split("/")[0]: 1.0}  # type: ignore[union-attr]
    rules = cand.rules
    for r in rules:
        f["rule=" + r] = 1.0
    if set(rules) <= _KEEP_RULES:
        f["only_gazetteer"] = 1.0
    if len(set(rules) - {"repeat"}) >= 2:
        f["rules>=2"] = 1.0
    name = cand.long or cand.short
    key = entity_key(name)
    f["name=" + key] = 1.0
    entry = gazetteer.lookup(name) or (gazetteer.lookup(cand.short) if cand.long else None)
    if entry is None:
        f["gaz_none"] = 1.0
    else:
        f["src=" + entry.source] = 1.0
        if entry.type != cand.rule_class.split("/")[0]:  # type: ignore[union-attr]
            f["gaz_other_type"] = 1.0
    short = cand.short
    letters = [c for c in short if c.isalpha()]
    if letters and all(c.isupper() for c in letters) and len(letters) >= 2:
        f["n_allcaps"] = 1.0
    elif _CAMEL.search(short):
        f["n_camel"] = 1.0
    if _DIGIT.search(name):
        f["n_digit"] = 1.0
    if "-" in name:
        f["n_hyphen"] = 1.0
    if name[:1].islower():
        f["n_lower"] = 1.0
    words = name.split()
    if len(words) >= 2:
        f["n_multiword"] = 1.0
        content = [w for w in words if len(w) > 3]
        if content and all(w[:1].isupper() for w in content):
            f["n_titlecase"] = 1.0
        elif not _HAS_UPPER.search(name):
            f["n_lowerwords"] = 1.0
    n = len(name)
    f["n_len<=3" if n <= 3 else "n_len4-9" if n <= 9 else "n_len10+"] = 1.0
    if len(words) == 1 and gazetteer.is_common_word(name):
        f["n_common"] = 1.0
    last = words[-1] if words else name
    head = _plural_fold(last)
    if head != last.lower() or (len(short) > 2 and short.endswith("s") and short[-2].isupper()):
        f["n_plural"] = 1.0
    if len(words) >= 2:
        f["head=" + head] = 1.0
        for cls, heads in _HEADS.items():
            if head in heads:
                f["headcls=" + cls] = 1.0
    forms = {text[s:e] for s, e in cand.occurrences}
    if len(forms) >= 2:
        f["n_forms>=2"] = 1.0
        if any(" " in x for x in forms) and any(" " not in x and x.upper() == x for x in forms):
            f["defined"] = 1.0
    if cand.long and short != cand.long and short.isupper():
        f["acronym_form"] = 1.0
    sep = abstract_start - len(_SEPARATOR)
    in_abs = [o for o in cand.occurrences if o[0] >= abstract_start]
    f["log_count"] = math.log1p(len(in_abs))
    if len(in_abs) == 1:
        f["count=1"] = 1.0
    elif len(in_abs) >= 3:
        f["count>=3"] = 1.0
    if sep > 0:
        if any(o[1] <= sep for o in cand.occurrences):
            f["in_title"] = 1.0
            if cand.occurrences[0][0] <= 2:
                f["title_start"] = 1.0
        elif len(words) >= 2:
            tw = _title_words(text[:sep])
            lw = [w.lower() for w in words if len(w) > 3]
            if lw and all(w in tw for w in lw):
                f["title_words"] = 1.0
    s, e = in_abs[0]
    _add_position(f, s, text, abstract_start)
    # the first occurrence's sentence
    ss, se = _sentence(text, s, e, abstract_start)
    if ss == abstract_start:
        f["first_sentence"] = 1.0
    if se >= len(text) - 2:
        f["last_sentence"] = 1.0
    if not text[ss:s].strip(" *`'\"{}$\\("):
        f["sentence_start"] = 1.0
    sw = _CUE_TOKEN.findall(text[ss:se].lower())
    for w in sw:
        g = _CUE_WORDS.get(w)
        if g == "we":
            f["sent_we"] = 1.0
        elif g == "propose":
            f["sent_propose"] = 1.0
    if sum(1 for i in range(ss, se) if occupied[i] and not occupied[i - 1]) >= 3:
        f["sent_names>=3"] = 1.0
    if any(abs(p - s) < 120 for p in proposed_at):
        f["near_proposed"] = 1.0
    if doc_used >= 5:
        f["doc_used>=5"] = 1.0
    if len(in_abs) == 1:
        if ss == abstract_start:
            f["once_first_sentence"] = 1.0  # background, never returned to
        if name[:1].islower():
            f["once_lower"] = 1.0
    if proposed_at:
        f["doc_has_proposed"] = 1.0
    # every abstract occurrence's neighbourhood
    first = True
    for s, e in in_abs[:_UF_MAX_OCC]:
        before = text[max(abstract_start, s - 50):s]
        before = before[before.rfind(". ") + 1:]  # this sentence only
        bw = _UF_WORDS.findall(before.lower())[-6:]
        for k, w in enumerate(bw):
            g = _UF_BEFORE.get(w)
            if g is None:
                if w.startswith(("outperform", "surpass", "compar")):
                    g = "cmp"
                else:
                    continue
            if g in ("of", "det") and k < len(bw) - 1:
                continue  # only right before the name
            f["b_" + g] = 1.0
        if first:
            if bw:
                f["prev=" + bw[-1]] = 1.0
                g = _UF_BEFORE.get(bw[-1])
                if g in ("of", "det", "use", "example", "cmp"):
                    f["first_b_" + g] = 1.0
        after = text[e:min(len(text), e + 40)]
        cut = after.find(". ")
        if cut >= 0:
            after = after[:cut]
        aw = _UF_WORDS.findall(after.lower())[:4]
        for w in aw:
            g = _UF_AFTER.get(w)
            if g is not None:
                f["a_" + g] = 1.0
            elif w.startswith(("outperform", "surpass")):
                f["a_cmp"] = 1.0
        if after[:1] == "-":
            f["a_hyphen"] = 1.0  # "Transformer-based", "ReLU-activated": a modifier
        if first:
            m = _UF_WORDS.match(after.lstrip(" -").lower())
            if m:
                f["next=" + m.group()] = 1.0
                if after[:1] in " -" and m.group() not in _EXT_STOP and m.group() not in _UF_BEFORE \
                        and not m.group().endswith(("ed", "ly")):
                    f["next_noun"] = 1.0  # "ReLU networks", "the Transformer architecture"
                    if "n_lower" in f:
                        f["lower_next_noun"] = 1.0
                nh = _plural_fold(m.group())
                for cls, heads in _HEADS.items():
                    if nh in heads:
                        f["next_headcls=" + cls] = 1.0
        # another rule name right before or after: a list ("X, Y and Z")
        b = s - 1
        while b > s - 7 and b > abstract_start and not occupied[b]:
            b -= 1
        if occupied[b] and b < s - 1 and _UF_LIST_AFTER.fullmatch(text[b + 1:s]) and text[b + 1:s].strip():
            f["list_before"] = 1.0
        a = e
        while a < e + 7 and a < len(text) - 1 and not occupied[a]:
            a += 1
        if occupied[a] and a > e and _UF_LIST_AFTER.fullmatch(text[e:a]) and text[e:a].strip():
            f["list_after"] = 1.0
        if text.rfind("(", max(abstract_start, s - 60), s) > text.rfind(")", max(abstract_start, s - 60), s):
            f["in_parens"] = 1.0
        first = False
    return f


def featurize_used(doc: Doc, gazetteer: Gazetteer | None = None, *,
                   rule_spans: tuple[list[tuple[str, str, list[Any], int, int]], bytearray] | None = None
                   ) -> list[tuple[Candidate, dict[str, float]]]:
    """Every used name of the rules (:func:`used_candidates`) with its :func:`used_features`."""
    gaz, text, spans, occupied, abstract_start = _doc_inputs(doc, gazetteer, rule_spans)
    if not spans:
        return []
    cands = used_candidates(spans, text, abstract_start)
    if not cands:
        return []
    proposed_at = [s for _k, _l, v, s, _e in spans if v[0] == PROPOSED and s >= abstract_start]
    return [(c, used_features(c, text, gaz, abstract_start, occupied, doc_used=len(cands), proposed_at=proposed_at))
            for c in cands]


@dataclass(frozen=True)
class Model:
    """A multinomial logistic regression: ``weights[class][feature]`` and per-class thresholds."""

    features: tuple[str, ...]
    classes: tuple[str, ...]
    weights: tuple[tuple[float, ...], ...]  # one row per class, one column per feature
    thresholds: dict[str, float]
    meta: dict[str, Any]
    #: the model of the extension decisions (:func:`extension_features`, threshold ``extend``), if trained
    extend: "Model | None" = None
    #: the model of the descriptive phrases (:func:`phrase_features`, threshold ``phrase``), if trained
    phrase: "Model | None" = None
    #: the used-name filter (:func:`used_features`, classes :data:`USED_CLASSES`, threshold ``keep``), if trained
    used: "Model | None" = None

    @cached_property
    def index(self) -> dict[str, int]:
        return {f: i for i, f in enumerate(self.features)}

    @cached_property
    def columns(self) -> dict[str, tuple[float, ...]]:
        """Feature -> its weight in each class (one dict lookup per feature of a candidate)."""
        return {f: tuple(row[i] for row in self.weights) for i, f in enumerate(self.features)}

    def probabilities(self, feats: dict[str, float]) -> list[float]:
        """Class probabilities (softmax) for one candidate's features."""
        get = self.columns.get
        scores = [0.0] * len(self.classes)
        n = len(scores)
        for k, v in feats.items():
            col = get(k)
            if col is None:
                continue
            if v == 1.0:  # most features are indicators
                for j in range(n):
                    scores[j] += col[j]
            else:
                for j in range(n):
                    scores[j] += col[j] * v
        top = max(scores)
        exps = [math.exp(x - top) for x in scores]
        total = sum(exps)
        return [x / total for x in exps]

    def to_data(self) -> dict[str, Any]:
        data = {"features": list(self.features), "classes": list(self.classes),
                "weights": [[round(w, 6) for w in row] for row in self.weights],
                "thresholds": self.thresholds, "meta": self.meta}
        if self.extend is not None:
            data["extend"] = self.extend.to_data()
        if self.phrase is not None:
            data["phrase"] = self.phrase.to_data()
        if self.used is not None:
            data["used"] = self.used.to_data()
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any], expected: tuple[str, ...] = CLASSES) -> "Model":
        feats = tuple(data["features"])
        classes = tuple(data["classes"])
        weights = tuple(tuple(float(w) for w in row) for row in data["weights"])
        if classes != expected or len(weights) != len(classes) or any(len(r) != len(feats) for r in weights):
            raise ValueError(f"learned model: classes {classes} or weight shape do not match {expected}")
        extend = cls.from_data(data["extend"]) if data.get("extend") else None
        phrase = cls.from_data(data["phrase"]) if data.get("phrase") else None
        used = cls.from_data(data["used"], USED_CLASSES) if data.get("used") else None
        return cls(feats, classes, weights, {k: float(v) for k, v in data.get("thresholds", {}).items()},
                   dict(data.get("meta") or {}), extend, phrase, used)


@lru_cache(maxsize=4)
def load_model(path: str | None = None) -> Model:
    """The model at ``path`` (default: the shipped ``learned_model.json``), cached."""
    p = Path(path) if path else MODEL_PATH
    return Model.from_data(json.loads(p.read_text(encoding="utf-8")))


def _decide(model: Model, cand: Candidate, probs: Sequence[float], *, add_used: bool = True,
            change_rules: bool = True, promote: bool = False) -> str | None:
    """What to do with a candidate: a class to give it, ``none`` to drop a rule's name, or None.

    An untyped candidate gets its most likely non-``none`` class when that passes the class's
    threshold (``thresholds[class]``), a ``used`` one only with ``add_used``. A name the rules typed changes class only when the most
    likely class is another one and passes ``thresholds["rule:" + class]`` (``rule:none`` drops it),
    and only with ``change_rules``. Missing thresholds are off.
    """
    if cand.kind != "rule":
        best = max(range(1, len(probs)), key=lambda i: probs[i])
        cls = model.classes[best]
        if not cls.endswith(PROPOSED) and not add_used:
            return None
        return cls if probs[best] >= model.thresholds.get(cls, 1.01) else None
    best = max(range(len(probs)), key=lambda i: probs[i])
    cls = model.classes[best]
    if not change_rules:
        # only a role promotion: a name the rules call used that the model finds is the paper's own
        if promote and cand.rule_class and cand.rule_class.endswith("/" + USED) \
                and cls == cand.rule_class.split("/")[0] + "/" + PROPOSED \
                and probs[best] >= model.thresholds.get(PROMOTE + cls, 1.01):
            return cls
        return None
    if cls == cand.rule_class or probs[best] < model.thresholds.get("rule:" + cls, 1.01):
        return None
    return cls


def promotes(model: Model) -> bool:
    """Does ``model`` promote a name (a threshold ``promote:method/proposed`` or
    ``promote:benchmark/proposed`` at most 1)? Without ``change_rules`` that is the one change the
    component makes to the rules' names."""
    return any(model.thresholds.get(f"{PROMOTE}{t}/{PROPOSED}", 1.01) <= 1.0 for t in ("method", "benchmark"))


class LearnedNames:
    """Add the names the rules left untyped where the model is confident; see the module docstring.

    Parameters
    ----------
    nlp, name
        The pipeline and the component's name.
    model
        Path of a model JSON file (``bench/train_learned.py`` writes one); ``None`` uses the shipped one.
    gazetteer
        Path of a gazetteer JSON file; ``None`` uses the shipped one.
    add_used
        Also add untyped names as ``used`` (off: measured neutral on the development gold, and a
        used coined name is corpus consolidation's, when another paper knows it).
    change_rules
        Also change the class of names the rules typed, or drop them (off by default: better on
        the silver batches and on the validation splits, but it overrules the hand-written
        expectations of the rules' unit tests; see ``bench/train_learned.py``).
    extend
        Grow the rules' names where the extension model is confident (item 4 of the module
        docstring). Takes effect only when the model's extension threshold is at most 1; the
        shipped model's is 1.01 (off: not better on the development gold).
    promote
        Give the role ``proposed`` to a name the rules call ``used`` where the model is confident it
        is the paper's own (item 7 of the module docstring). Takes effect only when the model has a
        ``promote:`` threshold at most 1, and not with ``change_rules`` (which decides every change).
    filter_used
        Drop the used names the used-name filter doubts (item 6 of the module docstring). Takes
        effect only when the model's filter threshold is above 0; the shipped filter's is 0 (off:
        not better out of fold on the silver batches nor on the development gold).
    phrases
        Add the descriptive phrases the phrase model is confident of (item 5 of the module
        docstring). Takes effect only when the model's phrase threshold is at most 1 (see
        ``bench/train_learned.py``: the eighth session's model ships off, its gain out of fold on
        the silver batches and on the development gold below ``PHRASE_MIN_GAIN``). With it off no
        phrase candidate is generated, so it costs nothing.
    """

    def __init__(self, nlp: Language, name: str = "paperkg_learned", *, model: str | None = None,
                 gazetteer: str | None = None, add_used: bool = False, change_rules: bool = False,
                 extend: bool = True, phrases: bool = True, filter_used: bool = True, promote: bool = True) -> None:
        self.name = name
        self.add_used = add_used
        self.change_rules = change_rules
        self.model = load_model(model)
        self.promote = promote and not change_rules and promotes(self.model)
        self.gazetteer = load_gazetteer(gazetteer)
        self.extend = extend and self.model.extend is not None \
            and self.model.extend.thresholds.get(EXTEND, 1.01) <= 1.0
        self.phrases = phrases and self.model.phrase is not None \
            and self.model.phrase.thresholds.get(PHRASE, 1.01) <= 1.0
        self.filter_used = filter_used and self.model.used is not None \
            and self.model.used.thresholds.get(USED_FILTER, 0.0) > 0.0

    def __call__(self, doc: Doc) -> Doc:
        if not (doc.user_data.get(DEFS_KEY) or doc.user_data.get(CANDIDATES_KEY) or self.phrases
                or ((self.change_rules or self.promote or self.extend or self.filter_used)
                    and doc.user_data.get(INFO_KEY))):
            return doc  # nothing untyped (and the rules' names are not asked about)
        try:
            self._add(doc)
        except Exception:  # noqa: BLE001 - a learned extra must never take the extraction down
            return doc
        return doc

    def predict(self, doc: Doc, rule_spans: tuple[list[tuple[str, str, list[Any], int, int]], bytearray] | None = None
                ) -> list[tuple[Candidate, list[float]]]:
        """Every candidate of ``doc`` with its class probabilities (in :data:`CLASSES` order);
        names the rules typed only with ``change_rules``, their ``used`` ones with ``promote``."""
        return [(c, self.model.probabilities(f))
                for c, f in featurize(doc, self.gazetteer, rules=self.change_rules, used_rules=self.promote,
                                      rule_spans=rule_spans)]

    def predict_extensions(self, doc: Doc, rule_spans: tuple[list[tuple[str, str, list[Any], int, int]], bytearray]
                           | None = None) -> list[tuple[Extension, list[float]]]:
        """Every extension of the rules' names with its class probabilities (the extension model)."""
        model = self.model.extend
        if model is None:
            return []
        return [(x, model.probabilities(f))
                for x, f in featurize_extensions(doc, self.gazetteer, rule_spans=rule_spans)]

    def predict_phrases(self, doc: Doc, rule_spans: tuple[list[tuple[str, str, list[Any], int, int]], bytearray]
                        | None = None) -> list[tuple[Phrase, list[float]]]:
        """Every descriptive phrase candidate of ``doc`` with its class probabilities (the phrase model)."""
        model = self.model.phrase
        if model is None:
            return []
        return [(p, model.probabilities(f)) for p, f in featurize_phrases(doc, self.gazetteer, rule_spans=rule_spans)]

    def predict_used(self, doc: Doc, rule_spans: tuple[list[tuple[str, str, list[Any], int, int]], bytearray]
                     | None = None) -> list[tuple[Candidate, list[float]]]:
        """Every used name of the rules with its ``(P(drop), P(keep))`` (the used-name filter)."""
        model = self.model.used
        if model is None:
            return []
        return [(c, model.probabilities(f)) for c, f in featurize_used(doc, self.gazetteer, rule_spans=rule_spans)]

    def _add(self, doc: Doc) -> None:
        added: list[tuple[int, int, str, str, str, str]] = []
        changed: dict[str, str | None] = {}  # rule span key -> new class (None: dropped)
        text = doc_text(doc)
        if not (self.extend or self.change_rules or self.promote or self.phrases or self.filter_used
                or _may_have_candidates(doc, text, self.gazetteer)):
            return  # every definition and token fails a test :func:`candidates` applies anyway
        spans = _rule_spans(doc, text)
        renames: dict[str, str] = {}
        if self.filter_used:
            for k in _drop_used(self.model.used, self.predict_used(doc, spans)):  # type: ignore[arg-type]
                changed[k] = None
        if self.extend:
            grown, renames = _choose_extensions(self.model.extend, self.predict_extensions(doc, spans),  # type: ignore[arg-type]
                                                spans[0], text)
            for s, e, label, role, canonical, keys in grown:
                for k in keys:
                    changed[k] = None
                added.append((s, e, label, role, canonical, EXTENDED_RULE))
        if doc.user_data.get(DEFS_KEY) or doc.user_data.get(CANDIDATES_KEY) or self.change_rules or self.promote:
            for cand, probs in self.predict(doc, spans):
                cls = _decide(self.model, cand, probs, add_used=self.add_used, change_rules=self.change_rules,
                              promote=self.promote)
                if cls is None:
                    continue
                if cand.kind != "rule" and cls.endswith(PROPOSED) and _not_own(text, cand):
                    continue
                if cand.kind == "rule":
                    for k in cand.span_keys:
                        changed.setdefault(k, None if cls == "none" else cls)
                    continue
                etype, role = cls.split("/")
                for s, e in cand.occurrences:
                    added.append((s, e, METHOD if etype == "method" else BENCHMARK, role, cand.name, RULE))
        if self.phrases:
            for s, e, label, role, canonical in _choose_phrases(self.model.phrase,  # type: ignore[arg-type]
                                                                self.predict_phrases(doc, spans), text, spans[1]):
                added.append((s, e, label, role, canonical, PHRASE_RULE))
        if not added and not changed:
            return
        info = doc.user_data.setdefault(INFO_KEY, {})
        for k, canonical in renames.items():
            if k not in changed and k in info:
                info[k] = [info[k][0], canonical, info[k][2], info[k][3]]
        # the rules' spans: plain (start_char, end_char, label) while the rules' component keeps
        # them so (:attr:`extractors.entities.EntityRecognizer.make_spans`), else ``doc.spans``
        plain = (doc.user_data.get(PLAIN_SPANS_KEY) or {}).get(SPANS_KEY)
        spans = []
        for span in plain if plain is not None else doc.spans.get(SPANS_KEY, ()):
            ss, se, lab = span if plain is not None else (span.start_char, span.end_char, span.label_)
            k = f"{ss}:{se}:{lab}"
            if k not in changed:
                spans.append(span)
                continue
            v = info.pop(k)
            cls = changed[k]
            if cls is None:
                continue
            etype, role = cls.split("/")
            label = METHOD if etype == "method" else BENCHMARK
            new = doc.char_span(ss, se, label=label)
            if new is None:
                continue
            info[f"{ss}:{se}:{label}"] = [role, v[1], v[2], v[3]]
            spans.append(new if plain is None else (ss, se, label))
        taken = bytearray(len(doc_text(doc)) + 1) if added else bytearray()
        # extensions first (they replace rule spans), then the untyped names, in text order
        order = {EXTENDED_RULE: 0, RULE: 1, PHRASE_RULE: 2}
        for s, e, label, role, canonical, rule in sorted(added, key=lambda a: (order[a[5]], a[0], a[1])):
            if any(taken[s:e]):
                continue
            span = doc.char_span(s, e, label=label, alignment_mode="expand")
            if span is None:
                continue
            k = f"{span.start_char}:{span.end_char}:{label}"
            if k in info:
                continue
            taken[s:e] = b"\x01" * (e - s)
            info[k] = [PROPOSED if role == PROPOSED else USED, canonical, rule, [s, e]]
            spans.append(span if plain is None else (span.start_char, span.end_char, label))
        if plain is None:
            doc.spans[SPANS_KEY] = spans
        else:
            doc.user_data[PLAIN_SPANS_KEY][SPANS_KEY] = spans
        if added:
            doc.user_data[CANDIDATES_KEY] = [(s, e) for s, e in doc.user_data.get(CANDIDATES_KEY, ())
                                             if not any(taken[s:e])]


@Language.factory("paperkg_learned", default_config={"model": None, "gazetteer": None, "add_used": False,
                                                    "change_rules": False, "extend": True, "phrases": True,
                                                    "filter_used": True, "promote": True},
                  assigns=["doc.spans"])
def make_learned(nlp: Language, name: str, model: str | None, gazetteer: str | None, add_used: bool,
                 change_rules: bool, extend: bool, phrases: bool, filter_used: bool, promote: bool) -> LearnedNames:
    return LearnedNames(nlp, name, model=model, gazetteer=gazetteer, add_used=add_used, change_rules=change_rules,
                        promote=promote,
                        extend=extend, phrases=phrases, filter_used=filter_used)


def _drop_used(model: Model, predicted: list[tuple[Candidate, list[float]]]) -> list[str]:
    """The rule span keys of every used name whose ``P(keep)`` is below ``thresholds["keep"]``."""
    th = model.thresholds.get(USED_FILTER, 0.0)
    return [k for cand, probs in predicted if probs[1] < th for k in cand.span_keys]


def _choose_extensions(model: Model, predicted: list[tuple[Extension, list[float]]],
                       spans: list[tuple[str, str, list[Any], int, int]], text: str
                       ) -> tuple[list[tuple[int, int, str, str, str, tuple[str, ...]]], dict[str, str]]:
    """The extensions to make, and the rule spans to rename.

    The first list holds ``(start, end, label, role, canonical, replaced span keys)`` for every
    occurrence of each extension the model is confident of (``1 - P(none)`` at least
    ``thresholds["extend"]``), most confident first; an occurrence overlapping one already taken,
    or cutting a rule span, is left as it is. Type and role: those of a rule name with the
    extended surface's key, when the rules found one elsewhere; otherwise, when the inner name is
    the name of its group and the group has other forms (an acronym: "Rejection Sampling
    Optimization (RSO)" grown to "Statistical Rejection Sampling Optimization"), the group's type,
    and those other forms are renamed to the extended name (the second value: span key -> new
    canonical name), so the acronym stays one entity with it; otherwise the model's most likely
    non-``none`` class.
    """
    th = model.thresholds.get(EXTEND, 1.01)
    chosen = []
    for ext, probs in predicted:
        if 1.0 - probs[0] >= th:
            best = max(range(1, len(probs)), key=lambda i: probs[i])
            chosen.append((1.0 - probs[0], ext, model.classes[best]))
    if not chosen:
        return [], {}
    chosen.sort(key=lambda t: -t[0])
    groups: dict[str, list[tuple[str, str, list[Any], int, int]]] = {}
    for sp in spans:
        groups.setdefault(entity_key(sp[2][1] or text[sp[3]:sp[4]]), []).append(sp)
    taken = bytearray(len(text) + 1)  # 1 where an extension already made covers the character
    by_start = sorted(range(len(spans)), key=lambda i: spans[i][3])
    starts = [spans[i][3] for i in by_start]
    before = _Cover([(spans[i][3], spans[i][4]) for i in by_start])
    out = []
    renames: dict[str, str] = {}

    def inside(a: int, b: int) -> list[int]:
        """Indices into ``spans`` of the rule spans starting in ``[a, b)``, in the list's order."""
        return sorted(by_start[bisect_left(starts, a):bisect_left(starts, b)])

    def cuts(a: int, b: int) -> bool:
        """Whether a rule span overlaps ``[a, b)`` without lying inside it: one starting before
        ``a`` and ending after it, or one starting inside and ending after ``b``."""
        return before.reaches(a) or any(spans[i][4] > b for i in inside(a, b))

    for _p, ext, cls in chosen:
        etype = cls.split("/")[0]
        role = ext.inner_class.split("/")[1]  # the rules' role (the model's: 2 more proposed false positives out of fold)
        label = METHOD if etype == "method" else BENCHMARK
        canonical = clean_view(ext.surface).text.strip() if _MARKUP.search(ext.surface) else ext.surface
        occ = [(a, b) for a, b in ext.occurrences if 1 not in taken[a:b] and not cuts(a, b)]
        if not occ:
            continue
        existing = groups.get(entity_key(canonical))
        if existing:
            label = existing[0][1]
            role = PROPOSED if any(v[0] == PROPOSED for _k, _l, v, _s, _e in existing) else USED
        else:
            inner_key = entity_key(ext.inner)
            group = groups.get(inner_key, [])
            cover = _Cover(occ)
            others = [sp for sp in group if entity_key(text[sp[3]:sp[4]]) != inner_key
                      and not cover.covers(sp[3], sp[4])]
            if others:
                label = group[0][1]
                if any(v[0] == PROPOSED for _k, _l, v, _s, _e in group):
                    role = PROPOSED
                for sp in others:
                    renames[sp[0]] = canonical
        for a, b in occ:
            taken[a:b] = b"\x01" * (b - a)
            out.append((a, b, label, role, canonical,
                        tuple(spans[i][0] for i in inside(a, b) if spans[i][4] <= b)))
    return out, renames


class _Cover:
    """Intervals ``[start, end)`` asked, in time logarithmic in their number, whether one of them
    holds a given interval or crosses a given position (a 1 MB abstract repeats a name tens of
    thousands of times: a scan of every interval per question was quadratic)."""

    def __init__(self, intervals: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(intervals)
        self.starts = [s for s, _e in ordered]
        #: the furthest end among the intervals up to each one (in start order)
        self.reach: list[int] = []
        far = -1
        for _s, e in ordered:
            far = max(far, e)
            self.reach.append(far)

    def covers(self, s: int, e: int) -> bool:
        """Whether an interval starts at or before ``s`` and ends at or after ``e``."""
        i = bisect_right(self.starts, s) - 1
        return i >= 0 and self.reach[i] >= e

    def reaches(self, a: int) -> bool:
        """Whether an interval starts before ``a`` and ends after it."""
        i = bisect_left(self.starts, a) - 1
        return i >= 0 and self.reach[i] > a


def _not_own(text: str, cand: Candidate) -> bool:
    """Guards the rules also apply before calling a name the paper's own: it is described as
    existing work ("X, a well-known language"), named as a metric, task or setting ("an
    automatic metric, X", "the X problem"), or it is a modifier compound ("RL-training")."""
    from extractors.entities import _described_as_known  # the rules' own test of this

    s, e = cand.anchor
    before = _CUE_TOKEN.findall(text[max(0, s - 60):s].lower())[-4:]
    tail = _PAREN_START.sub("", _MARKUP_RUN.sub("", text[e:e + 80]), count=1)
    if text[max(0, s - 1):s] == "[" and text[e:e + 1] == "]":
        return True  # "[BCMV14]": a citation key
    after = _CUE_TOKEN.findall(tail[:40].lower())[:2]
    if any(_CUE_WORDS.get(w) == "none" for w in before + after):
        return True
    appos = _APPOSITIVE.match(tail)
    if appos is not None:  # "X, a novel dialogue evaluation metric", "X (ABC), a novel task ..."
        for w in _CUE_TOKEN.findall(tail[appos.end():appos.end() + 60].lower())[:6]:
            if _CUE_WORDS.get(w) == "none":
                return True
            if _plural_fold(w) in _HEADS["method"] or _plural_fold(w) in _HEADS["benchmark"]:
                break
    if _CITED_AFTER.match(tail) or any(w in _EXISTING for w in before):
        return True  # "X (Fang et al., 2018)", "the existing algorithm X"
    if cand.kind == "token" and _ACRONYM_COMPOUND.fullmatch(cand.short):
        return True
    sep = text.find(_SEPARATOR)
    abstract = text[sep + len(_SEPARATOR):] if sep >= 0 else text
    return any(_described_as_known(abstract, form) and not _described_as_new(abstract, form)
               for form in (cand.short, cand.long) if form)


def _described_as_new(abstract: str, name: str) -> bool:
    """Does an apposition right after ``name`` call it new ("RHIP, a new generalization of classic
    IRL algorithms")? Then an existing-work word further on ("classic") describes what it builds
    on, not the name (the rules' :func:`extractors.entities._described_as_known` reads the whole
    apposition)."""
    from extractors.entities import _APPOS_AFTER

    for s, e in _occurrences(abstract, name):
        m = _APPOS_AFTER.match(abstract, e, min(len(abstract), e + 80))
        if m is not None and _NEW_APPOS.match(m.group(1)):
            return True
    return False


_NEW_APPOS = re.compile(r"(?i)(?:novel|new|first)\b")

