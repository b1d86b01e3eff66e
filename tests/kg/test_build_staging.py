"""A rebuild that fails leaves the previous build byte for byte, and no staging folder.

Found by QA: a rebuild into an existing build folder that failed after the graph was saved (in
search, rdf, store or html: an exception, a full disk, a killed process) left the new graph
beside the old search index, RDF, store or views. ``kg build`` now writes every output into
``OUT/.staging-<pid>/`` and renames them into place only when every stage succeeded
(:func:`kg.build.swap_in`). Each failure here is a real one: an exception or Ctrl-C raised
from the build's log at the end of a stage, ``kill -9`` of a real build process, a real full
tmpfs, a real immutable file (``chattr +i``) that refuses the swap, a real mount point.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from kg.build import OUTPUTS, STAGING_PREFIX, BuildOptions, build
from kg.cli import main
from kg.errors import WorkspaceError
from kg.workspace import Workspace

#: The stages after the graph is saved, in the order they run.
LATER_STAGES = ("related", "search", "rdf", "store", "html")
ROOT = os.geteuid() == 0


def snapshot(out: Path) -> dict[str, bytes | None]:
    """Every entry of a build folder but the cache: path -> bytes (None for a folder)."""
    found: dict[str, bytes | None] = {}
    for p in sorted(out.rglob("*")):
        rel = p.relative_to(out)
        if rel.parts[0] == ".cache":
            continue
        found[rel.as_posix()] = None if p.is_dir() else p.read_bytes()
    return found


def staging_folders(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir() if p.name.startswith(STAGING_PREFIX))


@pytest.fixture(scope="module")
def more(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One paper beyond the demo corpus: a rebuild with it changes every output."""
    p = tmp_path_factory.mktemp("more") / "more.jsonl"
    p.write_text(json.dumps({"title": "Staged Rebuilds for Knowledge Graphs",
                             "abstract": "We propose SwapNet, evaluated on the StageBench benchmark.",
                             "authors": ["Quinn Staging", "Ada Rename"], "year": 2025}) + "\n",
                 encoding="utf-8")
    return p


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, demo_dir: Path) -> Path:
    """A complete demo build, copied by :func:`old_build` for each test."""
    out = tmp_path_factory.mktemp("built") / "out"
    build([demo_dir], out, options=BuildOptions(progress=False))
    return out


@pytest.fixture()
def old_build(built: Path, tmp_path: Path) -> Path:
    out = tmp_path / "out"
    shutil.copytree(built, out, symlinks=True)
    return out


def _fail_after(stage: str, exc: BaseException):
    def log(msg: str) -> None:
        if msg.startswith(f"{stage}: done"):
            raise exc
    return log


def test_a_successful_rebuild_changes_every_output(old_build: Path, demo_dir: Path, more: Path) -> None:
    # what the failure tests compare would be no evidence if a rebuild changed nothing
    before = snapshot(old_build)
    build([demo_dir, more], old_build, options=BuildOptions(progress=False))
    after = snapshot(old_build)
    for name in ("records.jsonl", "extracted.jsonl", "graph.pickle", "search.sqlite", "rdf/paperkg.nq",
                 "related/meta.json", "store/paperkg-store.json", "html/index.html", "summary.json"):
        assert before[name] != after[name], name
    assert staging_folders(old_build) == []
    assert json.loads(after["store/paperkg-store.json"])["source"] == "rdf/paperkg.nq"


@pytest.mark.parametrize("stage", LATER_STAGES)
@pytest.mark.parametrize("exc", [RuntimeError("boom"), KeyboardInterrupt()], ids=["exception", "ctrl-c"])
def test_a_rebuild_failing_in_a_later_stage_keeps_the_previous_build(
        old_build: Path, demo_dir: Path, more: Path, stage: str, exc: BaseException) -> None:
    before = snapshot(old_build)
    with pytest.raises(type(exc)):
        build([demo_dir, more], old_build, options=BuildOptions(progress=False), log=_fail_after(stage, exc))
    assert snapshot(old_build) == before
    assert staging_folders(old_build) == []


