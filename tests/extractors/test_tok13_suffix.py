"""The tokenizer splits a sentence-final period after a single capital that follows a digit or a
hyphen (``extractors.pipeline.EXTRA_SUFFIXES``), and keeps abbreviations and initials as spaCy does.

Hand-written sentences; the default pipeline (``make_nlp()``: ``spacy.blank("en")``, no model).
"""

from __future__ import annotations

import pytest
import spacy

from extractors.pipeline import extract_records, make_nlp
from kg.records import Source, make_record


@pytest.fixture(scope="module")
def nlp() -> spacy.language.Language:
    return make_nlp()


@pytest.fixture(scope="module")
def english() -> spacy.language.Language:
    return spacy.blank("en")


@pytest.mark.parametrize("text, tail", [
    ("Robustness is measured on ImageNet-C.", ["ImageNet", "-", "C", "."]),
    ("Our model is compared with PaLM-540B.", ["PaLM-540B", "."]),
    ("The noisy labels come from CIFAR-10N.", ["CIFAR-10N", "."]),
    ("We train the agent with A3C.", ["A3C", "."]),
    ("The scenes are rendered in 3D.", ["3D", "."]),
    ("We also test ImageNet\u2011C.", ["ImageNet\u2011C", "."]),  # a non-breaking hyphen, not split by spaCy
    ("The shift is the one of ImageNet-C.)", ["ImageNet", "-", "C", ".", ")"]),
    ("See https://example.org/repo/P2P.", ["https://example.org/repo/P2P", "."]),
])
def test_final_period_after_a_capital_after_a_digit_or_hyphen_is_split(nlp, english, text: str, tail: list[str]) -> None:
    ours = [t.text for t in nlp.make_doc(text)]
    assert ours[-len(tail):] == tail
    assert [t.text for t in english.make_doc(text)] != ours  # spaCy's own tokenizer keeps the period


@pytest.mark.parametrize("text, kept", [
    ("Results hold in the U.S. and the U.K. as well.", ["U.S.", "U.K."]),
    ("Some methods, e.g. ours, fail.", ["e.g."]),
    ("This was shown by J. Smith and J.-C. Chen.", ["J.", "J.-C."]),
    ("It is shown in Appendix A. The rest follows.", ["A."]),
    ("As in Fig. 3 and Sec. 4, it holds.", ["Fig", ".", "Sec", "."]),
    ("Smith et al. found it.", ["al", "."]),
    ("We use ResNet-50. It works, i.e. it trains.", ["ResNet-50", ".", "i.e."]),
    ("We use the T5-XL. It works.", ["XL", "."]),
])
def test_abbreviations_and_initials_are_tokenized_as_spacy_does(nlp, english, text: str, kept: list[str]) -> None:
    ours = [t.text for t in nlp.make_doc(text)]
    assert ours == [t.text for t in english.make_doc(text)]
    assert all(k in ours for k in kept)


@pytest.mark.parametrize("text, name", [
    ("The policy is trained using A3C.", "A3C"),
    ("We compare our method against OPT-1.3B.", "OPT-1.3B"),
    ("Noisy labels come from CIFAR-10N.", "CIFAR-10N"),
    ("Math word problems come from GSM8K.", "GSM8K"),
    ("Denoising baselines include BM3D.", "BM3D"),
])
def test_a_listed_name_at_the_end_of_a_sentence_is_found(text: str, name: str) -> None:
    """Before the extra suffix the last token kept its period ("A3C.", "1.3B."), so the
    gazetteer's phrase matcher missed the name or matched a shorter one ("OPT-1")."""
    record = make_record(source=Source("tok13", 1, "confpapers"), title=None, abstract=text)
    (out,) = extract_records([record])
    found = [m.text for e in out.entities if e.type.value in ("method", "benchmark") for m in e.mentions]
    assert found == [name]
