"""Writing outputs (:mod:`kg.io`): modes, links, devices and paths that cannot be written.

Found by QA: outputs were left readable by their owner only (mkstemp's 0600) whatever the
umask; ``-o /dev/stdout`` replaced the device link with a regular file; a symbolic link was
replaced instead of written through; a folder or a file in the way was a traceback.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from kg.errors import WorkspaceError
from kg.io import _umask, atomic_dir, atomic_write, default_mode


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


@pytest.fixture()
def umask_022():
    old = os.umask(0o022)
    _umask.cache_clear()
    yield
    os.umask(old)
    _umask.cache_clear()


def test_new_file_gets_the_umask_mode(tmp_path: Path, umask_022) -> None:
    p = tmp_path / "a.txt"
    with atomic_write(p) as fh:
        fh.write("x")
    assert _mode(p) == 0o644 == default_mode()


def test_new_folder_gets_the_umask_mode(tmp_path: Path, umask_022) -> None:
    p = tmp_path / "d"
    with atomic_dir(p) as tmp:
        (tmp / "f").write_text("x", encoding="utf-8")
    assert _mode(p) == 0o755 == default_mode(folder=True)


def test_replaced_file_keeps_its_mode(tmp_path: Path, umask_022) -> None:
    p = tmp_path / "a.txt"
    p.write_text("old", encoding="utf-8")
    p.chmod(0o640)
    with atomic_write(p) as fh:
        fh.write("new")
    assert p.read_text(encoding="utf-8") == "new" and _mode(p) == 0o640


def test_symlink_is_written_through(tmp_path: Path) -> None:
    target = tmp_path / "real.txt"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    with atomic_write(link) as fh:
        fh.write("new")
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "new"


def test_fifo_is_written_directly(tmp_path: Path) -> None:
    # a pipe stands for /dev/stdout here: a test must never risk replacing a real device
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    r = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        with atomic_write(fifo) as fh:
            fh.write("through the pipe")
        assert os.read(r, 100) == b"through the pipe"
    finally:
        os.close(r)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_folder_in_the_way_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    with pytest.raises(WorkspaceError, match=r"d: is a folder; give the name of a file to write$"):
        with atomic_write(tmp_path / "d") as fh:
            fh.write("x")
    assert list(tmp_path.iterdir()) == [tmp_path / "d"]


def test_file_where_a_folder_is_needed_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x", encoding="utf-8")
    with pytest.raises(WorkspaceError, match=r"f/sub/out\.json: cannot write it: .*f is a file, not a folder$"):
        with atomic_write(tmp_path / "f" / "sub" / "out.json") as fh:
            fh.write("x")
    with pytest.raises(WorkspaceError, match=r"f: is a file; give the name of a folder to write$"):
        with atomic_dir(tmp_path / "f"):
            pass


def test_failed_write_leaves_the_old_file(tmp_path: Path) -> None:
    p = tmp_path / "a.txt"
    p.write_text("old", encoding="utf-8")
    with pytest.raises(RuntimeError):
        with atomic_write(p) as fh:
            fh.write("half")
            raise RuntimeError("stop")
    assert p.read_text(encoding="utf-8") == "old" and sorted(tmp_path.iterdir()) == [p]
