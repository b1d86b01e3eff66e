"""Round 3: causes of errors found on a fresh split (test5), fixed as general rules.

Every sentence is invented for this file (no gold abstract is copied); each case stands for a
cause that recurs on unseen abstracts, not for one paper: a notice label in emphasis, a name the
abstract gives to a metric, a defined name ending in a known benchmark, a name with a "+"
superscript or a math font, a name joined to the tool it is built with. Negative cases guard
the precision of the same rules (the tests named "..._stays" / "..._do_not_remove_it" guard
precision and pass without the new rules, except where a shared cause is noted).
"""

from __future__ import annotations

import pytest

P, U = "proposed", "used"
M, B = "method", "benchmark"
TITLE = "Fast Widgets for Everyone"


def _mentions(extract, text: str, name: str, title: str | None = TITLE) -> list[str]:
    (e,) = [e for e in extract(text, title) if e.name == name]
    return [m.text for m in e.mentions if m.field == "abstract"]


# ------------------------------------------------------------------ notices are not names
@pytest.mark.parametrize("text", [
    "We propose TileNet, a model for maps. Code is online.**CAUTION**: This paper contains offensive text.",
    "We study jailbreaks of chat models with RedBench. **NOTE**: Some examples below are harmful.",
])
def test_an_emphasised_notice_label_is_no_name(names_in, text: str) -> None:
    assert not {n for n in names_in(text) if n.upper() in ("CAUTION", "NOTE")}


def test_an_emphasised_name_before_a_colon_and_a_description_stays(found_in) -> None:
    text = r"We propose \textbf{FLAIR}: a framework that repairs bugs in programs."
    assert (M, P, "FLAIR") in found_in(text)


# ------------------------------------------------------------------ metrics are neither type
@pytest.mark.parametrize("text, title", [
    ("We collect human ratings of stories. We then develop an automatic metric, PlotScore, that counts "
     "plot holes. PlotScore agrees with the raters.", "PlotScore: Judging Long Stories"),
    ("To rate answers we propose a novel criterion called FairLens, which weighs groups equally.", TITLE),
])
def test_a_name_given_to_a_metric_is_no_entity(found_in, text: str, title: str) -> None:
    assert found_in(text, title) == set()


@pytest.mark.parametrize("text, name", [
    # "score-based" is a modifier, not the head noun "score"
    ("We propose TideFlow, a score-based model for tides. TideFlow is fast.", "TideFlow"),
    # "the metric scores" after the name: the name is not called a metric
    ("We propose a novel TuneGAN approach. Based on TuneGAN, the metric scores of outputs can be set.", "TuneGAN"),
])
def test_metric_words_near_a_method_do_not_remove_it(found_in, text: str, name: str) -> None:
    assert (M, P, name) in found_in(text)


# ------------------------------------------------------------------ a defined variant of a known benchmark
def test_a_defined_long_form_ending_in_a_known_benchmark_is_a_benchmark(found_in) -> None:
    text = ("We test on the Noisy Speech Commands (NSC) and the Clean Speech Commands v2.1 (CSC) sets, "
            "and compare with prior results on NSC.")
    found = found_in(text)
    assert (B, U, "Noisy Speech Commands") in found
    assert (B, U, "Clean Speech Commands v2.1") in found
    assert not any(name == "Speech Commands" for _t, _r, name in found)


def test_a_long_form_grown_over_another_name_is_no_benchmark_variant(found_in) -> None:
    text = "We lower the perplexity of a ternary LSTM on Penn Tree Bank (PTB) corpus by ten points."
    assert not any("LSTM on" in name for _t, _r, name in found_in(text))


# ------------------------------------------------------------------ markup inside names
def test_a_plus_superscript_makes_a_second_proposed_name(extract, found_in) -> None:
    text = (r"We introduce GraphLite and GraphLite$^+$ for fast inference. GraphLite$^+$ adds "
            r"correlations that GraphLite lacks.")
    found = found_in(text)
    assert (M, P, "GraphLite") in found
    assert (M, P, "GraphLite+") in found
    assert _mentions(extract, text, "GraphLite+") == [r"GraphLite$^+$", r"GraphLite$^+$"]


def test_a_name_written_with_a_math_font_is_one_span(extract) -> None:
    text = (r"We propose a novel sampling algorithm, $\mathbb{S}^3$ Sampling, that walks a graph. "
            r"Then $\mathbb{S}^3$ Sampling picks diverse items.")
    (e,) = [e for e in extract(text, TITLE) if e.role.value == P]
    assert [m.text for m in e.mentions] == [r"$\mathbb{S}^3$ Sampling", r"$\mathbb{S}^3$ Sampling"]


