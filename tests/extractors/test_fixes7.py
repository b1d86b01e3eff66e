"""Fixes of the seventh round: corpus spreading, own names against the stoplist and the gazetteer,
curated data, LaTeX-written acronyms and inline HTML tags.

Every abstract here is invented for the test.
"""

from __future__ import annotations

import pytest

from extractors.consolidate import consolidate_corpus
from extractors.pipeline import RawExtraction
from kg.records import Entity, Mention, Record
from kg.schema import EntityType, Role


# ----------------------------------------------------------------------------- 1. corpus spreading
def _record(rid: str, abstract: str, title: str = "A study") -> Record:
    return Record(id=rid, title=title, abstract=abstract)


def _coiner(rid: str, short: str, long: str) -> tuple[Record, RawExtraction]:
    """A paper that coins ``long (short)`` and proposes it (as the pipeline reports it)."""
    text = f"We propose {long} ({short}), a new method for routing."
    s = text.index(long)
    a = text.index(f"({short})") + 1
    ent = Entity(EntityType.METHOD, long, Role.PROPOSED, (short,),
                 (Mention(s, s + len(long), long, "abbreviation"), Mention(a, a + len(short), short, "abbreviation")))
    return _record(rid, text), RawExtraction(rid, (ent,), definitions=((short, long, "abstract"),))


def _reader(rid: str, abstract: str, surface: str, title: str = "A study") -> tuple[Record, RawExtraction]:
    """A paper where ``surface`` occurs untyped (a candidate) at every place, title included."""
    cands = []
    for field, text in (("title", title), ("abstract", abstract)):
        start = text.find(surface)
        while start >= 0:
            cands.append((surface, start, start + len(surface), field))
            start = text.find(surface, start + 1)
    return _record(rid, abstract, title), RawExtraction(rid, candidates=tuple(cands))


def _spread(pairs: list[tuple[Record, RawExtraction]]) -> dict[str, list[tuple[str, str]]]:
    recs, raws = zip(*pairs)
    out = consolidate_corpus(list(recs), list(raws))
    return {r.id: [(m.text, m.field) for e in r.entities if e.type is not EntityType.CONCEPT
                   for m in e.mentions if m.rule == "corpus"] for r in out}


def test_a_coined_acronym_of_one_paper_spreads_where_it_is_used_as_a_name() -> None:
    got = _spread([
        _coiner("a", "XQR", "Cross Query Routing"),
        _reader("b", "Compared with XQR, our router halves the latency.", "XQR"),
    ])
    assert got["b"] == [("XQR", "abstract")]


@pytest.mark.parametrize("abstract, title", [
    ("Each step moves 40 XQR of data between the nodes.", "A study"),                   # a unit
    ("Code is at https://github.com/someone/XQR for everyone.", "A study"),            # a URL
    ("The proposed XQR reduces the cost of routing.", "A study"),                      # the paper's own
    ("We measure latency on XQR M300 accelerators.", "A study"),                       # a longer name
    ("Routing is studied here (XQR) with a new bound.", "A study"),                    # own definition
    ("Routing is hard in general.", "XQR Routing of Packets"),                         # the title only
])
def test_a_coined_acronym_of_one_paper_does_not_spread_without_evidence(abstract: str, title: str) -> None:
    got = _spread([_coiner("a", "XQR", "Cross Query Routing"), _reader("b", abstract, "XQR", title)])
    assert got["b"] == []


def test_the_long_form_in_the_paper_is_evidence_for_its_acronym() -> None:
    abstract = "Unlike cross query routing, the XQR Module of our system batches requests."
    got = _spread([_coiner("a", "XQR", "Cross Query Routing"), _reader("b", abstract, "XQR")])
    assert got["b"] == [("XQR", "abstract")]


def test_a_coined_spelling_spreads_only_as_the_coiner_writes_it() -> None:
    coiner = _record("a", "We propose NoiZTune, a finetuning recipe.")
    s = coiner.abstract.index("NoiZTune")
    raw = RawExtraction("a", (Entity(EntityType.METHOD, "NoiZTune", Role.PROPOSED, (),
                                     (Mention(s, s + 8, "NoiZTune", "propose"),)),))
    got = _spread([
        (coiner, raw),
        _reader("b", "Noise recipes such as NoiZTune (Doe et al., 2024) help.", "NoiZTune"),
        _reader("c", "Noise recipes: the NOIZTune variant stays untested.", "NOIZTune"),
    ])
    assert got["b"] == [("NoiZTune", "abstract")]
    assert got["c"] == []


def test_an_ordinary_compound_in_title_case_is_no_name() -> None:
    pairs = []
    for rid in ("a", "b"):  # two papers typed "Black-Box" as a method
        text = "Black-Box optimizers are compared."
        ent = Entity(EntityType.METHOD, "Black-Box", Role.USED, (), (Mention(0, 9, "Black-Box", "method_head"),))
        pairs.append((_record(rid, text), RawExtraction(rid, (ent,))))
    pairs.append(_reader("c", "We attack black-box models with few queries.", "Black-Box",
                         title="Black-Box Attacks with Few Queries"))
    pairs.append(_reader("d", "Many black-box methods exist; Black-Box Tuning is one.", "Black-Box"))
    got = _spread(pairs)
    assert got["c"] == [] and got["d"] == []


