"""Fixtures shared by the whole suite.

Real data is read from ``../shared/data/`` beside the repository (present on every developer
machine and in CI; ``PAPERKG_SHARED_DATA`` overrides the location). A missing folder is a
failure, not a skip: tests that silently skip prove nothing.

The suite keeps the extractors' pattern cache (``PAPERKG_CACHE_DIR``, see
``extractors.gazetteer.default_cache_dir``) in a temporary folder of its own, removed at the
end, so that running the tests writes nothing into the user's ``~/.cache``; the commands the
tests start inherit it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

if "PAPERKG_CACHE_DIR" not in os.environ:
    _TEST_CACHE = tempfile.mkdtemp(prefix="paperkg-test-cache-")
    os.environ["PAPERKG_CACHE_DIR"] = _TEST_CACHE
else:
    _TEST_CACHE = None


def pytest_sessionfinish(session, exitstatus) -> None:
    if _TEST_CACHE is not None:
        shutil.rmtree(_TEST_CACHE, ignore_errors=True)


def _shared_data() -> Path:
    env = os.environ.get("PAPERKG_SHARED_DATA")
    return Path(env) if env else REPO.parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data() -> Path:
    path = _shared_data()
    if not (path / "seeds").is_dir():
        pytest.fail(f"shared data not found at {path} (set PAPERKG_SHARED_DATA)")
    return path


@pytest.fixture(scope="session")
def seeds_dir(shared_data: Path) -> Path:
    return shared_data / "seeds"


@pytest.fixture(scope="session")
def demo_dir() -> Path:
    return REPO / "kg" / "data" / "demo"


@pytest.fixture
def small_disk(tmp_path: Path):
    """Mount a tmpfs of a given size (root and a kernel that allows it; else skip), unmount after."""
    mounted: list[Path] = []

    def mount(size: str, where: Path | None = None) -> Path:
        where = where or tmp_path / f"disk-{size}"
        where.mkdir(exist_ok=True)
        proc = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            pytest.skip(f"cannot mount a small tmpfs here: {proc.stderr.strip()}")
        mounted.append(where)
        return where

    yield mount
    for where in reversed(mounted):
        subprocess.run(["umount", str(where)], check=False)
