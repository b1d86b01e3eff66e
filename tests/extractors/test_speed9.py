"""The ninth session's speed-ups change no result.

Each optimised piece is compared with the plain thing it replaces (spaCy's own pattern, the
regular expression it stands for, the generic code path); no timings here (those are in
``bench/bench_extract.py``).
"""

from __future__ import annotations

import re

import pytest
import spacy

from extractors.pipeline import _always_consumes, _DotlessUrlMatch, make_nlp

#: Strings spaCy's tokenizer could ask its URL pattern about: words, host names, addresses,
#: e-mail-like strings, schemes, ports, paths, dots at the edges.
URL_CASES = [
    "", ".", "..", "a", "model", "model.", "e.g.", "U.S.", "3.5", "1.2.3.4", "10.0.0.1", "192.168.1.1",
    "8.8.8.8", "8.8.8.8:80", "example.org", "www.example.org", "https://example.org/a.b",
    "http://localhost", "http://localhost:8000/x", "ftp://a.b", "user@example.com",
    "user:pw@example.com/path?q=1#f", "github.com/org/repo", "arXiv:2101.00001", "doi.org/10.1/x",
    "a.b", "a.bc", "x.y.z", "Ph.D.", "i.e.,", "www", "https", "https://", "mailto:x", "中文.中国",
    "bücher.de", "a..b", ".com", "com.", "1.2", "v1.2.3", "GPT-4.5", "model.pt", "data.csv",
]


@pytest.fixture(scope="module")
def english() -> spacy.language.Language:
    return spacy.blank("en")


def test_url_match_is_spacys(english) -> None:
    plain = english.tokenizer.url_match.__self__
    fast = make_nlp().tokenizer.tokenizer.url_match
    assert isinstance(fast.__self__, _DotlessUrlMatch)
    cases = URL_CASES + [c.replace(".", "") for c in URL_CASES] + ["(" + c + ")" for c in URL_CASES]
    for case in cases:
        a, b = plain.match(case), fast(case)
        assert (a and a.span()) == (b and b.span()), case
    assert sum(plain.match(c) is not None for c in cases) >= 10  # the cases reach the pattern


def test_every_url_match_holds_a_dot(english) -> None:
    """Why the URL shortcut holds: the parse-tree check finds a mandatory dot in spaCy's URL
    pattern, and in none of the patterns where a dot is optional or absent."""
    from re import _parser as sre_parse  # type: ignore[attr-defined]

    def consumes(pattern: str) -> bool:
        return _always_consumes(list(sre_parse.parse(pattern).data), ".")

    rx = english.tokenizer.url_match.__self__
    assert _always_consumes(list(sre_parse.parse(rx.pattern, rx.flags).data), ".")
    assert consumes(r"a\.b") and consumes(r"(?:x|y)\.") and consumes(r"(?:\.z){2}") and consumes(r"(?:a\.|b\.)+")
    assert not consumes(r"a\.?b") and not consumes(r"(?:\.|x)") and not consumes(r"(?:\.)*")
    assert not consumes(r"(?=\.)a") and not consumes(r"[.,]x")  # a look-ahead, a class: unsure


def test_serialised_tokenizer_keeps_spacys_url_pattern(english) -> None:
    tok = make_nlp().tokenizer.tokenizer
    fresh = spacy.blank("en").tokenizer.from_bytes(tok.to_bytes())
    assert fresh.url_match.__self__.pattern == english.tokenizer.url_match.__self__.pattern


def test_tokens_with_urls_are_spacys(english) -> None:
    text = " ".join(URL_CASES) + " see (https://example.org/a.b), www.x.io. and 1.2.3.4:80!"
    ours = [(t.text, t.idx, t.whitespace_) for t in make_nlp().make_doc(text)]
    assert ours == [(t.text, t.idx, t.whitespace_) for t in english.make_doc(text)]


#: gazetteer.entity_key's plural step as it was written: a search of this alternation.
_OLD_PLURAL_WORD = re.compile(
    r"(networks|nets|models|machines|transformers|autoencoders|encoders|decoders|flows|fields|"
    r"processes|forests|trees|units|optimizers|estimators|algorithms|benchmarks|datasets|experts|"
    r"ensembles|kernels|filters|samplers|solvers|classifiers|regressors|mechanisms|operators|features|"
    r"encodings|embeddings|activations|reflections|transformations|iterations|decompositions)$")


def _old_plural_step(key: str) -> str:
    m = _OLD_PLURAL_WORD.search(key)
    if m and m.group(1) != "experts":
        word = m.group(1)
        key = key[: m.start()] + (word[:-2] if word.endswith("sses") or word == "processes" else word[:-1])
    return key


