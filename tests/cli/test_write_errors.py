"""A write that finds no room (a full disk, a quota) is one line naming the file, not a traceback.

``/dev/full`` is the kernel's always-full device: every write to it fails with ENOSPC, so the
real error path runs without filling a disk.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kg.errors import WorkspaceError
from kg.io import atomic_write

FULL = Path("/dev/full")
pytestmark = pytest.mark.skipif(not FULL.exists(), reason="no /dev/full on this system")


def test_atomic_write_to_a_full_device_names_it() -> None:
    with pytest.raises(WorkspaceError, match="/dev/full: cannot write: No space left on device"):
        with atomic_write(FULL) as fh:
            fh.write("x" * 100_000)
            fh.flush()


def test_kg_export_to_a_full_device_is_one_line(seed_graph_ws: Path) -> None:
    kg = Path(sys.executable).with_name("kg")
    proc = subprocess.run([str(kg), "export", str(seed_graph_ws), "--to", "graphml", "-o", str(FULL)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        "kg: error: /dev/full: cannot write: No space left on device (nothing was replaced)"]


@pytest.mark.skipif(os.geteuid() != 0, reason="mounting a small file system needs root")
@pytest.mark.parametrize("size", ["1m", "3m", "6m"])  # the demo build runs out in the rdf, store, html stages
def test_a_build_that_fills_the_disk_is_one_line_and_leaves_nothing(small_disk, size: str) -> None:
    disk = small_disk(size)
    kg = Path(sys.executable).with_name("kg")
    proc = subprocess.run([str(kg), "build", "--demo", "-o", str(disk / "out"), "-q"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("kg: error: ") and "No space left on device" in last
    assert list(disk.iterdir()) == []  # a failed first build removes what it wrote
