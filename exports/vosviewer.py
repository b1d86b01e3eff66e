"""VOSviewer JSON (map and network) for VOSviewer Online and VOSviewer 1.6.16+.

The file is one object (VOSviewer's JSON file type, as documented in the VOSviewer Online
repository, ``neesjanvaneck/VOSviewer-Online``)::

    {"network": {"items": [{"id": 1, "label": "...", "description": "...",
                            "x": 0.12, "y": -0.5, "cluster": 2,
                            "weights": {"Links": 4, "Total link strength": 7, "Documents": 3},
                            "scores": {"Avg. pub. year": 2023.5}}, ...],
                 "links": [{"source_id": 1, "target_id": 2, "strength": 3}, ...]},
     "config": {"terminology": {...}, "parameters": {...}}}

- Items are the graph's nodes (optionally only some types), numbered from 1 in node order;
  ``label`` is the display label of :func:`exports.html.node_label`; ``description`` is
  HTML-escaped text (VOSviewer Online renders it as HTML) with the node type and key.
- ``cluster`` is the node's ``community`` attribute + 1 (VOSviewer numbers clusters from 1);
  a node without one takes the most common cluster of its neighbours, else none.
- ``x``/``y`` come from :func:`exports.html.layout_positions` (the map part), scaled to about
  unit size.
- A link joins two items once, however many edges (of whatever type, either direction) join
  them in the graph; ``strength`` is the sum of their ``weight`` (1 when absent).
- ``weights``: ``Links`` (distinct linked items), ``Total link strength``, ``Documents``
  (``n_papers`` of authors and entities; 1 for a paper). ``scores``: ``Avg. pub. year`` of the
  papers of an author or entity (a paper's own year), and ``PageRank`` when present.
"""

from __future__ import annotations

import html
import json
from collections import Counter
from pathlib import Path
from typing import Any, Hashable, Iterable

import networkx as nx

from kg.errors import InputError
from kg.io import atomic_write
from kg.schema import NodeType

__all__ = ["to_vosviewer_data", "to_vosviewer", "write_vosviewer", "read_vosviewer"]


def _paper_years(G: nx.MultiDiGraph, n: Hashable) -> list[float]:
    years = []
    for m in (*G.successors(n), *G.predecessors(n)):
        d = G.nodes[m]
        if str(d.get("type")) == NodeType.PAPER.value and isinstance(d.get("year"), (int, float)):
            years.append(float(d["year"]))
    return years


def to_vosviewer_data(G: nx.MultiDiGraph, *, types: Iterable[str] | None = None, seed: int = 0) -> dict[str, Any]:
    """The VOSviewer JSON object of ``G`` (see the module docstring).

    Parameters
    ----------
    types : iterable of node types, optional
        Keep only these node types (e.g. ``["author"]`` for a co-author map); default all.
    """
    from exports.html import layout_positions, node_label

    if types is not None:
        wanted = {str(NodeType(t).value) for t in types}
        nodes = [n for n, t in G.nodes(data="type") if str(t) in wanted]
        H = G.subgraph(nodes)
    else:
        H = G
    ids = {n: i for i, n in enumerate(H, start=1)}
    strength: Counter[tuple[int, int]] = Counter()
    for u, v, d in H.edges(data=True):
        if u == v:
            continue
        w = d.get("weight")
        try:
            w = float(w) if w is not None else 1.0
        except (TypeError, ValueError):
            w = 1.0
        a, b = sorted((ids[u], ids[v]))
        strength[(a, b)] += w
    links_of: Counter[int] = Counter()
    total: Counter[int] = Counter()
    for (a, b), s in strength.items():
        links_of[a] += 1
        links_of[b] += 1
        total[a] += s
        total[b] += s
    community = {n: c for n, c in H.nodes(data="community") if c is not None}
    pos = layout_positions(H, seed=seed)
    scale = max((max(abs(x), abs(y)) for x, y in pos.values()), default=1.0) or 1.0
    items = []
    for n, d in H.nodes(data=True):
        i = ids[n]
        t = str(d.get("type") or str(n).split(":", 1)[0])
        item: dict[str, Any] = {
            "id": i,
            "label": node_label(G, n),
            "description": f"{html.escape(t)}: {html.escape(str(d.get('name') or d.get('title') or node_label(G, n)))}"
                           f"<br>{html.escape(str(n))}",
            "x": round(pos[n][0] / scale, 4),
            "y": round(-pos[n][1] / scale, 4),
        }
        c = community.get(n)
        if c is None:
            votes = Counter(community[m] for m in (*H.successors(n), *H.predecessors(n)) if m in community)
            c = votes.most_common(1)[0][0] if votes else None
        if c is not None:
            try:
                item["cluster"] = int(c) + 1
            except (TypeError, ValueError):
                pass
        docs = 1 if t == NodeType.PAPER.value else d.get("n_papers")
        weights = {"Links": links_of[i], "Total link strength": _num(total[i])}
        if isinstance(docs, (int, float)):
            weights["Documents"] = docs
        item["weights"] = weights
        scores: dict[str, float] = {}
        years = ([float(d["year"])] if t == NodeType.PAPER.value and isinstance(d.get("year"), (int, float))
                 else _paper_years(G, n) if t != NodeType.PAPER.value else [])
        if years:
            scores["Avg. pub. year"] = round(sum(years) / len(years), 2)
        if isinstance(d.get("pagerank"), (int, float)):
            scores["PageRank"] = float(d["pagerank"])
        if scores:
            item["scores"] = scores
        items.append(item)
    links = [{"source_id": a, "target_id": b, "strength": _num(s)} for (a, b), s in sorted(strength.items())]
    return {
        "network": {"items": items, "links": links},
        "config": {
            "terminology": {"item": "node", "items": "nodes", "link": "link", "links": "links",
                            "link_strength": "weight", "total_link_strength": "total weight"},
            "parameters": {"attraction": 2, "repulsion": 1, "largest_component": False},
        },
    }


def _num(x: float) -> int | float:
    return int(x) if float(x).is_integer() else round(float(x), 6)


def to_vosviewer(G: nx.MultiDiGraph, *, types: Iterable[str] | None = None, seed: int = 0) -> str:
    """VOSviewer JSON text of ``G``."""
    return json.dumps(to_vosviewer_data(G, types=types, seed=seed), ensure_ascii=False, indent=1) + "\n"


def write_vosviewer(G: nx.MultiDiGraph, path: str | Path, *, types: Iterable[str] | None = None,
                    seed: int = 0) -> Path:
    """Write VOSviewer JSON (UTF-8) to ``path``."""
    path = Path(path)
    with atomic_write(path, encoding="utf-8") as fh:
        fh.write(to_vosviewer(G, types=types, seed=seed))
    return path


def read_vosviewer(path: str | Path) -> nx.Graph:
    """Read VOSviewer JSON as an undirected graph: items (attributes kept) and weighted links."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        network = data["network"]
        G = nx.Graph()
        for item in network.get("items", []):
            G.add_node(item["id"], **{k: v for k, v in item.items() if k != "id"})
        for link in network.get("links", []):
            G.add_edge(link["source_id"], link["target_id"], strength=link.get("strength", 1))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"not VOSviewer JSON: {exc}", path=str(path)) from exc
    return G

