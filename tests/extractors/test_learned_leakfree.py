"""Leak-free training of ``paperkg_learned`` (``bench/train_learned.py``): every silver fold's
training examples are computed with a gazetteer mined from the *other* folds' batches, in a fresh
process, so no fold's labels reach its own candidates, rule spans or features.

Real data: two silver batches (``tests/gold/silver/batch01.ann``, ``batch02.ann``) dealt to two
folds, real gazetteer builds (without the common-word counts over every abstract, which take half
a minute and do not touch the silver mining) and real worker processes, made once per module.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractors import learned as L
from extractors.gazetteer import Gazetteer, entity_key

REPO = Path(__file__).resolve().parents[2]



@pytest.fixture(scope="module")
def two_folds(tmp_path_factory, train):
    """A silver folder of batch01 and batch02 (fold 0 and fold 1) and its two fold gazetteers."""
    root = tmp_path_factory.mktemp("leakfree")
    silver = root / "silver"
    silver.mkdir()
    for b in ("batch01", "batch02"):
        (silver / f"{b}.ann").write_text((REPO / "tests" / "gold" / "silver" / f"{b}.ann").read_text(encoding="utf-8"),
                                         encoding="utf-8")
    # no abstracts folder: the builder skips its common-word counts (the silver mining is the same)
    gaz = train.fold_gazetteers(root, silver, 2, abstracts=root / "no-abstracts")
    return silver, gaz, root


def _silver_names(path: Path) -> dict[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {entity_key(e["name"]): e["name"] for e in data["entries"] if e["source"] == "silver"}


def test_each_fold_gazetteer_is_mined_from_the_other_folds_only(two_folds):
    silver, gaz, _root = two_folds
    assert json.loads(gaz[0].read_text(encoding="utf-8"))["silver_batches"] == ["batch02"]
    assert json.loads(gaz[1].read_text(encoding="utf-8"))["silver_batches"] == ["batch01"]
    # names mined from batch01 alone (fold 0's labels) are silver entries of fold 1's gazetteer
    # only: fold 0's gazetteer does not hold them as silver names
    own = set(_silver_names(gaz[1])) - set(_silver_names(gaz[0]))
    assert own, "batch01 mines names of its own"
    g0 = Gazetteer.from_data(json.loads(gaz[0].read_text(encoding="utf-8")))
    for key in own:
        entry = g0.lookup(_silver_names(gaz[1])[key])
        assert entry is None or entry.source != "silver"


def test_a_folds_examples_are_computed_with_its_own_fold_gazetteer(two_folds, train):
    """The worker process uses the gazetteer it is given: fold 0's abstracts that mention a name
    only their own batch mines get a silver-source feature with the leaky gazetteer (fold 1's,
    mined from batch01) and never with their fold gazetteer."""
    silver, gaz, root = two_folds
    mined = _silver_names(gaz[1])
    own = {k: n for k, n in mined.items() if k not in _silver_names(gaz[0])}
    golds = [g for g in train.load_silver(silver) if g["id"] in train.batch_of(silver)
             and train.batch_of(silver)[g["id"]] == "batch01"]
    text_of = {g["id"]: " ".join(m["text"] for e in g["entities"] for m in e["mentions"]) for g in golds}
    part = [g for g in golds if any(n in text_of[g["id"]] for n in own.values())]
    assert part, "some batch01 abstract mentions a name mined from batch01 alone"
    job = {"silver": str(silver), "examples": True}
    fair = train._run_fold(root, gaz[0], part, "fair", job)
    leaky = train._run_fold(root, gaz[1], part, "leaky", job)

    def silver_sourced(res):
        return {d.split(" ", 2)[2] for f, _lab, d in res["examples"]["used"] if f.get("src=silver")}

    assert not {d for d in silver_sourced(fair) if any(n in d for n in own.values())}
    assert {d for d in silver_sourced(leaky) if any(n in d for n in own.values())}
    # the rules' counts come back per venue group
    assert set(fair["base"]) == {"01-60"} and len(fair["base"]["01-60"]["all"]) == 3


def test_fold_examples_are_cached_under_a_key_of_their_inputs(two_folds, train, tmp_path):
    silver, gaz, _root = two_folds
    golds = train.load_silver(silver)[:2]
    key = train.examples_key(golds, gaz[0])
    assert key == train.examples_key(golds, gaz[0])
    assert key != train.examples_key(golds, gaz[1])  # another gazetteer
    assert key != train.examples_key(golds[:1], gaz[0])  # other abstracts
    changed = [dict(golds[0], entities=golds[0]["entities"][1:]), golds[1]]
    assert key != train.examples_key(changed, gaz[0])  # a re-annotated abstract
    copy = tmp_path / "g.json"
    copy.write_text(gaz[0].read_text(encoding="utf-8") + " ", encoding="utf-8")
    assert key != train.examples_key(golds, copy)


def test_the_decision_rule_asks_f1_and_precision_better_and_proposed_not_worse(train):
    def fig(tp, fp, fn, ptp, pfp, pfn):
        return {"all": train.E._prf(tp, fp, fn), "proposed": train.E._prf(ptp, pfp, pfn)}

    base = fig(800, 100, 200, 80, 10, 20)
    assert train._better(fig(810, 95, 190, 80, 10, 20), base, 0.001)
    assert not train._better(fig(801, 100, 199, 80, 10, 20), base, 0.001)  # F1 gain below the margin
    assert not train._better(fig(830, 110, 170, 80, 10, 20), base, 0.001)  # precision lower
    assert not train._better(fig(810, 95, 190, 79, 10, 21), base, 0.001)  # a proposed name lost
    assert not train._better(fig(810, 95, 190, 81, 12, 19), base, 0.001)  # proposed precision lower


def test_the_shipped_model_was_trained_leak_free():
    model = L.load_model()
    assert model.meta.get("training") == "leak-free"
    assert set(model.meta["oof_silver"]) == {"silver", "01-60", "61-100"}
