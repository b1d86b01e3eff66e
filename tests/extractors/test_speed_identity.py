"""The speed-ups of the extraction pipeline change no result.

Each optimised piece is compared with the plain thing it replaces, on hand-written inputs and
(where cheap) exhaustively; no timings here (those are in ``bench/bench_extract.py``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import spacy
from spacy.attrs import IDS

from extractors.pipeline import LEXEME_ATTRS, _EnglishInfixFinditer, _EnglishSuffixSearch, make_nlp

EXTRACTORS = Path(__file__).resolve().parents[2] / "extractors"

#: Strings shaped like what spaCy's tokenizer asks its affix rules about: words, numbers with
#: units, punctuation runs, dots, dashes, quotes, brackets, URLs, LaTeX, non-Latin letters.
AFFIX_CASES = [
    "", "a", "models", "model.", "model..", "model...", "etc.", "U.S.", "e.g.,", "i.e.", "(LLMs)",
    "GPT-4", "GPT-4.", "10km", "10km.", "3.5x", "99%", "$5", "5$", "5€", "1,000", "2-3", "x^2",
    "a/b", "a:b", "a=b", "a<b", "word's", "word’s", "Word'S", "'quoted'", "\"q\"", "«q»", "q)",
    "q]", "q};", "...", "..", ".", "…", "word…", "a--b", "a—b", "a–b", "a~b", "Ph.D.", "No.",
    "°C.", "5°C", "5°C.", "AB.", "aB.", "Zürich.", "Ωmega.", "中文。", "x\n", "x..\n", "\n\n",
    "tab\t", "https://example.org/a.b", "arXiv:2101.00001.", "$\\mathbb{R}^d$.", "f(x).",
    "**bold**", "<b>x</b>", "&amp;", "#tag", "@user", "x+y", "x*y", "1+1", "1-1", "a-1",
    "SOTA:", "A.I.", "ACL'23", "2023).", "[12].", "O(n log n).", "k-NN", "--", "---", "——",
]


#: Words ending in the suffix that paperkg adds to spaCy's (``EXTRA_SUFFIXES``), and near misses.
EXTRA_SUFFIX_CASES = [
    "ImageNet-C.", "PaLM-540B.", "CIFAR-10N.", "3D.", "x-Ω.", "a‑B.", "J.-C.", "J.‐C.", "-C.", "C.", "aC.",
    "ImageNet-C..", "ImageNet-c.", "GPT-4V", "x-CD.", "x1CD.", "x1C.\n",
]


@pytest.fixture(scope="module")
def english() -> spacy.language.Language:
    return spacy.blank("en")


@pytest.fixture(scope="module")
def paperkg_suffix() -> re.Pattern[str]:
    """paperkg's suffix pattern compiled as spaCy compiles its own: English's pieces plus ours."""
    from spacy.lang.char_classes import ALPHA_UPPER
    from spacy.lang.en import English
    from spacy.util import compile_suffix_regex

    from extractors.pipeline import EXTRA_SUFFIXES

    return compile_suffix_regex([*English.Defaults.suffixes, *(p.format(au=ALPHA_UPPER) for p in EXTRA_SUFFIXES)])


@pytest.fixture(scope="module")
def reference(paperkg_suffix) -> spacy.language.Language:
    """spaCy's blank English pipeline with paperkg's suffix pattern and no faster search."""
    nlp = spacy.blank("en")
    nlp.tokenizer.suffix_search = paperkg_suffix.search
    return nlp


def test_suffix_search_is_the_plain_search(paperkg_suffix) -> None:
    fast = make_nlp().tokenizer.tokenizer.suffix_search
    assert isinstance(fast.__self__, _EnglishSuffixSearch)
    assert fast.__self__.pattern == paperkg_suffix.pattern
    words = ["km", "s", "mph", "Pa", "kB", "ſ", "Zürich", "Ωmega", "中文", "ǅemal"]
    cases = AFFIX_CASES + EXTRA_SUFFIX_CASES
    for case in cases + words + [c + "s" for c in cases] + ["x" * 20 + c for c in cases]:
        a, b = paperkg_suffix.search(case), fast(case)
        assert (a and a.span()) == (b and b.span()), case


def test_suffix_search_adds_only_the_period_after_one_capital(english, paperkg_suffix) -> None:
    """paperkg's suffix pattern finds spaCy's suffix wherever spaCy finds one, and otherwise
    only a final period after a single capital that follows a digit or a hyphen."""
    plain = english.tokenizer.suffix_search.__self__
    new = []
    for case in AFFIX_CASES + EXTRA_SUFFIX_CASES + ["x" * 20 + c for c in EXTRA_SUFFIX_CASES]:
        a, b = plain.search(case), paperkg_suffix.search(case)
        if a is not None:
            assert b is not None and a.span() == b.span(), case
        elif b is not None:
            word = case.removesuffix("\n")  # '$' matches before a final line break too
            assert b.span() == (len(word) - 1, len(word)), case
            new.append(case)
    once = ["ImageNet-C.", "PaLM-540B.", "CIFAR-10N.", "3D.", "x-Ω.", "a‑B.", "-C.", "x1C.\n"]
    assert new == once + ["x" * 20 + c for c in once]


def test_infix_finditer_is_spacys(english) -> None:
    plain = english.tokenizer.infix_finditer.__self__
    fast = make_nlp().tokenizer.tokenizer.infix_finditer
    assert isinstance(fast.__self__, _EnglishInfixFinditer)
    for case in AFFIX_CASES + ["ab" + c + "cd" for c in AFFIX_CASES]:
        assert [m.span() for m in plain.finditer(case)] == [m.span() for m in fast(case)], case


def test_no_letter_or_digit_is_an_infix(english) -> None:
    """Why the infix shortcut holds: no letter or digit, in any letter/digit context, is split off."""
    rx = english.tokenizer.infix_finditer.__self__
    contexts = ["", "a", "A", "1", "é", "Ж", "α", "中"]
    alnum = "".join(chr(cp) for cp in range(0x110000) if chr(cp).isalnum())
    for left in contexts:
        for right in contexts:
            # one string per context pair: a match anywhere would show up
            joined = right.join(left + c for c in alnum) + right
            assert next(rx.finditer(joined), None) is None, (left, right)


def test_no_word_of_letters_has_a_suffix(paperkg_suffix) -> None:
    """Why the suffix shortcut for letters-only words holds, checked on words ending in each
    letter of Unicode (the suffixes are at most 5 characters: 'km²' after a digit, "'s")."""
    from extractors.pipeline import _english_affix_patterns

    assert _english_affix_patterns().letters_never  # the parse-tree check: every alternative needs a non-letter
    plain = paperkg_suffix
    letters = [chr(cp) for cp in range(0x110000) if chr(cp).isalpha()]
    for prefix in ("", "a", "Ab", "km", "xy", "ſs"):
        for c in letters:
            assert plain.search(prefix + c) is None, (prefix, c)
            assert plain.search(prefix + c + c) is None, (prefix, c)


def test_tokens_are_the_plain_tokenizers(reference) -> None:
    nlp = make_nlp()
    text = " ".join(AFFIX_CASES + EXTRA_SUFFIX_CASES) + "\n\nWe fine-tune GPT-4 (OpenAI, 2023) on 10k examples... It works!"
    ours = [(t.text, t.idx, t.whitespace_, t.lower_) for t in nlp.make_doc(text)]
    theirs = [(t.text, t.idx, t.whitespace_, t.lower_) for t in reference.make_doc(text)]
    assert ours == theirs


def test_tokens_are_spacys_but_the_extra_suffix(english) -> None:
    """Without a word that ends in the extra suffix, the tokens are spaCy's own."""
    text = " ".join(AFFIX_CASES) + "\n\nWe fine-tune GPT-4 (OpenAI, 2023) on 10k examples... It works!"
    ours = [(t.text, t.idx, t.whitespace_, t.lower_) for t in make_nlp().make_doc(text)]
    assert ours == [(t.text, t.idx, t.whitespace_, t.lower_) for t in english.make_doc(text)]