@pytest.mark.parametrize("skip", ["--no-html", "--no-extract", "--no-rdf"])
def test_a_failed_rebuild_that_skips_a_stage_removes_nothing(old_build: Path, demo_dir: Path, more: Path,
                                                            skip: str) -> None:
    opts = BuildOptions(progress=False, html=skip != "--no-html", extract=skip != "--no-extract",
                        rdf=skip != "--no-rdf")
    before = snapshot(old_build)
    said: list[str] = []

    def log(msg: str) -> None:
        said.append(msg)
        if msg.startswith("search: done"):
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        build([demo_dir, more], old_build, options=opts, log=log)
    assert snapshot(old_build) == before
    assert not any(m.startswith("removed ") or "are an earlier build's" in m for m in said)


def test_a_rebuild_that_skips_stages_removes_them_with_the_swap(old_build: Path, demo_dir: Path,
                                                                more: Path) -> None:
    ws = Workspace(old_build)
    rdf_before = snapshot(ws.rdf_dir)
    build([demo_dir, more], old_build, options=BuildOptions(progress=False, html=False, extract=False, rdf=False))
    assert not ws.html_dir.exists() and not ws.extracted_path.exists()
    assert snapshot(ws.rdf_dir) == rdf_before  # kept, said to be stale
    assert ws.load_summary()["stale"] == {"rdf": "--no-rdf", "store": "--no-rdf"}
    assert staging_folders(old_build) == []


_KILL_SELF = """
import os, signal, sys
from kg.build import BuildOptions, build

def log(msg):
    if msg.startswith(sys.argv[1] + ": done"):
        os.kill(os.getpid(), signal.SIGKILL)

build(sys.argv[3:], sys.argv[2], options=BuildOptions(progress=False), log=log)
"""


@pytest.mark.parametrize("stage", LATER_STAGES)
def test_a_rebuild_killed_in_a_later_stage_keeps_the_previous_build(
        old_build: Path, demo_dir: Path, more: Path, stage: str) -> None:
    before = snapshot(old_build)
    proc = subprocess.Popen([sys.executable, "-c", _KILL_SELF, stage, str(old_build), str(demo_dir), str(more)],
                            stderr=subprocess.PIPE, text=True)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == -signal.SIGKILL, err
    # kill -9 leaves its staging folder (nothing can run after it); the rest is the old build
    left = staging_folders(old_build)
    assert left == [f"{STAGING_PREFIX}{proc.pid}"]
    assert {k: v for k, v in snapshot(old_build).items() if not k.startswith(STAGING_PREFIX)} == before
    # the next build removes it
    build([demo_dir, more], old_build, options=BuildOptions(progress=False, html=False))
    assert staging_folders(old_build) == []


def test_the_staging_folder_of_a_running_build_is_left_alone(old_build: Path, demo_dir: Path) -> None:
    # a build folder is written by one build at a time; a second one must not pull the first's
    # files away (this test process stands for the running build)
    alive = old_build / f"{STAGING_PREFIX}{os.getppid()}"
    alive.mkdir()
    dead = old_build / f"{STAGING_PREFIX}999999999"
    (dead / "rdf").mkdir(parents=True)
    build([demo_dir], old_build, options=BuildOptions(progress=False, html=False, rdf=False))
    assert alive.is_dir() and not dead.exists()


def test_a_swap_that_fails_is_undone(old_build: Path, demo_dir: Path, more: Path, capsys) -> None:
    """``summary.json`` is swapped last; made immutable, its rename fails after every other
    output was swapped, and those are put back."""
    if shutil.which("chattr") is None:
        pytest.skip("no chattr here")
    before = snapshot(old_build)
    summary = old_build / "summary.json"
    if subprocess.run(["chattr", "+i", str(summary)], capture_output=True).returncode != 0:
        pytest.skip("this file system or user cannot make a file immutable")
    try:
        code = main(["build", str(demo_dir), str(more), "-o", str(old_build), "-q"])
    finally:
        subprocess.run(["chattr", "-i", str(summary)], check=True)
    assert code == 1
    assert capsys.readouterr().err == (f"kg: error: {summary}: cannot swap the new build in: Operation not "
                                       "permitted; the previous build is kept\n")
    assert snapshot(old_build) == before
    assert staging_folders(old_build) == []


