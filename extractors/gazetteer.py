"""The shipped gazetteer of method and benchmark names, metric names and generic stop names.

``extractors/data/gazetteer.json`` is built by :mod:`extractors.build_gazetteer`. Here it is
turned into spaCy ``PhraseMatcher`` patterns (one matcher on ``ORTH`` for names with capitals,
one on ``LOWER`` for lower-case and multi-word names) and into plain lookup tables. Entries
from the silver annotations (``source`` ``"silver"``, :mod:`extractors.build_silver`) are
matched like curated ones (:data:`HAND_SOURCES`), and the ``silver_stoplist`` joins the stoplist.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

GAZETTEER_PATH = Path(__file__).resolve().parent / "data" / "gazetteer.json"
#: entry sources whose spellings a person wrote (``curated.tsv``, the silver annotations): matched
#: by their case shape, multi-word lower-case names in any case
HAND_SOURCES = frozenset({"curated", "silver"})

_NON_ALNUM = re.compile(r"[^0-9a-z]+")
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
    if not low.isascii():
        low = low.translate(GREEK_NAMES)
    key = _NON_ALNUM.sub("", low.replace("+", "plus"))  # "CFR+" is a variant of "CFR"
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
        low = name.lower()
        if e.source in HAND_SOURCES and not any(
                _case_insensitive(f) or (f in self.case_free and low in (f.lower(), f.lower() + "s")) for f in forms):
            # a name matched by its exact spelling is not another casing of it ("MONet" is not
            # "MoNet", "Eagle" is not "EAGLE")
            shape = _case_shape(name)
            if not any(shape == s or shape == s + "s" for s in map(_case_shape, forms)):
                return None
        return e

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


def _case_shape(form: str) -> str:
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


def _variants(form: str, etype: str) -> list[str]:
    out = [form]
    if "-" in form and " " not in form and not re.search(r"-\d", form):
        out.append(form.replace("-", " "))
    if " " in form and len(form.split()) <= 4:
        out.append(form.replace(" ", "-"))
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
    return Gazetteer.from_data(json.loads(p.read_text(encoding="utf-8")))
