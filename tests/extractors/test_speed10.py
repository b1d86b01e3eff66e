"""Behaviour the tenth session's speed work must keep.

1. ``gazetteer.phrase_patterns``: the gazetteer's phrase-matcher patterns as token hashes, kept in a
   content-keyed file. The hashes are what tokenizing the forms gives, a ``PhraseMatcher`` built from
   them finds what one built from ``Doc`` s finds, and the file is never stale: changed data, a
   changed tokenizer or a damaged file gives the patterns of what is there now.
2. The tokenizer's infix search tries spaCy's English infix pattern only where a character that is
   not a letter or digit starts (a look-ahead): the same matches.
3. The entity rules' cheaper scans find what the plain ones found: the proposal verbs from fewer
   anchors, one scan for both head-word lists, fewer gate words for the naming cues, and
   ``entities_from_doc`` making each mention in its field at once.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import spacy
from spacy.matcher import PhraseMatcher

from extractors.gazetteer import (CACHE_DIR_ENV, Gazetteer, default_cache_dir, pattern_groups,
                                  phrase_patterns)

DATA = {
    "entries": [
        {"type": "method", "name": "Mixture-of-Experts", "aliases": ["MoE"], "source": "curated"},
        {"type": "method", "name": "stochastic gradient descent", "aliases": ["SGD"], "source": "curated"},
        {"type": "benchmark", "name": "CIFAR-10", "aliases": [], "source": "curated"},
        {"type": "benchmark", "name": "Penn Treebank", "aliases": ["PTB"], "source": "pwc"},
        {"type": "method", "name": "BERT", "aliases": ["BERT-base"], "source": "pwc"},
    ],
    "metrics": ["accuracy"],
    "stoplist": ["model"],
}

TEXTS = [
    "We train a Mixture-of-Experts (MoE) with Stochastic Gradient Descent on CIFAR-10 and the Penn Treebank.",
    "MoEs beat BERT-base; mixture of experts layers and SGD, cifar-10, penn treebank, BERT.",
    "",
]


def _tokenizer():
    return spacy.blank("en").tokenizer


def _from_docs(gaz: Gazetteer, tok) -> list[tuple[int, bool, list[list[int]]]]:
    """What the entity component added before: each form tokenized, LOWER or ORTH per token."""
    out = []
    for i, ci, forms in pattern_groups(gaz):
        out.append((i, ci, [[t.lower if ci else t.orth for t in doc] for doc in tok.pipe(forms)]))
    return out


def _matchers(vocab, patterns) -> tuple[PhraseMatcher, PhraseMatcher]:
    orth, lower = PhraseMatcher(vocab, attr="ORTH"), PhraseMatcher(vocab, attr="LOWER")
    for i, ci, keywords in patterns:
        (lower if ci else orth).add(f"gaz{i}", keywords)
    return orth, lower


def test_groups_follow_phrase_forms():
    gaz = Gazetteer.from_data(DATA)
    groups = pattern_groups(gaz)
    flat = [(i, f.lower() if ci else f, ci) for i, ci, forms in groups for f in forms]
    assert sorted(flat) == sorted((i, f.lower() if ci else f, ci) for i, f, ci in gaz.phrase_forms())
    assert len({(i, ci) for i, ci, _ in groups}) == len(groups)  # one group per entry and matcher


def test_patterns_are_the_tokenized_forms(tmp_path):
    gaz = Gazetteer.from_data(DATA)
    tok = _tokenizer()
    expected = _from_docs(gaz, tok)
    assert phrase_patterns(gaz, tok, cache_dir=None) == expected
    assert phrase_patterns(gaz, tok, cache_dir=tmp_path) == expected  # written
    assert len(list(tmp_path.glob("phrases-*.bin"))) == 1
    assert phrase_patterns(gaz, tok, cache_dir=tmp_path) == expected  # read back


def test_matches_as_with_docs(tmp_path):
    gaz = Gazetteer.from_data(DATA)
    nlp = spacy.blank("en")
    by_docs = PhraseMatcher(nlp.vocab, attr="ORTH"), PhraseMatcher(nlp.vocab, attr="LOWER")
    for i, ci, forms in pattern_groups(gaz):
        by_docs[1 if ci else 0].add(f"gaz{i}", list(nlp.tokenizer.pipe(forms)))
    phrase_patterns(gaz, nlp.tokenizer, cache_dir=tmp_path)
    fresh = spacy.blank("en")  # a vocabulary that has never seen the forms
    by_hashes = _matchers(fresh.vocab, phrase_patterns(gaz, fresh.tokenizer, cache_dir=tmp_path))
    found = 0
    for text in TEXTS:
        for old, new in zip(by_docs, by_hashes):
            a, b = old(nlp.make_doc(text)), new(fresh.make_doc(text))
            assert [(nlp.vocab.strings[k], s, e) for k, s, e in a] == \
                [(fresh.vocab.strings[k], s, e) for k, s, e in b]
            found += len(a)
    assert found >= 8


def test_changed_data_reads_another_file(tmp_path):
    tok = _tokenizer()
    gaz = Gazetteer.from_data(DATA)
    phrase_patterns(gaz, tok, cache_dir=tmp_path)
    more = dict(DATA, entries=[*DATA["entries"], {"type": "benchmark", "name": "GSM8K", "aliases": ["gsm8k"],
                                                 "source": "curated"}])
    changed = Gazetteer.from_data(more)
    got = phrase_patterns(changed, tok, cache_dir=tmp_path)
    assert got == _from_docs(changed, tok)
    assert len(got) > len(_from_docs(gaz, tok))
    assert len(list(tmp_path.glob("phrases-*.bin"))) == 2
    # the same entries with one alias spelled otherwise: the same number of forms, other hashes
    respelt = dict(DATA, entries=[dict(DATA["entries"][0], aliases=["MoEx"]), *DATA["entries"][1:]])
    gaz2 = Gazetteer.from_data(respelt)
    assert phrase_patterns(gaz2, tok, cache_dir=tmp_path) == _from_docs(gaz2, tok)


def test_gazetteer_file_digest_finds_the_file_without_the_forms(tmp_path, monkeypatch):
    import json

    from extractors.gazetteer import load_gazetteer

    path = tmp_path / "gaz.json"
    path.write_text(json.dumps(DATA), encoding="utf-8")
    gaz = load_gazetteer(str(path))
    assert gaz.source_digest and gaz == Gazetteer.from_data(DATA)
    tok = _tokenizer()
    expected = _from_docs(gaz, tok)
    cache = tmp_path / "cache"
    assert phrase_patterns(gaz, tok, cache_dir=cache) == expected
    forms = Gazetteer.phrase_forms
    calls = []
    monkeypatch.setattr(Gazetteer, "phrase_forms", lambda self: calls.append(1) or forms(self))
    assert phrase_patterns(gaz, tok, cache_dir=cache) == expected
    assert calls == []  # read back by the file's digest: no forms computed
    # the file changed: another digest, another cache file, the new forms
    more = dict(DATA, entries=[*DATA["entries"], {"type": "method", "name": "LoRA", "aliases": ["low-rank adaptation"],
                                                 "source": "curated"}])
    path.write_text(json.dumps(more), encoding="utf-8")
    load_gazetteer.cache_clear()
    changed = load_gazetteer(str(path))
    load_gazetteer.cache_clear()
    assert changed.source_digest != gaz.source_digest
    assert phrase_patterns(changed, tok, cache_dir=cache) == _from_docs(changed, tok) != expected
    assert len(list(cache.glob("phrases-*.bin"))) == 2
    # the same data without a file: keyed by its forms, the same patterns
    plain = Gazetteer.from_data(more)
    assert phrase_patterns(plain, tok, cache_dir=cache) == _from_docs(plain, tok)
    assert len(list(cache.glob("phrases-*.bin"))) == 3


def test_changed_tokenizer_reads_another_file(tmp_path):
    gaz = Gazetteer.from_data(DATA)
    plain = _tokenizer()
    phrase_patterns(gaz, plain, cache_dir=tmp_path)
    special = _tokenizer()
    special.add_special_case("CIFAR-10", [{"ORTH": "CIFAR"}, {"ORTH": "-10"}])
    got = phrase_patterns(gaz, special, cache_dir=tmp_path)
    assert got == _from_docs(gaz, special) != _from_docs(gaz, plain)


def test_damaged_file_is_rebuilt(tmp_path):
    gaz = Gazetteer.from_data(DATA)
    tok = _tokenizer()
    expected = phrase_patterns(gaz, tok, cache_dir=tmp_path)
    (path,) = tmp_path.glob("phrases-*.bin")
    good = path.read_bytes()
    for bad in (b"", good[:-8], good + b"\0" * 8, b"something else" + good[14:], good[:40]):
        path.write_bytes(bad)
        assert phrase_patterns(gaz, tok, cache_dir=tmp_path) == expected
        assert path.read_bytes() == good  # and written again


def test_folder_keeps_the_most_recently_used_files(tmp_path):
    import os

    from extractors.gazetteer import MAX_PATTERN_FILES

    tok = _tokenizer()
    first = Gazetteer.from_data(DATA)
    phrase_patterns(first, tok, cache_dir=tmp_path)
    (kept,) = tmp_path.glob("phrases-*.bin")
    os.utime(kept, ns=(1, 1))  # written long ago ...
    for k in range(MAX_PATTERN_FILES + 3):
        extra = {"type": "benchmark", "name": f"Bench{k}", "aliases": [], "source": "curated"}
        phrase_patterns(Gazetteer.from_data(dict(DATA, entries=[*DATA["entries"], extra])), tok, cache_dir=tmp_path)
        if k == 5:
            phrase_patterns(first, tok, cache_dir=tmp_path)  # ... but read again: used recently
    files = list(tmp_path.glob("phrases-*.bin"))
    assert len(files) == MAX_PATTERN_FILES and kept in files


def test_unwritable_folder_leaves_the_cache_off(tmp_path):
    gaz = Gazetteer.from_data(DATA)
    tok = _tokenizer()
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert phrase_patterns(gaz, tok, cache_dir=blocker / "cache") == _from_docs(gaz, tok)


def test_cache_dir_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / "c"))
    assert default_cache_dir() == tmp_path / "c"
    gaz = Gazetteer.from_data(DATA)
    phrase_patterns(gaz, _tokenizer())
    assert len(list((tmp_path / "c").glob("phrases-*.bin"))) == 1
    monkeypatch.setenv(CACHE_DIR_ENV, "")
    assert default_cache_dir() is None
    monkeypatch.delenv(CACHE_DIR_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "paperkg"



def test_entity_key_shortcut_is_the_substitution():
    """entity_key skips the substitution for a lower-cased ASCII letters-and-digits name: the same key."""
    import re

    from extractors.gazetteer import _PLURAL_LONGEST_FIRST, _PLURAL_WORDS, GREEK_NAMES, entity_key

    def plain(name: str) -> str:  # entity_key as it was, always substituting
        n = name.strip()
        if len(n) > 2 and n.endswith("s") and n[-2].isupper():
            n = n[:-1]
        low = n.lower()
        if not low.isascii():
            low = low.translate(GREEK_NAMES)
        key = re.sub(r"[^0-9a-z]+", "", low.replace("+", "plus"))
        if key.endswith(_PLURAL_WORDS):
            word = next(w for w in _PLURAL_LONGEST_FIRST if key.endswith(w))
            if word != "experts":
                key = key[: len(key) - len(word)] + (word[:-2] if word.endswith("sses") or word == "processes"
                                                     else word[:-1])
        return key

    names = ["MoEs", "GPT4", "gpt-4", "CFR+", "β-VAE", "Generative Adversarial Networks", "K8s", "A1s", "x", "",
             " ", "Ⅻ", "x²", "ﬁne", "İstanbul", "ǅemal", "processes", "Gaussian Processes", "MIXTURE-OF-EXPERTS"]
    names += [chr(cp) for cp in range(0x10000) if not 0xD800 <= cp < 0xE000]
    names += ["a" + chr(cp) + "b" for cp in range(0x3000) if not 0xD800 <= cp < 0xE000]
    entity_key.cache_clear()
    assert [entity_key(n) for n in names] == [plain(n) for n in names]
    entity_key.cache_clear()

# 2. The infix search behind a look-ahead (extractors.pipeline._EnglishInfixFinditer)

def test_every_infix_match_starts_with_no_letter_or_digit():
    """Why the look-ahead holds: the parse-tree check, and spaCy's own matches on real words."""
    from extractors.pipeline import _english_affix_patterns

    assert _english_affix_patterns().infix_starts_non_alnum
    rx = spacy.blank("en").tokenizer.infix_finditer.__self__
    words = "state-of-the-art GPT-4 1.5B x^2 a/b a:b a=b 10-20 e.g.,x 3*4 a--b a—b a–b a~b U.S.A. ...a…b"
    starts = [w[m.start()] for w in words.split() for m in rx.finditer(w)]
    assert len(starts) >= 15 and not any(c.isalnum() for c in starts)