def test_a_reader_never_finds_an_output_missing(old_build: Path, demo_dir: Path, more: Path) -> None:
    """While rebuilds run, another thread lists the build folder as fast as it can: every output
    is there at every look (renameat2 exchanges, never a remove-then-add)."""
    ws = Workspace(old_build)
    names = set(OUTPUTS)
    missing: list[set[str]] = []
    looks = 0
    stop = threading.Event()

    def watch() -> None:
        nonlocal looks
        while not stop.is_set():
            there = {p.name for p in old_build.iterdir()}
            looks += 1
            if names - there:
                missing.append(names - there)

    t = threading.Thread(target=watch)
    t.start()
    try:
        for inputs in ([demo_dir, more], [demo_dir], [demo_dir, more]):
            build(inputs, old_build, options=BuildOptions(progress=False))
    finally:
        stop.set()
        t.join()
    assert looks > 0 and missing == []
    assert staging_folders(old_build) == [] and ws.load_summary()["outputs"]["html"] == str(ws.html_dir / "index.html")


def test_a_symlinked_build_folder_and_output_keep_their_links(tmp_path: Path, built: Path, demo_dir: Path,
                                                             more: Path) -> None:
    real = tmp_path / "real"
    shutil.copytree(built, real, symlinks=True)
    views = tmp_path / "www" / "views"
    views.parent.mkdir()
    shutil.move(real / "html", views)
    (real / "html").symlink_to(views)
    out = tmp_path / "out"
    out.symlink_to(real)
    before = snapshot(views)
    with pytest.raises(RuntimeError):
        build([demo_dir, more], out, options=BuildOptions(progress=False), log=_fail_after("html", RuntimeError()))
    assert snapshot(views) == before and staging_folders(real) == []
    build([demo_dir, more], out, options=BuildOptions(progress=False))
    assert out.is_symlink() and (real / "html").is_symlink()
    assert Path(os.path.realpath(real / "html")) == views
    assert snapshot(views) != before and (views / "index.html").is_file()
    assert staging_folders(real) == [] and [p.name for p in views.parent.iterdir()] == ["views"]


# --------------------------------------------------------------------------- real file systems

def _kb(path: Path) -> int:
    """Space ``path`` takes on its file system, in KiB (du)."""
    out = subprocess.run(["du", "-sk", str(path)], capture_output=True, text=True, check=True).stdout
    return int(out.split()[0])


