"""``kg sparql``: query text, --file, shipped examples with --param, and the output formats."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kg.cli import cli, main
from kg.store import query

COUNT = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }"


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory, seeds_dir: Path) -> Path:
    from kg.build import BuildOptions, build

    return build([seeds_dir], tmp_path_factory.mktemp("sparql") / "out",
                 options=BuildOptions(html=False, progress=False)).workspace.path


def run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(cli, ["sparql", *args], catch_exceptions=False)
    return r.exit_code, r.output


def error_line(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["sparql", *args]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    return err.strip()


def test_text_query_prints_a_table(out: Path) -> None:
    code, text = run(str(out), COUNT)
    n = query(out, COUNT).values()[0][0]
    assert code == 0
    assert text.splitlines() == ["n", "-" * max(1, len(str(n))), str(n), "(1 row)"]


def test_example_with_param(out: Path) -> None:
    code, text = run(str(out), "coauthors", "--param", "author=Renzhe Xu")
    assert code == 0
    lines = text.splitlines()
    assert lines[0].split() == ["author", "coauthor", "name", "papers"]
    expected = {row[2] for row in query(out, "coauthors", params={"author": "Renzhe Xu"}).values()}
    assert {name for name in expected if name in text} == expected
    assert lines[-1] == f"({len(expected)} rows)"


@pytest.mark.parametrize("fmt", ["csv", "tsv", "json", "xml"])
def test_formats(out: Path, fmt: str) -> None:
    code, text = run(str(out), "citation-indegree", "--format", fmt)
    assert code == 0
    local = query(out, "citation-indegree")
    if fmt == "csv":
        rows = list(csv.reader(io.StringIO(text)))
        assert rows[0] == ["cited", "label", "citations"] and len(rows) == len(local.rows) + 1
    elif fmt == "tsv":
        assert text.splitlines()[0] == "?cited\t?label\t?citations"
    elif fmt == "json":
        assert len(json.loads(text)["results"]["bindings"]) == len(local.rows)
    else:
        assert text.startswith("<?xml") and "<sparql" in text


def test_file_query_and_limit(out: Path, tmp_path: Path) -> None:
    f = tmp_path / "people.rq"
    f.write_text("# people: every person\nPREFIX foaf: <http://xmlns.com/foaf/0.1/>\n"
                 "SELECT ?name WHERE { ?p foaf:name ?name } ORDER BY ?name\n", encoding="utf-8")
    code, text = run(str(out), "--file", str(f), "--limit", "3", "--format", "csv")
    assert code == 0 and len(text.strip().splitlines()) == 4


def test_construct_prints_turtle(out: Path) -> None:
    code, text = run(str(out), "CONSTRUCT { ?s a ?t } WHERE { ?s a ?t } LIMIT 3", "--format", "ttl")
    assert code == 0 and "@prefix" in text


def test_list(out: Path) -> None:
    code, text = run(str(out), "--list")
    assert code == 0
    for name in ("coauthors", "citation-indegree", "papers-without-entities"):
        assert name in text
    assert "--param author=... (string)" in text


def test_errors_are_one_line(out: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "needs --param author=..." in error_line(capsys, str(out), "coauthors")
    assert "no example query 'coauthor'" in error_line(capsys, str(out), "coauthor")
    assert "SPARQL Update is not allowed" in error_line(capsys, str(out), "DROP ALL")
    assert "malformed SPARQL query" in error_line(capsys, str(out), "SELECT ?x WHERE {")
    assert "exactly one of QUERY" in error_line(capsys, str(out))
    assert "has no triple store" in error_line(capsys, str(out.parent / "nothing-here"), COUNT)
    assert "--format ttl is for CONSTRUCT" in error_line(capsys, str(out), COUNT, "--format", "ttl")


def test_installed_kg_runs_as_a_subprocess(out: Path) -> None:
    kg = Path(sys.executable).parent / "kg"
    proc = subprocess.run([str(kg), "sparql", str(out), COUNT, "--format", "csv"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ["n", str(query(out, COUNT).values()[0][0])]
