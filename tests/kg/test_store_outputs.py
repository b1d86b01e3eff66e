"""The store folder and the example-query headers, as a user meets them. Found by QA: a
killed ``kg build`` left its half-built ``OUT/.store-*`` folder behind for good, the store
folder was readable by its owner only, and ``kg sparql --list`` cut every description after
its first line (mid-sentence for three of the nine shipped queries)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from kg.cli import main
from kg.store import example_queries, read_query_file, store_info

NQ = ('<https://w3id.org/paperkg/id/paper/a> <http://purl.org/dc/terms/title> "A" '
      '<https://w3id.org/paperkg/id/graph/qa> .\n')


@pytest.fixture()
def nq(tmp_path: Path) -> Path:
    p = tmp_path / "in.nq"
    p.write_text(NQ, encoding="utf-8")
    return p


def test_killed_build_leftovers_are_removed(tmp_path: Path, nq: Path) -> None:
    from kg.store import build_store

    out = tmp_path / "out"
    left = out / ".store-killed1"
    (left / "db").mkdir(parents=True)
    (left / "db" / "000001.sst").write_bytes(b"\0" * 1000)
    moved_aside = out / "store.old"  # killed between moving the old store aside and deleting it
    (moved_aside / "db").mkdir(parents=True)
    keep = out / ".cache"
    keep.mkdir()
    build_store(nq, out)
    assert not left.exists() and not moved_aside.exists() and keep.is_dir()
    assert store_info(out)["quads"] == 1
    assert sorted(p.name for p in out.iterdir()) == [".cache", "store"]


def test_store_folder_gets_the_umask_mode(tmp_path: Path, nq: Path) -> None:
    from kg.io import _umask
    from kg.store import build_store

    old = os.umask(0o022)
    _umask.cache_clear()
    try:
        target = build_store(nq, tmp_path / "out")
    finally:
        os.umask(old)
        _umask.cache_clear()
    assert stat.S_IMODE(target.stat().st_mode) == 0o755


def test_header_paragraph_and_continued_param_lines(tmp_path: Path) -> None:
    f = tmp_path / "q.rq"
    f.write_text("# q: the papers of a year (one row\n# per paper). Ties are arbitrary.\n#\n"
                 "# Notes that are not the title.\n#\n"
                 "# @param year integer  The year of the papers,\n#                      e.g. 2024.\n"
                 "# @param venue string  The venue.\n"
                 "SELECT * WHERE { ?s ?p ?o }\n", encoding="utf-8")
    ex = read_query_file(f)
    assert ex.title == "the papers of a year (one row per paper). Ties are arbitrary."
    assert ex.params == {"year": ("integer", "The year of the papers, e.g. 2024."),
                         "venue": ("string", "The venue.")}


def test_shipped_titles_end_a_sentence() -> None:
    for name, ex in example_queries().items():
        assert ex.title.rstrip().endswith((".", "?", ")")), (name, ex.title)
        for p, (_, desc) in ex.params.items():
            assert desc.count("(") == desc.count(")"), (name, p, desc)
            assert desc.rstrip().endswith("."), (name, p, desc)


def test_list_prints_whole_descriptions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sparql", "unused-out", "--list"]) == 0
    raw = capsys.readouterr().out
    text = " ".join(raw.split())
    assert "resolved to a paper). Ties at the tenth place are broken arbitrarily." in text
    assert '(pkg:recordId, as in records.jsonl), e.g. "doi:10.48550/arxiv.2401.00001".' in text
    assert all(len(line) <= 100 for line in raw.splitlines())