def test_known_names_still_spread_from_several_papers() -> None:
    pairs = []
    for rid in ("a", "b"):
        text = "We evaluate on CIFAR-10 images."
        s = text.index("CIFAR-10")
        ent = Entity(EntityType.BENCHMARK, "CIFAR-10", Role.USED, ("Cifar-10",),
                     (Mention(s, s + 8, "CIFAR-10", "gazetteer"),))
        pairs.append((_record(rid, text), RawExtraction(rid, (ent,))))
    pairs.append(_reader("c", "Results on Cifar-10 are strong.", "Cifar-10", title="Cifar-10 Results"))
    got = _spread(pairs)
    assert sorted(got["c"]) == [("Cifar-10", "abstract"), ("Cifar-10", "title")]


# ----------------------------------------------------------------------------- 1b. stoplist vs own name
def test_a_stoplisted_acronym_the_paper_introduces_is_its_own_name(extract) -> None:
    ents = extract("Annotating motion is costly. Hence, we introduce SAT, a simulated spatial aptitude "
                   "dataset of 175K questions. Models trained on SAT improve.")
    got = {(e.type.value, e.role.value, e.name) for e in ents}
    assert ("benchmark", "proposed", "SAT") in got


def test_a_stoplisted_acronym_is_still_no_name_elsewhere(extract) -> None:
    ents = extract("We speed up SAT solvers with a learned branching heuristic, and we use SAT instances.")
    assert not any(e.name == "SAT" for e in ents)


# ----------------------------------------------------------------------------- 2. known names, own release
@pytest.mark.parametrize("title, abstract, name", [
    ("Two OLMos", "We present OLMo 2, the next generation of our fully open language models. OLMo 2 is "
     "trained on more tokens.", "OLMo 2"),
    ("A report", "In this report, we introduce Qwen2.5, a comprehensive series of large language models.",
     "Qwen2.5"),
    ("Llama 2: Open Models", "In this work, we develop and release Llama 2, a collection of pretrained "
     "models ranging from 7 billion to 70 billion parameters.", "Llama 2"),
    ("A small model", "We release Mistral 7B, a language model engineered for efficiency. Mistral 7B beats "
     "larger models.", "Mistral 7B"),
])
def test_a_known_family_with_its_version_after_a_proposal_verb_is_proposed(extract, title, abstract, name) -> None:
    got = {(e.name, e.role.value) for e in extract(abstract, title)}
    assert (name, "proposed") in got


def test_known_names_used_or_compared_stay_used(extract) -> None:
    ents = extract("We fine-tune Llama 2 7B and compare it with OLMo 2 on GSM8K. We present GPT-4 results "
                   "and a new decoding method evaluated with Mistral 7B.")
    assert {e.role.value for e in ents} == {"used"}


# ----------------------------------------------------------------------------- 3. mistyped data
def test_mc2r_is_a_benchmark() -> None:
    from extractors.gazetteer import load_gazetteer

    gaz = load_gazetteer()
    for form in ("MC2R", "Multiple Complex Compositional Reasoning"):
        entry = gaz.lookup(form)
        assert entry is not None and entry.type == "benchmark" and entry.name == "MC2R"


def test_mc2r_used_in_an_abstract_is_a_used_benchmark(extract) -> None:
    got = {(e.type.value, e.role.value, e.name) for e in extract(
        "Our regression solver reaches state-of-the-art accuracy on MC2R and on two other visual reasoning tasks.")}
    assert ("benchmark", "used", "MC2R") in got


def test_a_known_benchmark_its_own_paper_develops_is_proposed(extract) -> None:
    ents = extract("Visual reasoning models match appearances. We hence develop a challenging benchmark, Multiple "
                   "Complex Compositional Reasoning (MC2R), composed of diverse rules. Models fail on MC2R.")
    (e,) = [e for e in ents if "MC2R" in (e.name, *e.aliases)]
    assert (e.type.value, e.role.value) == ("benchmark", "proposed")


# ----------------------------------------------------------------------------- 4. curated duplicates
_LINES = [
    "method\tMLP\tMLPs|multilayer perceptron|multi-layer perceptron",
    "method\tLanczos algorithm\tLanczos",
    "method\tmultilayer perceptron\tmultilayer perceptrons|MLPs",
    "method\tLanczos method\t",
    "method\tNeural ODE\t",
    "method\tneural ODE\tneural ODEs",
    "method\tPointNet\t",
    "method\tPointNet++\t",
]


def _names(lines: list[str]) -> set[str]:
    from extractors.build_gazetteer import curated_entries

    return {e["name"] for e in curated_entries(lines)}


