"""JSON Lines / JSON in paperkg's own schema and the derived confpapers/citations layouts."""

from __future__ import annotations

import json
import pytest

from kg.errors import InputError
from kg.readers import detect_format
from kg.readers.jsonl import split_prefixed_id
from kg.records import Source, make_record
from reader_helpers import FIXTURES, read_all as read, read_shared

CONF = ("colm2024", "colm2025", "iclr2024", "icml2019", "icml2023", "icml2024_titles_only",
        "icml2025_titles_only", "ijcai2024", "neurips2018")
#: Paper counts of the derived files, from confpapers/SOURCE.md.
CONF_COUNTS = {"iclr2024": 2271, "icml2023": 1857, "icml2019": 773, "neurips2018": 1008,
               "colm2024": 299, "colm2025": 418, "ijcai2024": 1044,
               "icml2025_titles_only": 3340, "icml2024_titles_only": 2610}


@pytest.mark.parametrize("name", CONF)
def test_confpapers_jsonl_counts(shared_data, name):
    path = shared_data / "confpapers" / "jsonl" / f"{name}.jsonl"
    assert detect_format(path) == "jsonl"
    recs = read_shared(path)
    assert len(recs) == CONF_COUNTS[name]
    assert all(r.sources[0].format == "jsonl" for r in recs)
    assert [r.sources[0].line for r in recs[:3]] == [1, 2, 3]


def test_confpapers_jsonl_fields(shared_data):
    path = shared_data / "confpapers" / "jsonl" / "iclr2024.jsonl"
    recs = read_shared(path)
    first = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    r = recs[0]
    assert r.title == first["title"]
    assert len(r.authors) == len(first["authors"])
    venue_year, src = first["id"].split(":", 1)
    assert r.ids == {venue_year: src}
    assert (r.venue, r.year) == ("ICLR", 2024)
    area, sub = first["area"].split("->")
    assert (r.category.area, r.category.subarea) == (area, sub)
    assert sum(r.category is not None for r in recs) == 1988  # SOURCE.md: 1988 with area


def test_titles_only_have_no_abstract(shared_data):
    recs = read_shared(shared_data / "confpapers" / "jsonl" / "icml2025_titles_only.jsonl")
    assert all(r.abstract is None and r.title for r in recs)
    # no abstract: the id is a hash of title and authors, so two papers never collide
    assert len({r.id for r in recs}) == len(recs)


def test_citations_s2_turing_jsonl(shared_data):
    recs, _ = read(shared_data / "citations" / "s2_turing_papers.jsonl")
    assert len(recs) == 1009  # SOURCE.md: 1 + 1000 citing + 8 references
    assert sum(r.abstract is not None for r in recs) == 780
    top = recs[0]
    assert top.title == "Computing Machinery and Intelligence"
    assert top.author_ids == ("2262347",)
    assert len(top.references) == 8
    top_ref = "s2:" + top.ids["s2"]
    assert sum(top_ref in r.references for r in recs) == 1000


def test_citations_s2orc_and_unarxive_jsonl(shared_data):
    path = shared_data / "citations" / "s2orc_sample_papers.jsonl"
    recs, _ = read(path)
    assert len(recs) == 1000
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert sum(len(r["references"]) for r in rows) == 3107  # SOURCE.md
    # a reference listed twice by a paper is one reference (order kept)
    assert [r.references for r in recs] == [tuple(dict.fromkeys(r["references"])) for r in rows]
    assert recs[0].ids["s2orc"] == recs[0].ids["corpusid"]
    arx, _ = read(shared_data / "citations" / "unarxive_sample_papers.jsonl")
    assert len(arx) == 49 and all(r.id.startswith("arxiv:") for r in arx)
    assert sum(len(r.references) for r in arx) == 630
    # the arXiv primary category is mapped like the arXiv reader maps it
    cs = [r for r in arx if r.category and r.category.area == "Computer Science"]
    assert len(cs) == 9


