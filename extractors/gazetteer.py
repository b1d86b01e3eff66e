"""The shipped gazetteer of method and benchmark names, metric names and generic stop names.

``extractors/data/gazetteer.json`` is built by :mod:`extractors.build_gazetteer`. Here it is
turned into spaCy ``PhraseMatcher`` patterns (one matcher on ``ORTH`` for names with capitals,
one on ``LOWER`` for lower-case and multi-word names) and into plain lookup tables. Entries
from the silver annotations (``source`` ``"silver"``, :mod:`extractors.build_silver`) are
matched like curated ones (:data:`HAND_SOURCES`), and the ``silver_stoplist`` joins the stoplist.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import sys
from array import array
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

GAZETTEER_PATH = Path(__file__).resolve().parent / "data" / "gazetteer.json"
#: entry sources whose spellings a person wrote (``curated.tsv``, the silver annotations): matched
#: by their case shape, multi-word lower-case names in any case
HAND_SOURCES = frozenset({"curated", "silver"})

_NON_ALNUM = re.compile(r"[^0-9a-z]+")
#: a British -isation / -iser in a key (letters and digits only) after four or more letters
_BRITISH_KEY = re.compile(r"(?<=[a-z]{4})is(?=ations?|ers?)")
_NON_ALNUM_CASED = re.compile(r"[^0-9A-Za-z]+")
#: Greek letters spelled out, so that "β-VAE" is "beta-VAE" and "ε-greedy" is not the word "greedy"
GREEK_NAMES = str.maketrans({
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ζ": "zeta", "η": "eta",
    "θ": "theta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu", "ξ": "xi",
    "ο": "omicron", "π": "pi", "ρ": "rho", "σ": "sigma", "ς": "sigma", "τ": "tau", "υ": "upsilon",
    "φ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega"})
_PLURAL_WORDS = (
    "networks", "nets", "models", "machines", "transformers", "autoencoders", "encoders", "decoders",
    "flows", "fields", "processes", "forests", "trees", "units", "optimizers", "estimators",
    "algorithms", "benchmarks", "datasets", "experts", "ensembles", "kernels", "filters", "samplers",
    "solvers", "classifiers", "regressors", "mechanisms", "operators", "features", "encodings",
    "embeddings", "activations", "reflections", "transformations", "iterations", "decompositions")
#: The plural head nouns longest first: the first one a key ends with is the one that starts
#: leftmost, i.e. the match of the alternation ``(networks|nets|...)$`` (``autoencoders``, not
#: ``encoders``), found with ``str.endswith`` instead of a search at every position.
_PLURAL_LONGEST_FIRST = tuple(sorted(_PLURAL_WORDS, key=len, reverse=True))


@functools.lru_cache(maxsize=1 << 16)
def entity_key(name: str) -> str:
    """The key under which two spellings of a name are the same name.

    Case, hyphens, spaces and an acronym plural ("MoEs", "GANs") or a plural head noun
    ("Generative Adversarial Networks") do not matter.

    Examples
    --------
    >>> entity_key("MoEs") == entity_key("MoE") == "moe"
    True
    >>> entity_key("Mixture-of-Experts") == entity_key("mixture of experts")
    True
    >>> entity_key("Generative Adversarial Networks") == entity_key("generative adversarial network")
    True
    >>> entity_key("CFR+") == entity_key("CFR")
    False
    >>> entity_key("β-VAE") == entity_key("beta-VAE") != entity_key("VAE")
    True
    """
    n = name.strip()
    if len(n) > 2 and n.endswith("s") and n[-2].isupper():
        n = n[:-1]
    low = n.lower()
    if low.isascii() and low.isalnum():
        key = low  # letters and digits only ("moe", "gpt4"): nothing for the substitution to remove
    else:
        if not low.isascii():
            low = low.translate(GREEK_NAMES)
        key = _NON_ALNUM.sub("", low.replace("+", "plus"))  # "CFR+" is a variant of "CFR"
    if "isation" in key or "iser" in key:
        key = _BRITISH_KEY.sub("iz", key)  # "optimisation" is "optimization" (see _british)
    if key.endswith(_PLURAL_WORDS):
        word = next(w for w in _PLURAL_LONGEST_FIRST if key.endswith(w))
        if word != "experts":
            key = key[: len(key) - len(word)] + (word[:-2] if word.endswith("sses") or word == "processes"
                                                 else word[:-1])
    return key


#: Names whose :meth:`Gazetteer.lookup` answer is remembered (emptied when full); the
#: confpapers abstracts ask about ~60,000 distinct names.
_LOOKUP_MEMO_SIZE = 200_000
_UNSEEN = object()


@dataclass(frozen=True, slots=True)
class GazetteerEntry:
    type: str  # "method" | "benchmark"
    name: str
    aliases: tuple[str, ...]
    source: str


@dataclass(frozen=True)
class Gazetteer:
    """Entries plus lookup tables; ``by_key`` maps :func:`entity_key` of every name/alias."""

    entries: tuple[GazetteerEntry, ...]
    metrics: frozenset[str]
    stoplist: frozenset[str]
    by_key: Mapping[str, int]
    #: lower-case English words of abstracts (see :func:`extractors.build_gazetteer.common_words`)
    common_words: frozenset[str] = frozenset()
    #: coined names matched in any casing (see :func:`extractors.build_gazetteer.case_free_forms`)
    case_free: frozenset[str] = frozenset()
    #: :meth:`lookup`'s answers by name: they depend on the name and these (frozen) tables only,
    #: and the entity rules ask about the same few thousand names in every abstract
    _lookups: dict[str, "GazetteerEntry | None"] = field(default_factory=dict, init=False, repr=False,
                                                          compare=False)
    #: SHA-256 of the file the gazetteer was read from (:func:`load_gazetteer`), "" otherwise: with
    #: it, :func:`phrase_patterns` finds its cache file without computing the forms
    source_digest: str = field(default="", compare=False, repr=False)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "Gazetteer":
        entries = tuple(
            GazetteerEntry(e["type"], e["name"], tuple(e.get("aliases") or ()), e.get("source", ""))
            for e in data.get("entries", ())
        )
        by_key: dict[str, int] = {}
        for i, e in enumerate(entries):
            for form in (e.name, *e.aliases):
                by_key.setdefault(entity_key(form), i)
        # the silver stoplist (extractors.build_silver: entries the silver annotators leave out)
        # stops names as the hand-written stoplist does
        stop = (*data.get("stoplist", ()), *data.get("silver_stoplist", ()))
        return cls(entries, frozenset(m.lower() for m in data.get("metrics", ())),
                   frozenset(s.lower() for s in stop), by_key,
                   frozenset(data.get("common_words", ())), frozenset(data.get("case_free", ())))

    def to_data(self) -> dict[str, Any]:
        return {
            "entries": [{"type": e.type, "name": e.name, "aliases": list(e.aliases), "source": e.source}
                        for e in self.entries],
            "metrics": sorted(self.metrics),
            "stoplist": sorted(self.stoplist),
            "common_words": sorted(self.common_words),
            "case_free": sorted(self.case_free),
        }

    def lookup(self, name: str) -> GazetteerEntry | None:
        """The entry ``name`` spells, or None.

        An all-capitals acronym is not a capitalised word ("SPIDER" the optimiser is not the
        "Spider" benchmark) unless the entry itself is written in capitals.
        """
        memo = self._lookups
        entry = memo.get(name, _UNSEEN)  # not try/except KeyError: a first pass misses ~30,000 times
        if entry is not _UNSEEN:
            return entry  # type: ignore[return-value]
        if len(memo) >= _LOOKUP_MEMO_SIZE:
            memo.clear()
        entry = memo[name] = self._lookup(name)
        return entry

    def _lookup(self, name: str) -> GazetteerEntry | None:
        i = self.by_key.get(entity_key(name))
        if i is None:
            return None
        e = self.entries[i]
        forms = (e.name, *e.aliases)
        if len(name) > 3 and name.isupper() and name.isalpha() and not any(
                (f[:-1] if f.endswith("s") else f).isupper() for f in forms):
            return None
        if len(name) > 3 and name[-2] == "-" and name[-1].isupper() and name[-3].isupper() and not any(
                f[-2:-1] in ("-", " ") for f in forms if entity_key(f) == entity_key(name)):
            return None  # "HE-R" (a variant letter after a hyphen) is not "HER"
        low = name.lower()
        if e.source in HAND_SOURCES and not any(
                _case_insensitive(f) or (f in self.case_free and low in (f.lower(), f.lower() + "s")) for f in forms):
            # a name matched by its exact spelling is not another casing of it ("MONet" is not
            # "MoNet", "Eagle" is not "EAGLE")
            shape = case_shape(name)
            if not any(shape == s or shape == s + "s" for s in map(case_shape, forms)):
                return None
        return e

    def lookup_recased_code(self, name: str) -> GazetteerEntry | None:
        """The entry whose capitals-and-digits code ``name`` writes in Title case ("Cifar-10",
        "Cifar100" for "CIFAR-10", "CIFAR-100"), else None.

        :meth:`lookup` keeps a hand-written name's case shape ("Eagle" is not "EAGLE"); a code
        with a number is one name in any casing of its letters, but only a capital followed by
        lower-case letters is taken (not "cifar10", which is how file and package names look).

        Examples
        --------
        >>> gaz = Gazetteer.from_data({"entries": [
        ...     {"type": "benchmark", "name": "CIFAR-10", "aliases": [], "source": "curated"}]})
        >>> gaz.lookup("Cifar-10") is None, gaz.lookup_recased_code("Cifar-10").name
        (True, 'CIFAR-10')
        >>> gaz.lookup_recased_code("cifar-10") is None
        True
        """
        letters = [c for c in name if c.isalpha()]
        if len(letters) < 3 or not letters[0].isupper() or not "".join(letters[1:]).islower() \
                or not any(c.isdigit() for c in name):
            return None
        i = self.by_key.get(entity_key(name))
        if i is None:
            return None
        e = self.entries[i]
        key = entity_key(name)
        shape = case_shape(name).upper()
        if any(entity_key(f) == key and case_shape(f) == shape for f in (e.name, *e.aliases)):
            return e
        return None

    def is_common_word(self, name: str) -> bool:
        """Is ``name`` one English word of the abstracts, capitalised ("Features", "Parts")?"""
        low = name.lower()
        return low in self.common_words or (low.endswith("s") and low[:-1] in self.common_words)

    def is_stop(self, name: str) -> bool:
        """A metric or a generic name: never an entity found by the rules."""
        low = name.lower()
        return low in self.stoplist or low in self.metrics or low.rstrip("s") in self.stoplist

    def phrase_forms(self) -> Iterable[tuple[int, str, bool]]:
        """(entry index, surface form, case-insensitive?) for every pattern to match."""
        for i, e in enumerate(self.entries):
            seen: set[str] = set()
            for form in (e.name, *e.aliases):
                for variant in _variants(form, e.type):
                    if variant in seen:
                        continue
                    seen.add(variant)
                    yield i, variant, e.source in HAND_SOURCES and (
                        _case_insensitive(variant) or form in self.case_free)


def case_shape(form: str) -> str:
    """Letters and digits with their case ("Mo-Net" -> "MoNet")."""
    return _NON_ALNUM_CASED.sub("", form)


def _case_insensitive(form: str) -> bool:
    if form.lower() == form:
        # a short lower-case code with a digit keeps its case: "w8a" (LIBSVM) is not the
        # quantisation setting "W8A8", "o1" is not "O1"
        return not (len(form) <= 4 and any(c.isdigit() for c in form))
    if form.split()[0].lower() in ("the", "a", "an"):
        return False  # "The Pile" is not "the pile of ..."
    words = [w for w in re.split(r"[\s-]+", form) if w]
    return len(words) >= 2 and sum(len(w) >= 3 and w.isalpha() for w in words) >= 2 and not any(
        w.isupper() for w in words)


#: a capitalised name word, then a space or hyphen and a version number ("PaLM 2-S", "Llama 2-Chat",
#: "GPT-3.5", "ISIC 2018"): the number ends at the form's end or at a space or hyphen
_SPLIT_VERSION = re.compile(r"(?<![\w.])([A-Za-z]*[A-Z][A-Za-z]*)[ -](\d+(?:\.\d+)*)(?=$|[ -])")


def _joined_version(form: str) -> str | None:
    """``form`` with its first version number written against the name word ("PaLM 2-S" ->
    "PaLM2-S", "Llama 2-Chat" -> "Llama2-Chat"), as abstracts often write it; None when the form
    has no such number. Only names with a capital letter of three or more letters: a lower-case
    phrase with a number ("stage 2") is no model release."""
    m = _SPLIT_VERSION.search(form)
    if m is None or len(m.group(1)) < 3:
        return None
    return form[:m.start()] + m.group(1) + m.group(2) + form[m.end():]


#: an American -ization / -izer / -ized word ("optimization", "normalizer") after a stem of four or
#: more letters ("size", "prize" are no such words)
_AMERICAN_IZ = re.compile(r"(?<=[a-z]{4})iz(?=ations?\b|ers?\b|ed\b)")


def _british(form: str) -> str:
    """``form`` in British spelling ("Bayesian optimization" -> "Bayesian optimisation"): abstracts
    write both, and :func:`entity_key` keys them alike."""
    return _AMERICAN_IZ.sub("is", form)


#: a capitals code with a year joined on ("WMT2014 English-German"), which abstracts also write apart
_JOINED_YEAR = re.compile(r"^([A-Z]{2,})((?:19|20)\d\d)\b")


def _variants(form: str, etype: str) -> list[str]:
    out = [form]
    if "-" in form and not re.search(r"-\d", form):
        # "Soft Actor-Critic" is also written "Soft Actor Critic", "singular-value decomposition"
        # "singular value decomposition"
        out.append(form.replace("-", " "))
    if " " in form and len(form.split()) <= 4:
        out.append(form.replace(" ", "-"))
    if _JOINED_YEAR.match(form):
        out.append(_JOINED_YEAR.sub(r"\1 \2", form))
    if "'" in form:
        out.append(form.replace("'", "\u2019"))  # "Montezuma's Revenge" written with a typographic apostrophe
    joined = _joined_version(form)
    if joined:
        out.append(joined)
    out += [v for v in map(_british, list(out)) if v not in out]
    if etype == "method" and re.search(r"[A-Z]$", form) and " " not in form:
        out.append(form + "s")
    elif etype == "method" and _case_insensitive(form):
        # the other number of a common-noun name ("deep ensembles" / "Deep ensemble",
        # "Gaussian mixture model" / "... models"); matched on LOWER, so only these forms
        last = re.split(r"[\s-]", form)[-1]
        if len(last) >= 4 and last.isalpha() and last.islower():
            if last.endswith("s") and not last.endswith(("ss", "us", "is")):
                out.append(form[:-1])
            elif not last.endswith("s"):
                out.append(form + ("es" if last.endswith(("ch", "sh", "x")) else "s"))
    return out


@functools.lru_cache(maxsize=4)
def load_gazetteer(path: str | None = None) -> Gazetteer:
    """The gazetteer at ``path`` (default: the shipped one), cached."""
    p = Path(path) if path else GAZETTEER_PATH
    raw = p.read_bytes()
    gaz = Gazetteer.from_data(json.loads(raw.decode("utf-8")))
    object.__setattr__(gaz, "source_digest", hashlib.sha256(raw).hexdigest())  # (a frozen dataclass)
    return gaz


#: Environment variable naming the folder of :func:`phrase_patterns`' cache (empty: no cache).
CACHE_DIR_ENV = "PAPERKG_CACHE_DIR"
#: Pattern cache files kept in the folder (the most recently used; each is ~0.4 MB).
MAX_PATTERN_FILES = 16
#: First bytes of a pattern cache file; a new layout gets a new magic (old files then miss).
_PATTERN_MAGIC = b"paperkg phrase patterns 2\n"


def default_cache_dir() -> Path | None:
    """Where :func:`phrase_patterns` keeps its files: ``$PAPERKG_CACHE_DIR`` when set (an empty
    value turns the cache off), else ``$XDG_CACHE_HOME/paperkg`` or ``~/.cache/paperkg``."""
    env = os.environ.get(CACHE_DIR_ENV)
    if env is not None:
        return Path(env) if env else None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "paperkg"


def pattern_groups(gaz: Gazetteer) -> list[tuple[int, bool, list[str]]]:
    """The gazetteer's phrase-matcher patterns as ``(entry index, case-insensitive?, forms)``, one
    group per entry and matcher, in the order the entity component adds them; the forms of a
    case-insensitive group are lower-cased (that matcher compares ``LOWER``)."""
    by_entry: dict[tuple[int, bool], list[str]] = defaultdict(list)
    for i, form, ci in gaz.phrase_forms():
        by_entry[(i, ci)].append(form.lower() if ci else form)
    return [(i, ci, forms) for (i, ci), forms in by_entry.items()]


def phrase_patterns(gaz: Gazetteer, tokenizer: Any, *,
                    cache_dir: str | Path | None | bool = True) -> list[tuple[int, bool, list[list[int]]]]:
    """:func:`pattern_groups` tokenized: each form as the list of its tokens' ``LOWER`` hashes
    (case-insensitive groups) or ``ORTH`` hashes, which ``PhraseMatcher.add`` takes in place of
    ``Doc`` s and stores as it would a ``Doc`` 's (the same trie, the same matches).

    Tokenizing the ~14,000 forms was most of building the pipeline (~0.33 s CPU of ~0.6 s: every
    form is new to the tokenizer's cache). The hashes are kept in a file named by a digest of
    everything they depend on: the tokenizer's settings (``to_bytes``: special cases, affix and
    URL patterns), the vocabulary's language, spaCy's and Python's versions, and the forms. For a gazetteer
    read from a file (:attr:`Gazetteer.source_digest`) the forms are stood for by that file's
    content and this module's code (which derives the forms from it), so a hit needs neither
    the forms nor the tokenizer; for another one (built from a dict) the forms are computed and
    hashed. A changed gazetteer, a changed :meth:`Gazetteer.phrase_forms` or another tokenizer
    thus reads another file, never a stale one. The hashes are spaCy's string hashes, the same
    in every process. A missing, unreadable or malformed file is rebuilt; a folder that cannot
    be written leaves the cache off. ``cache_dir``: ``True`` for :func:`default_cache_dir`, a
    folder, or ``None``/``False`` for no cache.

    Tokenizing here would also create the forms' words in the vocabulary and the tokenizer's
    chunk cache; neither changes what the pipeline finds: paperkg reads only ``LOWER`` of a
    word, computed from its text whenever the word is first seen (the pipeline's tokenizer
    starts with an empty chunk cache either way, see :func:`extractors.pipeline.make_nlp`).
    """
    folder = default_cache_dir() if cache_dir is True else (Path(cache_dir) if cache_dir else None)
    groups = None if folder is not None and gaz.source_digest else pattern_groups(gaz)
    path = None
    if folder is not None:
        path = folder / f"phrases-{_pattern_digest(gaz, groups, tokenizer)}.bin"
        cached = _read_patterns(path, groups)
        if cached is not None:
            try:
                os.utime(path)  # recently used: the last file the folder's bound removes
            except OSError:
                pass
            return cached
        if groups is None:
            groups = pattern_groups(gaz)
    out = []
    for i, ci, forms in groups:  # type: ignore[union-attr]
        if ci:
            keywords = [[t.lower for t in doc] for doc in tokenizer.pipe(forms)]
        else:
            keywords = [[t.orth for t in doc] for doc in tokenizer.pipe(forms)]
        out.append((i, ci, keywords))
    if path is not None:
        _write_patterns(path, out)
    return out


def _pattern_digest(gaz: Gazetteer, groups: list[tuple[int, bool, list[str]]] | None, tokenizer: Any) -> str:
    """The cache key of :func:`phrase_patterns`: the forms, or (``groups`` None) the gazetteer
    file's digest and this module's code."""
    import spacy

    h = hashlib.sha256(_PATTERN_MAGIC)
    h.update(f"{spacy.__version__}\0{sys.version}\0{getattr(tokenizer.vocab, 'lang', '')}\0".encode())
    h.update(hashlib.sha256(tokenizer.to_bytes(exclude=["vocab"])).digest())
    if groups is None:
        h.update(b"\2" + gaz.source_digest.encode() + _code_digest().encode())
    else:
        for i, ci, forms in groups:
            h.update(f"\1{i}\0{int(ci)}\0".encode())
            h.update("\0".join(forms).encode("utf-8", "surrogatepass"))
    return h.hexdigest()[:32]


@functools.lru_cache(maxsize=1)
def _code_digest() -> str:
    """SHA-256 of this module's source: :meth:`Gazetteer.phrase_forms` and the rules it calls."""
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()