def test_duplicate_curated_lines_merge_into_one_entry_with_a_fixed_name() -> None:
    assert _names(_LINES) == {"MLP", "Lanczos algorithm", "neural ODE", "PointNet", "PointNet++"}


@pytest.mark.parametrize("order", [list(range(8)), list(range(7, -1, -1)), [2, 3, 5, 0, 1, 4, 7, 6]])
def test_the_canonical_name_does_not_depend_on_line_order(order: list[int]) -> None:
    names = _names([_LINES[i] for i in order])
    assert names == {"MLP", "Lanczos algorithm", "neural ODE", "PointNet", "PointNet++"}


def test_unrelated_lines_do_not_change_a_canonical_name() -> None:
    extra = ["method\tMLP-Mixer\t", "method\tmultilayer network\tMLN", "benchmark\tMLPerf\t",
             "method\tLanczos quadrature\t", "method\tneural SDE\tneural SDEs"]
    assert _names(_LINES) <= _names(extra + _LINES) and _names(_LINES) <= _names(_LINES + extra)


def test_shipped_gazetteer_has_one_entry_for_mlp_and_for_lanczos() -> None:
    from extractors.gazetteer import load_gazetteer

    gaz = load_gazetteer()
    assert {gaz.lookup(f).name for f in ("MLP", "MLPs", "multilayer perceptron", "multi-layer perceptron")} == {"MLP"}
    assert {gaz.lookup(f).name for f in ("Lanczos", "Lanczos method", "Lanczos algorithm")} == {"Lanczos algorithm"}


# ----------------------------------------------------------------------------- 5. acronyms written with math
@pytest.mark.parametrize("text, short, long, written", [
    (r"We propose Sein Soft Actor-Critic (S$^2$AC), an algorithm.", "S2AC", "Sein Soft Actor-Critic", "S$^2$AC"),
    (r"We present Self-Supervised Semantic Segmentation (S$^3$), a method.", "S3",
     "Self-Supervised Semantic Segmentation", "S$^3$"),  # up to its closing "$" (round 8)
    (r"We propose Token-Level Adaptive Routing ($\text{TLAR}$), a router.", "TLAR", "Token-Level Adaptive Routing",
     "TLAR"),
])
def test_an_acronym_written_with_math_is_linked_to_its_long_form(text, short, long, written) -> None:
    from extractors.abbreviations import find_definitions

    (d,) = find_definitions(text)
    assert (d.short, d.long, text[d.short_start:d.short_end], text[d.long_start:d.long_end]) == (
        short, long, written, long)


@pytest.mark.parametrize("text", [
    r"The Lipschitz constant (L$^2$) of the map is bounded.",          # no long form spells L L
    r"We propose Sparse Sinkhorn Attention ($\text{S}^3\text{A}$), a layer.",  # S S S A: one S short
])
def test_math_in_parentheses_without_a_matching_long_form_links_nothing(text) -> None:
    from extractors.abbreviations import find_definitions

    assert find_definitions(text) == []


def test_a_math_acronym_and_its_long_form_are_one_proposed_method(extract) -> None:
    ents = extract(r"We propose Sein Soft Actor-Critic (S$^2$AC), an algorithm for energy-based policies. "
                   r"S$^2$AC beats SAC on MuJoCo.")
    (e,) = [e for e in ents if e.name == "Sein Soft Actor-Critic"]
    assert e.role.value == "proposed" and "S2AC" in e.aliases
    assert [m.text for m in e.mentions] == ["Sein Soft Actor-Critic", "S$^2$AC", "S$^2$AC"]


# ----------------------------------------------------------------------------- 6. inline HTML tags
def test_names_inside_inline_html_tags_are_found_with_original_offsets(rec, nlp) -> None:
    from extractors.pipeline import extract_records

    text = ("We fine-tune <b>BERT</b> and <i>RoBERTa</i> on <b>GLUE</b>; our <em>FlashRoute</em> method "
            "beats <i>ResNet-50</i>.")
    (out,) = extract_records([rec(text)], nlp=nlp)
    got = {}
    for e in out.entities:
        if e.type.value == "concept":
            continue
        assert "<" not in e.name and not any("<" in a for a in e.aliases)
        for m in e.mentions:
            assert out.abstract[m.start:m.end] == m.text and "<" not in m.text
        got[e.name] = (e.type.value, e.role.value)
    assert got == {"BERT": ("method", "used"), "RoBERTa": ("method", "used"), "GLUE": ("benchmark", "used"),
                   "FlashRoute": ("method", "proposed"), "ResNet-50": ("method", "used")}


def test_html_tags_split_off_tokens_but_keep_the_text(nlp) -> None:
    text = "We fine-tune <b>BERT</b> on H<sub>2</sub>O data."
    assert "BERT</b" in [t.text for t in nlp.make_doc(text)]  # the tokenizer stays spaCy's
    doc = nlp(text)
    assert doc.text == text
    assert "BERT" in [t.text for t in doc] and not any(t.text.startswith("BERT<") or t.text.endswith(">BERT")
                                                       for t in doc)