def test_infix_look_ahead_finds_spacys_matches():
    from extractors.pipeline import _EnglishInfixFinditer, make_nlp

    plain = spacy.blank("en").tokenizer.infix_finditer.__self__
    fast = make_nlp().tokenizer.tokenizer.infix_finditer
    assert isinstance(fast.__self__, _EnglishInfixFinditer) and fast.__self__.regex is not plain
    # the Basic Multilingual Plane and the emoji and pictograph blocks: no letter or digit
    others = [chr(cp) for cp in (*range(0x10000), *range(0x1F000, 0x1FB00))
              if not chr(cp).isalnum() and not 0xD800 <= cp < 0xE000]
    found = 0
    for left, right in (("a", "b"), ("1", "2"), ("a", "A"), ("A", "1"), ("ab.", "Cd"), ("", "")):
        for text in (" ".join(left + c + right for c in others), "".join(left + c + c + right for c in others)):
            spans = [m.span() for m in plain.finditer(text)]
            assert spans == [m.span() for m in fast(text)], (left, right)
            found += len(spans)
    assert found > 10_000


# 3. The entity rules' scans (extractors.entities)

@pytest.fixture(scope="module")
def real_texts(shared_data: Path) -> list[str]:
    """Titles and abstracts of the first 400 ICML 2023 papers, read at run time."""
    import json

    lines = (shared_data / "confpapers" / "jsonl" / "icml2023.jsonl").read_text(encoding="utf-8").splitlines()
    return [(d.get("title") or "") + "\n\n" + (d.get("abstract") or "") for d in map(json.loads, lines[:400])]


