"""Neo4j bulk-import CSV files (``neo4j-admin database import full``).

:func:`write_neo4j` writes into a folder:

- ``nodes_<type>.csv`` per node type: ``id:ID`` (the node key; one global id space, since keys
  are unique across types), ``:LABEL`` (``Paper``, ``Author``, ``Method``, ...) and one typed
  column per property;
- ``rels_<edge type>.csv`` per edge type: ``:START_ID``, ``:END_ID``, ``:TYPE`` (``AUTHORED``,
  ``CITES``, ``COAUTHOR``, ...) and typed property columns; relations stored once for both
  directions carry ``undirected:boolean`` = true;
- ``import.sh``: the ``neo4j-admin`` command that loads them, and ``paperkg-neo4j.json``: the
  manifest :func:`read_neo4j` uses to read the files back.

Header and value rules (Neo4j's import header format): a column is ``name:int`` (``long`` when
a value does not fit 32 bits), ``name:double``, ``name:boolean`` or ``name:string``, the most
general type over the rows (bool < int < float < string). A list whose items are all strings
free of the array delimiter becomes ``name:string[]`` (``int[]``, ``double[]``, ``boolean[]``
likewise), items joined by :data:`ARRAY_DELIMITER` (``;``, neo4j-admin's default, passed
explicitly in ``import.sh``). Any other list or dict (evidence, shared items) is JSON text in a
``string`` column, named in the manifest. ``None`` and an empty list are an empty cell, which
neo4j-admin skips, so the property is absent. CSV quoting is RFC 4180 (``"`` doubled); fields may span lines, so
``import.sh`` passes ``--multiline-fields=true``.
"""

from __future__ import annotations

import csv
import enum
import io
import json
import shlex
from pathlib import Path
from typing import Any, Hashable, Iterable, Mapping

import networkx as nx

from kg.errors import InputError
from kg.io import atomic_write

__all__ = ["ARRAY_DELIMITER", "label_of", "rel_type_of", "to_neo4j", "write_neo4j", "read_neo4j"]

ARRAY_DELIMITER = ";"
MANIFEST = "paperkg-neo4j.json"
_INT32 = 2 ** 31
_SCALAR = {bool: "boolean", int: "int", float: "double", str: "string"}
_RANK = {"boolean": 0, "int": 1, "long": 2, "double": 3, "string": 4}


def label_of(node_type: str) -> str:
    """Neo4j label of a node type: ``"paper"`` -> ``"Paper"``.

    Examples
    --------
    >>> label_of("benchmark")
    'Benchmark'
    """
    return "".join(part.capitalize() for part in str(node_type).split("_")) or "Node"


def rel_type_of(edge_key: str) -> str:
    """Neo4j relationship type of an edge key: ``"evaluates_on"`` -> ``"EVALUATES_ON"``."""
    return str(edge_key).upper()


def _plain(v: Any) -> Any:
    """Enums -> their value, NumPy scalars -> Python scalars."""
    if isinstance(v, enum.Enum):
        return v.value
    if type(v).__module__ == "numpy" and hasattr(v, "item"):
        return v.item()
    return v


def _scalar_type(v: Any) -> str | None:
    t = _SCALAR.get(type(_plain(v)))
    if t == "int" and not -_INT32 <= v < _INT32:
        return "long"
    return t


def _column_kind(values: list[Any]) -> tuple[str, bool]:
    """``(neo4j type, is_json)`` of a column from its non-None values."""
    array_items: list[Any] = []
    all_arrays = True
    any_container = False
    for v in values:
        if isinstance(v, (list, tuple, set, frozenset)):
            any_container = True
            array_items.extend(v)
            if any(not isinstance(x, (str, int, float, bool)) for x in v):
                all_arrays = False
        elif isinstance(v, dict):
            any_container = True
            all_arrays = False
        else:
            all_arrays = False
    if any_container and all_arrays:
        kinds = {_scalar_type(x) for x in array_items} or {"string"}
        kind = max(kinds, key=_RANK.__getitem__)
        if kind == "string" and any(ARRAY_DELIMITER in str(x) for x in array_items):
            return "string", True
        return kind + "[]", False
    if any_container:
        return "string", True
    kinds = {_scalar_type(v) or "string" for v in values}
    return max(kinds, key=_RANK.__getitem__), False


def _cell(v: Any, kind: str, is_json: bool) -> str:
    if v is None:
        return ""
    if is_json:
        if isinstance(v, (set, frozenset)):
            v = sorted(v, key=str)
        return json.dumps(v, ensure_ascii=False, sort_keys=True, default=str)
    if kind.endswith("[]"):
        items = sorted(v, key=str) if isinstance(v, (set, frozenset)) else list(v)
        return ARRAY_DELIMITER.join(_cell(x, kind[:-2], False) for x in items)
    if kind == "boolean":
        return "true" if v else "false"
    if kind == "double":
        return repr(float(v))
    if kind in ("int", "long"):
        return str(int(v))
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def _table(rows: list[dict[str, Any]], fixed: list[str]) -> tuple[list[str], list[list[str]], list[str]]:
    """Header, cells and JSON-column names for rows of properties (``fixed`` columns first)."""
    names: dict[str, list[Any]] = {}
    for row in rows:
        for k, v in row.items():
            if k not in fixed and v is not None:
                names.setdefault(k, []).append(v)
    header = list(fixed)
    kinds: list[tuple[str, str, bool]] = []
    json_cols = []
    for name in sorted(names):
        kind, is_json = _column_kind(names[name])
        kinds.append((name, kind, is_json))
        header.append(f"{name}:{kind}")
        if is_json:
            json_cols.append(name)
    body = []
    for row in rows:
        body.append([str(row[f]) for f in fixed] + [_cell(row.get(n), k, j) for n, k, j in kinds])
    return header, body, json_cols


