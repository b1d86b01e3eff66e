"""Writing files so that a failure never leaves a half-written output behind."""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import stat
import tempfile
from pathlib import Path
from typing import IO, Iterator

from kg.errors import WorkspaceError


@functools.lru_cache(maxsize=1)
def _umask() -> int:
    # os.umask can only be read by setting it; done once per process
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def default_mode(*, folder: bool = False) -> int:
    """Permission bits a plain ``open()`` (or ``mkdir``) would give a new file (folder).

    ``tempfile.mkstemp`` creates files readable by their owner only (0600), and ``mkdtemp``
    folders of mode 0700; outputs renamed into place from them would keep those bits, so a
    view, an RDF file or a Neo4j CSV could not be read by a web server or a database running
    as another user. Outputs get the umask's mode instead.
    """
    return (0o777 if folder else 0o666) & ~_umask()


def _make_parent(path: Path) -> None:
    """Create the folder of ``path``, or say in one line why it cannot be."""
    parent = path.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        for ancestor in (parent, *parent.parents):
            if ancestor.exists() or ancestor.is_symlink():
                if not ancestor.is_dir():
                    raise WorkspaceError(f"{path}: cannot write it: {ancestor} is a file, not a folder") from None
                break
        raise WorkspaceError(f"{path}: cannot create its folder {parent}: {exc.strerror or exc}") from None


@contextlib.contextmanager
def atomic_write(path: str | Path, mode: str = "w", *, encoding: str | None = "utf-8") -> Iterator[IO]:
    """Write to a temporary file beside ``path`` and rename it into place on success.

    On an exception the temporary file is removed and ``path`` is left as it was. A symbolic
    link is written through (the file it points to is replaced, the link stays); a device or a
    pipe such as ``/dev/stdout`` is written directly. The new file gets the mode of the file it
    replaces, else the umask's (:func:`default_mode`). A folder in the way, or a file where a
    folder is needed, is a one-line :class:`~kg.errors.WorkspaceError`.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> with atomic_write(p) as fh:
    ...     _ = fh.write("done")
    >>> p.read_text()
    'done'
    """
    path = Path(path)
    enc = None if "b" in mode else encoding
    if path.exists() and not path.is_dir() and not path.is_file():
        # a device or a pipe (``-o /dev/stdout``): nothing to replace, and it must stay what it is
        try:
            with open(path, mode, encoding=enc) as fh:
                yield fh
        except OSError as exc:
            _raise_if_full(exc, path)
            raise
        return
    if path.is_symlink():
        # write to the file the link points to; replacing the link would cut it
        path = Path(os.path.realpath(path))
    if path.is_dir():
        raise WorkspaceError(f"{path}: is a folder; give the name of a file to write")
    _make_parent(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise WorkspaceError(f"{path}: cannot write in {path.parent}: {exc.strerror or exc}") from None
    try:
        try:
            keep = stat.S_IMODE(path.stat().st_mode) if path.is_file() else default_mode()
            os.fchmod(fd, keep)
        except OSError:
            pass  # e.g. a file system without permission bits: the temporary file's mode stays
        with os.fdopen(fd, mode, encoding=enc) as fh:
            yield fh
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            _raise_if_full(exc, path)
        raise


#: Errors of a write that found no room: the file named, not a traceback.
_NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def _raise_if_full(exc: OSError, path: Path) -> None:
    if exc.errno in _NO_ROOM:
        raise WorkspaceError(f"{path}: cannot write: {exc.strerror} (nothing was replaced)") from None


@contextlib.contextmanager
def atomic_dir(path: str | Path) -> Iterator[Path]:
    """Fill a temporary folder beside ``path``; on success it replaces ``path`` whole."""
    import shutil

    path = Path(path)
    if path.exists() and not path.is_dir():
        raise WorkspaceError(f"{path}: is a file; give the name of a folder to write")
    _make_parent(path)
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", dir=path.parent))
    with contextlib.suppress(OSError):
        tmp.chmod(default_mode(folder=True))
    try:
        yield tmp
        if path.exists():
            old = path.with_name(f".{path.name}.old")
            shutil.rmtree(old, ignore_errors=True)
            os.replace(path, old)
            os.replace(tmp, path)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(tmp, path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def remove_temporaries(folder: str | Path, *patterns: str) -> None:
    """Delete the files matching ``patterns`` (globs relative to ``folder``) that a killed earlier
    run left behind: the temporaries of :func:`atomic_write` (``.NAME.*.tmp``) and the like.

    Only regular files go (never a folder or a symlink). A build folder is written by one build at
    a time, so none of them is in use.
    """
    folder = Path(folder)
    for pattern in patterns:
        for p in folder.glob(pattern):
            if p.is_file() and not p.is_symlink():
                p.unlink(missing_ok=True)
