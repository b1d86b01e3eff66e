"""Schwartz & Hearst abbreviation detection and the markup-free text view."""

from __future__ import annotations

import pytest
import spacy

from extractors.abbreviations import best_long_form, clean_view, emphasized_ranges, find_definitions


@pytest.mark.parametrize("text, expected", [
    ("We introduce the Error-Compensating Optimizer (ECO), which works.", [("ECO", "Error-Compensating Optimizer")]),
    ("we propose Strategic Prior-data Fitted Network (SPN), a framework",
     [("SPN", "Strategic Prior-data Fitted Network")]),
    ("Mixture-of-Experts (MoE) effectively scales model capacity.", [("MoE", "Mixture-of-Experts")]),
    ("Large Language Models (LLMs) are big.", [("LLMs", "Large Language Models")]),
    ("order-1 Knowledge-Limited Subgame Solving (1-KLSS) only considers", [("1-KLSS", "order-1 Knowledge-Limited Subgame Solving")]),
    # short form first, long form in parentheses
    ("We evaluate ECO (Error-Compensating Optimizer) on two tasks.", [("ECO", "Error-Compensating Optimizer")]),
    # markup inside the long form is skipped by the clean view
    (r"we propose a \textbf{Uni}fied Framework for \textbf{D}eep \textbf{H}ypergraph \textbf{C}lustering (Uni-DHC).",
     [("Uni-DHC", "Unified Framework for Deep Hypergraph Clustering")]),
    # not abbreviations: enumerations, lower-case asides, citations, no matching letters
    ("We show (i) a bound and (ii) a rate.", []),
    ("as shown before (Smith et al., 2020) for this.", []),
    ("the method (ours) is better than the baseline (XYZ).", []),
])
def test_find_definitions(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(d.short, d.long) for d in find_definitions(text)] == expected


def test_definition_offsets_point_into_the_original_text() -> None:
    text = r"we propose a \textbf{Uni}fied Framework for \textbf{D}eep Clustering (UDC). UDC wins."
    (d,) = find_definitions(text)
    assert text[d.short_start:d.short_end] == "UDC"
    # the span covers the markup that breaks the first word (GUIDELINES: "one span covering the markup")
    assert text[d.long_start:d.long_end].startswith(r"\textbf{Uni}fied")
    assert text[d.long_start:d.long_end].endswith("Clustering")


def test_best_long_form_first_letter_starts_a_word() -> None:
    assert best_long_form("GLU", "the Gated Linear Unit") == "Gated Linear Unit"
    assert best_long_form("AB", "cab") is None


def test_clean_view_maps_back() -> None:
    text = r"**Persona-Pruner** and \emph{X} $\alpha$"
    v = clean_view(text)
    assert v.text == "Persona-Pruner and X alpha"
    s, e = v.span_to_orig(0, len("Persona-Pruner"))
    assert text[s:e] == "Persona-Pruner"


def test_emphasized_ranges() -> None:
    text = r"We propose **Persona-Pruner** and *PolyILR*, see \textbf{Uni}."
    assert [text[s:e] for s, e in emphasized_ranges(text)] == ["Persona-Pruner", "PolyILR", "Uni"]


def test_component_sets_doc_extension_and_spans() -> None:
    nlp = spacy.blank("en")
    nlp.add_pipe("paperkg_abbreviations")
    doc = nlp("We introduce the Error-Compensating Optimizer (ECO). ECO converges.")
    assert doc._.abbreviations == {"ECO": "Error-Compensating Optimizer"}
    spans = doc.spans["paperkg_abbreviations"]
    assert [(s.text, s.label_, s._.paperkg_pair) for s in spans] == [
        ("Error-Compensating Optimizer", "LONG", "ECO"), ("ECO", "SHORT", "Error-Compensating Optimizer")]


def test_unbalanced_parentheses_do_not_break_detection() -> None:
    text = "((( Sparse Mixture of Experts (SMoE ) models ( and (GLU"
    defs = find_definitions(text)
    assert [(d.short, d.long) for d in defs] == [("SMoE", "Sparse Mixture of Experts")]


