"""The bundled demo corpus (``kg/data/demo/``): raw-file facts from its EXPECTED.md.

These tests read the text files with a deliberately simple parser of their own (split on blank
lines, or one item a line), independent of ``kg.readers``, so that a reader bug cannot hide a
broken corpus and a corpus edit cannot silently invalidate the facts other tests rely on.
They also guard the rule that the demo is invented: no line equal to a line of the real seeds,
and no run of eight words shared with the seeds or the real conference abstracts.
"""

from __future__ import annotations

import itertools
import json
import re
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

CHROME_TITLE = "论文检索"
CHROME_HINT_PREFIX = "输入标题、作者或关键词"
FILES = ("000_demo.txt", "001_demo.txt", "002_demo.txt")
BLOCK_FILES = ("000_demo.txt", "001_demo.txt")
LINE_FILE = "002_demo.txt"

ENTRIES = {"000_demo.txt": 15, "001_demo.txt": 12, "002_demo.txt": 10}
CATEGORY_LINES = {"000_demo.txt": 12, "001_demo.txt": 11, "002_demo.txt": 8}
DISTINCT_PAPERS = 32
RELISTED = 5
SHINGLE = 8

# Papers per person after merging (keys folded: no accents, lower case).
AUTHOR_PAPERS = {
    "ingrid solheim": 4,
    **dict.fromkeys(
        ["adaeze okafor", "amara diallo", "elias brenner", "keiko arakawa",
         "kwame mensah-boateng", "marta oliveira", "mateus carvalho", "nadia haddad",
         "priya raghunathan", "rafael ibarra", "tomasz wierzbicki", "zoe lindqvist"], 3),
    **dict.fromkeys(
        ["arjun mehta", "bogdan petrescu", "dmitri volkov", "felix nakamura-grant", "haoyu lin",
         "hyun-woo cho", "lea fontaine", "sipho ndlovu", "valentina russo", "yusuf demirtas"], 2),
    **dict.fromkeys(
        ["chiara benedetti", "emeka nwosu", "grace whitfield", "henna virtanen", "henrik aalto",
         "olumide adeyemi", "omar farouk saleh", "ruth abernathy", "sun-hee park",
         "tariq al-mansouri"], 1),
}
GROUP_A = {"adaeze okafor", "tomasz wierzbicki", "haoyu lin", "zoe lindqvist",
           "priya raghunathan", "mateus carvalho"}
GROUP_B = {"marta oliveira", "kwame mensah-boateng", "ingrid solheim", "yusuf demirtas",
           "keiko arakawa", "rafael ibarra"}
BRIDGE = "nadia haddad"

# (abstract starts with, proposed name, cue that must occur in that abstract)
PROPOSED = [
    ("Serving long prompts", "AGTE", "We propose Anchor-Guided Token Eviction (AGTE), a"),
    ("Reports on KV cache", "PagerBench", "we release PagerBench, a benchmark of"),
    ("Sparse Mixture-of-Experts", "TideRouter", "we introduce **TideRouter**, a"),
    ("Token eviction and", "QuillKV", "dubbed QuillKV"),
    ("In federated learning, clients", "FedPR", "we propose Federated Prototype Reconciliation (FedPR)"),
    ("Models that predict", "WardShift", "We release WardShift, a benchmark of"),
    ("Continual learning with", "RFPC",
     r"We present \textbf{R}eplay-\textbf{F}ree \textbf{P}rompt \textbf{C}onsolidation (RFPC)"),
    ("When a decision rule", "MRTL", "We propose Manipulation-Robust Threshold Learning (MRTL)"),
    ("Graph clustering with", "CSGC", "We propose Contrastive Spectral Graph Clustering (CSGC)"),
    ("Methods for graph", "CiteMosaic", "We release CiteMosaic, a benchmark of"),
    ("Sampling from diffusion", "CadenceDiff", "We present CadenceDiff, a"),
    ("Proximal Policy Optimization", "CAS", "which we call Clipped Advantage Smoothing (CAS)"),
    ("Interactive demos", "DemoGuard", "We introduce DemoGuard, a"),
    ("Eviction policies", "EBCM", "We propose Entropy-Budgeted Cache Merging (EBCM)"),
    ("Parameter-efficient", "ESA", "a scheme named Expert-Sliced Adapters (ESA)"),
    ("Federated learning across", "DASM", "We propose Drift-Aware Server Momentum (DASM)"),
    ("Triage models", "TCD", "We propose Triage-Consistent Distillation (TCD)"),
    ("Theoretical work", "GamingBench", "We release GamingBench, a benchmark of"),
    ("Graph clustering is", "SCP", "We introduce Snapshot Consensus Pooling (SCP), a"),
    ("Large diffusion", "SparseDenoiser", "a design dubbed SparseDenoiser"),
    ("Reinforcement learning improves", "StepCritic", r"We propose \textbf{StepCritic}, a"),
    ("In prediction with", "LHSC", "We propose Lazy Hedge with Shifting Comparators (LHSC)"),
    ("Generative replay", "DreamReplay", "We introduce DreamReplay, a"),
    ("High scores", "PSP", "We propose Paraphrase-Shift Probing (PSP)"),
    ("Secure aggregation", "SSA", "We propose Shuffled Sketch Aggregation (SSA)"),
    ("Modularity maximisation", "GFMR", "We propose Gradient-Free Modularity Refinement (GFMR)"),
    ("Vision-language models", "FrameTrim", "We present FrameTrim, a"),
    ("Fine-tuning language", "SRFA", "We propose Split-Rank Federated Adapters (SRFA)"),
    ("Classifiers deployed", "CRM", "We propose Counterfactual Response Modeling (CRM)"),
    ("Arithmetic word", "ArithmeTrap", "We release ArithmeTrap, a benchmark of"),
]
NO_PROPOSAL = ("We study strategic classification", "We revisit beam search")