def test_an_acronym_written_with_a_math_font_keeps_its_markup(extract) -> None:
    text = r"We propose Kernel Evidence Estimation ($\mathbb{K}$-EE), a novel method for uncertainty."
    (e,) = [e for e in extract(text, TITLE) if e.role.value == P]
    assert r"$\mathbb{K}$-EE" in [m.text for m in e.mentions]


# ------------------------------------------------------------------ a name and the tool it is built with
@pytest.mark.parametrize("text, own, tool", [
    ("We design WebBot with Flan-T5, for grounded code generation, and a planner for long pages.", "WebBot", "Flan-T5"),
    ("We build ChartPilot on GPT-4 to read plots.", "ChartPilot", "GPT-4"),
])
def test_a_coined_name_is_cut_before_the_tool_it_uses(found_in, text: str, own: str, tool: str) -> None:
    found = found_in(text)
    assert (M, P, own) in found
    assert (M, U, tool) in found


def test_a_title_case_name_with_a_connector_stays_whole(found_in) -> None:
    assert (M, P, "Learning to Share") in found_in("We propose Learning to Share, a method for teams.")


def test_a_font_command_name_after_a_naming_cue_keeps_its_closing_markup(extract) -> None:
    text = r"We propose a novel estimator called $\mathsf{LOOP}$, which reuses samples. Then $\mathsf{LOOP}$ is fast."
    (e,) = [e for e in extract(text, TITLE) if e.role.value == P]
    assert [m.text for m in e.mentions] == [r"$\mathsf{LOOP}$", r"$\mathsf{LOOP}$"]


# ------------------------------------------------------------------ a name after the proposal's head noun
@pytest.mark.parametrize("text, expected", [
    # two all-capitals words, then a participle clause
    ("We also introduce a new detection method TOP-K RANK based on a simple idea. TOP-K RANK needs no training.",
     (M, P, "TOP-K RANK")),
    # a relative clause with "whose"
    ("We present a scalable sampler QuickHop whose cost is linear in the graph size.", (M, P, "QuickHop")),
])
def test_a_name_right_after_the_head_noun_of_a_proposal(found_in, text: str, expected: tuple[str, str, str]) -> None:
    assert expected in found_in(text)


# ------------------------------------------------------------------ lists after a colon
def test_names_listed_after_a_colon_closing_a_proposal_head(found_in) -> None:
    text = ("We propose two complementary frameworks for faster sampling in trained models: Twin Integrators "
            "and Split Integrators. Twin integrators generalize DDIM.")
    found = found_in(text)
    assert {(M, P, "Twin Integrators"), (M, P, "Split Integrators"), (M, U, "DDIM")} <= found


def test_three_new_benchmarks_after_a_colon_stay_proposed(found_in) -> None:
    text = "We introduce three new benchmarks: CodeHop, MathHop and LogicHop."
    assert {(B, P, "CodeHop"), (B, P, "MathHop"), (B, P, "LogicHop")} <= found_in(text)


@pytest.mark.parametrize("text", [
    "We propose two methods for this problem: a greedy one and a sampling one.",
    "We propose two models for vision: GPT-4 and Llama 2.",  # known names after a colon stay used
])
def test_a_colon_list_of_descriptions_or_known_names_is_not_proposed(found_in, text: str) -> None:
    assert not {n for _t, r, n in found_in(text) if r == P}


# ------------------------------------------------------------------ one coined name after a data head
def test_one_coined_name_after_a_singular_data_head_is_a_benchmark(found_in) -> None:
    text = "We verify it on the string transformation dataset SyGuS. Our method solves most of SyGuS."
    assert (B, U, "SyGuS") in found_in(text)


@pytest.mark.parametrize("text", [
    "We split the dataset D1 into two halves.",
    "We train on the benchmark tasks and report scores.",
])
def test_a_symbol_or_plain_word_after_a_data_head_is_no_benchmark(found_in, text: str) -> None:
    assert found_in(text) == set()


# ------------------------------------------------------------------ versions and named variants of known names
def test_a_version_number_after_a_known_model_is_part_of_its_name(names_in) -> None:
    text = ("We validate the method with PaLM 2-(S, M, L) and CLIP models. Gemini 1.5 and GPT-4 do well, "
            "and we repeat each CLIP run 3 times.")
    names = names_in(text)
    assert {"PaLM 2", "Gemini 1.5", "CLIP", "GPT-4"} <= names
    assert "PaLM" not in names and "CLIP 3" not in names


