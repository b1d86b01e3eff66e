"""extract_raw / consolidate / extract_records: contract, offsets, caching form, processes, seeds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from extractors import EXTRACTOR_VERSION
from extractors.pipeline import RawExtraction, consolidate, extract_raw, extract_records, make_nlp
from kg.errors import PaperkgError
from kg.readers import read_file
from kg.records import Record


def test_raw_extraction_round_trips_through_json(rec, nlp) -> None:
    recs = [rec("We introduce the Error-Compensating Optimizer (ECO). ECO beats Adam on ImageNet "
                   "(Smith et al., 2020).", title="ECO: optimizers")]
    (raw,) = extract_raw(recs, nlp=nlp)
    assert raw.version == EXTRACTOR_VERSION and raw.record_id == "t:1"
    again = RawExtraction.from_dict(json.loads(json.dumps(raw.to_dict())))
    assert again == raw
    assert ("ECO", "Error-Compensating Optimizer", "abstract") in raw.definitions


def test_offsets_are_per_field(rec, nlp) -> None:
    title = "FooNet: fast nets"
    abstract = "We propose FooNet, a novel architecture. FooNet is fast."
    (raw,) = extract_raw([rec(abstract, title)], nlp=nlp)
    (e,) = [e for e in raw.entities if e.type.value == "method"]
    for m in e.mentions:
        src = title if m.field == "title" else abstract
        assert src[m.start:m.end] == m.text == "FooNet"
    assert sorted(m.field for m in e.mentions) == ["abstract", "abstract", "title"]


def test_no_entity_without_evidence_across_the_title_abstract_boundary(rec, nlp) -> None:
    # The joined text reads "... Deep Reinforcement Learning\n\nLearning policies ...": a
    # phrase across the break has no span in either field, so it must not become an entity.
    title = "Piecewise Policies for Deep Reinforcement Learning"
    abstract = ("Learning interpretable policies is hard. We study reinforcement learning with linear "
                "policies.")
    (raw,) = extract_raw([rec(abstract, title)], nlp=nlp)
    assert raw.entities
    for e in raw.entities:
        assert e.mentions, e
        assert "\n" not in e.name and not any("\n" in a for a in e.aliases), e
        for m in e.mentions:
            assert (title if m.field == "title" else abstract)[m.start:m.end] == m.text


def test_aliases_only_from_spellings_with_evidence(rec, nlp) -> None:
    # "Learning\n\nGraph" across the break is no alias of "learning graph" found in the abstract
    (raw,) = extract_raw([rec("Graph contrastive methods are a strong tool for learning graph data, "
                              "but they scale poorly.", "Faster Training of Graph Contrastive Learning")],
                         nlp=nlp)
    names = {e.name.lower(): e for e in raw.entities}
    assert "learning graph" in names
    assert all("\n" not in a for e in raw.entities for a in e.aliases)


def test_record_without_text_yields_empty_result(nlp) -> None:
    (raw,) = extract_raw([Record(id="x", title=None, abstract=None)], nlp=nlp)
    assert raw.entities == () and raw.citations == ()


def test_results_keep_input_order_and_two_processes_agree(rec) -> None:
    recs = [rec(f"We propose Net{i}Former, a novel architecture, and test it on CIFAR-10.", rid=f"t:{i}")
            for i in range(40)]
    one = list(extract_raw(recs))
    two = list(extract_raw(recs, n_process=2, batch_size=8))
    assert [r.record_id for r in one] == [r.id for r in recs]
    assert one == two


def test_missing_spacy_model_is_a_clear_error() -> None:
    with pytest.raises(PaperkgError, match="not installed"):
        make_nlp(spacy_model="xx_no_such_pipeline_sm")


def test_extract_records_returns_records_with_extraction(rec, nlp) -> None:
    recs = [rec("We propose FooNet, a novel architecture.")]
    (out,) = extract_records(recs, nlp=nlp)
    d = out.to_dict()
    assert d["id"] == "t:1" and "entities" in d and "citations" in d
    (e,) = [x for x in d["entities"] if x["type"] == "method"]
    assert set(e) == {"type", "name", "aliases", "role", "mentions"}
    assert set(e["mentions"][0]) == {"start", "end", "text", "rule"}


def test_consolidate_rejects_mismatched_lengths(rec, nlp) -> None:
    with pytest.raises(ValueError):
        consolidate([rec("x")], [])


def _entity(records, name):
    for r in records:
        for e in r.entities:
            if e.name == name or name in e.aliases:
                return e
    return None


def test_seeds_end_to_end(seeds_dir: Path) -> None:
    records = [r for p in sorted(seeds_dir.glob("*.txt")) for r in read_file(p)]
    out = extract_records(records)
    by_text = {}
    for r in out:
        for e in r.entities:
            if e.type.value == "concept":
                continue
            for n in (e.name, *e.aliases):
                by_text.setdefault(n, set()).add((e.type.value, e.role.value))
    for name in ("ZoVH", "ExpertWeaver", "Persona-Pruner"):
        assert ("method", "proposed") in by_text[name], name
    for name in ("RoleBench", "AssistantBench", "GAIA", "CIFAR-10"):
        assert ("benchmark", "used") in by_text[name], name
    spn = _entity(out, "SPN")
    assert spn is not None and spn.type.value == "method" and spn.role.value == "proposed"
    assert {spn.name, *spn.aliases} >= {"SPN", "Strategic Prior-data Fitted Network"}
    # one entity per paper: the long and the short form are not split
    paper = next(r for r in out if r.abstract and "Strategic Prior-data Fitted Network (SPN)" in r.abstract)
    assert sum(1 for e in paper.entities if "SPN" in (e.name, *e.aliases)) == 1


_CONCEPT_TEXTS = [
    # (title, abstract): concepts in both fields, an acronym, a task name, a two-mention concept
    ("Federated learning with strategic classification",
     "We study federated learning (FL) under strategic classification. In FL, clients keep "
     "their data; zeroth-order optimization and KV cache eviction are also studied, and "
     "continual learning of tabular foundation models (Smith et al., 2020) is discussed."),
    (None, "Reinforcement learning from human feedback and meta-learning for few-shot image "
           "classification; graph neural networks for molecular property prediction."),
]


def test_extract_raw_concepts_match_the_component_spans(rec, nlp) -> None:
    """extract_raw reads the concept component's plain copy of its spans; it must agree with
    concepts_from_doc, which reads doc.spans (the spaCy contract)."""
    from extractors.concepts import concepts_from_doc
    from extractors.pipeline import _join, _split_mention

    for i, (title, abstract) in enumerate(_CONCEPT_TEXTS):
        record = rec(abstract, title, rid=f"t:{i}")
        (raw,) = extract_raw([record], nlp=nlp)
        text, abstract_start = _join(record)
        expected = []
        for e in concepts_from_doc(nlp(text)):
            mentions = tuple(m for m in (_split_mention(m, abstract_start) for m in e.mentions) if m)
            expected.append((e.name, e.aliases, mentions))
        got = [(e.name, e.aliases, e.mentions) for e in raw.entities if e.type.value == "concept"]
        assert got == expected and len(got) >= 4
        if title:
            assert {m.field for _n, _a, ms in got for m in ms} == {"title", "abstract"}


def test_packed_results_round_trip(rec, nlp) -> None:
    """Workers send results as plain tuples (_pack); the parent rebuilds the same objects."""
    from extractors.pipeline import _pack, _unpack

    recs = [rec(a, t, rid=f"t:{i}") for i, (t, a) in enumerate(_CONCEPT_TEXTS)]
    recs.append(rec("We introduce the Error-Compensating Optimizer (ECO). ECO beats Adam on "
                    "ImageNet (Smith et al., 2020).", "ECO: optimizers", rid="t:eco"))
    raws = list(extract_raw(recs, nlp=nlp))
    assert any(r.citations for r in raws) and any(r.definitions for r in raws)
    import pickle

    assert [_unpack(pickle.loads(pickle.dumps(_pack(r)))) for r in raws] == raws


def test_two_processes_reuse_a_given_pipeline(rec, nlp) -> None:
    recs = [rec(f"We propose Net{i}Former for federated learning (FL), tested on CIFAR-10 "
                f"(Lee et al., 2021).", f"Net{i}Former", rid=f"t:{i}") for i in range(12)]
    assert list(extract_raw(recs, nlp=nlp, n_process=2, batch_size=4)) == list(extract_raw(recs, nlp=nlp))


@pytest.mark.parametrize("enabled", [True, False])
def test_garbage_collector_is_paused_per_batch_only(rec, nlp, enabled: bool) -> None:
    """extract_raw switches the collector off while a batch runs, never while the caller
    holds a result, and leaves it as it found it."""
    import gc

    recs = [rec("We propose FooNet for continual learning.", rid=f"t:{i}") for i in range(3)]
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        seen = []
        for _raw in extract_raw(recs, nlp=nlp, batch_size=1):
            seen.append(gc.isenabled())
        assert seen == [enabled] * 3 and gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


@pytest.mark.parametrize("text", [
    "We don't use U.S. data, e.g. CIFAR-10/100 (Krizhevsky, 2009) :) or 3.5x faster's models.",
    "Mixture-of-Experts (MoE) models can't scale; let's see: $O(n^2)$, **FooNet**, \\textbf{Bar}.",
    "Gemma-3 1B vs. Llama-2-7B, i.e., the state-of-the-art in N.Y. at 10am.",
])
def test_tokenizer_after_cache_reset_agrees_with_a_fresh_one(nlp, text: str) -> None:
    # make_nlp empties the tokenizer cache (filled by the gazetteer forms) and enlarges it;
    # the tokens, special cases included, must be those of a fresh tokenizer
    import spacy

    from extractors.pipeline import TOKENIZER_CACHE_SIZE

    blank = spacy.blank("en")
    for _ in range(2):  # the second time from the cache
        got = [(t.text, t.idx, t.whitespace_) for t in nlp.make_doc(text)]
        assert got == [(t.text, t.idx, t.whitespace_) for t in blank.make_doc(text)]
    assert nlp.tokenizer.tokenizer.max_cache_size >= TOKENIZER_CACHE_SIZE


@pytest.mark.parametrize("enabled", [True, False])
def test_consolidate_leaves_the_garbage_collector_as_it_found_it(rec, nlp, enabled: bool) -> None:
    import gc

    recs = [rec("We propose FooNet for continual learning. FooNet is fast.", rid=f"t:{i}") for i in range(3)]
    raws = list(extract_raw(recs, nlp=nlp))
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        out = consolidate(recs, raws)
        assert gc.isenabled() is enabled
        assert [r.id for r in out] == ["t:0", "t:1", "t:2"]
        assert all(any(e.name == "FooNet" for e in r.entities) for r in out)
    finally:
        gc.enable() if was else gc.disable()
