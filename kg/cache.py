"""A content-keyed cache in the build folder that makes re-runs incremental.

Keys hash the content that produced a value together with the version of the code that produced
it (:data:`kg.PIPELINE_VERSION`, the extractor version), so a cached value is never stale: new
code or new content simply misses. Values are JSON text in one SQLite file.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any, Iterable, Iterator


def file_digest(path: str | Path) -> str:
    h = hashlib.sha1()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


class Cache:
    """Key-value tables in ``<dir>/cache.sqlite``."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.directory / "cache.sqlite")
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._tables: set[str] = set()

    def _table(self, name: str) -> str:
        if not name.isidentifier():
            raise ValueError(f"bad cache table name {name!r}")
        if name not in self._tables:
            self._db.execute(f"CREATE TABLE IF NOT EXISTS {name} (k TEXT PRIMARY KEY, v TEXT NOT NULL)")
            self._tables.add(name)
        return name

    def get(self, table: str, key: str) -> Any | None:
        row = self._db.execute(f"SELECT v FROM {self._table(table)} WHERE k = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def get_many(self, table: str, keys: Iterable[str]) -> dict[str, Any]:
        t = self._table(table)
        keys = list(dict.fromkeys(keys))
        out: dict[str, Any] = {}
        for i in range(0, len(keys), 900):  # SQLite's bound-parameter limit
            chunk = keys[i:i + 900]
            marks = ",".join("?" * len(chunk))
            for k, v in self._db.execute(f"SELECT k, v FROM {t} WHERE k IN ({marks})", chunk):
                out[k] = json.loads(v)
        return out

    def put(self, table: str, key: str, value: Any) -> None:
        self.put_many(table, [(key, value)])

    def put_many(self, table: str, items: Iterable[tuple[str, Any]]) -> None:
        t = self._table(table)
        with self._db:
            self._db.executemany(
                f"INSERT OR REPLACE INTO {t} (k, v) VALUES (?, ?)",
                ((k, json.dumps(v, ensure_ascii=False)) for k, v in items),
            )

    def keys(self, table: str) -> Iterator[str]:
        for (k,) in self._db.execute(f"SELECT k FROM {self._table(table)}"):
            yield k

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "Cache":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
