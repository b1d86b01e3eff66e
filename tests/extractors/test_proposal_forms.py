"""Ways papers give their own names, on invented sentences (no gold abstract is copied here).

Each case is one proposal form the rules must generalise to: LaTeX around the name, lower-case
acronym long forms, "we term/coin/refer to ... as X", "our X", names echoing the title,
quoted names, appositives with Title-Case names, "X: a ...". The negative cases guard the
precision of the same rules.
"""

from __future__ import annotations

import pytest

P, U = "proposed", "used"
M, B = "method", "benchmark"
TITLE = "Fast Widgets for Everyone"


def _found(extract, text: str, title: str | None = None) -> set[tuple[str, str, str]]:
    return {(e.type.value, e.role.value, e.name) for e in extract(text, title)}


@pytest.mark.parametrize("text, expected", [
    # LaTeX around the name
    (r"We propose \textsc{FlexiRoute}, a routing method for sparse experts. \textsc{FlexiRoute} is fast.",
     {(M, P, "FlexiRoute")}),
    (r"We introduce $\texttt{GraphTune}$, which adapts graph models quickly.", {(M, P, "GraphTune")}),
    (r"In this work we present \emph{Quilt}, a framework for patching models.", {(M, P, "Quilt")}),
    # lower-case long forms of an acronym defined after a proposal verb
    ("We propose test-time style shifting (TTSS) to handle domain shift. TTSS is simple.",
     {(M, P, "test-time style shifting")}),
    ("We propose vector-quantized memory routing (VQMR), which compresses caches.",
     {(M, P, "vector-quantized memory routing")}),
    # appositives
    ("We present Marbles, a lightweight benchmark that measures spatial reasoning.", {(B, P, "Marbles")}),
    ("Our approach, Lattice, a scalable algorithm for planning, beats the baselines.", {(M, P, "Lattice")}),
    ("To help others we release a novel benchmark, Kitchen Tidying, consisting of 900 tasks.",
     {(B, P, "Kitchen Tidying")}),
    # we term / coin / refer to ... as
    ("We term this procedure Spectral Anchoring and show it converges.", {(M, P, "Spectral Anchoring")}),
    ("We coin the resulting model KiloFormer-S. It is fast.", {(M, P, "KiloFormer-S")}),
    ("We refer to this method as Drift Correction. Drift Correction helps.", {(M, P, "Drift Correction")}),
    ("We call it WaveMix and test it on images.", {(M, P, "WaveMix")}),
    # quoted names
    ("We propose a new method called ``Gradient Echo'' that reuses gradients.", {(M, P, "Gradient Echo")}),
    # our X
    ("Experiments show that our Tessera outperforms LoRA on GLUE.",
     {(M, P, "Tessera"), (M, U, "LoRA"), (B, U, "GLUE")}),
    ("Our Kestrel framework scales to long videos.", {(M, P, "Kestrel")}),
    # colon titles inside the abstract
    ("We propose ReLearn: a framework for unlearning via relearning.", {(M, P, "ReLearn")}),
    # nothing named
    ("We propose a novel method to improve the calibration of neural networks.", set()),
    ("Our Theorem 2 shows that our analysis is tight.", set()),
    ("We show that Adam, a popular optimizer, fails here.", {(M, U, "Adam")}),
    ("We call this phenomenon the Low-Norm Effect.", set()),
])
def test_proposal_forms(extract, text: str, expected: set) -> None:
    assert _found(extract, text, TITLE) == expected


@pytest.mark.parametrize("title, text, expected", [
    # a plain word before the title's colon, repeated in the abstract
    ("Tessera: Efficient Patching of Language Models",
     "We study patching. We propose a method that patches models with few edits. Tessera is fast.",
     {(M, P, "Tessera")}),
    # a coined word of the title that the abstract uses again
    ("Efficient Patching with GraphTune",
     "We propose a way to patch graph models. GraphTune edits few weights and outperforms LoRA.",
     {(M, P, "GraphTune"), (M, U, "LoRA")}),
    # a Title-Case phrase of the title given in lower case after a proposal verb
    ("Learning with Shadow Critics",
     "We introduce shadow critics, a family of value estimators. Shadow critics improve stability.",
     {(M, P, "shadow critics")}),
    ("Hessian Aided Policy Gradient",
     "This paper presents a Hessian aided policy gradient method with a better sample complexity.",
     {(M, P, "Hessian aided policy gradient")}),
])
def test_title_echo(extract, title: str, text: str, expected: set) -> None:
    found = {x for x in _found(extract, text, title) if x[1] == P or x in expected}
    assert found == expected


