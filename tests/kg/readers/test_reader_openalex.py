"""OpenAlex works (hand-written in the API's format: there is no network in tests)."""

from __future__ import annotations

import pytest

from kg.errors import InputError
from kg.readers import detect_format
from kg.readers.openalex import abstract_from_inverted_index
from reader_helpers import FIXTURES, read_all as read


def test_single_work():
    path = FIXTURES / "openalex_work.json"
    assert detect_format(path) == "openalex"
    (r,), _ = read(path)
    assert r.abstract == "We grow sparse graph transformers on lattices; the sparse models match dense ones."
    assert r.authors == ("Maren Oduya", "Tobiah Kessel-Ruiz", "Ines Varga")  # raw name as fallback
    assert r.author_ids == ("A5000000001", "A5000000002", None)
    assert r.id == "doi:10.5555/pkg.2023.0001"
    assert r.ids == {"doi": "10.5555/pkg.2023.0001", "openalex": "W4000000001", "mag": "3000000001",
                     "pmid": "99999901"}
    assert r.references == ("openalex:W4000000002", "openalex:W4000000003")
    assert r.venue == "Journal of Invented Results" and r.year == 2023
    assert str(r.category) == "Computer Science · Artificial Intelligence"


def test_api_page():
    path = FIXTURES / "openalex_page.json"
    assert detect_format(path) == "openalex"
    recs, _ = read(path)
    first, second = recs
    assert first.id == "openalex:W4000000002"
    assert str(first.category) == "Computer science · Algorithm"  # best level-0 and level-1 concept
    assert second.abstract is None and second.title == "A Title-Only Work"
    assert second.references == ("openalex:W4000000002",)


def test_json_lines_of_works():
    path = FIXTURES / "openalex_works.jsonl"
    assert detect_format(path) == "openalex"
    recs, _ = read(path)
    assert [(r.title, r.sources[0].line) for r in recs] == [("Quiet Bandits", 1), ("Loud Bandits", 2)]


def test_inverted_index_order_and_errors():
    assert abstract_from_inverted_index({"b": [1, 3], "a": [0, 2]}) == "a b a b"
    assert abstract_from_inverted_index({}) is None
    with pytest.raises(ValueError):
        abstract_from_inverted_index({"a": ["zero"]})


def test_broken_inverted_index_is_bad(tmp_path):
    p = tmp_path / "w.jsonl"
    p.write_text('{"id": "https://openalex.org/W1", "display_name": "T", "authorships": [], '
                 '"abstract_inverted_index": {"a": "0"}}\n', encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read(p)
    assert str(exc.value).startswith(f"{p}:1: bad abstract_inverted_index: ")
