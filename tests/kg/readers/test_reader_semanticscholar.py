"""Semantic Scholar Graph API JSON (the real Paper.json and hand-written shapes) and S2ORC."""

from __future__ import annotations

import json

import pytest

from kg.errors import InputError
from kg.readers import detect_format
from reader_helpers import FIXTURES, read_all as read, read_shared


@pytest.fixture(scope="module")
def turing(shared_data):
    path = shared_data / "citations" / "raw" / "s2-turing-ego" / "Paper.json"
    assert detect_format(path) == "semanticscholar"
    return read_shared(path)


def test_every_paper_of_the_ego_network(turing):
    assert len(turing) == 1009  # the paper, its 1000 citing papers, its 8 resolved references
    assert sum(r.abstract is not None for r in turing) == 780


def test_top_paper(turing, shared_data):
    top = turing[0]
    assert top.title == "Computing Machinery and Intelligence"
    assert top.id == "doi:10.1093/mind/lix.236.433"
    assert top.ids["s2"] == "2d5673caa9e6af3a7b82a43f19ee920992db07ad"
    assert top.ids["corpusid"] == "14636783"
    assert top.authors == ("A. Turing",) and top.author_ids == ("2262347",)
    assert top.year == 1950 and top.category.area == "Computer Science"
    assert len(top.references) == 8 and all(r.startswith("s2:") for r in top.references)


def test_citing_papers_point_to_the_top_paper(turing):
    top_ref = "s2:" + turing[0].ids["s2"]
    citing = [r for r in turing if top_ref in r.references]
    assert len(citing) == 1000
    cited = {"s2:" + r.ids["s2"] for r in turing}
    assert set(turing[0].references) <= cited  # every reference is a record of the file


def test_author_ids_align_with_names(turing, shared_data):
    raw = json.loads((shared_data / "citations" / "raw" / "s2-turing-ego" / "Paper.json").read_text(encoding="utf-8"))
    first = raw["citations"][0]
    rec = next(r for r in turing if r.ids["s2"] == first["paperId"])
    assert rec.author_ids == tuple(a["authorId"] for a in first["authors"])
    assert len(rec.authors) == len(first["authors"])


def test_agrees_with_derived_jsonl(turing, shared_data):
    derived = read_shared(shared_data / "citations" / "s2_turing_papers.jsonl")
    by_s2 = {r.ids["s2"]: r for r in turing}
    for d in derived:
        r = by_s2[d.ids["s2"]]
        assert (r.title, r.authors, r.abstract, r.year) == (d.title, d.authors, d.abstract, d.year)
        assert set(r.references) == set(d.references)


def test_search_page():
    recs, _ = read(FIXTURES / "s2_search.json")
    one, two = recs
    assert one.id == "arxiv:2301.00007" and one.author_ids == ("70000001", None)
    assert one.venue == "Invented Conference on Counting"  # publicationVenue when venue is empty
    assert one.category.area == "Computer Science"  # from s2FieldsOfStudy when fieldsOfStudy is null
    assert two.doi == "10.5555/sheep.2" and two.category.area == "Biology"


def test_batch_with_null_and_citations_page():
    recs, ctx = read(FIXTURES / "s2_batch.json")
    assert [r.title for r in recs] == ["A Batch Paper"] and not ctx.skipped
    recs, _ = read(FIXTURES / "s2_citations_page.json")
    assert [r.title for r in recs] == ["Citing by Wrapping"]


def test_s2orc_metadata(shared_data):
    path = shared_data / "citations" / "raw" / "s2orc-sample" / "metadata_sample.jsonl"
    assert detect_format(path) == "semanticscholar"
    recs = read_shared(path)
    assert len(recs) == 1000
    assert sum(r.abstract is not None for r in recs) == 488
    assert recs[0].authors == ("Pen'kov Ma", "Konstantinovskaia Ke", "Zhukova Sv")
    assert recs[0].ids["corpusid"] == "77490025" and recs[0].category.area == "Medicine"
    derived = read_shared(shared_data / "citations" / "s2orc_sample_papers.jsonl")
    assert [(r.title, r.authors, r.ids["s2orc"]) for r in recs] == [
        (r.title, r.authors, r.ids["s2orc"]) for r in derived]
    assert sum("doi" in r.ids for r in recs) > sum("doi" in r.ids for r in derived)  # raw is richer
    assert [set(r.references) for r in recs] == [set(r.references) for r in derived]


def test_paper_without_title_or_abstract_is_bad(tmp_path):
    p = tmp_path / "p.json"
    p.write_text('{"paperId": "x1", "title": null, "abstract": null, "authors": []}', encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read(p)
    assert str(exc.value) == f"{p}:1: Semantic Scholar paper 'x1': no title and no abstract"
