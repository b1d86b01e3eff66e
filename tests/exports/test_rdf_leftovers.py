"""``kg build`` clears the temporary files a killed build left in ``OUT/rdf/``, ``OUT/html/``
and beside ``OUT/search.sqlite``. Found by QA: ``kill -9`` during the rdf stage of a 1,858-paper
build left ``rdf/.paperkg.nq.XXXX.tmp`` (19 MB there, as large as the N-Quads) and no later build
removed it."""

from __future__ import annotations

from pathlib import Path

from export_graphs import tiny_graph
from exports.rdf import write_build_rdf


def test_killed_build_temporaries_are_removed(tmp_path: Path) -> None:
    rdf = tmp_path / "rdf"
    rdf.mkdir()
    stale = [rdf / ".paperkg.nq.k1ll3d.tmp", rdf / "paperkg.ttl.tmp", rdf / ".paperkg.nt.abc.tmp"]
    for p in stale:
        p.write_bytes(b"<a> <b> <c> <g> .\n" * 100)
    mine = rdf / "notes.tmp"  # not a paperkg temporary: left alone
    mine.write_text("x", encoding="utf-8")
    written = write_build_rdf(tiny_graph(), rdf, formats=("nq", "ttl"))
    assert not any(p.exists() for p in stale) and mine.exists()
    assert written["nq"].stat().st_size > 0 and written["ttl"].exists()
    assert sorted(p.name for p in rdf.iterdir() if p.name.endswith(".tmp")) == ["notes.tmp"]


def test_killed_build_view_temporaries_are_removed(tmp_path: Path) -> None:
    from exports.html import write_site

    html = tmp_path / "html"
    (html / "views").mkdir(parents=True)
    stale = [html / ".overview.html.k1ll3d.tmp", html / "views" / ".author-x.html.abc.tmp"]
    for p in stale:
        p.write_text("<html>half", encoding="utf-8")
    write_site(tiny_graph(), html, top=1)
    assert not any(p.exists() for p in stale)
    assert (html / "index.html").exists() and (html / "overview.html").exists()


def test_killed_build_search_index_temporaries_are_removed(tmp_path: Path) -> None:
    from kg.search import build_search_index

    stale = tmp_path / ".search.sqlite.k1ll3d.tmp"
    stale.write_bytes(b"SQLite format 3\0half")
    other = tmp_path / ".records.jsonl.abc.tmp"  # another output's temporary: not the index's
    other.write_text("{}", encoding="utf-8")
    assert build_search_index(tiny_graph(), tmp_path / "search.sqlite") > 0
    assert not stale.exists() and other.exists()
