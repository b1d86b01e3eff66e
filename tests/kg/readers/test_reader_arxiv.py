"""arXiv metadata snapshot lines and API Atom feeds (hand-written in the real formats)."""

from __future__ import annotations

import pytest

from kg.errors import InputError
from kg.readers import detect_format
from kg.readers.arxiv import arxiv_category
from reader_helpers import FIXTURES, read_all as read


def test_snapshot_lines():
    path = FIXTURES / "arxiv_snapshot.jsonl"
    assert detect_format(path) == "arxiv"
    recs, _ = read(path)
    new, old, unknown = recs
    assert new.authors == ("Ada Quell", "Bertil Nordgren", "G. Öztürk")  # LaTeX accents decoded
    assert new.title == "Streaming Lattices for Online Learning"
    assert new.abstract == "We stream lattices for online learning and show a regret bound."
    assert new.year == 2023  # first version, not the update
    assert str(new.category) == "Computer Science · Machine Learning"
    assert new.ids == {"arxiv": "2305.00011", "doi": "10.5555/stream.2023.11"}
    assert old.id == "arxiv:math/0601001" and old.year == 2006
    assert str(old.category) == "Mathematics · Probability"
    assert str(unknown.category) == "Computer Science · cs.XY"
    assert unknown.authors == ("Y. Unknown Jr",)


def test_atom_feed():
    path = FIXTURES / "arxiv_feed.atom"
    assert detect_format(path) == "arxiv"
    recs, _ = read(path)
    first, second = recs
    assert first.title == "Lattice Walks for Graph Sampling"
    assert first.abstract == "We sample graphs by walking on lattices & prove mixing bounds."
    assert first.authors == ("Sofia Marchetti", "Kwame Asante")
    assert first.ids == {"arxiv": "2402.00021", "doi": "10.5555/walk.2024.21"}
    assert str(first.category) == "Statistics · Machine Learning"  # the primary category
    assert [r.sources[0].line for r in recs] == [8, 31]
    assert second.id == "arxiv:2402.00022" and second.year == 2024


@pytest.mark.parametrize(
    ("code", "expected"),
    [("cs.LG", "Computer Science · Machine Learning"), ("stat.ML", "Statistics · Machine Learning"),
     ("quant-ph", "Quantum Physics"), ("hep-th", "High Energy Physics"), ("zz.QQ", "zz.QQ")],
)
def test_category_table(code, expected):
    assert str(arxiv_category(code)) == expected


def test_entities_are_refused(tmp_path):
    p = tmp_path / "evil.atom"
    p.write_text('<?xml version="1.0"?>\n<!DOCTYPE feed [<!ENTITY a "aaaa">]>\n'
                 '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>http://arxiv.org/abs/1</id>'
                 '<title>&a;</title></entry></feed>\n', encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read(p, format="arxiv")
    assert str(exc.value).startswith(f"{p}:2: XML with a DOCTYPE or entity declarations")


def test_malformed_xml(tmp_path):
    p = tmp_path / "bad.atom"
    p.write_text('<feed xmlns="http://www.w3.org/2005/Atom">\n<entry><id>http://arxiv.org/abs/2402.00001</id>'
                 '<title>ok</title></entry>\n<entry><title>bad</entry>\n</feed>\n', encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read(p, format="arxiv")
    assert str(exc.value).startswith(f"{p}:3: malformed XML: ")
    recs, ctx = read(p, format="arxiv", skip_bad=True)
    assert [r.title for r in recs] == ["ok"] and ctx.skipped == {"malformed XML": 1}
