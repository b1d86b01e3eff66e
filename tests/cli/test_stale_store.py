"""``kg sparql`` / ``serve`` / ``push`` say so when the store is older than the rest of the
build. Found by QA: after ``kg build ... --no-rdf`` over an earlier build, or a build stopped
between writing ``OUT/rdf/`` and the store, SPARQL silently answered for the earlier corpus
(a paper no longer in the inputs was still found) while ``kg search`` answered for the new one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kg.cli import main
from kg.store import stale_store_reason, store_dir

ASK = "ASK { ?s ?p ?o }"


def _build(inputs: list[Path], out: Path, *extra: str) -> Path:
    assert main(["build", *map(str, inputs), "-o", str(out), "-q", "--no-extract", "--no-html", *extra]) == 0
    return out


@pytest.fixture()
def bib(tmp_path: Path) -> Path:
    p = tmp_path / "more.bib"
    p.write_text("@article{qa1, title={A Paper Only In The First Build}, author={Doe, Jane},"
                 " abstract={We study stale stores in a build folder.}, year={2024}}\n", encoding="utf-8")
    return p


def test_fresh_build_has_no_warning(tmp_path: Path, seeds_dir: Path, capsys) -> None:
    out = _build([seeds_dir], tmp_path / "out")
    capsys.readouterr()
    assert stale_store_reason(out) is None
    assert main(["sparql", str(out), ASK]) == 0
    assert capsys.readouterr().err == ""


def test_no_rdf_rebuild_warns(tmp_path: Path, seeds_dir: Path, bib: Path, capsys) -> None:
    out = _build([seeds_dir, bib], tmp_path / "out")
    _build([seeds_dir], out, "--no-rdf")
    capsys.readouterr()
    q = 'ASK { ?p <http://purl.org/dc/terms/title> "A Paper Only In The First Build" }'
    assert main(["sparql", str(out), q]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == "yes"  # the earlier corpus answers: hence the warning
    assert captured.err.strip() == (
        f"kg: warning: {out}/store is from an earlier build (the last kg build ran with --no-rdf); "
        "its answers may not match the records and the graph: run kg build without --no-rdf to refresh it")
    _build([seeds_dir], out)
    assert stale_store_reason(out) is None


def test_store_of_another_build_than_rdf_warns(tmp_path: Path, seeds_dir: Path, bib: Path, capsys) -> None:
    # the files a build stopped after writing rdf/ leaves: rdf/ of the new corpus, the store of the old
    old = _build([seeds_dir], tmp_path / "old")
    new = _build([seeds_dir, bib], tmp_path / "new")
    shutil.rmtree(old / "rdf")
    shutil.copytree(new / "rdf", old / "rdf")
    capsys.readouterr()
    assert stale_store_reason(old) == "its graph is not the one in rdf/: was a kg build stopped?"
    assert main(["sparql", str(old), ASK]) == 0
    assert "was a kg build stopped?" in capsys.readouterr().err
    assert stale_store_reason(store_dir(old)) is None  # a store folder alone: nothing to compare
