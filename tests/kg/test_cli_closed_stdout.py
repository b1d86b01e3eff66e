"""A command whose reader went away (``kg stats OUT | head -1``) ends quietly with status 141.

Found by QA: ``kg stats | head -1`` exited 1 (click turns a broken pipe into status 1), and
some commands could print 'Exception ignored ... BrokenPipeError' at exit. Now every command
that prints stops without a word on stderr and with 128 + SIGPIPE, what the shell reports for
``git log | head -1``. The tests run the installed ``kg`` with its standard output on a real
pipe whose reading end is already closed, so every write fails as it does after ``head`` left.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from kg.build import BuildOptions, build

KG = Path(sys.executable).with_name("kg")
EXIT = 128 + signal.SIGPIPE


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory, demo_dir: Path) -> Path:
    path = tmp_path_factory.mktemp("closed-stdout") / "out"
    build([demo_dir], path, options=BuildOptions(progress=False, html=False))
    return path


def run_into_closed_pipe(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    r, w = os.pipe()
    os.close(r)  # the reader is gone before the first write
    try:
        return subprocess.run([str(KG), *args], stdout=w, stderr=subprocess.PIPE, text=True, timeout=300,
                              cwd=cwd)
    finally:
        os.close(w)


def _commands(out: Path, demo_dir: Path, tmp: Path) -> dict[str, list[str]]:
    return {
        "stats": ["stats", str(out)],
        "search": ["search", str(out), "learning"],
        "authors": ["authors", str(out)],
        "authors --duplicates": ["authors", str(out), "--duplicates"],
        "related": ["related", str(out), "Ingrid Solheim"],
        "sparql table": ["sparql", str(out), "SELECT * WHERE { ?s ?p ?o }"],
        "sparql json": ["sparql", str(out), "SELECT * WHERE { ?s ?p ?o } LIMIT 3", "--format", "json"],
        "sparql --list": ["sparql", str(out), "--list"],
        "ingest to stdout": ["ingest", str(demo_dir), "-o", "/dev/stdout", "-q"],
        "export": ["export", str(out), "--to", "json", "-o", str(tmp / "g.json")],
        "build": ["build", str(demo_dir), "-o", str(tmp / "b"), "-q", "--no-html", "--no-rdf"],
        "--help": ["--help"],
        "--version": ["--version"],
        "stats -h": ["stats", "-h"],
        "--debug stats": ["--debug", "stats", str(out)],
    }


NAMES = list(_commands(Path("o"), Path("d"), Path("t")))


@pytest.mark.parametrize("name", NAMES)
def test_a_closed_stdout_ends_quietly_with_the_conventional_status(name: str, out: Path, demo_dir: Path,
                                                                  tmp_path: Path) -> None:
    args = _commands(out, demo_dir, tmp_path)[name]
    proc = run_into_closed_pipe(*args)
    assert (proc.returncode, proc.stderr) == (EXIT, "")


def test_a_build_whose_reader_left_still_completes(demo_dir: Path, tmp_path: Path) -> None:
    # the work is done before anything is printed: only the last lines are lost
    proc = run_into_closed_pipe("build", str(demo_dir), "-o", str(tmp_path / "b"), "-q", "--no-rdf", "--no-html")
    assert proc.returncode == EXIT
    assert (tmp_path / "b" / "summary.json").is_file()
    assert not [p for p in (tmp_path / "b").iterdir() if p.name.startswith(".staging-")]


def test_head_reads_the_first_line_and_kg_stops_quietly(out: Path) -> None:
    # the user's case, with a real head; a table far larger than the pipe's buffer
    proc = subprocess.run(f"'{KG}' sparql '{out}' 'SELECT * WHERE {{ ?s ?p ?o }}' | head -1; "
                          "echo \"status=${PIPESTATUS[0]}\" >&2", shell=True, executable="/bin/bash",
                          capture_output=True, text=True, timeout=300)
    assert proc.stdout.split()[:3] == ["o", "p", "s"]
    assert proc.stderr == f"status={EXIT}\n"


def test_an_output_that_all_went_out_is_status_0(out: Path) -> None:
    proc = subprocess.run([str(KG), "stats", str(out)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.startswith("paperkg graph")


def test_a_full_stdout_is_still_an_error(out: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        proc = subprocess.run([str(KG), "stats", str(out)], stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=300)
    assert proc.returncode == 1
    assert proc.stderr.startswith("kg: error: No space left on device")
