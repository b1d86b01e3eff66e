"""The used-name filter (``extractors/learned.py``): which ``used`` names of the rules and the
gazetteer to keep, decided from their context.

Texts are hand-written; the decisions are tested with small hand-built filter models (so they do
not move when the shipped model is retrained); the shipped filter is tested for its feature list
and classes only.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractors import learned as L
from extractors.entities import INFO_KEY, SPANS_KEY, entities_from_doc

SPARSE = ("Faster sparse training\n\n"
          "We propose SparseFlow, a pruning method for Transformers. SparseFlow outperforms baselines such as "
          "SNIP and GraSP on CIFAR-10 and ImageNet. Its update resembles momentum and is trained with Adam.")
OTHER = ("Bandits at scale\n\n"
         "Thompson sampling is widely used. We analyze Thompson sampling with Gaussian processes and compare it "
         "with UCB on MuJoCo.")


def _filter_model(path: Path, keep: dict[str, float], threshold: float) -> str:
    """The shipped model with its other decisions off and a hand-built used filter whose ``keep``
    class has the weights ``keep`` (``drop`` all zero)."""
    data = L.load_model().to_data()
    data["thresholds"] = {}
    for part in ("extend", "phrase"):
        data.pop(part, None)
    feats = list(L.USED_FIXED_FEATURES) + sorted(set(keep) - set(L.USED_FIXED_FEATURES))
    data["used"] = {"features": feats, "classes": list(L.USED_CLASSES),
                    "weights": [[0.0] * len(feats), [keep.get(f, 0.0) for f in feats]],
                    "thresholds": {L.USED_FILTER: threshold}, "meta": {}}
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


#: keep every used name but "momentum" (P(keep) = sigmoid(3) = 0.95, sigmoid(-3) = 0.05)
NOT_MOMENTUM = {"bias": 3.0, "name=momentum": -6.0}
#: drop every used name (P(keep) = 0.0001)
DROP_ALL = {"bias": -9.0}


def _used(doc) -> dict[str, tuple[L.Candidate, dict[str, float]]]:
    return {c.name: (c, f) for c, f in L.featurize_used(doc)}


def _names(doc) -> set[str]:
    text = doc.text
    return {text[v[3][0]:v[3][1]] for v in (doc.user_data.get(INFO_KEY) or {}).values()}


def test_every_used_name_is_a_candidate_and_no_proposed_one(rules_nlp):
    found = _used(rules_nlp(SPARSE))
    assert {"SNIP", "GraSP", "CIFAR-10", "momentum", "Adam"} <= set(found)
    assert "SparseFlow" not in found  # the paper's own name is never the filter's
    snip = found["SNIP"][0]
    assert snip.rule_class == "method/used" and snip.rules == ("gazetteer",)
    assert [SPARSE[s:e] for s, e in snip.occurrences] == ["SNIP"]
    assert found["CIFAR-10"][0].rule_class == "benchmark/used"


def test_the_context_features(rules_nlp):
    found = _used(rules_nlp(SPARSE))
    snip, grasp, adam = found["SNIP"][1], found["GraSP"][1], found["Adam"][1]
    # "outperforms baselines such as SNIP and GraSP": comparison, example, a list of names
    assert snip["b_cmp"] == snip["b_example"] == snip["list_after"] == 1.0
    assert grasp["list_before"] == 1.0 and grasp["prev=and"] == 1.0
    # "trained with Adam": the object of a use cue, right before it
    assert adam["first_b_use"] == 1.0 and adam["prev=with"] == 1.0 and adam["last_sentence"] == 1.0
    # a single English word
    assert found["momentum"][1]["n_common"] == 1.0 and found["momentum"][1]["n_lower"] == 1.0
    # the gazetteer's source and the rule that found it
    assert snip["src=curated"] == 1.0 and snip["only_gazetteer"] == 1.0 and snip["rule=gazetteer"] == 1.0
    # the cue words of the next sentence are not read ("SparseFlow outperforms" after "Transformers.")
    assert "a_cmp" not in found["Transformers"][1]


def test_study_and_repetition_features(rules_nlp):
    found = _used(rules_nlp(OTHER))
    ts = found["Thompson sampling"][1]
    # two occurrences: the first opens the abstract, the second is the object of "we analyze"
    assert "count=1" not in ts and "count>=3" not in ts and ts["log_count"] == pytest.approx(1.0986, abs=1e-4)
    assert ts["sentence_start"] == ts["first_sentence"] == ts["b_study"] == 1.0
    assert "first_b_use" not in ts and "head=sampling" in ts
    # "compare it with UCB on MuJoCo": a baseline, then a test bed
    assert found["UCB"][1]["b_cmp"] == found["UCB"][1]["first_b_use"] == 1.0
    assert found["MuJoCo"][1]["prev=on"] == 1.0 and found["MuJoCo"][1]["type=benchmark"] == 1.0


def test_used_features_are_the_fixed_list_or_word_features(rules_nlp):
    for text in (SPARSE, OTHER):
        for _c, f in L.featurize_used(rules_nlp(text)):
            assert all(k in L.USED_FIXED_FEATURES or k.startswith(L.USED_WORD_PREFIXES) for k in f)


def test_a_name_the_filter_doubts_is_dropped_at_every_occurrence(tmp_path, nlp_with):
    kept = nlp_with(_filter_model(tmp_path / "off.json", NOT_MOMENTUM, 0.0))(SPARSE)
    assert "momentum" in _names(kept)
    doc = nlp_with(_filter_model(tmp_path / "m.json", NOT_MOMENTUM, 0.5))(SPARSE)
    names = _names(doc)
    assert "momentum" not in names
    assert {"SNIP", "GraSP", "CIFAR-10", "Adam", "SparseFlow"} <= names
    assert not any(s.text == "momentum" for s in doc.spans[SPANS_KEY])
    assert "momentum" not in {e.name for e in entities_from_doc(doc)}


def test_the_filter_never_drops_a_proposed_name(tmp_path, nlp_with):
    doc = nlp_with(_filter_model(tmp_path / "m.json", DROP_ALL, 0.5))(SPARSE)
    ents = {(e.name, e.role.value) for e in entities_from_doc(doc)}
    assert ents == {("SparseFlow", "proposed")}


def test_the_option_switches_the_filter_off(tmp_path, nlp_with):
    doc = nlp_with(_filter_model(tmp_path / "m.json", DROP_ALL, 0.5), filter_used=False)(SPARSE)
    assert {"SNIP", "Adam", "momentum"} <= _names(doc)


def test_the_filter_model_round_trips(tmp_path):
    model = L.load_model(_filter_model(tmp_path / "m.json", NOT_MOMENTUM, 0.4))
    assert model.used is not None and model.used.classes == L.USED_CLASSES
    assert model.used.thresholds == {L.USED_FILTER: 0.4}
    again = L.Model.from_data(json.loads(json.dumps(model.to_data())))
    assert again.used == model.used
    bad = model.to_data()
    bad["used"]["classes"] = list(L.CLASSES)
    with pytest.raises(ValueError, match="classes"):
        L.Model.from_data(bad)


def test_the_shipped_filter_matches_the_feature_list():
    used = L.load_model().used
    assert used is not None and used.classes == L.USED_CLASSES and set(used.thresholds) == {L.USED_FILTER}
    assert used.features[:len(L.USED_FIXED_FEATURES)] == L.USED_FIXED_FEATURES
    assert all(f.startswith(L.USED_WORD_PREFIXES) for f in used.features[len(L.USED_FIXED_FEATURES):])


def test_two_processes_give_the_same_result(tmp_path, nlp_with):
    nlp = nlp_with(_filter_model(tmp_path / "m.json", NOT_MOMENTUM, 0.5))
    texts = [SPARSE, OTHER] * 3
    one = [sorted((s.start_char, s.end_char, s.label_) for s in d.spans[SPANS_KEY]) for d in nlp.pipe(texts)]
    two = [sorted((s.start_char, s.end_char, s.label_) for s in d.spans[SPANS_KEY])
           for d in nlp.pipe(texts, n_process=2, batch_size=2)]
    assert one == two


@pytest.mark.parametrize("text", ["", "((((", "T\n\n" + "We compare with Adam and SGD. " * 30000,
                                  "T\n\n" + "*" * 5000, "中文摘要，我们提出了一种方法。", "$$\\textit{Adam}$$"])
def test_bad_input_is_bounded_with_a_filter_that_drops_everything(tmp_path, nlp_with, text):
    doc = nlp_with(_filter_model(tmp_path / "m.json", DROP_ALL, 0.5))(text)
    for v in (doc.user_data.get(INFO_KEY) or {}).values():
        assert v[0] == "proposed"


def _train_module():
    import importlib.util

    repo = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("train_learned", repo / "bench" / "train_learned.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_training_labels_match_as_the_evaluation_does():
    train = _train_module()
    text = "T\n\nWe use Adam and the Adam optimizer on ImageNet."
    s = text.index("Adam")
    cand = L.Candidate("rule", None, "Adam", ((s, s + 4),), (s, s + 4), "method/used", ("gazetteer",))
    mention = {"start": 0, "end": 4, "text": "Adam"}
    assert train._used_label(cand, text, {"entities": [
        {"type": "method", "role": "used", "name": "Adam", "mentions": [mention]}]}) == "keep"
    # an entity of the other type, or none, makes the name a false positive: drop
    assert train._used_label(cand, text, {"entities": [
        {"type": "benchmark", "role": "used", "name": "Adam", "mentions": [mention]}]}) == "drop"
    assert train._used_label(cand, text, {"entities": []}) == "drop"


def test_the_simulation_and_a_fit_on_a_separable_feature():
    train = _train_module()
    pooled = [("keep", [0.9, 0.1], "used a 'x'"), ("drop", [0.8, 0.2], "used b 'y'"),
              ("drop", [0.6, 0.4], "used c 'z'"), ("keep", [0.1, 0.9], "used d 'w'")]
    assert train.simulate_used(pooled, 0.0) == (0, 0, 0)
    assert train.simulate_used(pooled, 0.3) == (-1, -1, 1)  # one right name lost, one wrong one gone
    assert train.simulate_used(pooled, 0.5) == (-1, -2, 1)
    exs = [({"bias": 1.0, "b_cmp": 1.0}, "keep", f"used k{i} 'a'") for i in range(20)]
    exs += [({"bias": 1.0, "n_common": 1.0}, "drop", f"used d{i} 'b'") for i in range(20)]
    model = train.train_used(exs)
    assert model.classes == L.USED_CLASSES and model.thresholds == {L.USED_FILTER: 0.0}
    assert model.probabilities({"bias": 1.0, "b_cmp": 1.0})[1] > 0.8
    assert model.probabilities({"bias": 1.0, "n_common": 1.0})[1] < 0.2