def test_serialised_tokenizer_keeps_the_patterns(english, paperkg_suffix) -> None:
    """The serialised tokenizer stores the plain patterns (paperkg's suffixes, spaCy's infixes),
    and one loaded from it tokenizes as make_nlp's does."""
    nlp = make_nlp()
    tok = nlp.tokenizer.tokenizer
    fresh = spacy.blank("en").tokenizer.from_bytes(tok.to_bytes())
    assert fresh.suffix_search.__self__.pattern == paperkg_suffix.pattern
    assert fresh.infix_finditer.__self__.pattern == english.tokenizer.infix_finditer.__self__.pattern
    text = " ".join(AFFIX_CASES + EXTRA_SUFFIX_CASES)
    assert [t.text for t in fresh(text)] == [t.text for t in nlp.make_doc(text)]


#: Token/Lexeme attributes backed by a lexical attribute getter that make_nlp drops.
_DROPPED = {name.lower() for name in IDS if name in {
    "IS_ALPHA", "IS_ASCII", "IS_DIGIT", "IS_LOWER", "IS_PUNCT", "IS_SPACE", "IS_TITLE", "IS_UPPER",
    "LIKE_URL", "LIKE_NUM", "LIKE_EMAIL", "IS_STOP", "IS_BRACKET", "IS_QUOTE", "IS_LEFT_PUNCT",
    "IS_RIGHT_PUNCT", "IS_CURRENCY", "NORM", "SHAPE", "PREFIX", "SUFFIX", "LANG"}}