@pytest.mark.parametrize("title, text", [
    # title words that are topics, modifiers or paradigms are not names
    ("Adversarial Learning of Distributional Reinforcement Learning",
     "We propose an adversarial learning framework for distributional reinforcement learning."),
    ("A Semantic Invariant Robust Watermark for Large Language Models",
     "We propose a semantic invariant watermarking method for LLMs that resists attacks."),
    ("Learning Simulators from RGB-D Videos",
     "We propose a method for learning simulators directly from RGB-D observations."),
    ("Sudden Drops in the Loss of MLMs",
     "We study masked language models (MLMs) and propose a measure of syntax acquisition in MLMs."),
])
def test_title_echo_negatives(extract, title: str, text: str) -> None:
    assert {x for x in _found(extract, text, title) if x[1] == P} == set()


@pytest.mark.parametrize("title, text", [
    # descriptive phrases of the title before a head noun, or ending in one, are not names
    ("Unsupervised Source Separation for Space Missions",
     "We propose an unsupervised source separation scheme for domains with limited data."),
    ("Robust Losses for Noisy Labels",
     "We design a novel robust loss based on our framework."),
    # a coined word of the title that the abstract only mentions is not proposed
    ("Local Filtering in MetaFormer is Sufficient",
     "We propose a convolution module. Transformers in the MetaFormer family use attention."),
    ("Bridging Gaps: A Multi-LiDARs Dataset for Segmentation",
     "We collect scans for segmentation. Scans from Multi-LiDARs differ, and each LiDAR has its own pattern."),
])
def test_title_echo_descriptive(extract, title: str, text: str) -> None:
    assert {x for x in _found(extract, text, title) if x[1] == P} == set()


def test_title_name_of_several_words_repeated_in_abstract(extract) -> None:
    found = _found(extract, "We propose Relay Painting, which paints in stages. Relay Painting is fast.",
                   "Relay Painting: Staged Image Synthesis")
    assert (M, P, "Relay Painting") in found


def test_title_topic_before_colon_is_not_a_name(extract) -> None:
    found = _found(extract, "We analyse fraud in payment systems with agent-based simulation.",
                   "Fraud Risk in Real-Time Payments: A Strategic Analysis")
    assert {x for x in found if x[1] == P} == set()


def test_echo_of_a_measure_is_not_a_method(extract) -> None:
    found = _found(extract, "We introduce feature gap tallies (FGTs), a new family of quality measures that "
                            "can be computed cheaply.",
                   "Feature Gap Tallies for Sample Quality")
    assert {x for x in found if x[1] == P} == set()


@pytest.mark.parametrize("text, expected", [
    # passive proposals, present tense
    ("Then Gradient Folding is proposed to reduce memory. Gradient Folding works.", {(M, P, "Gradient Folding")}),
    ("A method of Modulated Phase Blending (MPB) is proposed, with two branches.",
     {(M, P, "Modulated Phase Blending")}),
    # "put forth"
    ("We put forth a Context-based Token Modulation (CTM) mechanism for detectors.",
     {(M, P, "Context-based Token Modulation")}),
    # a markdown link around the name
    ("We develop [RainKit](https://github.com/example/RainKit), an innovative deraining algorithm.",
     {(M, P, "RainKit")}),
    # earlier work in the passive is not the paper's own
    ("Gradient Folding was proposed by earlier work to reduce memory.", set()),
])
def test_more_proposal_forms(extract, text: str, expected: set) -> None:
    assert _found(extract, text, TITLE) == expected


@pytest.mark.parametrize("text, expected", [
    # multi-word names listed after a dataset head, names before "test set"
    ("The datasets Ising Chain, Spin Glass and Potts Grid contain hard instances.",
     {(B, U, "Ising Chain"), (B, U, "Spin Glass"), (B, U, "Potts Grid")}),
    ("We randomly split the Reuters-21578 test set in two halves.", {(B, U, "Reuters-21578")}),
    ("We report accuracy on our held-out test set.", set()),
])
def test_dataset_shapes(extract, text: str, expected: set) -> None:
    assert _found(extract, text, TITLE) == expected


def test_called_name_with_a_citation_is_used(extract) -> None:
    found = _found(extract, "We study a mechanism termed copy-head (Smith et al., 2022) and how it emerges.", TITLE)
    assert {x for x in found if x[1] == P} == set()
