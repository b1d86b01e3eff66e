"""Extensions of the rules' names (``extractors/learned.py``): "importance sampling" grown to
"adaptive importance sampling" where the extension model is confident.

Texts are hand-written; the decisions are tested with small hand-built extension models (so they
do not move when the shipped model is retrained).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from extractors import learned as L
from extractors.entities import INFO_KEY, SPANS_KEY, entities_from_doc

GROWN = ("Sampling better\n\n"
         "We study adaptive importance sampling for rare events. Plain importance sampling fails "
         "there, while adaptive importance sampling converges.")
MERGED = ("Event sequences\n\n"
          "We compare the Transformer Gaussian process with Sinkhorn divergences on event data.")
ACRONYM = ("Preference data\n\n"
           "We propose Statistical Rejection Sampling Optimization (RSO), which samples preference "
           "pairs from the optimal policy. RSO improves alignment.")


def _model(make, path: Path, ext_weights: dict[str, dict[str, float]], threshold: float = 0.8) -> str:
    """The shipped untyped-names model (thresholds off) with a hand-built extension model."""
    return make(path, "extend", ext_weights, threshold)


#: an extension model that grows a name only by the word "adaptive" (or, second test, always)
ADAPTIVE = {"none": {"bias": 4.0, "w=adaptive": -12.0}}
ALWAYS = {"none": {"bias": -9.0}}


def _surfaces(doc) -> dict[str, L.Extension]:
    return {x.surface: x for x, _f in L.featurize_extensions(doc)}


def test_extensions_take_in_one_or_two_words_of_the_sentence(rules_nlp):
    exts = _surfaces(rules_nlp(GROWN))
    assert "adaptive importance sampling" in exts
    x = exts["adaptive importance sampling"]
    assert x.side == "left" and x.words == ("adaptive",) and x.inner == "importance sampling"
    text = GROWN
    assert [text[s:e] for s, e in x.occurrences] == ["adaptive importance sampling"] * 2
    # a verb, a stop word or punctuation is never taken in
    assert "study adaptive importance sampling" not in exts
    assert not any(s.startswith(("We ", "for ")) or s.endswith((" for", " there")) for s in exts)
    assert not any("," in s or "." in s for s in exts)
    exts = _surfaces(rules_nlp(MERGED))
    assert exts["Transformer Gaussian process"].merges  # two rule names become one
    assert "Sinkhorn divergences" in exts and exts["Sinkhorn divergences"].side == "right"
    assert not any(s.startswith("the ") for s in exts)


@pytest.mark.parametrize("text, absent", [
    ("T\n\nWe train Transformer-based SNNs on ImageNet.", "Transformer-based SNNs"),
    ("T\n\nWe run importance sampling, which is slow.", "importance sampling, which"),
    ("T\n\nResults use the ImageNet dataset.", "ImageNet dataset"),
])
def test_modifier_compounds_punctuation_and_generic_heads_are_no_extension(rules_nlp, text, absent):
    assert absent not in _surfaces(rules_nlp(text))


def test_a_confident_extension_replaces_the_inner_name_at_every_occurrence(tmp_path, hand_model_file, nlp_with):
    doc = nlp_with(_model(hand_model_file, tmp_path / "m.json", ADAPTIVE))(GROWN)
    ents = {e.name: e for e in entities_from_doc(doc)}
    grown = ents["adaptive importance sampling"]
    assert [(m.start, m.end, m.rule) for m in grown.mentions] == [
        (GROWN.index("adaptive importance"), GROWN.index("adaptive importance") + 28, L.EXTENDED_RULE),
        (GROWN.rindex("adaptive importance"), GROWN.rindex("adaptive importance") + 28, L.EXTENDED_RULE)]
    assert all(GROWN[m.start:m.end] == m.text for m in grown.mentions)
    # the bare occurrence stays the rules' name; no span overlaps another
    inner = ents["importance sampling"]
    assert [GROWN[m.start - 6:m.end] for m in inner.mentions] == ["Plain importance sampling"]
    spans = sorted((s.start_char, s.end_char) for s in doc.spans[SPANS_KEY])
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))
    assert set(doc.user_data[INFO_KEY]) == {f"{s.start_char}:{s.end_char}:{s.label_}" for s in doc.spans[SPANS_KEY]}


def test_below_the_threshold_or_switched_off_nothing_changes(tmp_path, hand_model_file, rules_nlp, nlp_with):
    def names(nlp):
        return sorted((e.name, tuple((m.start, m.end) for m in e.mentions)) for e in entities_from_doc(nlp(GROWN)))

    before = names(nlp_with(_model(hand_model_file, tmp_path / "off.json", ADAPTIVE), extend=False))
    assert names(nlp_with(_model(hand_model_file, tmp_path / "high.json", ADAPTIVE, threshold=1.01))) == before
    assert names(nlp_with(_model(hand_model_file, tmp_path / "weak.json", {"none": {"bias": 4.0, "w=adaptive": -3.0}}))) == before
    assert "adaptive importance sampling" not in {n for n, _ in before}


def test_an_acronym_stays_one_entity_with_the_grown_long_form(tmp_path, hand_model_file, nlp_with):
    doc = nlp_with(_model(hand_model_file, tmp_path / "m.json", ALWAYS))(ACRONYM)
    ents = {e.name: e for e in entities_from_doc(doc)}
    assert "Statistical Rejection Sampling Optimization" in ents, sorted(ents)
    e = ents["Statistical Rejection Sampling Optimization"]
    assert e.aliases == ("RSO",) and e.role.value == "proposed"
    assert "Rejection Sampling Optimization" not in ents


def test_extensions_survive_two_processes(tmp_path, hand_model_file, nlp_with):
    nlp = nlp_with(_model(hand_model_file, tmp_path / "m.json", ALWAYS))
    texts = [GROWN, MERGED, ACRONYM] * 2
    one = [sorted((s.start_char, s.end_char, s.label_) for s in d.spans[SPANS_KEY]) for d in nlp.pipe(texts)]
    two = [sorted((s.start_char, s.end_char, s.label_) for s in d.spans[SPANS_KEY])
           for d in nlp.pipe(texts, n_process=2, batch_size=2)]
    assert one == two


def test_the_extension_model_round_trips_and_bad_input_is_bounded(tmp_path, hand_model_file, nlp_with):
    path = _model(hand_model_file, tmp_path / "m.json", ALWAYS)
    model = L.load_model(path)
    assert model.extend is not None and model.extend.thresholds == {L.EXTEND: 0.8}
    assert L.Model.from_data(model.to_data()).to_data() == model.to_data()
    nlp = nlp_with(path)
    for text in ("", "((((", "T\n\n" + "Our adaptive importance sampling beats SGD. " * 20000):
        doc = nlp(text)
        for v in (doc.user_data.get(INFO_KEY) or {}).values():
            s, e = v[3]
            assert 0 <= s < e <= len(text)


def test_the_shipped_extension_model_matches_the_feature_list(rules_nlp):
    ext = L.load_model().extend
    assert ext is not None and ext.classes == L.CLASSES and set(ext.thresholds) == {L.EXTEND}
    assert ext.features[:len(L.EXT_FIXED_FEATURES)] == L.EXT_FIXED_FEATURES
    assert all(f.startswith(L.EXT_WORD_PREFIXES) for f in ext.features[len(L.EXT_FIXED_FEATURES):])
    for text in (GROWN, MERGED, ACRONYM):
        for _x, f in L.featurize_extensions(rules_nlp(text)):
            assert all(k in L.EXT_FIXED_FEATURES or k.startswith(L.EXT_WORD_PREFIXES) for k in f)