def test_blank_pipeline_computes_only_the_lexical_attributes_it_reads() -> None:
    nlp = make_nlp()
    assert set(nlp.vocab.lex_attr_getters) == {IDS[a] for a in LEXEME_ATTRS}
    doc = nlp.make_doc("Deep Q-Networks")
    assert [t.lower_ for t in doc] == ["deep", "q", "-", "networks"]


def _attribute_reads(path: Path) -> set[str]:
    """Attribute names read in ``path`` (``x.is_punct``, ``x.norm_``), and Matcher attr strings.

    Called attributes (``gazetteer.is_stop(w)``, ``text.lower()``) are methods, not the
    token properties that lexical attributes back.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and id(node) not in called:
            out.add(node.attr.rstrip("_").lower())
        elif isinstance(node, ast.keyword) and node.arg == "attr" and isinstance(node.value, ast.Constant):
            out.add(str(node.value.value).lower())
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and re.fullmatch(r"[A-Z_]+", node.value):
            out.add(node.value.lower())  # "IS_PUNCT" in a Matcher pattern
    return out


@pytest.mark.parametrize("path", sorted(EXTRACTORS.glob("*.py")), ids=lambda p: p.name)
def test_extractor_code_reads_no_dropped_lexical_attribute(path: Path) -> None:
    """make_nlp() skips spaCy's lexical attribute getters but LOWER: a rule reading
    ``token.is_punct`` or ``like_num`` would silently get False. Read ``token.text`` instead,
    or add the attribute to ``extractors.pipeline.LEXEME_ATTRS``."""
    allowed = {a.lower() for a in LEXEME_ATTRS}
    reads = _attribute_reads(path) & (_DROPPED - allowed)
    assert not reads, f"{path.name} reads {sorted(reads)}"


@pytest.fixture(scope="module")
def real_texts(shared_data: Path) -> list[str]:
    """Titles and abstracts of the first 300 ICLR 2024 papers, read at run time."""
    import json

    lines = (shared_data / "confpapers" / "jsonl" / "iclr2024.jsonl").read_text(encoding="utf-8").splitlines()
    out = []
    for line in lines[:300]:
        d = json.loads(line)
        out.append((d.get("title") or "") + "\n\n" + (d.get("abstract") or ""))
    return out


def test_expand_to_tokens_is_char_span_expand(real_texts) -> None:
    """The concept component's own alignment equals ``doc.char_span(..., "expand")``."""
    from spacy.attrs import IDX

    from extractors.abbreviations import expand_to_tokens as _expand_to_tokens

    nlp = make_nlp()
    texts = real_texts[:60] + ["a  b\n\nc ", " x", "GPT-4 (OpenAI)  rocks.\t", "$x$ and  **y**"]
    checked = 0
    for text in texts:
        doc = nlp.make_doc(text)
        starts = doc.to_array(IDX).tolist()
        for start in range(0, len(text), 3):
            for end in range(start + 1, min(len(text), start + 40) + 1, 2):
                got = _expand_to_tokens(starts, text, start, end)
                if got is None:  # an edge on white space: the component asks spaCy
                    assert text[start].isspace() or text[end - 1].isspace()
                    continue
                span = doc.char_span(start, end, alignment_mode="expand")
                assert got == (span.start, span.end, span.start_char, span.end_char), (text, start, end)
                checked += 1
    assert checked > 10_000


