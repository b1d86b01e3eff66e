"""The conference paper-list reader on both raw layouts, checked against the derived JSONL."""

from __future__ import annotations

import json

import pytest

from kg.readers import detect_format
from reader_helpers import FIXTURES, read_all as read, read_shared

#: Items per raw file ("in" counters of confpapers/jsonl/stats.json, i.e. SOURCE.md's inputs).
RAW = {
    "airas/iclr2024.json": ("iclr2024.jsonl", 2382, "ICLR", 2024),
    "airas/icml2023.json": ("icml2023.jsonl", 2020, "ICML", 2023),
    "papercopilot/icml2019.json": ("icml2019.jsonl", 774, "ICML", 2019),
    "papercopilot/nips2018.json": ("neurips2018.jsonl", 1009, "NeurIPS", 2018),
    "papercopilot/colm2024.json": ("colm2024.jsonl", 299, "COLM", 2024),
    "papercopilot/colm2025.json": ("colm2025.jsonl", 418, "COLM", 2025),
    "papercopilot/ijcai2024.json": ("ijcai2024.jsonl", 1048, "IJCAI", 2024),
    "papercopilot/icml2025_titles_only.json": ("icml2025_titles_only.jsonl", 3340, "ICML", 2025),
    "papercopilot/icml2024_titles_only.json": ("icml2024_titles_only.jsonl", 2610, "ICML", 2024),
}


@pytest.mark.parametrize("raw", sorted(RAW))
def test_raw_lists_read_completely_and_agree_with_derived(shared_data, raw):
    derived_name, count, venue, year = RAW[raw]
    path = shared_data / "confpapers" / "raw" / raw
    assert detect_format(path) == "confpapers"
    recs = read_shared(path)
    assert len(recs) == count
    assert {(r.venue, r.year) for r in recs} == {(venue, year)}
    by_ids: dict = {}
    for r in recs:  # make_jsonl.py keeps the first item with an abstract (ids are not unique)
        if r.abstract or "titles_only" in raw:
            key = (tuple(sorted((k, v) for k, v in r.ids.items() if k != "openreview")), r.title)
            by_ids.setdefault(key, r)
    derived = read_shared(shared_data / "confpapers" / "jsonl" / derived_name)
    for d in derived:
        r = by_ids[(tuple(sorted(d.ids.items())), d.title)]
        assert (r.title, r.authors, r.category, r.abstract) == (d.title, d.authors, d.category, d.abstract)
        assert r.id == d.id


def test_source_lines_are_item_starts(shared_data):
    path = shared_data / "confpapers" / "raw" / "papercopilot" / "colm2024.json"
    recs = read_shared(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[recs[0].sources[0].line - 1].strip() == "{"
    nxt = lines[recs[1].sources[0].line: recs[1].sources[0].line + 1][0]
    assert json.loads("{" + nxt.strip().rstrip(",") + "}")["id"] in recs[1].ids.values()


def test_area_strings_map_to_category(shared_data):
    recs = read_shared(shared_data / "confpapers" / "raw" / "airas" / "iclr2024.json")
    cats = {str(r.category) for r in recs if r.category}
    assert "Deep Learning · Large Language Models" in cats
    ij = read_shared(shared_data / "confpapers" / "raw" / "papercopilot" / "ijcai2024.json")
    assert any(r.category and r.category.area == "Machine Learning" and r.category.subarea is None for r in ij)


def test_openreview_ids_kept(shared_data):
    recs = read_shared(shared_data / "confpapers" / "raw" / "papercopilot" / "colm2024.json")
    assert all(r.ids["openreview"] == r.ids["colm2024"] for r in recs)


def test_hand_written_airas_layout():
    recs, _ = read(FIXTURES / "airas_like.json")
    assert [(r.venue, r.year, str(r.category) if r.category else None) for r in recs] == [
        ("ICLR", 2024, "Applications · Robotics"), ("ICML", 2023, None)]
    assert recs[0].authors == ("Ada Quell", "Bertil Nordgren")


def test_hand_written_papercopilot_layout():
    recs, _ = read(FIXTURES / "nips2018_like.json")
    first, second = recs
    assert (first.venue, first.year) == ("NeurIPS", 2018)  # from the file name
    assert first.authors == ("Ola Brandvik", "Petra Lindqvist")
    assert str(first.category) == "Theory · Learning Theory"
    assert first.ids == {"neurips2018": "99999"}
    assert second.abstract is None and second.ids["openreview"] == "AbC-123_x"


def test_venue_from_site_when_file_name_says_nothing(tmp_path):
    p = tmp_path / "list.json"
    p.write_text(json.dumps([{"title": "T", "author": "Ada Quell; Bo Chen", "track": "main",
                              "status": "Poster", "site": "https://icml.cc/virtual/2019/poster/1",
                              "id": "1", "abstract": "A."}]), encoding="utf-8")
    assert detect_format(p) == "confpapers"
    (r,), _ = read(p)
    assert (r.venue, r.year, r.ids) == ("ICML", 2019, {"icml2019": "1"})
