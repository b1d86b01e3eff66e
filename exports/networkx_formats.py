"""GraphML, GEXF and node-link JSON: the graph for Gephi, yEd, Cytoscape, D3 and NetworkX.

Each format has ``to_<fmt>(G) -> str``, ``write_<fmt>(G, path)`` and ``read_<fmt>(path) ->
nx.MultiDiGraph``; reading back what was written gives the same nodes, edges (with their
:class:`~kg.schema.EdgeType` keys), types and weights.

Attribute values (GraphML and GEXF)
-----------------------------------
GraphML and GEXF hold only scalars, one type per attribute name. Values are converted by one
rule, applied to graph, node and edge attributes alike:

- ``str``, ``int``, ``float``, ``bool`` are kept (NumPy scalars become Python ones; an enum
  becomes its value);
- ``None`` is omitted (the element simply lacks the attribute);
- lists, tuples, sets and dicts become JSON text (``ensure_ascii=False``, dict keys sorted,
  sets sorted), and the attribute is named in the graph attribute ``paperkg_json`` (a JSON
  object ``{"graph": [...], "node": [...], "edge": [...]}``) so :func:`read_graphml` and
  :func:`read_gexf` turn the text back into lists and dicts;
- when one attribute name has values of several types, every value of it is written as the
  most general one (bool < int < float < str): ``weight`` 1 and 2.5 are both written as
  floats, and ``year`` 2024 beside ``"n.d."`` as strings;
- anything else is written as ``str(value)``.

In GEXF, node ``label`` is the GEXF node label and edge ``weight`` the GEXF edge weight (a
float); NetworkX reads both back under the same names. GEXF has no graph attributes: they are
written as a JSON object ``{"paperkg_graph": {...}}`` in ``<meta><description>``. Edge keys are
written as the GEXF edge label (and by NetworkX as the attribute ``networkx_key``); an edge
attribute named ``label`` is not kept in GEXF.

Node-link JSON
--------------
JSON holds lists, dicts and null, so no conversion is needed. The key names are pinned
(NetworkX has changed its defaults before, ``links`` -> ``edges``)::

    {"directed": true, "multigraph": true, "graph": {...},
     "nodes": [{"id": "<node key>", <node attributes>...}, ...],
     "edges": [{"from": "<key>", "to": "<key>", "key": "<edge type>", <edge attributes>...}, ...]}

``from``/``to`` rather than NetworkX's ``source``/``target`` because ``cites`` edges have an
attribute named ``source``. A node attribute named ``id`` or an edge attribute named
``from``, ``to`` or ``key`` (none exists in :mod:`kg.schema`) is written as ``attr_<name>``.
"""

from __future__ import annotations

import enum
import io
import json
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

import networkx as nx

from kg.errors import InputError
from kg.io import atomic_write

__all__ = [
    "to_graphml", "write_graphml", "read_graphml", "to_gexf", "write_gexf", "read_gexf",
    "to_json", "write_json", "read_json", "scalar_graph", "JSON_KEYS",
]

#: The pinned key names of node-link JSON (arguments of nx.node_link_data / node_link_graph).
JSON_KEYS: dict[str, str] = {"nodes": "nodes", "edges": "edges", "name": "id", "source": "from",
                             "target": "to", "key": "key"}
#: Graph attribute that lists the attributes stored as JSON text in GraphML/GEXF.
JSON_ATTR = "paperkg_json"
_RANK = {bool: 0, int: 1, float: 2, str: 3}


# --------------------------------------------------------------------------- value conversion

def _plain(value: Any) -> Any:
    """Python scalar or container for ``value`` (enums -> value, NumPy -> Python)."""
    if isinstance(value, enum.Enum):
        return _plain(value.value)
    if hasattr(value, "item") and callable(value.item) and type(value).__module__ == "numpy":
        return value.item()
    return value


def _json_default(value: Any) -> Any:
    value = _plain(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    if isinstance(value, tuple):
        return list(value)
    return str(value)


def _to_json_text(value: Any) -> str:
    if isinstance(value, (set, frozenset)):
        value = sorted(value, key=str)
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=_json_default)