@pytest.mark.skipif(not ROOT, reason="mounting a small file system needs root")
@pytest.mark.parametrize("stage", ["search", "rdf", "store", "html"])
def test_a_rebuild_that_fills_the_disk_keeps_the_previous_build(small_disk, built: Path, demo_dir: Path,
                                                               more: Path, stage: str) -> None:
    disk = small_disk("64m")
    out = disk / "out"
    shutil.copytree(built, out, symlinks=True)
    before = snapshot(out)
    # leave room for the stages before ``stage`` (as much as they took in the first build, plus
    # a margin for the new paper) and half of ``stage``'s own
    order = ["records.jsonl", "conflicts.jsonl", "extracted.jsonl", "graph.pickle", "related",
             "search.sqlite", "rdf", "store", "html"]
    own = {"search": "search.sqlite"}.get(stage, stage)
    room = sum(_kb(out / n) for n in order[:order.index(own)]) + 64 + _kb(out / own) // 2
    st = os.statvfs(disk)
    free_kb = st.f_bavail * st.f_frsize // 1024
    with open(disk / "filler", "wb") as fh:
        os.posix_fallocate(fh.fileno(), 0, (free_kb - room) * 1024)
    kg = Path(sys.executable).with_name("kg")
    proc = subprocess.run([str(kg), "build", str(demo_dir), str(more), "-o", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert any(line.startswith(f"{stage}: failed after ") for line in lines), lines
    assert lines[-1].startswith("kg: error: ") and "No space left on device" in lines[-1]
    assert snapshot(out) == before
    assert staging_folders(out) == []
    (disk / "filler").unlink()
    assert subprocess.run([str(kg), "build", str(demo_dir), str(more), "-o", str(out), "-q"],
                          capture_output=True, text=True, timeout=300).returncode == 0
    assert snapshot(out) != before and staging_folders(out) == []


@pytest.mark.skipif(not ROOT, reason="mounting a file system needs root")
def test_an_output_that_is_a_mount_point_is_one_line_before_any_stage(small_disk, old_build: Path,
                                                                     demo_dir: Path, capsys) -> None:
    html = old_build / "html"
    saved = old_build.parent / "html-saved"
    shutil.move(html, saved)
    small_disk("64m", html)
    shutil.copytree(saved, html, dirs_exist_ok=True)
    before = snapshot(old_build)
    assert main(["build", str(demo_dir), "-o", str(old_build)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [f"kg: error: {html}: a mount point: a build swaps its outputs in by renaming; "
                   "unmount it, or build into another folder and copy"]
    assert snapshot(old_build) == before and staging_folders(old_build) == []


def test_a_link_to_another_file_system_is_one_line(old_build: Path, demo_dir: Path, capsys) -> None:
    shm = Path("/dev/shm")
    if not shm.is_dir() or os.stat(shm).st_dev == os.stat(old_build).st_dev:
        pytest.skip("no second file system to link to")
    target = Path(shm) / f"paperkg-test-{os.getpid()}"
    target.mkdir()
    try:
        link = old_build / "html"
        shutil.rmtree(link)
        link.symlink_to(target)
        assert main(["build", str(demo_dir), "-o", str(old_build), "-q"]) == 1
        assert capsys.readouterr().err == (
            f"kg: error: {link}: a link to {target}, on another file system than {old_build}: a build swaps "
            "its outputs in by renaming; point the link into that file system or remove it\n")
        assert staging_folders(old_build) == []
    finally:
        shutil.rmtree(target)


# --------------------------------------------------------------------------- without renameat2

def _no_exchange(a: Path, b: Path) -> bool:
    """What the exchange gives on a file system or C library without renameat2: not done."""
    return False


def test_the_swap_without_renameat2_gives_the_same_folder(tmp_path: Path, built: Path, demo_dir: Path,
                                                          more: Path) -> None:
    from kg.build import swap_in

    new = tmp_path / "new"
    build([demo_dir, more], new, options=BuildOptions(progress=False))
    old = tmp_path / "old"
    shutil.copytree(built, old, symlinks=True)
    stage = old / f"{STAGING_PREFIX}{os.getpid()}"
    shutil.copytree(new, stage, symlinks=True, ignore=shutil.ignore_patterns(".cache"))
    expected = snapshot(stage)
    assert swap_in(Workspace(stage), Workspace(old), exchange=_no_exchange) == len(OUTPUTS)
    shutil.rmtree(stage)
    assert snapshot(old) == expected


def test_a_failed_swap_without_renameat2_is_undone(tmp_path: Path, built: Path, demo_dir: Path,
                                                   more: Path) -> None:
    from kg.build import swap_in

    if shutil.which("chattr") is None:
        pytest.skip("no chattr here")
    new = tmp_path / "new"
    build([demo_dir, more], new, options=BuildOptions(progress=False))
    old = tmp_path / "old"
    shutil.copytree(built, old, symlinks=True)
    before = snapshot(old)
    stage = old / f"{STAGING_PREFIX}{os.getpid()}"
    shutil.copytree(new, stage, symlinks=True, ignore=shutil.ignore_patterns(".cache"))
    summary = old / "summary.json"
    if subprocess.run(["chattr", "+i", str(summary)], capture_output=True).returncode != 0:
        pytest.skip("this file system or user cannot make a file immutable")
    try:
        with pytest.raises(WorkspaceError, match="cannot swap the new build in: Operation not permitted"):
            swap_in(Workspace(stage), Workspace(old), exchange=_no_exchange)
    finally:
        subprocess.run(["chattr", "-i", str(summary)], check=True)
    shutil.rmtree(stage)
    assert snapshot(old) == before
