"""Seventeenth session: the learned component's untyped names near the threshold.

- three features of :func:`extractors.learned.features`: how the paper goes on to use a name
  (``subject_later``: a later sentence starts with it; ``success_after``: "X outperforms ...",
  "X consistently beats ...") and whether the guard the component applies before adding a name
  keeps it out (``not_own``, :func:`extractors.learned._not_own`);
- the threshold choice of ``bench/train_learned.py``: the shipped keys are chosen as the component
  ships (untyped names added as proposed, nothing else changed, the guard applied) over a grid
  that goes below 0.5.

Texts are hand-written; candidates are built by hand so the tests do not depend on the rules.
"""

from __future__ import annotations

from extractors import learned as L
from extractors.gazetteer import load_gazetteer


def _token(text: str, name: str) -> L.Candidate:
    start = text.index("\n\n") + 2
    occ = tuple(L._occurrences(text, name))
    return L.Candidate("token", None, name, occ, next(o for o in occ if o[0] >= start))


def _feats(text: str, name: str) -> dict[str, float]:
    return L.features(_token(text, name), text, load_gazetteer())


REPORTED = ("Routing tokens cheaply\n\n"
            "Mixture layers waste compute on easy tokens. We route each token with QuillGate, a gate "
            "trained on its own loss. Across four language tasks, QuillGate consistently beats top-k "
            "routing at half the cost.")
SUBJECT = ("Routing tokens cheaply\n\n"
           "Mixture layers waste compute on easy tokens. We route each token with QuillGate, a gate "
           "trained on its own loss. QuillGate needs no extra parameters.")
MENTIONED = ("Routing tokens cheaply\n\n"
             "Mixture layers waste compute on easy tokens. Earlier routers such as QuillGate are "
             "trained with an auxiliary loss, and the loss of QuillGate is hard to tune.")
METRIC = ("Judging summaries\n\n"
          "We score long summaries with an automatic metric, GlossRate, that counts supported claims. "
          "GlossRate agrees with human raters.")


def test_a_later_report_of_results_is_a_feature():
    f = _feats(REPORTED, "QuillGate")
    assert f.get("success_after") == 1.0
    assert "subject_later" not in f


def test_a_later_sentence_that_starts_with_the_name_is_a_feature():
    f = _feats(SUBJECT, "QuillGate")
    assert f.get("subject_later") == 1.0
    assert "success_after" not in f


def test_a_name_only_mentioned_has_neither():
    f = _feats(MENTIONED, "QuillGate")
    assert "subject_later" not in f and "success_after" not in f and "not_own" not in f


def test_the_guard_is_a_feature_of_untyped_names_only():
    f = _feats(METRIC, "GlossRate")
    assert f.get("not_own") == 1.0
    cand = _token(METRIC, "GlossRate")
    rule = L.Candidate("rule", None, "GlossRate", cand.occurrences, cand.anchor, "method/used", ("x",))
    assert "not_own" not in L.features(rule, METRIC, load_gazetteer())


def test_every_new_feature_is_one_the_model_can_hold():
    for text, name in ((REPORTED, "QuillGate"), (SUBJECT, "QuillGate"), (METRIC, "GlossRate")):
        assert all(k in L.FIXED_FEATURES or k.startswith(L.WORD_FEATURE_PREFIXES) for k in _feats(text, name))


BASE = {"all": [100, 10, 40], "proposed": [50, 5, 30]}


def _untyped(gold: str, p: float, n: int) -> tuple[str, list[float], str]:
    return (gold, [1 - p, p, 0.0, 0.0, 0.0], f"token id{n} 'X{n}'/'X{n}'")


def test_simulation_keeps_a_guarded_name_out(train):
    pooled = [_untyped("none", 0.9, 1), _untyped("method/proposed", 0.9, 2)]
    th = {"method/proposed": 0.5}
    free = train.simulate(pooled, th, BASE, add_used=False, change_rules=False)
    guarded = train.simulate(pooled, th, BASE, guarded=frozenset({pooled[0][2]}), add_used=False, change_rules=False)
    assert (free["all"]["tp"], free["all"]["fp"]) == (101, 11)
    assert (guarded["all"]["tp"], guarded["all"]["fp"]) == (101, 10)


def test_shipped_thresholds_may_go_below_one_half(train):
    # names at 0.47 right eight times in ten: worth adding; at 0.2 never right
    pooled = [_untyped("method/proposed" if n < 8 else "none", 0.47, n) for n in range(10)]
    pooled += [_untyped("none", 0.2, 10 + n) for n in range(10)]
    th, _log = train.choose_on_silver(pooled, BASE)
    assert 0.4 <= th["method/proposed"] <= 0.45