def test_entity_key_plural_step_is_the_alternation_search() -> None:
    from extractors.gazetteer import _PLURAL_WORDS, entity_key, load_gazetteer

    assert _OLD_PLURAL_WORD.pattern == "(" + "|".join(_PLURAL_WORDS) + ")$"
    names = [f for e in load_gazetteer().entries for f in (e.name, *e.aliases)]
    names += [a + w for a in ("", "x", "auto", "deep ", "Deep-", "s", "en", "sub") for w in _PLURAL_WORDS]
    names += ["Processes", "mixture of experts", "classes", "sses", "Variational Autoencoders", "GANs"]
    changed = 0
    for name in names:
        n = name.strip()
        if len(n) > 2 and n.endswith("s") and n[-2].isupper():
            n = n[:-1]
        low = n.lower()
        from extractors.gazetteer import GREEK_NAMES, _NON_ALNUM

        if not low.isascii():
            low = low.translate(GREEK_NAMES)
        key = _NON_ALNUM.sub("", low.replace("+", "plus"))
        if "isation" in key or "iser" in key:  # British spellings key as American ones (round 16)
            from extractors.gazetteer import _BRITISH_KEY

            key = _BRITISH_KEY.sub("iz", key)
        assert entity_key(name) == _old_plural_step(key), name
        changed += _old_plural_step(key) != key
    assert changed > 500  # the plural step ran on many of them


def test_renewed_tokenizer_keeps_spacys_rules_and_heuristics(english) -> None:
    """make_nlp builds its tokenizer anew (one load of the special cases instead of one per
    setter): the same special cases, heuristics and prefix search as spaCy's, an empty cache."""
    tok = make_nlp().tokenizer.tokenizer
    plain = english.tokenizer
    assert tok.rules == plain.rules and len(tok.rules) > 1000
    assert tok.faster_heuristics == plain.faster_heuristics
    assert tok.prefix_search == plain.prefix_search and tok.token_match == plain.token_match
    assert tok.vocab is not plain.vocab
    text = "We don't use U.S. data :) or 3.5x faster's models, e.g. (FooNet) vs. BarNet's."
    for _ in range(2):  # the second time from the cache
        assert [t.text for t in make_nlp().make_doc(text)] == [t.text for t in english.make_doc(text)]


def test_choose_counted_is_choose_name() -> None:
    """consolidate_concepts picks a concept's name from counts: the same name _choose_name
    picks from the spellings one by one, whatever their order."""
    import random
    from collections import Counter

    from extractors.concepts import _choose_counted, _choose_name

    rng = random.Random(9)
    spellings = ["federated learning", "Federated Learning", "federated Learning", "FL", "Hessian estimation",
                 "hessian estimation", "a", "A", "b"]
    for _ in range(2000):
        names = [rng.choice(spellings) for _ in range(rng.randint(1, 6))]
        counts = dict(Counter(names))
        assert _choose_counted(counts) == _choose_name(names) == _choose_name(list(reversed(names))), names


def test_with_extraction_is_the_records_own() -> None:
    from kg.records import Citation, Entity, Mention, Source, make_record
    from kg.schema import EntityType, Role

    from extractors.consolidate import with_extraction

    rec = make_record(source=Source("x.jsonl", 3, "test"), title="FooNet", abstract="We propose FooNet.",
                      authors=("Ada Lovelace", "Alan Turing"), year=2024, venue="ICLR",
                      ids={"doi": "10.1/X"}, references=("W1",))
    ents = [Entity(EntityType.METHOD, "FooNet", Role.PROPOSED, (), (Mention(11, 17, "FooNet", "r"),))]
    cits = [Citation(("Turing",), 1950, 0, 5, "(Turing, 1950)")]
    for e, c in ((ents, cits), ((), ()), (tuple(ents), [])):
        got = with_extraction(rec, e, c)
        assert got == rec.with_extraction(e, c)
        assert type(got.entities) is tuple and type(got.citations) is tuple
    assert with_extraction(rec, ents, cits).to_dict() == rec.with_extraction(ents, cits).to_dict()


def test_consolidate_concepts_keeps_a_record_without_concepts() -> None:
    from kg.records import Entity, Mention, Source, make_record
    from kg.schema import EntityType, Role

    from extractors.concepts import consolidate_concepts

    rec = make_record(source=Source("x.jsonl", 1, "test"), title="T", abstract="We propose FooNet.")
    method = Entity(EntityType.METHOD, "FooNet", Role.PROPOSED, (), (Mention(11, 17, "FooNet", "r"),))
    concept = Entity(EntityType.CONCEPT, "federated learning", None, (), (Mention(0, 5, "x", "concept_topic"),))
    plain = rec.with_extraction([method], [])
    with_concept = rec.with_extraction([method, concept], [])
    out = consolidate_concepts([plain, with_concept])
    assert out[0] == plain
    assert [e.name for e in out[1].entities] == ["FooNet", "federated learning"]