def test_concept_items_do_not_depend_on_making_spans(real_texts) -> None:
    """extract_raw's items-only mode gives the items the span-making mode gives, and those
    items are the spans' own offsets, names and rules."""
    from extractors.concepts import ITEMS_KEY, SPANS_KEY

    nlp = make_nlp()
    comp = nlp.get_pipe("paperkg_concepts")
    with_spans = [d.user_data[ITEMS_KEY][SPANS_KEY] for d in nlp.pipe(real_texts)]
    docs = list(nlp.pipe(real_texts))
    for doc, items in zip(docs, with_spans):
        assert items == [(s.start_char, s.end_char, s.kb_id_, s.id_) for s in doc.spans[SPANS_KEY]]
    comp.make_spans = False
    try:
        plain = [d for d in nlp.pipe(real_texts)]
    finally:
        comp.make_spans = True
    assert [d.user_data[ITEMS_KEY][SPANS_KEY] for d in plain] == with_spans
    assert all(SPANS_KEY not in d.spans for d in plain)
    assert sum(map(len, with_spans)) > 1000


def test_proposal_by_finds_what_the_word_boundary_pattern_found(real_texts) -> None:
    """``_PROPOSE_BY`` has no leading ``\\b`` (so ``re`` can search for its literal "by "); the
    word boundary is checked on use, with the same matches as the old pattern."""
    from extractors.entities import _PROPOSE_BY

    old = re.compile(r"\bby (?:designing|developing|devising|constructing|building)\b")
    texts = list(real_texts) + ["Hot standby designing is not ours; we learn it by designing a cache.",
                                "We do it_by building blocks, and by constructing graphs."]

    def new(t: str) -> list[tuple[int, int]]:
        return [m.span() for m in _PROPOSE_BY.finditer(t)
                if not (m.start() and (t[m.start() - 1].isalnum() or t[m.start() - 1] == "_"))]

    assert [new(t) for t in texts] == [[m.span() for m in old.finditer(t)] for t in texts]
    assert new(texts[-2]) == [(len("Hot standby designing is not ours; we learn it "),
                               len("Hot standby designing is not ours; we learn it by designing"))]


def test_gazetteer_lookup_memo_gives_the_same_answers() -> None:
    """``Gazetteer.lookup`` remembers its answers; they are those of the plain lookup, asked
    first and again (from the memo), for every name, alias and casing the gazetteer has."""
    from extractors.gazetteer import Gazetteer, load_gazetteer

    gaz = Gazetteer.from_data(load_gazetteer().to_data())  # a fresh one: an empty memo
    names = [f for e in gaz.entries for f in (e.name, *e.aliases)]
    names += [n.upper() for n in names] + [n.lower() for n in names] + [n + "s" for n in names]
    names += ["SPIDER", "Spider", "math benchmarks", "MONet", "MoNet", "", " ", "not a name at all"]
    plain = [gaz._lookup(n) for n in names]
    assert [gaz.lookup(n) for n in names] == plain
    assert [gaz.lookup(n) for n in names] == plain  # from the memo
    assert sum(p is not None for p in plain) > len(gaz.entries)
    assert gaz == Gazetteer.from_data(gaz.to_data())  # the memo is no part of equality


