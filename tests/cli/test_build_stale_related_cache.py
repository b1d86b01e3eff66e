"""``kg build`` into a folder an older paperkg built: the related-terms cache it left
(``OUT/.cache/related_terms.npz``, replaced by ``OUT/related/``) is deleted, with one line."""

from __future__ import annotations

import numpy as np

from kg.build import STALE_FILES, remove_stale_files
from kg.cli import main
from kg.related_index import INDEX_DIR
from kg.workspace import Workspace

STALE = ".cache/related_terms.npz"


def plant(out, size: int = 3_000_000):
    """A file where the old term-profile cache was, of ``size`` bytes (an .npz as old builds wrote)."""
    path = out / STALE
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        np.savez(fh, vals=np.zeros(size // 8))
    return path


def test_rebuild_deletes_the_old_related_terms_cache_with_one_line(tmp_path, capsys):
    out = tmp_path / "out"
    args = ["build", "--demo", "-o", str(out), "--no-rdf", "--no-html"]
    assert main(args) == 0
    capsys.readouterr()
    stale = plant(out)
    mb = stale.stat().st_size / 1e6
    cache_files = sorted(p.name for p in (out / ".cache").iterdir() if p != stale)
    assert cache_files  # the build's own cache is there, and must stay

    assert main(args) == 0
    err = capsys.readouterr().err.splitlines()
    said = [line for line in err if "related_terms.npz" in line]
    assert said == [f"removed {stale} ({mb:,.1f} MB), left by an earlier paperkg version and no longer read"]
    assert err.index(said[0]) == 0  # said before the stages run
    assert not stale.exists()
    assert sorted(p.name for p in (out / ".cache").iterdir()) == cache_files
    assert (out / INDEX_DIR / "meta.json").exists()  # what replaced it

    assert main(args) == 0  # nothing left to remove: nothing said
    assert "related_terms" not in capsys.readouterr().err


def test_quiet_build_removes_it_silently(tmp_path, capsys):
    out = tmp_path / "out"
    stale = plant(out, 100)  # a folder never built into, with only the old file
    assert main(["build", "--demo", "-o", str(out), "--no-rdf", "--no-html", "--quiet"]) == 0
    assert not stale.exists()
    assert capsys.readouterr().err == ""


def test_remove_stale_files_only_takes_files(tmp_path):
    ws = Workspace(tmp_path)
    assert STALE_FILES == (STALE,)
    assert remove_stale_files(ws) == []  # no .cache at all
    folder = tmp_path / STALE
    folder.mkdir(parents=True)  # not what an old build wrote: left alone
    said: list[str] = []
    assert remove_stale_files(ws, log=said.append) == [] and said == [] and folder.is_dir()
    folder.rmdir()
    path = plant(tmp_path, 100)
    assert remove_stale_files(ws, log=said.append) == [path]
    assert len(said) == 1 and said[0].startswith(f"removed {path} (0.0 MB)") and not path.exists()
