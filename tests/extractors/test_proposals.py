"""The learned proposal scorer (``bench/learned_proposals.py``) on hand-written sentences.

The sentences are written for these tests (no abstract of the corpus). The shipped model's
threshold is whatever ``bench/train_proposals.py`` chose by cross-validation; tests that need the
component to add something pass their own threshold in the component config.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from extractors.entities import SPANS_KEY as RULE_KEY
from extractors.pipeline import SEPARATOR, make_nlp
from kg.schema import EntityType, Role

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
import learned_proposals as P  # noqa: E402  (the experiment lives in bench/, not in the package)

# (the verb before the descriptive names is "devise": a bare lower-case name after "propose" or
# "introduce" is a rule of the entities component since the tenth round, and these are forms it misses)
TITLE = "Robust Certificates via Kernel Shrinking"
ABSTRACT = ("Certified defences scale badly with the input dimension. To fix this, we first study the "
            "geometry of smoothing and then devise kernel shrinking to remove the dependence on the "
            "dimension. Kernel shrinking is cheap to run, and kernel shrinking certificates hold for every "
            "norm we tried.")
#: Rule-found names (a coined name after the verb, a known method) beside descriptive phrases.
RULED = ("We introduce FlexiMerge, a novel framework that merges adapters, and we then devise gradient "
         "rerouting to stabilise training with Adam. Unlike LoRA, our rerouting scheme needs no rank.")
NO_NAME = [
    "We propose a simple method to reduce the cost of training.",
    "In this paper, we introduce a novel framework and show that it works well.",
    "We present a new, effective and efficient approach.",
]


@pytest.fixture(scope="module")
def pipe():
    """The default pipeline plus the component, with a threshold low enough to add (``low``) or
    the shipped one (``shipped``)."""
    def build(threshold: float | None):
        nlp = make_nlp()  # the factory is registered by importing learned_proposals above
        if "paperkg_proposals" not in nlp.pipe_names:
            nlp.add_pipe("paperkg_proposals", config={"threshold": threshold})
        else:
            nlp.replace_pipe("paperkg_proposals", "paperkg_proposals", config={"threshold": threshold})
        return nlp
    return build


@pytest.fixture(scope="module")
def low(pipe):
    return pipe(0.2)


@pytest.fixture(scope="module")
def everything(pipe):
    """Threshold 0: every selectable candidate is added (the selection constraints alone)."""
    return pipe(0.0)


def test_model_file_is_consistent() -> None:
    model = P.load_model()
    assert len(model["features"]) == len(model["weights"]) > 20
    assert 0.0 <= model["threshold"] <= 1.0
    assert model["trained_on"] == ["dev", "test", "test2", "test3", "test4", "test5"]
    assert model["threshold"] == 1.0 or model["cv_threshold_found"]


@pytest.mark.parametrize("text", NO_NAME)
def test_no_name_no_proposal(everything, text: str) -> None:
    doc = everything(text)
    assert P.proposals_from_doc(doc) == []
    assert list(doc.spans[P.SPANS_KEY]) == []


def test_descriptive_name_with_title_echo(low) -> None:
    doc = low(TITLE + SEPARATOR + ABSTRACT)
    assert not list(doc.spans[RULE_KEY]), "a form the rules miss"
    ents = P.proposals_from_doc(doc)
    assert [e.name for e in ents] == ["kernel shrinking"]
    e = ents[0]
    assert e.type is EntityType.METHOD and e.role is Role.PROPOSED
    texts = [m.text for m in e.mentions]
    assert texts == ["Kernel Shrinking", "kernel shrinking", "Kernel shrinking", "kernel shrinking"]
    text = TITLE + SEPARATOR + ABSTRACT
    assert all(text[m.start:m.end] == m.text and m.rule == P.RULE for m in e.mentions)
    assert e.mentions[0].start < len(TITLE) < e.mentions[1].start  # title and abstract occurrences


def test_never_overlaps_rule_spans(everything) -> None:
    doc = everything(RULED)
    rules = [(s.start_char, s.end_char) for s in doc.spans[RULE_KEY]]
    assert rules, "the rules find FlexiMerge, Adam and LoRA"
    added = P.proposals_from_doc(doc)
    assert added, "at threshold 0 some descriptive candidate is added"
    for e in added:
        for m in e.mentions:
            assert not any(s < m.end and m.start < t for s, t in rules), (m, rules)
    names = [e.name.lower() for e in added]
    assert len(names) == len(set(names))


def test_shipped_threshold_adds_only_above_it(pipe) -> None:
    nlp = pipe(None)
    model = P.load_model()
    doc = nlp(TITLE + SEPARATOR + ABSTRACT)
    assert all(p >= model["threshold"] for _n, _o, p in doc.user_data[P.ITEMS_KEY])


def test_candidates_cover_the_forms() -> None:
    text = ("Vote Trees for Juries\n\nWe then propose shadow pooling to merge views. We introduce vote trees, "
            "a framework for juries. Our method is a *phase-aware mixing module* with a novel algorithm "
            "--- leaf voting --- that scales.")
    found = {(c.text, src) for c in P.generate(text) for src in c.sources}
    for want in [("shadow pooling", "verb"), ("vote trees", "appositive"), ("vote trees", "title"),
                 ("phase-aware mixing", "emphasis"), ("leaf voting", "dash")]:
        assert want in found


def test_same_result_with_two_processes(low) -> None:
    texts = [TITLE + SEPARATOR + ABSTRACT, RULED, NO_NAME[0]]
    one = [d.user_data.get(P.ITEMS_KEY) for d in low.pipe(texts)]
    two = [d.user_data.get(P.ITEMS_KEY) for d in low.pipe(texts, n_process=2)]
    assert one == two


_SCRIPT = """
import json, sys
sys.path.insert(0, sys.argv[1])
import learned_proposals  # registers the factory
from extractors.pipeline import make_nlp
nlp = make_nlp()
nlp.add_pipe("paperkg_proposals", config={"threshold": 0.0})
out = [d.user_data["paperkg_proposal_items"] for d in nlp.pipe(json.loads(sys.stdin.read()))]
print(json.dumps(out))
"""


def test_same_result_under_two_hash_seeds() -> None:
    texts = json.dumps([TITLE + SEPARATOR + ABSTRACT, RULED] + NO_NAME)
    runs = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        proc = subprocess.run([sys.executable, "-c", _SCRIPT, str(BENCH)], input=texts, env=env, capture_output=True,
                              text=True)
        assert proc.returncode == 0, proc.stderr[-2000:]
        runs.append(proc.stdout)
    assert runs[0] == runs[1]
    assert json.loads(runs[0])[0], "the descriptive name is added at threshold 0"
