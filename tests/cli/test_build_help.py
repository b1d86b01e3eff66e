"""`kg build -h` says what the options do. Found by QA: --rdf-format rdfxml promised
paperkg.FMT and wrote paperkg.rdf; --no-extract promised records and co-authors only, yet
entities already in the inputs are kept."""

from __future__ import annotations

from click.testing import CliRunner

from exports.rdf import FORMATS
from kg.cli.build import command
from kg.schema import NodeType
from kg.workspace import Workspace


def _help() -> str:
    result = CliRunner().invoke(command, ["--help"], terminal_width=200)
    assert result.exit_code == 0
    return " ".join(result.output.split())


def test_rdf_format_help_names_the_files_written():
    text = _help()
    choices = next(p for p in command.params if p.name == "rdf_formats").type.choices
    for fmt in choices:
        ext = FORMATS[fmt][0]
        # the extension is the format's name, or the help says which file that format writes
        assert (ext == f".{fmt}" and f".{fmt}" in text) or f"paperkg{ext} for {fmt}" in text, fmt
    assert "paperkg.FMT" not in text


def test_rdf_format_rdfxml_writes_what_the_help_says(tmp_path, demo_dir):
    out = tmp_path / "o"
    result = CliRunner().invoke(command, [str(demo_dir), "-o", str(out), "-q", "--no-html", "--rdf-format", "rdfxml"])
    assert result.exit_code == 0, result.output
    assert (out / "rdf" / "paperkg.rdf").is_file()


def test_no_extract_keeps_the_entities_of_its_inputs_as_the_help_says(tmp_path, demo_dir):
    assert "entities and citations already in the inputs (kg extract output) are kept" in _help()
    first, second = Workspace(tmp_path / "first"), Workspace(tmp_path / "second")
    opts = ["-q", "--no-html", "--no-rdf"]
    assert CliRunner().invoke(command, [str(demo_dir), "-o", str(first.path), *opts]).exit_code == 0
    result = CliRunner().invoke(command, [str(first.extracted_path), "-o", str(second.path), "--no-extract", *opts])
    assert result.exit_code == 0, result.output
    types = {d["type"] for _, d in second.load_graph().nodes(data=True)}
    assert {NodeType.METHOD.value, NodeType.BENCHMARK.value} <= types