# Shared concepts: phrase -> abstract starts of every paper that contains it.
CONCEPTS = {
    "KV cache compression": {"Serving long prompts", "Reports on KV cache", "Eviction policies",
                             "Vision-language models"},
    "strategic classification": {"We study strategic classification", "When a decision rule",
                                 "Theoretical work", "In prediction with", "Classifiers deployed"},
    "graph clustering": {"Graph clustering with", "Methods for graph", "Graph clustering is",
                         "Modularity maximisation"},
    "continual learning": {"Models that predict", "Continual learning with",
                           "Federated learning across", "Generative replay"},
    "federated learning": {"In federated learning, clients", "Models that predict",
                           "Federated learning across", "Triage models", "Secure aggregation",
                           "Fine-tuning language"},
}
CITATIONS = {
    "(Okafor et al., 2024)": "Reports on KV cache",
    "(Oliveira et al., 2024)": "Models that predict",
    "(Brenner and Diallo, 2023)": "When a decision rule",
    "(Fontaine et al., 2024)": "Methods for graph",
    "(Marlow et al., 2022)": "Proximal Policy Optimization",
    "Okafor et al. (2024)": "Eviction policies",
    "(Diallo et al., 2024)": "Theoretical work",
    "(Cho and Russo, 2024)": "Large diffusion",
    "(Oliveira et al., 2024; Haddad et al., 2025)": "Fine-tuning language",
}


