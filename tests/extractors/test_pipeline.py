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
