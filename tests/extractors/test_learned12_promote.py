"""The role promotion of ``paperkg_learned`` (twelfth session): a name the rules typed ``used``
that the model finds is the paper's own (its class with the role ``proposed`` passes the threshold
``promote:<type>/proposed``) becomes proposed, with the default config (``change_rules`` off). Only
the role changes: never the type, and no name is dropped."""

from __future__ import annotations

import json
from pathlib import Path

from extractors import learned as L
from extractors.entities import entities_from_doc

TEXT = "Training graphs\n\nWe train QuuxNet on the ZorbBench dataset with Adam."


def _model(path: Path, weights: dict[str, dict[str, float]], thresholds: dict[str, float]) -> str:
    feats = list(L.FIXED_FEATURES)
    rows = [[weights.get(c, {}).get(f, 0.0) for f in feats] for c in L.CLASSES]
    path.write_text(json.dumps({"features": feats, "classes": list(L.CLASSES), "weights": rows,
                                "thresholds": thresholds, "meta": {}}), encoding="utf-8")
    return str(path)


def _roles(nlp) -> dict[str, tuple[str, str]]:
    return {e.name: (e.type.value, e.role.value) for e in entities_from_doc(nlp(TEXT))}


def test_a_used_name_the_model_calls_proposed_is_promoted_by_default(tmp_path, nlp_with):
    path = _model(tmp_path / "m.json", {"method/proposed": {"rule_class=method/used": 9.0}},
                  {"promote:method/proposed": 0.5})
    assert _roles(nlp_with(path))["QuuxNet"] == ("method", "proposed")
    # the rules' evidence is kept
    ents = {e.name: e for e in entities_from_doc(nlp_with(path)(TEXT))}
    assert L.RULE not in {m.rule for m in ents["QuuxNet"].mentions}


def test_no_promotion_when_turned_off_or_without_its_threshold(tmp_path, nlp_with):
    path = _model(tmp_path / "m.json", {"method/proposed": {"rule_class=method/used": 9.0}},
                  {"promote:method/proposed": 0.5})
    assert _roles(nlp_with(path, promote=False))["QuuxNet"] == ("method", "used")
    off = _model(tmp_path / "off.json", {"method/proposed": {"rule_class=method/used": 9.0}},
                 {"promote:method/proposed": 1.01, "method/proposed": 0.5})
    assert _roles(nlp_with(off))["QuuxNet"] == ("method", "used")


def test_promotion_never_changes_a_type_nor_drops_a_name(tmp_path, nlp_with):
    # the model calls every rule name a proposed method, or none: the benchmark stays a used benchmark
    retype = _model(tmp_path / "t.json", {"method/proposed": {"kind=rule": 9.0}}, {"promote:method/proposed": 0.5})
    roles = _roles(nlp_with(retype))
    assert roles["ZorbBench"] == ("benchmark", "used") and roles["QuuxNet"] == ("method", "proposed")
    drop = _model(tmp_path / "d.json", {"none": {"kind=rule": 9.0}},
                  {"promote:method/proposed": 0.5, "rule:none": 0.5})
    assert {"QuuxNet", "ZorbBench", "Adam"} <= set(_roles(nlp_with(drop)))


def test_decide_promotes_only_used_to_proposed_of_the_same_type():
    model = L.Model(("bias",), L.CLASSES, tuple((0.0,) for _ in L.CLASSES),
                    {"promote:method/proposed": 0.5, "promote:benchmark/proposed": 0.5, "rule:none": 0.5}, {})
    used = L.Candidate("rule", None, "X", ((0, 1),), (0, 1), "method/used", ("abbreviation",), ("0:1:METHOD",))
    prop = L.Candidate("rule", None, "X", ((0, 1),), (0, 1), "method/proposed", ("propose",), ("0:1:METHOD",))
    bench = L.Candidate("rule", None, "X", ((0, 1),), (0, 1), "benchmark/used", ("bench_head",), ("0:1:BENCHMARK",))
    p_method_proposed = [0.1, 0.8, 0.1, 0.0, 0.0]
    assert L._decide(model, used, p_method_proposed, change_rules=False, promote=True) == "method/proposed"
    assert L._decide(model, used, p_method_proposed, change_rules=False, promote=False) is None
    assert L._decide(model, bench, p_method_proposed, change_rules=False, promote=True) is None
    assert L._decide(model, prop, [0.8, 0.1, 0.1, 0.0, 0.0], change_rules=False, promote=True) is None
    assert L._decide(model, used, [0.45, 0.45, 0.1, 0.0, 0.0], change_rules=False, promote=True) is None
    assert L.promotes(model) and not L.promotes(L.Model(("bias",), L.CLASSES, model.weights, {"rule:none": 0.5}, {}))