def _fold(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().strip()


def _is_chrome(line: str) -> bool:
    return line == CHROME_TITLE or line.startswith(CHROME_HINT_PREFIX)


def _is_category(line: str) -> bool:
    return line.count(" · ") == 1 and len(line) < 80 and not line.endswith(".")


def _text(demo_dir: Path, name: str) -> str:
    return (demo_dir / name).read_bytes().decode("utf-8")


def _block_entries(text: str) -> list[tuple[str | None, str, str]]:
    """(category, authors line, abstract) per entry of a blank-line page; asserts the grammar."""
    assert text.endswith("\n") and not text.endswith("\n\n"), "file must end with one newline"
    paras = [p for p in text[:-1].split("\n\n") if p.strip()]
    entries = []
    category = authors = None
    for p in paras:
        assert p.strip() == p and "\n" not in p, f"not a one-line paragraph: {p[:60]!r}"
        if _is_chrome(p):
            assert not entries and category is None, "site chrome after the first entry"
        elif _is_category(p):
            assert category is None and authors is None, f"two heads in a row before {p!r}"
            category = p
        elif not p.endswith("."):
            assert authors is None, f"two authors lines in a row: {p!r}"
            authors = p
        else:
            assert authors is not None, f"abstract without an authors line: {p[:60]!r}"
            entries.append((category, authors, p))
            category = authors = None
    assert category is None and authors is None, "file ends inside an entry"
    return entries


def _line_entries(text: str) -> list[tuple[str | None, str]]:
    """(category, abstract) per entry of the one-item-a-line page."""
    lines = text.split("\n")
    assert lines[-1] == "", "file must end with a newline"
    entries = []
    category = None
    for ln in lines[:-1]:
        assert ln.strip(), "blank line in the one-item-a-line layout"
        if _is_chrome(ln):
            assert not entries, "site chrome after the first entry"
        elif _is_category(ln):
            assert category is None, f"two category lines in a row: {ln!r}"
            category = ln
        else:
            assert ln.endswith(".") and len(ln.split()) > 100, f"not an abstract: {ln[:60]!r}"
            entries.append((category, ln))
            category = None
    return entries


def _authors(line: str) -> tuple[list[str], bool]:
    truncated = line.endswith(" 等")
    body = line[: -len(" 等")] if truncated else line
    return [a.strip() for a in body.split(",")], truncated


@pytest.fixture(scope="module")
def pages(demo_dir: Path) -> dict[str, list[tuple[str | None, str, str | None]]]:
    """file -> [(category, authors line or None, abstract)]."""
    out = {}
    for name in BLOCK_FILES:
        out[name] = _block_entries(_text(demo_dir, name))
    out[LINE_FILE] = [(c, None, a) for c, a in _line_entries(_text(demo_dir, LINE_FILE))]
    return out


@pytest.fixture(scope="module")
def papers(pages) -> dict[str, tuple[str | None, list[str], str]]:
    """abstract -> (category, authors, abstract), merged: the entry with authors wins."""
    merged: dict[str, tuple[str | None, list[str], str]] = {}
    for name in FILES:
        for category, authors, abstract in pages[name]:
            names = _authors(authors)[0] if authors else []
            if abstract not in merged or (names and not merged[abstract][1]):
                merged[abstract] = (category, names, abstract)
    return merged


def _abstract(papers, start: str) -> str:
    hits = [a for a in papers if a.startswith(start)]
    assert len(hits) == 1, f"{len(hits)} abstracts start with {start!r}"
    return hits[0]


def test_files_are_strict_utf8_with_site_chrome_first(demo_dir):
    for name in FILES:
        raw = (demo_dir / name).read_bytes()
        text = raw.decode("utf-8")  # raises on a non-UTF-8 byte
        assert not raw.startswith(b"\xef\xbb\xbf")
        assert "\r" not in text
        content = [ln for ln in text.split("\n") if ln.strip()]
        assert content[0] == CHROME_TITLE, name
        assert content[1].startswith(CHROME_HINT_PREFIX) and "32" in content[1], name
        assert sum(_is_chrome(ln) for ln in content) == 2, name


def test_entry_and_category_counts(pages):
    assert {n: len(e) for n, e in pages.items()} == ENTRIES
    assert {n: sum(c is not None for c, _, _ in e) for n, e in pages.items()} == CATEGORY_LINES
    assert all(a is not None for n in BLOCK_FILES for _, a, _ in pages[n])


def test_relisting_and_distinct_papers(pages, papers):
    first = {a for _, _, a in pages["000_demo.txt"]}
    second = {a for _, _, a in pages["001_demo.txt"]}
    third = [a for _, _, a in pages[LINE_FILE]]
    for name in FILES:
        abstracts = [a for _, _, a in pages[name]]
        assert len(set(abstracts)) == len(abstracts), f"an abstract repeats within {name}"
    assert len(first & set(third)) == RELISTED
    assert not second & (first | set(third))
    assert len(papers) == DISTINCT_PAPERS


def test_merge_cases_for_categories(pages, papers):
    by_file = {n: {a: c for c, _, a in pages[n]} for n in ("000_demo.txt", LINE_FILE)}
    d03 = _abstract(papers, "Sparse Mixture-of-Experts")
    d05 = _abstract(papers, "In federated learning, clients")
    d10 = _abstract(papers, "Graph clustering with")
    assert by_file["000_demo.txt"][d03] is None
    assert by_file[LINE_FILE][d03] == "Deep Learning · Large Language Models"
    assert by_file["000_demo.txt"][d05] == "General Machine Learning · Federated Learning"
    assert by_file[LINE_FILE][d05] is None
    assert by_file["000_demo.txt"][d10] == "Deep Learning · Graph Neural Networks"
    assert by_file[LINE_FILE][d10] == "General Machine Learning · Clustering"
    same = [a for a in by_file[LINE_FILE] if a in by_file["000_demo.txt"]
            and by_file[LINE_FILE][a] != by_file["000_demo.txt"][a]]
    assert sorted(same) == sorted([d03, d05, d10])


def test_abstract_lengths(papers):
    lengths = sorted(len(a.split()) for a in papers)
    assert lengths[0] < 60, "the one very short abstract"
    assert all(100 <= n <= 220 for n in lengths[1:])


def test_authors_and_their_paper_counts(pages, papers):
    raw_lines = [a for n in BLOCK_FILES for _, a, _ in pages[n]]
    assert sum(a.endswith(" 等") for a in raw_lines) == 1
    raw_names = [x for a in raw_lines for x in _authors(a)[0]]
    assert raw_names.count("MARTA OLIVEIRA") == 1
    assert raw_names.count("Zoe Lindqvist") == 1 and raw_names.count("Zoë Lindqvist") == 2
    counts = Counter(_fold(x) for _, names, _ in papers.values() for x in names)
    assert dict(counts) == AUTHOR_PAPERS
    assert sum(not names for _, names, _ in papers.values()) == DISTINCT_PAPERS - 27


def test_two_groups_joined_only_by_the_bridging_author(papers):
    teams = [{_fold(x) for x in names} for _, names, _ in papers.values() if names]

    def component(start: str, without: str | None) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            person = todo.pop()
            if person in seen:
                continue
            seen.add(person)
            todo.extend(p for t in teams if person in t for p in t if p != without)
        return seen

    assert component("adaeze okafor", None) == GROUP_A | GROUP_B | {BRIDGE}
    assert component("adaeze okafor", BRIDGE) - {BRIDGE} == GROUP_A
    assert component("ingrid solheim", BRIDGE) - {BRIDGE} == GROUP_B


@pytest.mark.parametrize(("start", "name", "cue"), PROPOSED, ids=[p[1] for p in PROPOSED])
def test_proposed_name_has_its_cue(papers, start, name, cue):
    text = _abstract(papers, start)
    assert cue in text
    assert re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)


