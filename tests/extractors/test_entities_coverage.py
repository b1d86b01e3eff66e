"""Gazetteer coverage of established names and the rules that keep it precise (hand-written cases)."""

from __future__ import annotations

import pytest

from extractors.gazetteer import entity_key, load_gazetteer

P, U = "proposed", "used"
M, B = "method", "benchmark"


@pytest.mark.parametrize("text, expected", [
    # established algorithms, samplers and model families, in the other grammatical number too
    ("We prove that the Langevin diffusion with early stopping recovers the modes.",
     {(M, U, "Langevin diffusion"), (M, U, "early stopping")}),
    ("Deep ensemble is a simple way to estimate uncertainty.", {(M, U, "deep ensembles")}),
    ("Our analysis covers Gaussian mixture models and hidden Markov models.",
     {(M, U, "Gaussian mixture model"), (M, U, "HMM")}),  # the gazetteer's one name for HMM and its long form
    ("The solver relies on column generation and value iteration.",
     {(M, U, "column generation"), (M, U, "value iteration")}),
    ("Recent variants (e.g., CFR+, DCFR) speed up the vanilla CFR.",
     {(M, U, "CFR+"), (M, U, "DCFR"), (M, U, "counterfactual regret minimization")}),
    ("The approach lifts the consistency of Alpaca-30B from 60% to 93%.", {(M, U, "Alpaca-30B")}),
    # an abbreviation whose long form ends in a known family is that family's member
    ("Denoising diffusion models (DDMs) generate images; DDMs are slow.",
     {(M, U, "denoising diffusion model")}),
    # generic sources name a dataset only before a data head noun
    ("We train on a Wikipedia corpus and test on news.", {(B, U, "Wikipedia")}),
    ("Users post on Twitter every day.", set()),
])
def test_coverage(found_in, text: str, expected: set) -> None:
    assert found_in(text) == expected


@pytest.mark.parametrize("text, expected", [
    # lower-case names given by the authors' naming verb
    ("We filter the outputs and call this approach consistency tuning. It helps.",
     {(M, P, "consistency tuning")}),
    ("To fix this, we propose a new approach called DG. Unlike prior work, DG uses metadata.",
     {(M, P, "DG")}),
    # "our new model X", "our proposed X method"
    ("We fine-tune BERT on it, as well as our new model Zorblax, which adds a memory.",
     {(M, U, "BERT"), (M, P, "Zorblax")}),
    ("Empirically, our proposed Quokka-FS method beats all baselines.", {(M, P, "Quokka-FS")}),
    ("Our approach extends the classical Optimal Brain Surgeon framework to large models.",
     {(M, U, "Optimal Brain Surgeon")}),
    # a proposed dataset typed by its appositive, also without the comma
    ("We introduce DrawSet the first large-scale dataset of vector drawings.", {(B, P, "DrawSet")}),
    ("First, we construct PairRef, the largest and non-redundant dataset of protein pairs.",
     {(B, P, "PairRef")}),
    # "the proposed X (ABC)", an emphasised term before a head noun
    ("Comparisons show that the proposed doubly-sparse kernel approximation (DSKA) is accurate.",
     {(M, P, "doubly-sparse kernel approximation")}),
    ("We distil the backdoor of a model into a *trigger expert* model that flags inputs.",
     {(M, P, "trigger expert")}),
])
def test_proposals(found_in, text: str, expected: set) -> None:
    assert found_in(text) == expected


@pytest.mark.parametrize("text, absent", [
    ("Results on Parts and our newly constructed Features dataset improve.", {"Features", "Parts"}),
    ("We propose the use of TikZ, a well-known graphics language, as a representation.", {"TikZ"}),
    ("Our method is faster than the existing text-to-3D method.", {"text-to-3D"}),
    ("It yields higher scores on a real-world named entity recognition task.", {"entity recognition task"}),
    ("This setting is referred to as the Open-set Semi-supervised Learning (OSSL) problem.",
     {"Open-set Semi-supervised Learning"}),
    ("This paper presents fast first-order methods for solving linear programs (LPs) approximately.",
     {"linear programs"}),
    ("We model Switching Dynamical Systems (SDS) with graphs; SDS are common.", {"score distillation"}),
    ("Our algorithm, unlike SPIDER and SARAH, needs no large batches.", {"Spider"}),
    ("We then show the efficacy of our proposed RL-training framework.", {"RL-training"}),
])
def test_not_names(names_in, text: str, absent: set) -> None:
    assert not (names_in(text) & absent)


def test_title_tool_described_as_known_is_not_proposed(extract) -> None:
    title = "SketchGen: Drawing Figures with PlotLang"
    text = ("We propose the use of PlotLang, a well-known plotting language, as the target. "
            "PlotLang offers high-level commands. We present SketchGen, a model that writes it.")
    roles = {e.name: e.role.value for e in extract(text, title)}
    assert roles.get("SketchGen") == P
    assert roles.get("PlotLang") != P


def test_gazetteer_helpers() -> None:
    gaz = load_gazetteer()
    assert entity_key("CFR+") != entity_key("CFR")
    assert gaz.lookup("SPIDER") is None and gaz.lookup("Spider") is not None
    assert gaz.lookup("MMLU") is not None  # acronyms written in capitals keep matching
    assert gaz.is_common_word("Features") and gaz.is_common_word("parts")
    assert not gaz.is_common_word("Tango") and not gaz.is_common_word("ImageNet")
