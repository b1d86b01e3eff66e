"""Corpus-level consolidation: variants, acronyms across abstracts, majority type."""

from __future__ import annotations

from extractors.pipeline import extract_records


def _ents(rec):
    return {e.name: e for e in rec.entities if e.type.value != "concept"}


def test_variants_collapse_to_one_canonical_entity(rec, nlp) -> None:
    recs = [
        rec("Mixture-of-Experts (MoE) scales capacity; training MoEs is costly.", rid="a"),
        rec("We study mixture of experts layers and sparse routing.", rid="b"),
        rec("Our MoE model and other Mixture of Experts models are compared.", rid="c"),
    ]
    out = extract_records(recs, nlp=nlp)
    names = {e.name for r in out for e in r.entities if e.type.value == "method"}
    assert names == {"Mixture-of-Experts"}
    a = _ents(out[0])["Mixture-of-Experts"]
    assert {"MoE", "MoEs"} <= set(a.aliases)
    assert [m.text for m in a.mentions] == ["Mixture-of-Experts", "MoE", "MoEs"]


def test_acronym_defined_in_one_abstract_is_recognised_in_another(rec, nlp) -> None:
    recs = [
        rec("We introduce the Error-Compensating Optimizer (ECO), which quantizes weights.", rid="a"),
        rec("Compared with prior optimizers, ECO-style quantized training saves memory; ECO is simple.", rid="b"),
    ]
    out = extract_records(recs, nlp=nlp)
    a = _ents(out[0])["Error-Compensating Optimizer"]
    assert a.role.value == "proposed"
    b = _ents(out[1])
    (e,) = b.values()
    # one paper's definition gives bare letters their type, not that paper's name: "ECO" elsewhere
    # may be another method (test_consol17_spread.py); with a second definer the names link
    assert e.name == "ECO" and e.type.value == "method" and e.role.value == "used"
    assert {m.rule for m in e.mentions} == {"corpus"}
    recs.insert(1, rec("Building on the Error-Compensating Optimizer (ECO), we quantize activations.", rid="c"))
    (e,) = _ents(extract_records(recs, nlp=nlp)[2]).values()
    assert e.name == "Error-Compensating Optimizer"


def test_ambiguous_acronym_links_nothing_across_papers(rec, nlp) -> None:
    recs = [
        rec("We use Policy Optimization Networks (PON) for control.", rid="a"),
        rec("We use Probabilistic Output Networks (PON) for ranking.", rid="b"),
        rec("Finally PON is mentioned bare here.", rid="c"),
    ]
    out = extract_records(recs, nlp=nlp)
    assert _ents(out[2]) == {}


def test_majority_type_types_what_a_paper_leaves_untyped(rec, nlp) -> None:
    recs = [rec(f"We evaluate on the ZetaSet benchmark {i}.", rid=f"b{i}") for i in range(3)]
    recs.append(rec("ZetaSet algorithm is described.", rid="m"))
    recs.append(rec("Our detector also improves on ZetaSet by two points.", rid="u"))
    out = extract_records(recs, nlp=nlp)
    types = [{e.type.value for e in r.entities if e.name == "ZetaSet"} for r in out]
    # the paper that types the name itself keeps its type (the same letters can name two things);
    # the paper that only mentions it gets the corpus's majority type
    assert types == [{"benchmark"}] * 3 + [{"method"}, {"benchmark"}]


def test_an_acronym_in_capitals_does_not_spread_to_a_word_in_mixed_case(rec, nlp) -> None:
    """"PHD" (persistent homology dimension) is known from two papers; "PhD" is not it."""
    recs = [
        rec("We propose the persistent homology dimension (PHD) method to detect generated text.", rid="a"),
        rec("The PHD method of earlier work fails on short texts, so we stabilise it.", rid="b"),
        rec("Our study interviews PhD students and three PhDs about writing.", rid="c"),
        rec("A baseline PHD estimate is computed on every text of the corpus.", rid="d"),
    ]
    out = extract_records(recs, nlp=nlp)
    assert _ents(out[2]) == {}
    (e,) = _ents(out[3]).values()  # the acronym as written still spreads
    assert e.name == "persistent homology dimension" and {m.text for m in e.mentions} == {"PHD"}
