"""Short forms of things that are no method or benchmark (imaging modalities, care units, units,
number formats, rates) are not carried by corpus consolidation to abstracts that do not define
them, while an abstract that defines the same letters as its method keeps its name.
(Invented sentences.)
"""

from __future__ import annotations

import pytest

from extractors.pipeline import extract_records


def _definers(long: str, short: str) -> tuple[str, ...]:
    return (f"We introduce the {long} ({short}), which quantizes weights.",
            f"Building on the {long} ({short}), we quantize activations as well.")


def _extract(rec, nlp, definers: tuple[str, ...], target: str):
    recs = [rec(t, rid=f"d{i}") for i, t in enumerate(definers)] + [rec(target, rid="t")]
    return extract_records(recs, nlp=nlp)


def _corpus_marks(out) -> list[str]:
    return [m.text for e in out[-1].entities if e.type.value != "concept" for m in e.mentions
            if m.rule == "corpus"]


@pytest.mark.parametrize(("long", "short", "target"), [
    ("Parameter-Efficient Tuning", "PET",
     "We reconstruct PET images of the brain from cheaper scans with a conditional generator."),
    ("Iterative Cluster Updater", "ICU",
     "Patients in the ICU are monitored by many sensors, and we forecast their vital signs."),
    ("Communication Overlap Optimizer", "CO2",
     "Training a large model emits a lot of CO2, so we study where the energy goes."),
    ("Fused Precision Optimizer", "FP8",
     "We train transformers with FP8 weights and keep the master copy in higher precision."),
    ("Token Pruning Router", "TPR",
     "Our attack reaches a high TPR at a low false alarm rate against strong defenses."),
])
def test_a_non_method_short_form_is_not_carried_by_the_corpus(rec, nlp, long, short, target) -> None:
    out = _extract(rec, nlp, _definers(long, short), target)
    assert _corpus_marks(out) == []
    # the paper that introduces the letters as its own method keeps the name
    names = {e.name for e in out[0].entities if e.type.value != "concept"}
    assert long in names, names


def test_a_coined_short_form_still_spreads(rec, nlp) -> None:
    out = _extract(rec, nlp, _definers("Error-Compensating Optimizer", "ECO"),
                   "Compared with prior optimizers, ECO is simple and saves memory.")
    assert _corpus_marks(out) == ["ECO"]
