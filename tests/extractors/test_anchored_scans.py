"""Whole-text scans of the entity rules tried only at their anchors find what ``finditer`` finds.

No timings here (those are in ``bench/bench_extract.py``); each anchored scan is compared with
the plain ``finditer`` of its pattern on real abstracts and on hand-written strings built from
the pieces the patterns care about.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from extractors import entities as E
from extractors.abbreviations import clean_view

#: (pattern, anchors, anchors one character after the start), as the entity rules use them
SCANS = {
    "appositive": (E._APPOS_ANCHOR, E._APPOS_ANCHORS, E._APPOS_ANCHORS_AFTER),
    "passive": (E._PASSIVE_VERB, E._PASSIVE_VERB_ANCHORS, ()),
    "our": (E._OUR_NAME, E._OUR_ANCHORS, ()),
    "bench_before": (E._BENCH_BEFORE, E._BENCH_BEFORE_WORDS, ()),
    "compare": (E._COMPARE, E._COMPARE_WORDS, ()),
}

PIECES = [" ", "  ", "\n", "\n\n", "\t", ",", ", ", ":", "-", "--", "—", "–", " -", "a", "an", "the", "our",
          "A", "An", "The", "Our", "OUR", "x", "X", "_", "é", "(", ")", "1", "benchmark", "benchmarks", "data",
          "sets", "set", "datasets", "corpora", "environments", "collections", "compared", "to", "with",
          "against", "outperforms", "outperforming", "baseline", "baselines", "such as", "including", "e.g.",
          "i.e.", "surpass", "surpasses", "than", "versus", "vs", "vs.", "zthan", "_than", "xvs", "3vs",
          "ébenchmarks", "-benchmarks", "BERT", "GPT-4", "ImageNet", "CIFAR-10", "Fashion MNIST", "and", "or",
          "&", "proposed", "introduced", "presented", "developed", "devised", "designed", "redesigned",
          "proposedly", "is", "are", "ours", "tour", "detour", "new", "novel", "metric", "measure", "score",
          "called", "named", "X-Net"]


def _spans(matches) -> list[tuple]:
    return [(m.span(), tuple(m.span(g) for g in range(1, (m.re.groups or 0) + 1))) for m in matches]


@pytest.fixture(scope="module")
def texts(shared_data: Path) -> list[str]:
    """Clean views of the titles and abstracts of 400 ICLR 2024 papers (read at run time), and
    strings made of the pieces above."""
    lines = (shared_data / "confpapers" / "jsonl" / "iclr2024.jsonl").read_text(encoding="utf-8").splitlines()
    out = []
    for line in lines[:400]:
        d = json.loads(line)
        out.append(clean_view((d.get("title") or "") + "\n\n" + (d.get("abstract") or "")).text)
    rng = random.Random(7)
    for _ in range(6000):
        out.append("".join(rng.choice(PIECES) + rng.choice(["", " ", " ", ", "]) for _ in range(rng.randint(1, 30))))
    return out


@pytest.mark.parametrize("name", sorted(SCANS))
def test_anchored_scan_is_finditer(name: str, texts: list[str]) -> None:
    rx, anchors, after = SCANS[name]
    found = 0
    for t in texts:
        plain = _spans(rx.finditer(t))
        assert _spans(E._anchored_finditer(rx, t, anchors, after)) == plain, (name, t)
        found += len(plain)
    assert found > 100, name  # the strings exercise the pattern


def test_metric_gate_is_necessary(texts: list[str]) -> None:
    """Every text where _METRIC_NAMED matches passes its cheaper gate."""
    extra = ["we propose a new metric, Foo, that", "a novel robustness score called RScore which",
             "A new index: BarIndex, for", "a new calibration measure , CalM ,"]
    hits = 0
    for t in texts + extra:
        if E._METRIC_NAMED.search(t) is not None:
            hits += 1
            assert E._METRIC_NAMED_GATE.search(t) is not None, t
    assert all(E._METRIC_NAMED.search(t) for t in extra) and hits > len(extra)


def _emphasis_spans(matches) -> list[tuple]:
    """What :func:`extractors.abbreviations.emphasized_ranges` reads of each match."""
    return [(m.span(), m.lastgroup, m.span(m.lastgroup)) for m in matches]


def test_emphasis_pattern_finds_what_the_look_behind_form_found(texts: list[str]) -> None:
    """``_EMPHASIS`` checks the character before a single star or underscore after taking it,
    and takes "__" as "_" and an optional "_" (so ``re`` can skip to the marks); the matches and
    their phrases are those of the form with a leading look-behind."""
    import re

    from extractors.abbreviations import _EMPHASIS

    old = re.compile(r"\*\*(?P<a>[^*\n]{1,80}?)\*\*|(?<![*\w])\*(?P<b>[^*\s][^*\n]{0,78}?)\*(?![*\w])"
                     r"|\\(?:textbf|emph|textit|textsc|texttt)\s*\{(?P<c>[^{}\n]{1,80})\}"
                     r"|\{\\(?:sc|em|bf|it|tt)\s+(?P<d>[^{}\n]{1,80})\}"
                     r"|(?<![\w\\$^{_])(?:(?P<two>__)|_)(?P<e>[A-Za-z0-9][^_\n$\\]{0,78}?(?<=[\w)+]))(?(two)__|_)(?![\w$])")
    rng = random.Random(11)
    pieces = ["*", "**", "***", "a", "A", "_", "__", " ", "\n", "x*y", "\\textbf{", "\\emph {", "{\\sc ", "}", "{",
              "word", "1", "$"]
    strings = texts + ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 30))) for _ in range(20000)]
    found = 0
    for t in strings:
        plain = _emphasis_spans(old.finditer(t))
        assert _emphasis_spans(_EMPHASIS.finditer(t)) == plain, t
        found += len(plain)
    assert found > 1000
    assert sum(m.lastgroup == "e" for t in strings for m in _EMPHASIS.finditer(t)) > 100


def _mark_pieces(seed: int, n: int) -> list[str]:
    rng = random.Random(seed)
    pieces = ["_", "__", "___", "*", "a", "A", "1", " ", "\n", ".", "!", "?", ";", ":", "\t", "\u2003", "$", "\\",
              "{", "}", "^", "x_y", "word", ")", "+", "é", "\r"]
    return ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 40))) for _ in range(n)]


def test_underscore_emphasis_starts_with_its_underscore(texts: list[str]) -> None:
    """``_UNDERSCORE_EMPHASIS`` takes "__" as "_" and an optional "_" (a literal first, so ``re``
    skips to the underscores); its matches and their two-mark flag are the grouped form's."""
    import re

    from extractors.abbreviations import _UNDERSCORE_EMPHASIS

    old = re.compile(r"(?:(?P<two>__)(?<![\w\\$^{_]__)|_(?<![\w\\$^{_]_))(?=[A-Za-z0-9])[^_\n$\\]{1,80}?"
                     r"(?<=[\w)+])(?(two)__|_)(?![\w$])")
    found = twos = 0
    for t in texts + _mark_pieces(13, 20000):
        plain = [(m.span(), bool(m.group("two"))) for m in old.finditer(t)]
        assert [(m.span(), bool(m.group("two"))) for m in _UNDERSCORE_EMPHASIS.finditer(t)] == plain, t
        found += len(plain)
        twos += sum(two for _s, two in plain)
    assert found > 50 and twos > 20


def test_sentence_end_pattern_is_the_alternation(texts: list[str]) -> None:
    """``_SENT_END`` (a character class first) finds what ``[.!?;:]\\s|\\n`` finds, also between
    a start and an end position as :func:`extractors.abbreviations._sentence_before` scans."""
    import re

    from extractors.abbreviations import _SENT_END

    old = re.compile(r"[.!?;:]\s|\n")
    rng = random.Random(17)
    found = 0
    for t in texts + _mark_pieces(19, 20000):
        i, j = sorted(rng.randint(0, len(t)) for _ in range(2))
        for a, b in ((0, len(t)), (i, j)):
            plain = [m.span() for m in old.finditer(t, a, b)]
            assert [m.span() for m in _SENT_END.finditer(t, a, b)] == plain, (t, a, b)
            found += len(plain)
    assert found > 10000