@pytest.mark.parametrize("text, longer, shorter", [
    ("Our method beats baselines like Erased Stable Diffusion on unsafe prompts.", "Erased Stable Diffusion",
     "Stable Diffusion"),
    ("Applied to Phase Space Langevin Diffusion on CIFAR-10, our sampler is fast.", "Phase Space Langevin Diffusion",
     "Langevin diffusion"),
])
def test_capitalised_words_before_a_known_name_make_a_named_variant(names_in, text: str, longer: str,
                                                                  shorter: str) -> None:
    names = names_in(text)
    assert longer in names and shorter not in names


@pytest.mark.parametrize("text, name", [
    ("Traditional PCA methods treat each view alike.", "PCA"),  # an evaluative word
    ("Results. While GPT-4 is strong, it is slow.", "GPT-4"),  # a sentence start
    ("We edit Stable Diffusion models for safety.", "Stable Diffusion"),  # another known name starts there
    ("We motivate the beta-TCVAE (Total Correlation Variational Autoencoder) objective.", "VAE"),  # a longer run
])
def test_capitalised_words_that_do_not_name_a_variant(names_in, text: str, name: str) -> None:
    assert name in names_in(text)


# ------------------------------------------------------------------ a mechanism modifier before a known algorithm
@pytest.mark.parametrize("text, variant, base", [
    ("We add lower bounds to the linearized Laplace approximation of the marginal likelihood.",
     "linearized Laplace approximation", "Laplace approximation"),
    ("The analysis also covers implicit OMD, with the same cost.", "implicit OMD", "online mirror descent"),
    ("The recently developed forward-looking GFlowNet reparameterizes the flows.", "forward-looking GFlowNet",
     "GFlowNet"),
])
def test_a_mechanism_modifier_names_a_variant_of_a_known_algorithm(names_in, text: str, variant: str,
                                                                   base: str) -> None:
    names = names_in(text)
    assert variant in names and base not in names


@pytest.mark.parametrize("text, name", [
    ("We train conditional diffusion models on faces.", "diffusion model"),  # a setting, not a mechanism
    ("A simple gradient descent scheme suffices.", "gradient descent"),  # an evaluative word
])
def test_other_modifiers_leave_the_known_name(names_in, text: str, name: str) -> None:
    assert name in names_in(text)


def test_a_plural_of_a_known_multiword_name_is_the_same_entity(extract) -> None:
    text = "We attribute outputs with Shapley values. Computing one Shapley value is costly."
    (e,) = [e for e in extract(text, TITLE) if e.name.lower().startswith("shapley")]
    assert [m.text for m in e.mentions] == ["Shapley values", "Shapley value"]


# ------------------------------------------------------------------ coordinated definitions share a type
def test_a_defined_name_coordinated_with_a_defined_benchmark_is_a_benchmark(found_in) -> None:
    text = ("We show in Pixel Herding World (PHW) and the Coral Reef Navigation Benchmark (CRNB) that the agent "
            "learns fast. On PHW it needs fewer calls.")
    found = found_in(text)
    assert (B, U, "Pixel Herding World") in found and (B, U, "Coral Reef Navigation Benchmark") in found


def test_coordinated_definitions_without_a_benchmark_stay_untyped(found_in) -> None:
    text = "We relate Pixel Herding World (PHW) and Coral Reef Navigation (CRN) to each other."
    assert found_in(text) == set()


# ------------------------------------------------------------------ a known name the authors give themselves
def test_a_known_name_the_authors_dub_is_their_own(found_in) -> None:
    text = "We collect explanations for every pair, a corpus which we call e-SNLI, and train models on it."
    assert (B, P, "e-SNLI") in found_in(text)


def test_a_known_name_dubbed_by_others_stays_used(found_in) -> None:
    text = "Prior work built a corpus that they dubbed e-SNLI. We train on e-SNLI."
    assert (B, U, "e-SNLI") in found_in(text)


def test_an_organisation_coordinated_with_a_benchmark_stays_untyped(found_in) -> None:
    text = ("We use patents from the Coral Reef Navigation Benchmark (CRNB) and the Nordic Patent Office (NPO) "
            "as two collections.")
    assert not any("Office" in name for _t, _r, name in found_in(text))