HAND = [
    "We propose X. The paper introduces Y, the work presents Z; Our paper develops A and our work builds B.",
    "This paper proposes C; this work, this study and this article: this note describes D. The thesis we release.",
    "Together we  propose E,\twe\npresent F; weigh the power; between the papers; the paperwork presents G.",
    "We have developed H, we then propose I, we publicly release J. Proposing K, introducing L, presenting M.",
]


def test_proposal_anchors_find_every_proposal_verb(real_texts):
    from extractors import entities as E

    def plain(ct: str) -> list[int]:  # _PROPOSE tried after every word boundary: no anchors
        ends = [m.end() for i in range(len(ct)) if (i == 0 or not (ct[i - 1].isalnum() or ct[i - 1] == "_"))
                for m in [E._PROPOSE.match(ct, i)] if m is not None]
        return sorted(ends)

    found = 0
    for ct in HAND + real_texts:
        ends = [e for e in E._proposal_ends(ct)]
        assert set(plain(ct)) <= set(ends), ct[:60]
        found += len(plain(ct))
    assert found > 300


def test_one_scan_finds_both_head_word_lists(real_texts):
    from extractors import entities as E

    words = E._BENCH_HEAD_WORDS.replace("?", "").split("|") + E._METHOD_HEAD_WORDS.split("|")
    words += [w + "s" for w in words]
    adversarial = " ".join(f"{a} {b} {a}-{b} x{a} {a}x" for a in words for b in words[:6])
    n = 0
    for ct in [adversarial, *real_texts]:
        both = sorted([("b", *m.span()) for m in E._BENCH_HEAD_WORD.finditer(ct)]
                      + [("m", *m.span()) for m in E._METHOD_HEAD_WORD.finditer(ct)], key=lambda x: x[1])
        assert [(m.lastgroup, *m.span()) for m in E._HEAD_WORD.finditer(ct)] == both
        n += len(both)
    assert n > 1000


