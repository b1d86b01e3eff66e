from __future__ import annotations

from kg.merge import merge_records
from kg.records import Category, Source, make_record

ABSTRACT = ("We study a made-up problem of sorting imaginary widgets by colour and weight, and we "
            "show that a greedy rule is optimal when widgets arrive in random order, with matching "
            "lower bounds for adversarial orders and an experiment on synthetic widgets.")


def rec(file: str, line: int, **kw):
    return make_record(source=Source(file, line, "test"), **kw)


def test_same_abstract_in_two_files_merges_and_keeps_authors_and_category():
    a = rec("000.txt", 5, abstract=ABSTRACT, authors=["Ada Lovelace", "Alan Turing"],
            category="Theory · Game Theory")
    b = rec("004.txt", 2, abstract=ABSTRACT)
    result = merge_records([b, a])  # read order must not matter
    assert len(result.records) == 1 and result.merged == 1
    m = result.records[0]
    assert m.authors == ("Ada Lovelace", "Alan Turing")
    assert m.category == Category("Theory", "Game Theory")
    assert [s.file for s in m.sources] == ["004.txt", "000.txt"]
    assert result.conflicts == []


def test_whitespace_and_unicode_variants_of_an_abstract_are_one_paper():
    variant = ABSTRACT.replace("made-up", "made\u2011up").replace(" and ", "  and\n")
    result = merge_records([rec("a", 1, abstract=ABSTRACT), rec("b", 1, abstract=variant)])
    assert len(result.records) == 1


def test_complete_author_list_beats_truncated_one():
    a = rec("a", 1, abstract=ABSTRACT, authors=["A One", "B Two"], authors_truncated=True)
    b = rec("b", 1, abstract=ABSTRACT, authors=["A One", "B Two", "C Three"])
    m = merge_records([a, b]).records[0]
    assert m.authors == ("A One", "B Two", "C Three") and not m.authors_truncated


def test_conflicts_are_reported_not_dropped():
    a = rec("a", 1, abstract=ABSTRACT, title="Widget Sorting", year=2024, category="Theory · Game Theory")
    b = rec("b", 7, abstract=ABSTRACT, title="Sorting Widgets Greedily", year=2023,
            category="Applications · Robotics")
    result = merge_records([a, b])
    m = result.records[0]
    assert m.title == "Widget Sorting" and m.year == 2024
    fields = {c.field: c for c in result.conflicts}
    assert set(fields) == {"title", "year", "category"}
    assert fields["year"].kept == 2024 and fields["year"].other == 2023
    assert fields["title"].sources == ("a:1", "b:7")


def test_doi_links_records_and_becomes_the_id():
    a = rec("a", 1, title="Widget Sorting", authors=["Ada Lovelace"])
    b = rec("b", 1, title="Widget sorting", authors=["Ada Lovelace"], ids={"doi": "https://doi.org/10.1234/ABC"})
    c = rec("c", 1, abstract=ABSTRACT, ids={"doi": "10.1234/abc"})
    result = merge_records([a, b, c])
    assert len(result.records) == 1
    m = result.records[0]
    assert m.id == "doi:10.1234/abc" and m.doi == "10.1234/abc" and m.abstract == ABSTRACT


def test_short_generic_abstracts_do_not_merge_different_papers():
    a = rec("a", 1, abstract="No abstract available.", title="Paper One")
    b = rec("b", 1, abstract="No abstract available.", title="Paper Two")
    assert len(merge_records([a, b]).records) == 2


def test_transitive_merge_keeps_first_read_order():
    x = rec("x", 1, abstract="Unrelated " * 30)
    a = rec("a", 1, title="Widget Sorting", authors=["Ada Lovelace"], ids={"arxiv": "2401.00001v2"})
    b = rec("b", 1, abstract=ABSTRACT, ids={"arxiv": "arXiv:2401.00001"})
    c = rec("c", 1, abstract=ABSTRACT, authors=["Ada Lovelace"])
    result = merge_records([x, a, b, c])
    assert [r.sources[0].file for r in result.records] == ["x", "a"]
    assert result.records[1].id == "arxiv:2401.00001"


def test_same_abstract_on_different_papers_is_kept_apart():
    # Sources sometimes attach one paper's abstract to another paper: different title, no
    # shared author. Those are two papers, counted, not merged.
    a = rec("a", 1, abstract=ABSTRACT, title="Widget Sorting", authors=["Ada Lovelace"])
    b = rec("a", 2, abstract=ABSTRACT, title="Protein Folding at Scale", authors=["Rosalind Franklin"])
    c = rec("a", 3, abstract=ABSTRACT, title="Widget sorting", authors=["Ada Lovelace", "Alan Turing"])
    result = merge_records([a, b, c])
    assert len(result.records) == 2 and result.kept_apart == 1
