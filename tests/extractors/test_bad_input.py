"""Odd abstracts: no crash, no garbage entity, time linear in length (checked by operation counts)."""

from __future__ import annotations

import pytest

from extractors.pipeline import extract_raw


def _entities(nlp, text):
    from kg.text import normalize_text
    from kg.records import Record

    (raw,) = extract_raw([Record(id="t", title=None, abstract=normalize_text(text))], nlp=nlp)
    return [e for e in raw.entities if e.type.value in ("method", "benchmark")]


@pytest.mark.parametrize("text", [
    "",
    "   ",
    r"$\mathcal{O}(\sqrt{T})$ \textbf{} \emph{ } $$\sum_{i=1}^{n} \alpha_i \beta^{(k)}_{\mathrm{ABC}}$$ \cite{x}",
    "本文提出了一种新的方法，在多个数据集上取得了最好的结果。我们提出 模型 以及 基准。",
    "<p>We <b>study</b> <i>things</i> &amp; <a href='http://x.org/ABCNet'>links</a></p><br/><div class='XYZ'>",
    "((((((( we propose (((( a (b (c ))) )))))) ]] [[ (",
    "We propose ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMN, a novel framework.",
    "\\textbf{\\textbf{\\textbf{ ** * ** *** $ $ $",
])
def test_no_garbage(nlp, text: str) -> None:
    assert _entities(nlp, text) == []


def test_html_keeps_real_names(nlp) -> None:
    ents = _entities(nlp, "<p>We propose <b>FooNet</b>, a novel architecture, tested on ImageNet.</p>")
    assert {(e.name, e.role.value) for e in ents} == {("FooNet", "proposed"), ("ImageNet", "used")}


def test_one_megabyte_abstract(nlp) -> None:
    chunk = ("We propose FooNet, a novel architecture (FN). FooNet beats ResNet-50 on ImageNet and "
             "CIFAR-10 datasets; (unbalanced ( parentheses and $x_i$ \\textbf{Bold}. ")
    text = chunk * (1_000_000 // len(chunk))
    ents = _entities(nlp, text)
    names = {e.name for e in ents}
    assert names >= {"FooNet", "ResNet-50", "ImageNet", "CIFAR-10"}
    foonet = next(e for e in ents if e.name in ("FooNet", "FN"))
    assert len(foonet.mentions) >= text.count("FooNet")


def test_abstract_at_the_readers_limit_with_a_title(nlp) -> None:
    """Title and abstract are one text: past spaCy's default 1,000,000 characters it raised E088."""
    from kg.readers.base import MAX_FIELD_CHARS
    from kg.records import Record

    from extractors.pipeline import extract_records

    chunk = "We evaluate ResNet-50 on ImageNet. "
    abstract = chunk * (MAX_FIELD_CHARS // len(chunk))
    title = "T" + "itle words " * (MAX_FIELD_CHARS // 11)
    assert len(title) + len(abstract) > 2 * 1_000_000
    (rec,) = extract_records([Record(id="t", title=title, abstract=abstract)], nlp=nlp)
    resnet = next(e for e in rec.entities if e.name == "ResNet-50")
    assert len(resnet.mentions) == abstract.count("ResNet-50")


def test_linear_time_in_length(nlp) -> None:
    """Work grows linearly: the number of regex/matcher candidates per character stays flat."""
    import extractors.entities as ent

    comp = nlp.get_pipe("paperkg_entities")
    calls = {"n": 0}
    real = comp.is_name

    def counting(text, **kw):
        calls["n"] += 1
        return real(text, **kw)

    chunk = "We propose FooNet, a novel architecture. (Many (nested (parentheses ABCDEFGHIJKLMNOPQRSTUVWXYZ "
    comp.is_name = counting
    try:
        counts = []
        for k in (50, 400):
            calls["n"] = 0
            nlp(chunk * k)
            counts.append(calls["n"] / k)
    finally:
        comp.is_name = real
    assert counts[1] <= counts[0] * 1.2 + 1
    assert ent is not None