def _read_patterns(path: Path, groups: list[tuple[int, bool, list[str]]] | None
                   ) -> list[tuple[int, bool, list[list[int]]]] | None:
    """The cached patterns (see :func:`_write_patterns`), or None when the file is missing, is
    malformed, or (``groups`` given) does not have their entries, matchers and form counts."""
    if array("I").itemsize != 4 or array("Q").itemsize != 8:
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    pos = len(_PATTERN_MAGIC)
    if not data.startswith(_PATTERN_MAGIC) or len(data) < pos + 4:
        return None

    def take(code: str, n: int) -> array | None:
        nonlocal pos
        a = array(code)
        size = a.itemsize * n
        if len(data) < pos + size:
            return None
        a.frombytes(data[pos:pos + size])
        pos += size
        if sys.byteorder != "little":  # the file is little-endian
            a.byteswap()
        return a

    head = take("I", 1)
    n_groups = head[0] if head else 0
    table = take("I", 3 * n_groups)  # entry index, case-insensitive (0/1), number of forms
    if table is None:
        return None
    shape = [(table[3 * k], bool(table[3 * k + 1]), table[3 * k + 2]) for k in range(n_groups)]
    if groups is not None and shape != [(i, ci, len(forms)) for i, ci, forms in groups]:
        return None
    lengths = take("I", sum(n for _i, _ci, n in shape))
    hashes = take("Q", sum(lengths)) if lengths is not None else None
    if hashes is None or pos != len(data):
        return None
    flat = hashes.tolist()
    out = []
    k = at = 0
    for i, ci, n in shape:
        keywords = []
        for length in lengths[k:k + n]:  # type: ignore[index]
            keywords.append(flat[at:at + length])
            at += length
        k += n
        out.append((i, ci, keywords))
    return out


