"""Session-17 benchmark typing: the acronym of a task or problem class before a data head noun is
no dataset name ("two AVR datasets" are datasets *for* abstract visual reasoning).

Every sentence is written for this test; none is copied from an abstract.
"""

from __future__ import annotations

import pytest


def _names(entities) -> set[str]:
    return {e.name for e in entities} | {m.text for e in entities for m in e.mentions}


@pytest.mark.parametrize("text, bad", [
    # a Title-Case long form ending in a gerund or a task noun names an activity
    ("Sparse Shape Reasoning (SSR) is hard for vision models. We evaluate on three SSR datasets and "
     "beat all baselines.", {"SSR", "Sparse Shape Reasoning"}),
    ("Underwater Sound Tracking (UST) helps ecologists. We release a tool for UST datasets.",
     {"UST", "Underwater Sound Tracking"}),
    # a problem class, its acronym written in the plural where it is defined
    ("Mixed Boolean Programs (MBPs) model many puzzles. Our solver wins on four MBP benchmarks.",
     {"MBP", "MBPs", "Mixed Boolean Programs"}),
    # an acronym glued to a modifier before the head noun
    ("Cross-Lingual Story Reasoning (CLSR) is new. We present an CLSR-dedicated dataset for it.",
     {"CLSR", "Cross-Lingual Story Reasoning"}),
])
def test_task_acronym_before_data_head_is_no_benchmark(extract, text, bad):
    assert not _names(extract(text)) & bad


@pytest.mark.parametrize("text, name", [
    # a long form that names a thing keeps its acronym a dataset before the head noun
    ("The Harbour Ship Photos (HSP) collection is large. We report results on the HSP dataset.", "HSP"),
])
def test_thing_acronym_before_data_head_stays_benchmark(extract, text, name):
    assert name in {m.text for e in extract(text) if e.type.value == "benchmark" for m in e.mentions}


@pytest.mark.parametrize("text, name, role", [
    # quotes of any style around a name right before a data head noun mark a data set's name
    ("Our agent explores well on the tough 'ReefRun' environment and beats all baselines.", "ReefRun", "used"),
    ("We test the fit on the classic ‘Lorenzo’ dataset of two-dimensional systems.", "Lorenzo", "used"),
    ("To evaluate such agents, we design a new “K9” suite of eight simulated tasks.", "K9", "proposed"),
])
def test_quoted_name_before_data_head_is_benchmark(extract, text, name, role):
    got = {(e.name, e.type.value, e.role.value) for e in extract(text)}
    assert (name, "benchmark", role) in got


def test_quoted_modifier_before_data_head_is_no_name(extract):
    # a quoted hyphenated modifier ending in a lower-case part is no data set
    names = {e.name for e in extract("Our model wins on the recently proposed \"Tree-friendly\" benchmark.")}
    assert not names & {"Tree-friendly", "Tree"}


@pytest.mark.parametrize("text, name, bad", [
    # a language adjective before a coined data set name marks the subset, not the name
    ("We extend the English QRSQ dataset to three more languages.", "QRSQ", "English QRSQ"),
    ("Our suite adapts the English-only LongMix benchmark with seven new tasks.", "LongMix", "English-only LongMix"),
])
def test_language_word_before_coined_dataset_is_not_in_the_name(extract, text, name, bad):
    ents = extract(text)
    names = {e.name for e in ents}
    assert name in names and bad not in names


def test_lower_case_paradigm_acronym_before_data_head_is_no_benchmark(extract):
    # "a ... (ABC) dataset" whose lower-case long form is a paradigm or task: data for it, unnamed
    text = "We build a new supervised fine-tuning (SFT) dataset for coding. Our models use only SFT."
    names = {e.name for e in extract(text)}
    assert not names & {"supervised fine-tuning", "SFT"}


def test_lower_case_long_form_of_a_thing_before_data_head_stays_benchmark(extract):
    text = "We release the basin attributes for large-sample hydrology (BALSH) dataset."
    assert "BALSH" in {m.text for e in extract(text) if e.type.value == "benchmark" for m in e.mentions}


def test_acronym_also_written_before_tasks_is_no_dataset_name(extract):
    # the abstract writes "QZR tasks" too: "QZR benchmarks" are data sets of that task
    text = "Prior encoders do well on QZR tasks. Yet they fall short on QZR benchmarks by a wide margin."
    assert "QZR" not in {e.name for e in extract(text)}


def test_known_benchmark_also_written_before_tasks_stays(extract):
    text = "We train on the SQuAD dataset and report results on SQuAD tasks."
    assert "SQuAD" in {e.name for e in extract(text) if e.type.value == "benchmark"}


@pytest.mark.parametrize("text, bad", [
    # "the task of X" names a task: "the first X benchmark dataset" is a data set for it
    ("We define the task of P2Q-ICL and present FooSet, the first P2Q-ICL benchmark dataset.", "P2Q-ICL"),
    # a QA-shaped acronym the abstract calls a research area is a task, not a QA data set
    ("Interest has turned to answering questions on charts (Chart-VQA). Yet Chart-VQA research is narrow.",
     "Chart-VQA"),
])
def test_task_named_by_its_field_is_no_benchmark(extract, text, bad):
    assert bad not in {e.name for e in extract(text)}


def test_qa_shaped_names_before_tasks_stay_benchmarks(extract):
    # "X tasks" alone is no field cue for a QA-shaped name: a QA data set has tasks
    names = {e.name for e in extract("We evaluate on ScienceQA and HotpotQA tasks.") if e.type.value == "benchmark"}
    assert {"ScienceQA", "HotpotQA"} <= names


def test_title_name_with_a_method_head_is_a_method_whatever_the_subtitle(extract):
    title = "Sparse Gating Networks: Deep Learning for Tabular Datasets"
    abstract = ("Tabular data resist deep models. Here, we introduce Sparse Gating Networks (SGNs), "
                "which tune one weight per input. SGNs match boosted trees on many tables.")
    ents = extract(abstract, title)
    typed = {e.name: e.type.value for e in ents}
    assert typed.get("Sparse Gating Networks") == "method"


def test_title_subtitle_data_head_after_preposition_gives_no_benchmark(extract):
    ents = extract("We present Quill, which indexes text in one pass. Quill is fast.",
                   "Quill: Fast Search over Large Corpora")
    assert {e.name: e.type.value for e in ents}.get("Quill") == "method"



@pytest.mark.parametrize("text, name, role", [
    # "the NAME <task words> benchmark": a coined name, the task in lower case, a singular data head
    ("Our models are competitive on the widely adopted ZeQR text retrieval benchmark, offering range.",
     "ZeQR", "used"),
    ("We test on the Quoxel-2 spatial reasoning benchmark and report gains.", "Quoxel-2", "used"),
    ("We introduce the FooBar question answering dataset with 5k items.", "FooBar", "proposed"),
])
def test_coined_name_before_task_words_and_data_head_is_benchmark(extract, text, name, role):
    got = {(e.name, e.type.value, e.role.value) for e in extract(text)}
    assert (name, "benchmark", role) in got


@pytest.mark.parametrize("text, bad", [
    # a task's acronym, a language, a participle or an evaluative word between name and head: no name
    ("Prior systems do well on KQX tasks. We build the KQX retrieval benchmark anew.", "KQX"),
    ("We train on the English web text corpus from many sites.", "English"),
])
def test_task_words_rule_leaves_non_names(extract, text, bad):
    assert bad not in {e.name for e in extract(text)}