def test_naming_cue_gate_words(real_texts):
    """Every text with a _CALLED match holds a gate word (the gate never hides a match)."""
    from extractors import entities as E

    cues = ["namely X", "called X", "dubbed X", "named X", "termed X", "coined X", "which we call X", "We name it X",
            "we dub them X", "we term X", "we coin X", "we denote X", "and call it X", "and dub X", "and term X",
            "and coin X", "and name X", "referred to as X", "We refer to as X", "which we refer to this method as X",
            "We refer to these as X", "denoted as X", "denoted by X"]
    hits = 0
    for ct in cues + real_texts:
        if E._called_matches(ct):
            hits += 1
            assert any(w in ct for w in E._CALLED_WORDS), ct[:80]
    assert hits >= len(cues)


def test_mentions_made_in_their_field_are_the_mapped_ones(nlp, real_texts):
    from extractors.entities import _alias, clean_view, entities_from_doc
    from extractors.pipeline import _mention_maker
    from kg.records import Entity

    n = 0
    for text in real_texts[:150]:
        doc = nlp(text)
        mention = _mention_maker(text.index("\n\n") + 2)
        mapped = []
        for ent in entities_from_doc(doc):
            ms = tuple(x for x in (mention(m.start, m.end, m.text, m.rule) for m in ent.mentions) if x)
            if ms:
                mapped.append(Entity(ent.type, ent.name, ent.role, ent.aliases, ms))
        assert entities_from_doc(doc, mention=mention) == mapped
        n += len(mapped)
    assert n > 200
    for surface in ("**X-Net**", "\\textbf{Y}", " Z ", "plain"):
        assert _alias(surface) == clean_view(surface).text.strip()