def _csv_text(header: list[str], body: list[list[str]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(body)
    return buf.getvalue()


def _type_of(n: Hashable, d: Mapping[str, Any]) -> str:
    t = d.get("type")
    if t is None:
        t = str(n).split(":", 1)[0] if ":" in str(n) else "node"
    return str(_plain(t))


def to_neo4j(G: nx.MultiDiGraph) -> dict[str, str]:
    """File name -> text of every file :func:`write_neo4j` writes."""
    files: dict[str, str] = {}
    manifest: dict[str, Any] = {"array_delimiter": ARRAY_DELIMITER, "nodes": {}, "relationships": {},
                                "graph": {k: _plain(v) for k, v in G.graph.items()}}
    by_type: dict[str, list[dict[str, Any]]] = {}
    for n, d in G.nodes(data=True):
        t = _type_of(n, d)
        row = {k: _plain(v) for k, v in d.items()}
        row["id:ID"] = str(n)
        row[":LABEL"] = label_of(t)
        by_type.setdefault(t, []).append(row)
    for t in sorted(by_type):
        header, body, json_cols = _table(by_type[t], ["id:ID", ":LABEL"])
        name = f"nodes_{t}.csv"
        files[name] = _csv_text(header, body)
        manifest["nodes"][name] = {"label": label_of(t), "type": t, "json": json_cols}
    by_rel: dict[str, list[dict[str, Any]]] = {}
    for u, v, k, d in G.edges(keys=True, data=True):
        row = {kk: _plain(vv) for kk, vv in d.items()}
        row[":START_ID"], row[":END_ID"], row[":TYPE"] = str(u), str(v), rel_type_of(_plain(k))
        by_rel.setdefault(str(_plain(k)), []).append(row)
    for k in sorted(by_rel):
        header, body, json_cols = _table(by_rel[k], [":START_ID", ":END_ID", ":TYPE"])
        name = f"rels_{k}.csv"
        files[name] = _csv_text(header, body)
        manifest["relationships"][name] = {"type": rel_type_of(k), "key": k, "json": json_cols}
    args = ["neo4j-admin", "database", "import", "full", f"--array-delimiter={ARRAY_DELIMITER}",
            "--multiline-fields=true", "--overwrite-destination=true"]
    args += [f"--nodes={name}" for name in manifest["nodes"]]
    args += [f"--relationships={name}" for name in manifest["relationships"]]
    files["import.sh"] = ("#!/bin/sh\n# Load this folder into a stopped Neo4j 5 server (database name as $1, default neo4j).\n"
                          "cd \"$(dirname \"$0\")\" || exit 1\n"
                          + " ".join(shlex.quote(a) for a in args) + ' "${1:-neo4j}"\n')
    files[MANIFEST] = json.dumps(manifest, ensure_ascii=False, indent=1, sort_keys=True, default=str) + "\n"
    return files


def write_neo4j(G: nx.MultiDiGraph, folder: str | Path) -> list[Path]:
    """Write the bulk-import CSVs, ``import.sh`` and the manifest into ``folder``; returns the paths."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise InputError("exists and is not a folder (Neo4j export writes several files)", path=str(folder))
    out = []
    for name, text in to_neo4j(G).items():
        path = folder / name
        with atomic_write(path, encoding="utf-8") as fh:
            fh.write(text)
        if name == "import.sh":
            path.chmod(0o755)
        out.append(path)
    return out


def _parse(value: str, kind: str, is_json: bool) -> Any:
    if value == "":
        return None
    if is_json:
        return json.loads(value)
    if kind.endswith("[]"):
        return [_parse(x, kind[:-2], False) for x in value.split(ARRAY_DELIMITER)]
    if kind == "boolean":
        return value == "true"
    if kind in ("int", "long"):
        return int(value)
    if kind in ("double", "float"):
        return float(value)
    return value


def _read_table(path: Path, json_cols: Iterable[str]) -> Iterable[dict[str, Any]]:
    json_set = set(json_cols)
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh)
        try:
            header = next(reader)
        except StopIteration:
            raise InputError("empty CSV file", path=str(path)) from None
        cols = []
        for h in header:
            name, _, kind = h.rpartition(":") if not h.startswith(":") else (h, "", "")
            cols.append((h if h.startswith(":") or kind == "ID" else name, kind or "string"))
        for row in reader:
            out: dict[str, Any] = {}
            for (name, kind), value in zip(cols, row):
                if name.startswith(":") or kind == "ID":
                    out[name if name.startswith(":") else ":ID"] = value
                else:
                    parsed = _parse(value, kind, name in json_set)
                    if parsed is not None:
                        out[name] = parsed
            yield out


def read_neo4j(folder: str | Path) -> nx.MultiDiGraph:
    """Read a folder written by :func:`write_neo4j` back as a MultiDiGraph (round trip).

    Properties whose cell was empty (``None``, or an empty string) are absent.
    """
    folder = Path(folder)
    manifest_path = folder / MANIFEST
    if not manifest_path.is_file():
        raise InputError(f"no {MANIFEST}: not a paperkg Neo4j export", path=str(folder))
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    G = nx.MultiDiGraph()
    G.graph.update(manifest.get("graph") or {})
    for name, info in manifest["nodes"].items():
        for row in _read_table(folder / name, info.get("json", ())):
            key = row.pop(":ID")
            row.pop(":LABEL", None)
            G.add_node(key, **row)
    for name, info in manifest["relationships"].items():
        for row in _read_table(folder / name, info.get("json", ())):
            u, v = row.pop(":START_ID"), row.pop(":END_ID")
            row.pop(":TYPE", None)
            G.add_edge(u, v, key=info["key"], **row)
    return G