@pytest.mark.parametrize("text, expected", [
    # the acronym skips the name's first words: the Title-Case words before a connector belong to it
    ("We propose Robust Training with Calibrated Margin Abstention (CMA) for classifiers.",
     [("CMA", "Robust Training with Calibrated Margin Abstention")]),
    # a sentence's first words are capitalised anyway: no evidence
    ("Results with Deep Q-Network (DQN) are shown.", [("DQN", "Deep Q-Network")]),
    # a lower-case long form is not grown
    ("we use Sampling for fast kernel density (FKD) here", [("FKD", "fast kernel density")]),
    # capitals inside words mark the letters when they do not start words
    ("we build a tool called graPh trAnsformer for molEcules (PAE) for chemistry",
     [("PAE", "graPh trAnsformer for molEcules")]),
    # a short form written with math is read with the markup folded ("S$^2$AC" = S S A C), and
    # the long form is not grown over the sentence's capitalised first word
    (r"We propose Sein Soft Actor-Critic (S$^2$AC), an algorithm.", [("S2AC", "Sein Soft Actor-Critic")]),
    # the short form's first letter came from a function word: the long form starts one word earlier
    ("We define the Accuracy and Global Fairness Problem (AGFP) here.", [("AGFP", "Accuracy and Global Fairness Problem")]),
])
def test_long_form_grows_over_title_case_lead(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(d.short, d.long) for d in find_definitions(text)] == expected


def test_clean_view_reads_math_inside_names() -> None:
    text = r"ours: FLOW$^+$ and G-$\Delta$Net, not $\mathcal{O}(n)$"
    v = clean_view(text)
    assert v.text == r"ours: FLOW+ and G-DeltaNet, not \mathcalO(n)"
    i = v.text.index("G-DeltaNet")
    s, e = v.span_to_orig(i, i + len("G-DeltaNet"))
    assert text[s:e] == r"G-$\Delta$Net"


@pytest.mark.parametrize("text, long_text", [
    # markup opened before the first letter and closed inside the long form belongs to the span
    (r"a rule, $\underline{\text{l}}$ocal $\underline{\text{s}}$moothing (LS), works.",
     r"$\underline{\text{l}}$ocal $\underline{\text{s}}$moothing"),
    (r"We add **G**ated **R**esidual **U**pdates (GRU) to it.", r"**G**ated **R**esidual **U**pdates"),
    # emphasis around the whole long form stays outside it
    (r"We propose *Sparse Gated Routing (SGR)* for experts.", "Sparse Gated Routing"),
    (r"We propose *Sparse Gated Routing* (SGR) for experts.", "Sparse Gated Routing"),
])
def test_long_form_span_does_not_cut_markup(text: str, long_text: str) -> None:
    (d,) = find_definitions(text)
    assert text[d.long_start:d.long_end] == long_text


@pytest.mark.parametrize("text, expected", [
    (r"We study a new notion of $\textit{Masked Token Routing}$, dubbed MTR, for sparse models.",
     [("MTR", "Masked Token Routing")]),
    ("We introduce Multi-Scale Graph Transformers, dubbed MSGT, for molecules.",
     [("MSGT", "Multi-Scale Graph Transformers")]),
    ("The resulting Residual Gating Unit, termed RGU, is cheap.", [("RGU", "Residual Gating Unit")]),
    # letters inside one word do not spell a short form without parentheses
    ("We propose a method for Sparsification, dubbed SAS, which is fast.", []),
    # a lower-case description before 'dubbed' is not a long form
    ("We design a fast sampler, dubbed FS, for graphs.", []),
])
def test_definitions_with_a_naming_verb(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(d.short, d.long) for d in find_definitions(text)] == expected


@pytest.mark.parametrize("text, long_text", [
    ('We tackle it with "Sparse Task Routing via Prompts (STRP)", which learns.', "Sparse Task Routing via Prompts"),
    ("We derive what we call 'risk-seeking policy search' (RSPS) here.", "risk-seeking policy search"),
    ("We propose _Wide Token Mixing_ (WTM) for sequences.", "Wide Token Mixing"),
])
def test_quotes_and_underscores_around_a_long_form_stay_outside(text: str, long_text: str) -> None:
    (d,) = find_definitions(text)
    assert (d.long, text[d.long_start:d.long_end]) == (long_text, long_text)