def test_head_word_ends_from_token_starts(real_texts) -> None:
    """The concept component finds where a head word ends from the tokens' start offsets alone
    (the next token's start, less the one space between): what spaCy's tokens say, on real
    abstracts and on texts with runs of spaces, tabs, line breaks and a trailing space."""
    from spacy.attrs import IDX

    nlp = make_nlp()
    comp = nlp.get_pipe("paperkg_concepts")
    texts = list(real_texts[:150]) + ["deep learning  models", "federated learning\tsetups",
                                      "meta-learning\n\nreinforcement learning ", "reinforcement learning",
                                      "x  learning   \n learning", "learning"]
    checked = 0
    for text in texts:
        doc = nlp.make_doc(text)
        starts = doc.to_array(IDX).tolist()
        for match_id, s, _e in comp.matcher(doc):
            if match_id != comp._head_id:
                continue
            he = starts[s + 1] if s + 1 < len(starts) else len(text)
            if text[he - 1] == " ":
                he -= 1
            assert (starts[s], he) == (doc[s].idx, doc[s].idx + len(doc[s])), (text, s)
            checked += 1
    assert checked > 1000


def test_entity_spans_do_not_depend_on_making_spans(real_texts) -> None:
    """extract_raw's plain mode (``make_spans`` False on the abbreviation, rule and learned
    components) keeps the spans ``doc.spans`` would hold as (start_char, end_char, label), in
    their order, with the same per-span info, so the entities read from them are the same."""
    from extractors.abbreviations import SPANS_KEY as ABBR_KEY
    from extractors.entities import INFO_KEY, PLAIN_SPANS_KEY, SPANS_KEY, entities_from_doc
    from extractors.learned import EXTENDED_RULE, PHRASE_RULE, RULE

    nlp = make_nlp()
    comps = [nlp.get_pipe(n) for n in ("paperkg_abbreviations", "paperkg_entities", "paperkg_concepts")]
    with_spans = list(nlp.pipe(real_texts))
    for c in comps:
        c.make_spans = False
    try:
        plain = list(nlp.pipe(real_texts))
    finally:
        for c in comps:
            c.make_spans = True
    for a, b in zip(with_spans, plain):
        assert b.user_data[PLAIN_SPANS_KEY][SPANS_KEY] == [(s.start_char, s.end_char, s.label_)
                                                          for s in a.spans[SPANS_KEY]]
        assert b.user_data[INFO_KEY] == a.user_data[INFO_KEY]
        assert entities_from_doc(b) == entities_from_doc(a)
        assert SPANS_KEY not in b.spans and ABBR_KEY not in b.spans
    assert sum(len(d.spans[SPANS_KEY]) for d in with_spans) > 1000
    # the learned component added or changed spans in some documents (its plain path ran)
    rules = {v[2] for d in plain for v in d.user_data[INFO_KEY].values()}
    assert rules & {RULE, EXTENDED_RULE, PHRASE_RULE}


def test_record_makers_make_the_dataclass_records() -> None:
    """make_mention / make_entity store their arguments as the dataclasses' own ``__init__`` does:
    equal records of the same class, still frozen; only for classes whose ``__init__`` does no
    more than that (no ``__post_init__``, these fields in this order)."""
    import dataclasses

    from extractors.makers import make_entity, make_mention
    from kg.records import Entity, Mention
    from kg.schema import EntityType, Role

    for cls, names in ((Mention, ("start", "end", "text", "rule", "field")),
                       (Entity, ("type", "name", "role", "aliases", "mentions"))):
        assert tuple(f.name for f in dataclasses.fields(cls)) == names
        assert not hasattr(cls, "__post_init__")
    m = make_mention(3, 7, "BERT", "gazetteer", "title")
    assert type(m) is Mention and m == Mention(3, 7, "BERT", "gazetteer", "title") and hash(m) == hash(
        Mention(3, 7, "BERT", "gazetteer", "title"))
    e = make_entity(EntityType.BENCHMARK, "MNIST", Role.USED, ("mnist",), (m,))
    assert type(e) is Entity and e == Entity(EntityType.BENCHMARK, "MNIST", Role.USED, ("mnist",), (m,))
    assert e.to_dict() == Entity(EntityType.BENCHMARK, "MNIST", Role.USED, ("mnist",), (m,)).to_dict()
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.start = 0  # type: ignore[misc]