def test_hand_written_records():
    recs, ctx = read(FIXTURES / "records.jsonl")
    assert len(recs) == 3 and not ctx.skipped
    one, two, three = recs
    assert one.id == "doi:10.5555/hand.1" and one.authors == ("Ada Quell", "Remi Munos")
    assert one.authors_truncated and str(one.category) == "Theory · Game Theory"
    assert one.references == ("doi:10.5555/hand.2",)
    assert [s.line for r in recs for s in r.sources] == [1, 2, 4]  # blank line 3 skipped
    assert two.id == "arxiv:2402.00021" and two.authors == ("Renzhe Xu", "Haoxuan Li")
    assert two.year == 2023 and str(two.category) == "Deep Learning · Large Language Models"
    assert three.ids == {"source": "custom-17"} and str(three.category) == "Applications · Robotics"


def test_round_trip_of_own_output(tmp_path, shared_data):
    recs, _ = read(shared_data / "seeds" / "000_da0255890f613690.txt")
    extra = make_record(source=Source("x.bib", 3, "bibtex"), title="T", abstract="A b c.",
                        authors=["Ada Quell"], author_ids=["A1"], ids={"doi": "10.1/x", "s2": "abc"},
                        references=["s2:def"], category="Theory · Game Theory", year=2020)
    recs.append(extra)
    out = tmp_path / "records.jsonl"
    out.write_text("".join(json.dumps(r.to_dict(), ensure_ascii=False) + "\n" for r in recs),
                   encoding="utf-8")
    back, _ = read(out)
    assert back == recs  # same ids, same fields, same sources


def test_json_array_and_single_object(tmp_path):
    arr = tmp_path / "arr.json"
    arr.write_text('[\n  {"title": "One", "abstract": "First."},\n\n  {"title": "Two"}\n]\n', encoding="utf-8")
    recs, _ = read(arr)
    assert [(r.title, r.sources[0].line) for r in recs] == [("One", 2), ("Two", 4)]
    one = tmp_path / "one.json"
    one.write_text('{\n "title": "Solo",\n "authors": ["Ada Quell"]\n}\n', encoding="utf-8")
    recs, _ = read(one)
    assert [r.title for r in recs] == ["Solo"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("s2:abc", {"s2": "abc"}),
        ("doi:10.1/X", {"doi": "10.1/X"}),
        ("s2orc:77", {"s2orc": "77", "corpusid": "77"}),
        ("iclr2024:34f9", {"iclr2024": "34f9"}),
        ("h:0123abcd", {}),
        ("custom-17", {"source": "custom-17"}),
        ("https://example.org/p/1", {"source": "https://example.org/p/1"}),
    ],
)
def test_split_prefixed_id(value, expected):
    assert split_prefixed_id(value) == expected


def test_malformed_json_line(tmp_path):
    p = tmp_path / "bad.jsonl"
    p.write_text('{"title": "ok", "abstract": "fine."}\n{"title": "broken",\n{"title": "ok2"}\n',
                 encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read(p)
    assert str(exc.value).startswith(f"{p}:2: malformed JSON: ")
    recs, ctx = read(p, skip_bad=True)
    assert [r.title for r in recs] == ["ok", "ok2"]
    assert ctx.skipped == {"malformed JSON": 1}


def test_malformed_json_document(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text('[\n {"title": "ok"},\n {"title": oops}\n]\n', encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read(p)
    assert str(exc.value).startswith(f"{p}:3: malformed JSON: ")
    recs, ctx = read(p, skip_bad=True)
    assert [r.title for r in recs] == ["ok"] and sum(ctx.skipped.values()) == 1


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ('{"title": ["not", "a", "string"]}', "bad field: 'title' must be a string"),
        ('{"title": "x", "authors": 5}', "bad field: 'authors' must be a list or a string"),
        ('{"venue": "only a venue"}', "no title and no abstract"),
        ('"a string"', "not a paper: expected a JSON object, got str"),
    ],
)
def test_bad_objects(tmp_path, line, reason):
    p = tmp_path / "bad.jsonl"
    p.write_text('{"title": "fine"}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read(p, format="jsonl")
    assert str(exc.value).startswith(f"{p}:2: {reason}")


def test_broken_first_line_of_json_lines(tmp_path):
    p = tmp_path / "first_bad.jsonl"
    p.write_text('{"title": "cut off",\n{"title": "ok1"}\n{"title": "ok2"}\n', encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read(p)
    assert str(exc.value).startswith(f"{p}:1: malformed JSON: ")
    recs, ctx = read(p, skip_bad=True)
    assert [r.title for r in recs] == ["ok1", "ok2"] and sum(ctx.skipped.values()) == 1
