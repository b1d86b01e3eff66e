"""Session-17 consolidation rules: a paper's own type is not overruled by the corpus.

The same letters name a benchmark in one abstract and a method in others ("the MUSE benchmark"
against the MUSE embedding method). When a paper's own rules type a name, its type stands; the
type most papers give the name only types the mentions recognised from the corpus, and settles
a paper that typed the name both ways. (Invented sentences.)
"""

from __future__ import annotations

from extractors.pipeline import extract_records


def _types(out, name: str) -> list[set[str]]:
    return [{e.type.value for e in r.entities if e.name == name} for r in out]


def test_a_benchmark_in_a_list_of_benchmarks_stays_a_benchmark(rec, nlp) -> None:
    recs = [rec(f"We propose the Velvet Crane Optimizer (VECO) for sparse models {i}.", rid=f"m{i}")
            for i in range(3)]
    recs.append(rec("We report accuracy on benchmarks including SQuAD, DROP, and VECO.", rid="b"))
    out = extract_records(recs, nlp=nlp)
    assert _types(out, "Velvet Crane Optimizer")[:3] == [{"method"}] * 3
    assert {e.type.value for e in out[3].entities if "VECO" in {m.text for m in e.mentions}} == {"benchmark"}


def test_a_paper_typing_a_name_both_ways_gets_the_corpus_type(rec, nlp) -> None:
    recs = [rec(f"We evaluate on the QuokkaMix benchmark {i}.", rid=f"b{i}") for i in range(3)]
    recs.append(rec("The QuokkaMix algorithm fails, and on the QuokkaMix benchmark we lose.", rid="x"))
    out = extract_records(recs, nlp=nlp)
    assert _types(out, "QuokkaMix")[3] == {"benchmark"}