def _convert(attrs: Mapping[str, Any], json_names: set[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in attrs.items():
        value = _plain(value)
        if value is None:
            continue
        if isinstance(value, (list, tuple, set, frozenset, dict)):
            out[name] = _to_json_text(value)
            json_names.add(name)
        elif isinstance(value, (str, bool, int, float)):
            out[name] = value
        else:
            out[name] = str(value)
    return out


def _unify(rows: list[dict[str, Any]]) -> None:
    """Give every attribute name one type across ``rows`` (the most general one seen)."""
    kinds: dict[str, int] = {}
    for row in rows:
        for name, value in row.items():
            r = _RANK[type(value)] if type(value) in _RANK else 3
            kinds[name] = max(kinds.get(name, 0), r)
    for row in rows:
        for name, value in row.items():
            r = kinds[name]
            if r == 3 and not isinstance(value, str):
                row[name] = json.dumps(value) if isinstance(value, bool) else str(value)
            elif r == 2 and not isinstance(value, float):
                row[name] = float(value)
            elif r == 1 and isinstance(value, bool):
                row[name] = int(value)


def scalar_graph(G: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy of ``G`` whose attributes GraphML and GEXF can hold (the rule in the module doc)."""
    names: dict[str, set[str]] = {"graph": set(), "node": set(), "edge": set()}
    graph_attrs = _convert({k: v for k, v in G.graph.items() if k != JSON_ATTR}, names["graph"])
    _unify([graph_attrs])
    nodes = [(n, _convert(d, names["node"])) for n, d in G.nodes(data=True)]
    _unify([d for _, d in nodes])
    edges = [(u, v, k, _convert(d, names["edge"])) for u, v, k, d in G.edges(keys=True, data=True)]
    _unify([d for *_, d in edges])
    H = nx.MultiDiGraph()
    H.graph.update(graph_attrs)
    H.graph[JSON_ATTR] = json.dumps({k: sorted(v) for k, v in names.items()}, sort_keys=True)
    H.add_nodes_from((str(_plain(n)), d) for n, d in nodes)
    for u, v, k, d in edges:
        H.add_edge(str(_plain(u)), str(_plain(v)), key=str(_plain(k)), **d)
    return H


def _restore(G: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """Decode the attributes listed in ``paperkg_json`` (inverse of :func:`scalar_graph`)."""
    raw = G.graph.pop(JSON_ATTR, None)
    if not raw:
        return G
    names = json.loads(raw)

    def decode(attrs: dict[str, Any], which: Iterable[str]) -> None:
        for name in which:
            if isinstance(attrs.get(name), str):
                try:
                    attrs[name] = json.loads(attrs[name])
                except ValueError:
                    pass
    decode(G.graph, names.get("graph", ()))
    node_names = names.get("node", ())
    for _, d in G.nodes(data=True):
        decode(d, node_names)
    edge_names = names.get("edge", ())
    for *_, d in G.edges(keys=True, data=True):
        decode(d, edge_names)
    return G


def _as_multidigraph(G: nx.Graph) -> nx.MultiDiGraph:
    if isinstance(G, nx.MultiDiGraph):
        return G
    H = nx.MultiDiGraph()
    H.graph.update(G.graph)
    H.add_nodes_from(G.nodes(data=True))
    if G.is_multigraph():
        H.add_edges_from(G.edges(keys=True, data=True))
    else:
        H.add_edges_from((u, v, d.pop("id", None) or "0", d) for u, v, d in G.edges(data=True))
    return H


# --------------------------------------------------------------------------- GraphML

def to_graphml(G: nx.MultiDiGraph) -> str:
    """GraphML text of ``G`` (edge keys written as edge ``id``; values per the module rule).

    Examples
    --------
    >>> G = nx.MultiDiGraph(); G.add_edge("a", "b", key="cites", weight=2, evidence=[{"rule": "r"}])
    'cites'
    >>> H = nx.MultiDiGraph(read_graphml(io.BytesIO(to_graphml(G).encode())))
    >>> H.edges["a", "b", "cites"]["evidence"]
    [{'rule': 'r'}]
    """
    return "\n".join(nx.generate_graphml(scalar_graph(G), encoding="utf-8", prettyprint=True)) + "\n"


def write_graphml(G: nx.MultiDiGraph, path: str | Path) -> Path:
    """Write ``G`` as GraphML (UTF-8) to ``path``."""
    path = Path(path)
    with atomic_write(path, encoding="utf-8") as fh:
        fh.write(to_graphml(G))
    return path


def read_graphml(path: str | Path | io.IOBase) -> nx.MultiDiGraph:
    """Read a GraphML file written by :func:`write_graphml` (or any GraphML) as a MultiDiGraph."""
    try:
        G = nx.read_graphml(path, node_type=str, edge_key_type=str, force_multigraph=True)
    except Exception as exc:  # lxml/ElementTree errors, bad keys
        raise InputError(f"not readable as GraphML: {exc}", path=str(path)) from exc
    for k in ("node_default", "edge_default"):
        if not G.graph.get(k):
            G.graph.pop(k, None)
    return _restore(_as_multidigraph(G))


# --------------------------------------------------------------------------- GEXF

def to_gexf(G: nx.MultiDiGraph) -> str:
    """GEXF 1.2 text of ``G`` (edge keys written as edge ``id``; values per the module rule)."""
    H = scalar_graph(G)
    # NetworkX reads a GEXF without parallel edges as a DiGraph and drops the keys, so the key
    # also travels as the GEXF edge label (which Gephi shows).
    for *_, k, d in H.edges(keys=True, data=True):
        d["label"] = k
    from xml.etree.ElementTree import SubElement

    from networkx.readwrite.gexf import GEXFWriter

    writer = GEXFWriter(encoding="utf-8", prettyprint=True, version="1.2draft")
    meta = writer.xml.find("meta")
    # GEXF has no graph attributes; they travel as JSON in <meta><description>.
    SubElement(meta, "description").text = json.dumps(
        {"paperkg_graph": {k: v for k, v in H.graph.items()}}, ensure_ascii=False, sort_keys=True)
    writer.add_graph(H)
    return str(writer)


def write_gexf(G: nx.MultiDiGraph, path: str | Path) -> Path:
    """Write ``G`` as GEXF (UTF-8) to ``path``."""
    path = Path(path)
    with atomic_write(path, encoding="utf-8") as fh:
        fh.write(to_gexf(G))
    return path


def read_gexf(path: str | Path | io.IOBase) -> nx.MultiDiGraph:
    """Read a GEXF file written by :func:`write_gexf` back as a MultiDiGraph with its edge keys."""
    from xml.etree import ElementTree

    try:
        data = path.read() if isinstance(path, io.IOBase) else Path(path).read_bytes()
        root = ElementTree.fromstring(data)
        raw = nx.read_gexf(io.BytesIO(data), node_type=str, version="1.2draft")
    except Exception as exc:
        raise InputError(f"not readable as GEXF: {exc}", path=str(path)) from exc
    G = nx.MultiDiGraph()
    G.graph.update({k: v for k, v in raw.graph.items() if k not in ("mode", "node_default", "edge_default")})
    for el in root.iter():
        if el.tag.rsplit("}", 1)[-1] == "description" and el.text:
            try:
                G.graph.update(json.loads(el.text).get("paperkg_graph", {}))
            except (ValueError, AttributeError):
                pass
    G.add_nodes_from(raw.nodes(data=True))
    edges: Iterator[tuple[Any, Any, Any, dict[str, Any]]]
    if raw.is_multigraph():
        edges = ((u, v, k, dict(d)) for u, v, k, d in raw.edges(keys=True, data=True))
    else:
        edges = ((u, v, None, dict(d)) for u, v, d in raw.edges(data=True))
    for u, v, k, d in edges:
        d.pop("id", None)
        G.add_edge(u, v, key=d.pop("label", k), **d)
    return _restore(G)


# --------------------------------------------------------------------------- node-link JSON

def _reserved(attrs: Mapping[str, Any], reserved: set[str]) -> dict[str, Any]:
    return {(f"attr_{k}" if k in reserved else k): _plain(v) for k, v in attrs.items()}


def to_json(G: nx.MultiDiGraph, *, indent: int | None = None) -> str:
    """Node-link JSON of ``G`` with the pinned key names of :data:`JSON_KEYS`."""
    H = nx.MultiDiGraph()
    H.graph.update(G.graph)
    H.add_nodes_from((n, _reserved(d, {JSON_KEYS["name"]})) for n, d in G.nodes(data=True))
    edge_reserved = {JSON_KEYS["source"], JSON_KEYS["target"], JSON_KEYS["key"]}
    H.add_edges_from((u, v, _plain(k), _reserved(d, edge_reserved)) for u, v, k, d in G.edges(keys=True, data=True))
    data = nx.node_link_data(H, **JSON_KEYS)
    return json.dumps(data, ensure_ascii=False, indent=indent, default=_json_default) + "\n"


def write_json(G: nx.MultiDiGraph, path: str | Path, *, indent: int | None = None) -> Path:
    """Write node-link JSON (UTF-8) to ``path``."""
    path = Path(path)
    with atomic_write(path, encoding="utf-8") as fh:
        fh.write(to_json(G, indent=indent))
    return path


def read_json(path: str | Path) -> nx.MultiDiGraph:
    """Read node-link JSON written by :func:`write_json` as a MultiDiGraph."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        G = nx.node_link_graph(data, directed=True, multigraph=True, **JSON_KEYS)
    except (ValueError, KeyError, TypeError) as exc:
        raise InputError(f"not paperkg node-link JSON: {exc}", path=str(path)) from exc
    return _as_multidigraph(G)