def _write_patterns(path: Path, patterns: list[tuple[int, bool, list[list[int]]]]) -> None:
    """The magic, the number of groups, (entry, case-insensitive, number of forms) per group, one
    length per form and every token hash (uint32, hashes uint64, little-endian), written to a
    temporary file and renamed (a reader never sees half a file)."""
    if array("I").itemsize != 4 or array("Q").itemsize != 8:
        return
    table = array("I", [len(patterns)] + [x for i, ci, kws in patterns for x in (i, int(ci), len(kws))])
    lengths = array("I", [len(kw) for _i, _ci, kws in patterns for kw in kws])
    hashes = array("Q", [h for _i, _ci, kws in patterns for kw in kws for h in kw])
    if sys.byteorder != "little":
        for a in (table, lengths, hashes):
            a.byteswap()
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(_PATTERN_MAGIC + table.tobytes() + lengths.tobytes() + hashes.tobytes())
        os.replace(tmp, path)
    except OSError:  # a read-only or full disk: no cache, the patterns are built each time
        try:
            tmp.unlink()
        except OSError:
            pass
        return
    _prune_patterns(path.parent)


def _prune_patterns(folder: Path) -> None:
    """Keep the :data:`MAX_PATTERN_FILES` most recently used pattern files of ``folder`` (every
    other gazetteer, say each fold's of a cross-validation, writes one of its own)."""
    try:
        files = sorted(folder.glob("phrases-*.bin"), key=lambda f: f.stat().st_mtime_ns, reverse=True)
    except OSError:  # a file removed meanwhile by another process
        return
    for old in files[MAX_PATTERN_FILES:]:
        try:
            old.unlink()
        except OSError:
            pass
