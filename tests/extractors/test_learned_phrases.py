"""Descriptive phrases (``extractors/learned.py``): the paper's own names with no acronym and no
coined token ("we propose stochastic frame averaging"), candidates and decisions.

Texts are hand-written; the decisions are tested with small hand-built phrase models (so they do
not move when the shipped model is retrained); the shipped phrase model is tested for its feature
list only.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from extractors import learned as L
from extractors.entities import INFO_KEY, SPANS_KEY, entities_from_doc

AVERAGING = ("Equivariance for free\n\n"
             "Equivariant networks are costly to design. We propose stochastic frame averaging, a framework "
             "that makes any backbone equivariant. Stochastic frame averaging needs no new layers, and "
             "stochastic frame averaging matches Adam-trained baselines.")
GENERIC = ("Better graphs\n\n"
           "We propose a new method for graph clustering. Our approach is fast. We present a simple framework.")
REWINDING = ("Where memorization lives\n\n"
             "We locate memorized examples with two probes, which we call layer rewinding and gradient accounting. "
             "Layer rewinding replaces the weights of one layer.")
REPLAY = ("Replay for streams\n\n"
          "Forgetting hurts streaming learners. Two stages make it work: drift-aware replay, which keeps old "
          "samples, and a sampler. Drift-aware replay halves forgetting, and drift-aware replay is cheap.")
TITLED = ("Expertise trees for collective decisions\n\n"
          "Groups of experts disagree. To address this we then introduce a novel algorithm --- expertise trees --- "
          "that learns who knows what. Expertise trees beat majority voting.")


def _model(make, path: Path, weights: dict[str, dict[str, float]], threshold: float = 0.6) -> str:
    """The shipped model (its own decisions off) with a hand-built phrase model."""
    return make(path, "phrase", weights, threshold, drop=("extend",))


#: a phrase model that calls a phrase of 2-3 words after a proposal cue, ending the run, proposed
AFTER_CUE = {"none": {"bias": 3.0},
             "method/proposed": {"cue=list": 3.0, "cue=naming": 3.0, "nw=2": 1.5, "nw=3": 1.5, "longer": -6.0,
                                 "after_word": -6.0}}
ALWAYS = {"none": {"bias": -9.0}, "method/proposed": {"bias": 9.0}}


def _phrases(doc) -> dict[str, L.Phrase]:
    return {p.surface: p for p, _f in L.featurize_phrases(doc)}


def _generated(text: str) -> dict[str, L.Phrase]:
    """The generator alone, no rule span (the rules may come to type some of these names themselves)."""
    start = text.index("\n\n") + 2
    return {p.surface: p for p in L.phrases(text, start, bytearray(len(text) + 1))}


def test_a_phrase_after_a_proposal_verb_is_a_candidate_with_every_occurrence():
    phs = _generated(AVERAGING)
    p = phs["stochastic frame averaging"]
    assert "propose" in p.cues and "appos" in p.cues  # "we propose X, a framework"
    occ = L.phrase_occurrences(p, AVERAGING, bytearray(len(AVERAGING) + 1))
    assert [AVERAGING[s:e] for s, e in occ] == ["stochastic frame averaging", "Stochastic frame averaging",
                                                "stochastic frame averaging"]
    assert p.count == 3 and not p.in_title
    assert p.after == "," and not p.longer
    # shorter runs of the same words are candidates too, marked as cut short
    assert phs["stochastic frame"].longer and phs["stochastic frame"].after == "averaging"
    # never across a sentence
    assert not any("." in s for s in phs)


def test_no_candidate_touches_a_rule_span(rules_nlp):
    doc = rules_nlp(AVERAGING)
    typed = {(v[3][0], v[3][1]) for v in doc.user_data[INFO_KEY].values()}
    assert any(AVERAGING[s:e] == "Adam" for s, e in typed)
    for p in _phrases(doc).values():
        assert not any(p.anchor[0] < e and s < p.anchor[1] for s, e in typed)


def test_generic_heads_alone_are_never_candidates():
    phs = _generated(GENERIC)
    assert not {"method", "approach", "framework", "new method", "simple framework"} & set(phs)
    # nor what the guidelines never label, nor a long form defined right after
    assert not any(s.endswith("bias") for s in _generated('T\n\nWe call this the "dominant frequency bias" and study it.'))
    assert "Graph Complement Learning" not in _generated("T\n\nWe introduce Graph Complement Learning (GCL).")


@pytest.mark.parametrize(("text", "name", "cue"), [
    (REWINDING, "layer rewinding", "naming"),       # "which we call X and Y"
    (REWINDING, "gradient accounting", "naming"),
    (TITLED, "expertise trees", "naming"),          # "a novel algorithm --- X ---"
    (TITLED, "expertise trees", "title"),           # a run of the title's words repeated in the abstract
    ("T\n\nWe propose *outer momentum clipping* for federated training.", "outer momentum clipping", "emph"),
    ("T\n\nThe model has two parts: dual focal loss and a sampler.", "dual focal loss", "list"),
    ("T\n\nWe introduce a notion of universal graph canonization.", "universal graph canonization", "propose"),
    ("T\n\nWe propose a novel training-free truncated-normal dequantization.", "truncated-normal dequantization",
     "propose"),
])
def test_cue_kinds(text, name, cue):
    phs = _generated(text)
    assert name in phs and cue in phs[name].cues


def test_a_confident_phrase_is_added_as_a_proposed_method_at_every_occurrence(tmp_path, hand_model_file, nlp_with):
    doc = nlp_with(_model(hand_model_file, tmp_path / "m.json", AFTER_CUE))(REPLAY)
    info = doc.user_data[INFO_KEY]
    added = sorted((v[3][0], v[3][1], v[0], v[1]) for v in info.values() if v[2] == L.PHRASE_RULE)
    assert [REPLAY[s:e] for s, e, _r, _c in added] == ["drift-aware replay", "Drift-aware replay",
                                                       "drift-aware replay"]
    assert {(r, c) for _s, _e, r, c in added} == {("proposed", "drift-aware replay")}
    ents = {(e.name, e.role.value) for e in entities_from_doc(doc)}
    assert ("drift-aware replay", "proposed") in ents
    # the overlapping shorter candidate is not added beside it
    assert not any(REPLAY[v[3][0]:v[3][1]] == "replay" for v in info.values())


def test_the_threshold_and_the_option_switch_phrases_off(tmp_path, hand_model_file, nlp_with):
    on = nlp_with(_model(hand_model_file, tmp_path / "on.json", AFTER_CUE))(REPLAY)
    assert [v for v in on.user_data[INFO_KEY].values() if v[2] == L.PHRASE_RULE]
    off = nlp_with(_model(hand_model_file, tmp_path / "off.json", AFTER_CUE, threshold=1.01))(REPLAY)
    assert not [v for v in (off.user_data.get(INFO_KEY) or {}).values() if v[2] == L.PHRASE_RULE]
    unset = nlp_with(_model(hand_model_file, tmp_path / "m.json", AFTER_CUE), phrases=False)(REPLAY)
    assert not [v for v in (unset.user_data.get(INFO_KEY) or {}).values() if v[2] == L.PHRASE_RULE]


def test_phrase_features_are_the_fixed_list_or_word_features(rules_nlp):
    for text in (AVERAGING, GENERIC, REWINDING, TITLED):
        for _p, f in L.featurize_phrases(rules_nlp(text)):
            assert all(k in L.PHRASE_FIXED_FEATURES or k.startswith(L.PHRASE_WORD_PREFIXES) for k in f)


def test_the_shipped_phrase_model_matches_the_feature_list():
    phrase = L.load_model().phrase
    assert phrase is not None and phrase.classes == L.CLASSES and set(phrase.thresholds) == {L.PHRASE}
    assert phrase.features[:len(L.PHRASE_FIXED_FEATURES)] == L.PHRASE_FIXED_FEATURES
    assert all(f.startswith(L.PHRASE_WORD_PREFIXES) for f in phrase.features[len(L.PHRASE_FIXED_FEATURES):])


def test_two_processes_give_the_same_phrases(tmp_path, hand_model_file, nlp_with):
    nlp = nlp_with(_model(hand_model_file, tmp_path / "m.json", AFTER_CUE))
    texts = [AVERAGING, GENERIC, REWINDING, TITLED, REPLAY] * 2
    one = [sorted((s.start_char, s.end_char, s.label_) for s in d.spans[SPANS_KEY]) for d in nlp.pipe(texts)]
    two = [sorted((s.start_char, s.end_char, s.label_) for s in d.spans[SPANS_KEY])
           for d in nlp.pipe(texts, n_process=2, batch_size=2)]
    assert one == two


@pytest.mark.parametrize("text", ["", "((((", "T\n\n" + "We propose outer momentum clipping. " * 30000,
                                  "T\n\n" + "*" * 5000, "中文摘要，我们提出了一种方法。", "$$\\textit{a b c}$$"])
def test_bad_input_is_bounded_with_a_model_that_adds_every_phrase(tmp_path, hand_model_file, nlp_with, text):
    doc = nlp_with(_model(hand_model_file, tmp_path / "m.json", ALWAYS))(text)
    for v in (doc.user_data.get(INFO_KEY) or {}).values():
        s, e = v[3]
        assert 0 <= s < e <= len(text) and text[s:e].strip()
        if v[2] == L.PHRASE_RULE:
            assert "." not in text[s:e] and "*" not in text[s:e]
    assert len(L.phrases(text, 0, bytearray(len(text) + 1))) <= L._PH_MAX


def test_a_new_apposition_is_not_existing_work():
    # "classic" inside an apposition that starts "a new ..." describes what the name builds on
    text = ("T\n\nWe apply this in Receding Horizon Inverse Planning (RHIP), a new generalization of classic "
            "planners that scales.")
    s = text.index("Receding")
    cand = L.Candidate("definition", "Receding Horizon Inverse Planning", "RHIP", ((s, s + 33),), (s, s + 33))
    assert not L._not_own(text, cand)
    known = text.replace("a new generalization of classic", "a classic")
    assert L._not_own(known, L.Candidate("definition", "Receding Horizon Inverse Planning", "RHIP",
                                         ((s, s + 33),), (s, s + 33)))


def test_a_suffixed_variant_of_the_papers_own_name_is_marked():
    from extractors.gazetteer import load_gazetteer

    text = ("Many objectives\n\nWe propose Multi-Objective GFlowNets (MOGFNs), a novel method. Its variant "
            "MOGFN-PC conditions on preferences, and we compare with MO-PBT.")
    own = frozenset({"MOGFNs", "Multi-Objective GFlowNets"})

    def feats(token: str) -> dict[str, float]:
        s = text.index(token)
        cand = L.Candidate("token", None, token, ((s, s + len(token)),), (s, s + len(token)))
        return L.features(cand, text, load_gazetteer(), doc_proposed=True, proposed_forms=own)

    assert feats("MOGFN-PC").get("variant_of_proposed") == 1.0
    assert "variant_of_proposed" not in feats("MO-PBT")
