"""The learned name finder (``extractors/learned.py``): candidates, decisions, pipeline behaviour.

Texts are hand-written. Decisions of the mechanism are tested with small hand-built models (so
they do not move when the shipped model is retrained); the shipped model is tested for loading,
its feature list, and cases far from its thresholds.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from extractors import learned as L
from extractors.entities import INFO_KEY, SPANS_KEY, entities_from_doc
from extractors.pipeline import extract_raw, make_nlp
from kg.records import Record

REPO = Path(__file__).resolve().parents[2]

DEFINED = ("Faster sampling for graphs\n\n"
           "Sampling on large graphs is slow. Spectral Path Reweighting (SPR) reroutes messages along "
           "short paths. SPR halves the cost of message passing on Cora.")
TASK = ("Circuits in language models\n\n"
        "We study how transformers solve the Shortest Cycle Counting (SCC) problem. "
        "On SCC, a small set of heads explains most of the behaviour.")
TOKEN = ("Better pruning\n\n"
         "Pruning large models loses accuracy. ZetaPrune keeps the salient weights of each layer, "
         "and ZetaPrune needs no retraining.")


def _model(path: Path, weights: dict[str, dict[str, float]], thresholds: dict[str, float]) -> str:
    """A model file whose class scores are the given feature weights (0 elsewhere)."""
    feats = list(L.FIXED_FEATURES)
    rows = [[weights.get(c, {}).get(f, 0.0) for f in feats] for c in L.CLASSES]
    path.write_text(json.dumps({"features": feats, "classes": list(L.CLASSES), "weights": rows,
                                "thresholds": thresholds, "meta": {}}), encoding="utf-8")
    return str(path)


def test_candidates_are_the_definitions_and_tokens_no_rule_typed(rules_nlp):
    doc = rules_nlp(DEFINED)
    cands = {c.name: c for c in L.candidates(doc) if c.kind != "rule"}
    assert "Spectral Path Reweighting" in cands
    c = cands["Spectral Path Reweighting"]
    assert c.kind == "definition" and c.short == "SPR"
    text = L.doc_text(doc)
    assert [text[s:e] for s, e in c.occurrences] == ["Spectral Path Reweighting", "SPR", "SPR"]
    token = {c.name: c for c in L.candidates(rules_nlp(TOKEN)) if c.kind == "token"}
    assert len(token["ZetaPrune"].occurrences) == 2
    # a name the rules typed is a "rule" candidate with their class, not an untyped one
    doc = rules_nlp("Training with Adam\n\nWe train ResNet-50 with Adam on ImageNet.")
    rules = {c.name: c for c in L.candidates(doc)}
    assert rules["ImageNet"].kind == "rule" and rules["ImageNet"].rule_class == "benchmark/used"


def test_confident_proposed_long_form_is_added_with_its_acronym_and_every_mention(tmp_path, nlp_with):
    path = _model(tmp_path / "m.json", {"method/proposed": {"kind=definition": 5.0}},
                  {"method/proposed": 0.5})
    doc = nlp_with(path)(DEFINED)
    ents = {e.name: e for e in entities_from_doc(doc)}
    e = ents["Spectral Path Reweighting"]
    assert e.role.value == "proposed" and e.type.value == "method"
    assert e.aliases == ("SPR",)
    assert [m.text for m in e.mentions] == ["Spectral Path Reweighting", "SPR", "SPR"]
    assert {m.rule for m in e.mentions} == {"learned"}


def test_below_threshold_nothing_is_added(tmp_path, nlp_with):
    path = _model(tmp_path / "m.json", {"method/proposed": {"kind=definition": 5.0}},
                  {"method/proposed": 0.999})
    doc = nlp_with(path)(DEFINED)
    assert "Spectral Path Reweighting" not in {e.name for e in entities_from_doc(doc)}


def test_shipped_model_does_not_add_a_defined_task():
    doc = make_nlp()(TASK)
    names = {e.name for e in entities_from_doc(doc)}
    assert not names & {"Shortest Cycle Counting", "SCC"}


def test_shipped_model_ranks_a_defined_task_below_a_proposal(rules_nlp):
    model = L.load_model()
    proposal = ("Faster sampling\n\nSampling large graphs is slow. In this paper, we reroute messages along "
                "short paths with Spectral Path Reweighting (SPR). SPR halves the cost, and SPR is simple.")
    def p_proposed(text: str, name: str) -> float:
        (f,) = [f for c, f in L.featurize(rules_nlp(text)) if c.name == name and c.kind != "rule"]
        return model.probabilities(f)[L.CLASSES.index("method/proposed")]
    assert p_proposed(proposal, "Spectral Path Reweighting") > p_proposed(TASK, "Shortest Cycle Counting")


def test_added_spans_never_overlap_rule_spans(tmp_path, nlp_with):
    path = _model(tmp_path / "m.json", {"method/proposed": {"bias": 5.0}},
                  {"method/proposed": 0.5, "benchmark/proposed": 0.5})
    text = ("Graph sampling\n\nWe evaluate Spectral Path Reweighting (SPR) against GraphSAGE on Cora and "
            "ogbn-arxiv; ZetaPrune and SPR are faster than GraphSAGE (GS).")
    rules = make_nlp()
    rules.remove_pipe("paperkg_learned")
    rules_doc = rules(text)
    before = {(s.start_char, s.end_char, s.label_) for s in rules_doc.spans[SPANS_KEY]}
    doc = nlp_with(path)(text)
    spans = sorted((s.start_char, s.end_char) for s in doc.spans[SPANS_KEY])
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))
    after = {(s.start_char, s.end_char, s.label_) for s in doc.spans[SPANS_KEY]}
    assert before < after  # the rules' spans are all kept (no rule: threshold), something was added
    info = doc.user_data[INFO_KEY]
    assert {info[f"{s}:{e}:{lab}"][2] for s, e, lab in after - before} == {"learned"}


def test_a_rule_name_changes_class_or_is_dropped_only_with_a_rule_threshold(tmp_path, nlp_with):
    text = "Training graphs\n\nWe train QuuxNet on the ZorbBench dataset with Adam."
    keep = _model(tmp_path / "k.json", {"none": {"kind=rule": 9.0}}, {"method/proposed": 0.5})
    drop = _model(tmp_path / "d.json", {"none": {"kind=rule": 9.0}}, {"rule:none": 0.5})
    assert {"QuuxNet", "ZorbBench", "Adam"} <= {e.name for e in entities_from_doc(nlp_with(keep, change_rules=True)(text))}
    # a gazetteer name ("Adam") is never a candidate: it stays whatever the model says
    assert {e.name for e in entities_from_doc(nlp_with(drop, change_rules=True)(text))} == {"Adam"}
    # and by default (change_rules off) the rules' names are left alone
    assert {"QuuxNet", "ZorbBench", "Adam"} <= {e.name for e in entities_from_doc(nlp_with(drop)(text))}
    retype = _model(tmp_path / "r.json", {"benchmark/proposed": {"rule_class=benchmark/used": 9.0}},
                    {"rule:benchmark/proposed": 0.5})
    ents = {e.name: e for e in entities_from_doc(nlp_with(retype, change_rules=True)(text))}
    assert ents["ZorbBench"].role.value == "proposed" and ents["QuuxNet"].role.value == "used"
    assert {m.rule for m in ents["ZorbBench"].mentions} == {"bench_head"}  # the evidence is kept


def test_used_names_are_added_only_with_add_used(tmp_path, nlp_with):
    path = _model(tmp_path / "m.json", {"method/used": {"kind=definition": 5.0}}, {"method/used": 0.5})
    assert "Spectral Path Reweighting" not in {e.name for e in entities_from_doc(nlp_with(path)(DEFINED))}
    ents = {e.name: e for e in entities_from_doc(nlp_with(path, add_used=True)(DEFINED))}
    assert ents["Spectral Path Reweighting"].role.value == "used"


@pytest.mark.parametrize("text, name", [
    ("Plots\n\nWe then develop an automatic metric, PlotScore, that counts holes. PlotScore agrees.", "PlotScore"),
    ("Plots\n\nWe draw with PlotLang, a well-known plotting language. PlotLang is short.", "PlotLang"),
    ("Agents\n\nWe then show the efficacy of our proposed RL-training framework.", "RL-training"),
])
def test_guards_keep_a_confident_model_from_calling_these_proposed(text, name, tmp_path, nlp_with):
    path = _model(tmp_path / "m.json", {"method/proposed": {"bias": 9.0}}, {"method/proposed": 0.5})
    assert name not in {e.name for e in entities_from_doc(nlp_with(path)(text))}


def test_results_survive_two_processes(tmp_path, nlp_with):
    path = _model(tmp_path / "m.json", {"method/proposed": {"kind=definition": 5.0, "kind=token": 5.0}},
                  {"method/proposed": 0.5})
    nlp = nlp_with(path)
    texts = [DEFINED, TASK, TOKEN] * 3
    one = [sorted((s.start_char, s.end_char, s.label_) for s in d.spans[SPANS_KEY]) for d in nlp.pipe(texts)]
    two = [sorted((s.start_char, s.end_char, s.label_) for s in d.spans[SPANS_KEY])
           for d in nlp.pipe(texts, n_process=2, batch_size=2)]
    assert one == two
    docs = list(nlp.pipe(texts, n_process=2, batch_size=2))
    assert "Spectral Path Reweighting" in {e.name for e in entities_from_doc(docs[0])}
    # and through extract_raw's own workers, with the shipped model
    recs = [Record(id=f"r{i}", title=t.split("\n\n")[0], abstract=t.split("\n\n")[1]) for i, t in enumerate(texts)]
    assert list(extract_raw(recs, n_process=2, batch_size=2)) == list(extract_raw(recs))


def test_shipped_model_loads_and_matches_the_training_feature_list():
    model = L.load_model()
    assert model.classes == L.CLASSES
    # the model's fixed features are FIXED_FEATURES, or (a model trained before features were
    # appended to it) a prefix of them: the newer features are then ignored until it is retrained
    fixed = tuple(f for f in model.features if not f.startswith(L.WORD_FEATURE_PREFIXES))
    assert fixed and fixed == L.FIXED_FEATURES[:len(fixed)]
    assert model.features[:len(fixed)] == fixed
    # (the role promotion's thresholds are written by training since it was added, 1.01 when off)
    assert set(model.thresholds) <= {*L.CLASSES[1:], *("rule:" + c for c in L.CLASSES),
                                     *(L.PROMOTE + c for c in L.CLASSES if c.endswith("/proposed"))}
    spec = importlib.util.spec_from_file_location("train_learned", REPO / "bench" / "train_learned.py")
    train = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train)
    assert set(model.thresholds) <= {*train.THRESHOLD_KEYS, *train.PROMOTE_KEYS}
    # every feature features() gives is one the training script can put in a model
    rules = make_nlp()
    for text in (DEFINED, TASK, TOKEN):
        for _c, f in L.featurize(rules(text)):
            assert all(k in L.FIXED_FEATURES or k.startswith(L.WORD_FEATURE_PREFIXES) for k in f)
    assert train.vocabulary([{"bias": 1.0, "prev=we": 1.0}], min_count=1)[-1] == "prev=we"


def test_a_model_file_of_another_shape_is_refused(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"features": ["bias"], "classes": ["none", "method"], "weights": [[0.0], [0.0]]}))
    with pytest.raises(ValueError, match="classes"):
        L.load_model(str(bad))


BAD = ["", "((((((((((", "A (B (C D) E", "Method (ABC" + " word" * 50, "\n\n", "Title only",
       "$$\\frac{a}{b}$$ \\textbf{}", "<p>HTML <b>only</b></p>", "中文摘要，没有英文。"]


@pytest.mark.parametrize("text", BAD)
def test_bad_input_gives_no_learned_names_with_the_shipped_model(text):
    info = make_nlp()(text).user_data.get(INFO_KEY) or {}
    assert not [v for v in info.values() if v[2] == "learned"]


@pytest.mark.parametrize("text", BAD)
def test_bad_input_with_a_model_that_adds_everything_gives_spans_of_names(text, tmp_path, nlp_with):
    path = _model(tmp_path / "m.json", {"method/proposed": {"bias": 9.0}}, {"method/proposed": 0.5})
    doc = nlp_with(path)(text)
    for k, v in (doc.user_data.get(INFO_KEY) or {}).items():
        if v[2] == "learned":
            s, e = v[3]
            assert 0 <= s < e <= len(text) and text[s:e].strip() and "(" not in text[s:e]


def test_a_one_megabyte_abstract_is_bounded(tmp_path, nlp_with):
    path = _model(tmp_path / "m.json", {"method/proposed": {"bias": 9.0}}, {"method/proposed": 0.5})
    unit = "Our Flux Router Net (FRN) beats ZetaPrune. "
    text = "T\n\n" + unit * (1_000_000 // len(unit))
    doc = nlp_with(path)(text)
    assert len(L.candidates(doc)) <= 2 * L._MAX_CANDIDATES
    names = {e.name for e in entities_from_doc(doc)}
    assert names  # still works at that size