def test_proposed_names_are_defined_once_and_theory_paper_names_none(papers):
    for start in NO_PROPOSAL:
        text = _abstract(papers, start)
        assert not re.search(r"\b(propose|introduce|present|release|dubbed|named)\b", text)
    cues = Counter()
    for _, _, cue in PROPOSED:
        cues[sum(cue in a for a in papers)] += 1
    assert cues == Counter({1: len(PROPOSED)})


@pytest.mark.parametrize("phrase", sorted(CONCEPTS))
def test_shared_concepts(papers, phrase):
    found = {a for a in papers if phrase.casefold() in a.casefold()}
    assert found == {_abstract(papers, s) for s in CONCEPTS[phrase]}


def test_citations_stand_where_expected(papers):
    for citation, start in CITATIONS.items():
        holders = [a for a in papers if citation in a]
        assert holders == [_abstract(papers, start)], citation


def test_special_characters_and_markup(demo_dir, papers):
    whole = "".join(_text(demo_dir, n) for n in FILES)
    assert whole.count("\u2011") == 1
    assert "CIFAR\u201110" in _abstract(papers, "Sampling from diffusion")
    assert whole.count("<img src=x onerror=alert(1)>") == 1
    assert "$O(\\sqrt{T})$" in _abstract(papers, "We study strategic classification")
    assert "**TideRouter**" in whole and "*likely*" in whole and "\\textbf{" in whole


# --- the corpus is invented: nothing copied from the real data ---------------------------

def _shingles(text: str, n: int = SHINGLE) -> set[str]:
    words = re.findall(r"\w+", _fold(text))
    return {" ".join(words[i:i + n]) for i in range(len(words) - n + 1)}


def _demo_content_lines(demo_dir: Path) -> list[str]:
    lines = itertools.chain.from_iterable(_text(demo_dir, n).split("\n") for n in FILES)
    return [ln for ln in lines if ln.strip() and not _is_chrome(ln) and not _is_category(ln)]


def test_no_line_equals_a_line_of_the_real_seeds(demo_dir, seeds_dir):
    seed_lines = set()
    for path in sorted(seeds_dir.glob("*.txt")):
        seed_lines |= {ln.strip() for ln in path.read_text(encoding="utf-8").split("\n")}
    assert len(seed_lines) > 50
    copied = [ln for ln in _demo_content_lines(demo_dir) if ln.strip() in seed_lines]
    assert copied == []


def test_no_eight_word_run_shared_with_real_abstracts(demo_dir, seeds_dir, shared_data):
    demo = set()
    for ln in _demo_content_lines(demo_dir):
        demo |= _shingles(ln)
    real_texts = [p.read_text(encoding="utf-8") for p in sorted(seeds_dir.glob("*.txt"))]
    for path in sorted((shared_data / "confpapers" / "jsonl").glob("*.jsonl")):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                abstract = json.loads(line).get("abstract") if line.strip() else None
                if abstract:
                    real_texts.append(abstract)
    assert len(real_texts) > 1000
    shared = set()
    for text in real_texts:
        shared |= demo & _shingles(text)
    assert shared == set()
