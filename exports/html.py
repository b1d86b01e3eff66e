"""Interactive HTML views of the graph: one self-contained page per view, drawn by vis-network.

A page is ONE UTF-8 file that loads nothing over the network: the vis-network script and
stylesheet bundled inside the ``pyvis`` package (``pyvis/lib/vis-9.1.2``) are inlined, with our
own template (``exports/data/html_view.*``) instead of pyvis's, which pulls Bootstrap and
tom-select from CDNs and writes a ``lib/`` folder into the current directory. pyvis's
``Network.add_node``/``add_edge`` check membership in Python lists (quadratic: see
``bench/bench_html.py``), so the node and edge lists are built here directly.

Safety: every string from the data reaches the page inside a JSON ``<script
type="application/json">`` block with ``<``, ``>`` and ``&`` escaped, is read with
``JSON.parse``, and is shown only through ``textContent``, canvas text, or vis-network
tooltips given plain strings (vis-network 9 sets those with ``innerText``). Nothing from the
data is ever parsed as HTML.

Speed: positions are computed in Python (:func:`layout_positions`) and physics is off, so the
browser draws once instead of simulating, and what it draws first is the settled picture. Above
``budget`` nodes a view keeps the most central ones (PageRank when the graph has it, else
degree) and says so on the page.

Legibility: each node's box covers its shape and its label (label widths from Arial's metrics,
vis-network's default face, :func:`text_width`), and the layout moves boxes apart until no two
overlap (:func:`separate_boxes`), so no label is drawn over another at any zoom;
``tests/exports/test_html_layout.py`` checks it against the boxes Chromium draws.
"""

from __future__ import annotations

import html as _html
import importlib.util
import json
import math
import re
import unicodedata
from collections import Counter
from difflib import get_close_matches
from pathlib import Path
from typing import Any, Hashable, Iterable, Mapping

import networkx as nx
import numpy as np

from kg.errors import NotFoundError, PaperkgError
from kg.io import atomic_write, remove_temporaries
from kg.schema import EdgeType, NodeType, slugify
from kg.text import digest

__all__ = [
    "NODE_STYLES", "to_html", "write_html", "find_node", "ego_graph", "community_graph",
    "select_view", "write_site", "layout_positions", "node_label", "node_tooltip", "node_box",
    "text_width", "separate_boxes", "count_overlaps",
]

DEFAULT_BUDGET = 2000
VIS_VERSION = "9.1.2"
_DATA = Path(__file__).with_name("data")

#: Colour, vis-network shape and legend text of each node type (colour-blind-safe Tableau 10).
NODE_STYLES: dict[str, dict[str, str]] = {
    NodeType.PAPER.value: {"color": "#4e79a7", "shape": "dot", "name": "Paper"},
    NodeType.AUTHOR.value: {"color": "#f28e2b", "shape": "diamond", "name": "Author"},
    NodeType.METHOD.value: {"color": "#59a14f", "shape": "square", "name": "Method"},
    NodeType.BENCHMARK.value: {"color": "#e15759", "shape": "triangle", "name": "Benchmark"},
    NodeType.CONCEPT.value: {"color": "#b07aa1", "shape": "hexagon", "name": "Concept"},
    NodeType.CATEGORY.value: {"color": "#9c755f", "shape": "star", "name": "Category"},
    NodeType.WORK.value: {"color": "#bab0ac", "shape": "triangleDown", "name": "Cited work"},
}
_OTHER_STYLE = {"color": "#79706e", "shape": "dot", "name": "Other"}

_ENTITY_EDGES = {
    EdgeType.PROPOSES.value: "Proposes", EdgeType.USES.value: "Uses methods",
    EdgeType.INTRODUCES.value: "Introduces benchmarks", EdgeType.EVALUATES_ON.value: "Evaluated on",
    EdgeType.ABOUT.value: "Concepts", EdgeType.IN_CATEGORY.value: "Category",
    EdgeType.CITES.value: "Cites",
}
_LIST_MAX = 12
_LABEL_MAX = 40


# --------------------------------------------------------------------------- labels and tooltips

def _str(value: Any) -> str:
    return "" if value is None else str(value)


def _short(text: str, n: int = _LABEL_MAX) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def _first_words(text: str, words: int = 6) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + ("…" if len(parts) > words else "")


def _type_of(data: Mapping[str, Any], key: Hashable) -> str:
    t = data.get("type")
    if t is not None:
        return str(t.value if isinstance(t, NodeType) else t)
    head = str(key).split(":", 1)[0]
    return head if head in NODE_STYLES else "other"


def _edge_kind(key: Any, data: Mapping[str, Any]) -> str:
    k = data.get("type", key)
    return str(k.value if isinstance(k, EdgeType) else k)


def node_label(G: nx.MultiDiGraph, n: Hashable) -> str:
    """Short display text of node ``n``.

    A paper shows its title; without a title, the name of the method it proposes; else the
    first words of its abstract. Other nodes show their ``label`` or ``name``.

    Examples
    --------
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("paper:1", type="paper", title=None, abstract="We study sparse attention in long contexts today")
    >>> node_label(G, "paper:1")
    'We study sparse attention in long…'
    """
    d = G.nodes[n]
    if _type_of(d, n) == NodeType.PAPER.value:
        if d.get("title"):
            return _short(_str(d["title"]))
        for _, m, k in G.out_edges(n, keys=True):
            if str(k) == EdgeType.PROPOSES.value:
                return _short(_str(G.nodes[m].get("name") or G.nodes[m].get("label") or m))
        if d.get("abstract"):
            return _short(_first_words(_str(d["abstract"])))
    return _short(_str(d.get("label") or d.get("name") or n))


def _names(G: nx.MultiDiGraph, nodes: Iterable[Hashable], limit: int = _LIST_MAX) -> str:
    items = list(dict.fromkeys(nodes))
    shown = [node_label(G, m) if m in G else _str(m) for m in items[:limit]]
    more = len(items) - limit
    return ", ".join(shown) + (f" … and {more} more" if more > 0 else "")


def node_tooltip(G: nx.MultiDiGraph, n: Hashable) -> str:
    """Plain-text tooltip of node ``n`` (lines separated by newlines; never HTML)."""
    d = G.nodes[n]
    t = _type_of(d, n)
    lines: list[str] = []
    style = NODE_STYLES.get(t, _OTHER_STYLE)
    if t == NodeType.PAPER.value:
        lines.append(_str(d.get("title")) or node_label(G, n))
        authors = [_str(a) for a in d.get("authors") or ()]
        if authors:
            lines.append("Authors: " + ", ".join(authors[:_LIST_MAX])
                         + (" et al." if d.get("authors_truncated") or len(authors) > _LIST_MAX else ""))
        for label, key in (("Category", "category"), ("Year", "year"), ("Venue", "venue"), ("DOI", "doi")):
            if d.get(key) not in (None, ""):
                lines.append(f"{label}: {d[key]}")
        by_kind: dict[str, list[Hashable]] = {}
        for _, m, k in G.out_edges(n, keys=True):
            by_kind.setdefault(str(k), []).append(m)
        for kind, label in _ENTITY_EDGES.items():
            if kind == EdgeType.IN_CATEGORY.value and d.get("category"):
                continue
            if by_kind.get(kind):
                lines.append(f"{label}: {_names(G, by_kind[kind])}")
        if d.get("abstract"):
            lines.append("Abstract: " + _short(_str(d["abstract"]), 500))
    elif t == NodeType.AUTHOR.value:
        lines.append(_str(d.get("name") or d.get("label") or n))
        aliases = [a for a in d.get("aliases") or () if a != d.get("name")]
        if aliases:
            lines.append("Also written: " + "; ".join(map(_str, aliases)))
        papers = [p for _, p, k in G.out_edges(n, keys=True) if str(k) == EdgeType.AUTHORED.value]
        co: Counter[Hashable] = Counter()
        for p in papers:
            for a, _, k in G.in_edges(p, keys=True):
                if str(k) == EdgeType.AUTHORED.value and a != n:
                    co[a] += 1
        lines.append(f"Papers ({len(papers)}): {_names(G, papers)}" if papers else "Papers: none in the graph")
        if d.get("truncated"):
            lines.append("Some author lists were cut (et al.): co-authors may be missing")
        if co:
            lines.append(f"Co-authors ({len(co)}): {_names(G, [a for a, _ in co.most_common()])}")
    elif t in (NodeType.METHOD.value, NodeType.BENCHMARK.value, NodeType.CONCEPT.value,
               NodeType.CATEGORY.value):
        lines.append(f"{style['name']}: {d.get('name') or d.get('label') or n}")
        aliases = [a for a in d.get("aliases") or () if a != d.get("name")]
        if aliases:
            lines.append("Also written: " + "; ".join(map(_str, aliases)))
        if t == NodeType.CATEGORY.value and d.get("level"):
            lines.append(f"Level: {d['level']}")
        by_kind = {}
        for p, _, k in G.in_edges(n, keys=True):
            by_kind.setdefault(str(k), []).append(p)
        for kind, papers in sorted(by_kind.items()):
            lines.append(f"{kind.replace('_', ' ')} by ({len(papers)}): {_names(G, papers)}")
    else:
        lines.append(_str(d.get("label") or d.get("work_id") or n))
        citing = [p for p, _, k in G.in_edges(n, keys=True)]
        if citing:
            lines.append(f"Cited by ({len(citing)}): {_names(G, citing)}")
    extra = []
    if d.get("pagerank") is not None:
        extra.append(f"PageRank {float(d['pagerank']):.4f}")
    if d.get("community") is not None:
        extra.append(f"community {d['community']}")
    if extra:
        lines.append("; ".join(extra))
    lines.append(f"[{n}]")
    return "\n".join(lines)


def _edge_tooltip(G: nx.MultiDiGraph, u: Hashable, v: Hashable, kind: str, d: Mapping[str, Any]) -> str:
    arrow = "–" if d.get("undirected") else "→"
    lines = [f"{kind.replace('_', ' ')}: {node_label(G, u)} {arrow} {node_label(G, v)}"]
    if d.get("weight") is not None:
        lines.append(f"weight: {d['weight']}")
    shared = d.get("shared")
    if shared:
        items = []
        for s in list(shared)[:_LIST_MAX]:
            if isinstance(s, Mapping):
                items.append(f"{_str(s.get('name'))} ({_str(s.get('type'))})")
            else:
                items.append(_str(s))
        more = len(shared) - _LIST_MAX
        lines.append("Shared: " + ", ".join(items) + (f" … and {more} more" if more > 0 else ""))
    if d.get("papers"):
        lines.append(f"Joint papers: {_names(G, d['papers'])}")
    if d.get("source"):
        conf = d.get("confidence")
        lines.append(f"from {d['source']}" + (f" (confidence {conf})" if conf is not None else ""))
    for ev in list(d.get("evidence") or ())[:3]:
        if isinstance(ev, Mapping):
            lines.append(f"evidence: “{_str(ev.get('text'))}” ({_str(ev.get('rule'))})")
    return "\n".join(lines)


# --------------------------------------------------------------------------- selecting nodes

def _centrality(G: nx.MultiDiGraph) -> dict[Hashable, float]:
    pr = nx.get_node_attributes(G, "pagerank")
    if pr and len(pr) == G.number_of_nodes():
        return {n: float(x) for n, x in pr.items()}
    return {n: float(deg) for n, deg in G.degree()}


def _match_key(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text.casefold()).split())


def find_node(G: nx.MultiDiGraph, node_type: NodeType | str, query: str) -> Hashable:
    """The node of ``node_type`` named ``query`` (its key, id, name, label, alias or title).

    Raises
    ------
    NotFoundError
        No node matches; the message lists close names.

    Examples
    --------
    >>> G = nx.MultiDiGraph()
    >>> G.add_node("author:a1", type="author", name="Julia Kempe", aliases=["J. Kempe"])
    >>> find_node(G, "author", "j. kempe")
    'author:a1'
    """
    t = NodeType(node_type).value
    q = _match_key(str(query))
    names: dict[str, Hashable] = {}
    for n, d in G.nodes(data=True):
        if _type_of(d, n) != t:
            continue
        if str(n) == query or str(n).split(":", 1)[-1] == query or d.get("record_id") == query:
            return n
        cands = [d.get("name"), d.get("label"), d.get("title"), d.get("work_id"), d.get("record_id"),
                 *(d.get("aliases") or ())]
        for c in cands:
            if c:
                names.setdefault(_match_key(str(c)), n)
    if q in names:
        return names[q]
    if q:
        sub = [k for k in names if q in k]
        if len(sub) == 1:
            return names[sub[0]]
    close = get_close_matches(q, list(names), n=5, cutoff=0.6) or sorted(k for k in names if q and q in k)[:5]
    # the names as the graph spells them ("Julia Kempe"), not their lower-case match keys
    shown = dict.fromkeys(str(G.nodes[names[k]].get("name") or G.nodes[names[k]].get("label") or names[k])
                          for k in close)
    hint = f"; close matches: {', '.join(shown)}" if shown else ""
    raise NotFoundError(f"no {t} named {query!r} in the graph{hint}")


def ego_graph(G: nx.MultiDiGraph, center: Hashable, *, depth: int = 1) -> nx.MultiDiGraph:
    """The nodes within ``depth`` steps of ``center`` (edges in either direction), as a subgraph."""
    if center not in G:
        raise NotFoundError(f"node {center!r} is not in the graph")
    if depth < 0:
        raise PaperkgError(f"depth must be 0 or more, got {depth}")
    seen = {center}
    frontier = [center]
    for _ in range(depth):
        nxt = []
        for n in frontier:
            for m in (*G.successors(n), *G.predecessors(n)):
                if m not in seen:
                    seen.add(m)
                    nxt.append(m)
        frontier = nxt
    return G.subgraph(seen)


def community_graph(G: nx.MultiDiGraph, community: int) -> nx.MultiDiGraph:
    """The nodes whose ``community`` attribute is ``community``."""
    nodes = [n for n, c in G.nodes(data="community") if c is not None and str(c) == str(community)]
    if not nodes:
        have = sorted({c for _, c in G.nodes(data="community") if c is not None}, key=str)
        if not have:
            raise NotFoundError("the graph has no communities (run kg.metrics.add_metrics)")
        raise NotFoundError(f"no community {community!r}; communities are {have[0]}..{have[-1]}")
    return G.subgraph(nodes)


def select_view(G: nx.MultiDiGraph, *, author: str | None = None, paper: str | None = None,
                method: str | None = None, benchmark: str | None = None, concept: str | None = None,
                community: int | None = None) -> tuple[nx.MultiDiGraph, Hashable | None, str]:
    """Resolve the CLI's focus options to ``(graph, focus node or None, title)``.

    At most one option may be given; with none, the whole graph is the view.
    """
    given = {k: v for k, v in (("author", author), ("paper", paper), ("method", method),
                               ("benchmark", benchmark), ("concept", concept),
                               ("community", community)) if v is not None}
    if len(given) > 1:
        raise PaperkgError(f"give one focus at most, got {', '.join('--' + k for k in given)}")
    if not given:
        return G, None, "Overview"
    (kind, value), = given.items()
    if kind == "community":
        return community_graph(G, int(value)), None, f"Community {value}"
    n = find_node(G, kind, str(value))
    return G, n, f"{NODE_STYLES[kind]['name']}: {node_label(G, n)}"


def _trim(G: nx.MultiDiGraph, budget: int, order: list[Hashable]) -> nx.MultiDiGraph:
    return G if G.number_of_nodes() <= budget else G.subgraph(order[:budget])


# --------------------------------------------------------------------------- layout

#: Groups up to this size get NetworkX's exact (dense) Fruchterman-Reingold layout.
_EXACT_LIMIT = 300
#: Random repulsion partners per node and iteration in the sampled layout.
_SAMPLES = 40
#: Side of a node's box, in pixels, when no boxes are given (vis-network draws in pixels).
_SPACING = 36.0
_GOLDEN = math.pi * (3.0 - math.sqrt(5.0))
#: Free space kept around every node box, in pixels.
_PAD = 4.0
#: Layout area per unit of box area a group starts from, before overlaps are pushed apart.
_ROOM = 2.2
#: Widest stretch (width / height) of a group's starting disc.
_ASPECT = 4.0
#: Most rounds of overlap removal.
_ROUNDS = 400

# Advance widths of Arial / Liberation Sans (vis-network's default face) in 1/1000 em, from the
# fonts' published metrics; characters not listed count 600 (1000 for East Asian wide ones).
_WIDTHS: dict[str, int] = {
    **dict.fromkeys(" !'.,:;|ijl", 222), **dict.fromkeys("ftI[]()/\\-", 300), "r": 333, '"': 355,
    **dict.fromkeys("ckszvxyJ*", 500), **dict.fromkeys("abdeghnopqu0123456789$#_?L", 556),
    **dict.fromkeys("FTZ", 611), **dict.fromkeys("ABEKPSVXY&", 667), **dict.fromkeys("CDHNRUw", 722),
    **dict.fromkeys("GOQ", 778), **dict.fromkeys("mM%", 833), "W": 944, "@": 1015, "…": 1000,
}


def text_width(text: str, font_size: float) -> float:
    """Estimated width in pixels of ``text`` drawn in Arial at ``font_size`` (bold allowance included).

    Examples
    --------
    >>> round(text_width("Julia Kempe", 24))
    144
    """
    em = 0
    for ch in text:
        w = _WIDTHS.get(ch)
        if w is None:
            w = 1000 if unicodedata.east_asian_width(ch) in ("W", "F") else 600
        em += w
    return em / 1000.0 * font_size * 1.1  # +10%: a selected node's label is drawn bold


def node_box(size: float, label: str = "", font_size: float = 0.0, *,
             stroke: float = 3.0) -> tuple[float, float, float, float]:
    """The box a vis-network node covers, relative to its centre: ``(left, top, right, bottom)``.

    The shape is a square of half-side ``size``; a label is drawn centred under it, one line
    ``font_size`` high, widened by its white outline (``stroke`` on each side). :data:`_PAD`
    of free space is added all round.
    """
    half = size
    bottom = size
    if label and font_size > 0:
        half = max(half, text_width(label, font_size) / 2 + stroke)
        bottom = size + font_size + stroke
    return (-half - _PAD, -size - _PAD, half + _PAD, bottom + _PAD)


def layout_positions(G: nx.Graph, *, seed: int = 0,
                     groups: Iterable[Iterable[Hashable]] | None = None,
                     boxes: Mapping[Hashable, tuple[float, float, float, float]] | None = None,
                     ) -> dict[Hashable, tuple[float, float]]:
    """Positions (vis-network pixel units, centred near 0) for every node of ``G``, with no two
    node boxes overlapping.

    NetworkX's ``spring_layout`` is exact Fruchterman-Reingold, O(n²) per iteration without
    SciPy: too slow at 5,000 nodes. Here the graph is cut into groups (the ``community`` node
    attribute when most nodes have one, else connected components, large ones split by label
    propagation); each group gets its own force layout, scaled to a disc of about
    :data:`_ROOM` times the area of its boxes, and the boxes that still overlap are pushed
    apart (:func:`separate_boxes`). The groups are packed on a golden-angle spiral, largest
    first. Groups up to 300 nodes use NetworkX's exact layout; larger ones a
    Fruchterman-Reingold whose all-pairs repulsion is estimated from random partners (forces
    and cooling after Fruchterman & Reingold, "Graph drawing by force-directed placement",
    Software: Practice and Experience 21(11), 1991).

    Parameters
    ----------
    G : networkx graph
        Direction and parallel edges are ignored.
    seed : int
        Seed of every random choice: the same graph gives the same picture.
    groups : iterable of node collections, optional
        A partition to lay out group by group instead of the default one.
    boxes : mapping, optional
        ``node -> (left, top, right, bottom)`` relative to the node's centre (see
        :func:`node_box`), the area a node and its label cover; by default a square of side
        :data:`_SPACING`.

    Examples
    --------
    >>> pos = layout_positions(nx.path_graph(3))
    >>> sorted(pos)
    [0, 1, 2]
    """
    if G.number_of_nodes() == 0:
        return {}
    # Nodes and edges in a fixed order: a subgraph (a focused view) iterates its nodes in set
    # order, which changes with the process's hash seed, and so would the picture.
    rank = {n: i for i, n in enumerate(sorted(G, key=lambda n: (str(n), type(n).__name__)))}
    U = nx.Graph()
    U.add_nodes_from(sorted(G, key=rank.__getitem__))
    U.add_edges_from(sorted(((u, v) if rank[u] < rank[v] else (v, u) for u, v in G.edges() if u != v),
                            key=lambda e: (rank[e[0]], rank[e[1]])))
    parts = [list(g) for g in groups] if groups is not None else _default_groups(G, U)
    seen = {n for g in parts for n in g}
    parts.extend([n] for n in U if n not in seen)
    parts = [sorted(p, key=rank.__getitem__) for p in parts if p]
    parts.sort(key=lambda p: (-len(p), rank[p[0]]))
    half = _SPACING / 2 - _PAD
    default = (-half - _PAD, -half - _PAD, half + _PAD, half + _PAD)
    rng = np.random.default_rng(seed)
    pos: dict[Hashable, tuple[float, float]] = {}
    all_names: list[Hashable] = []
    all_xy: list[np.ndarray] = []
    area = 0.0
    for i, part in enumerate(parts):
        local = _group_layout(_subgraph(U, part), rng, seed)
        names = list(local)
        off = np.array([boxes.get(n, default) if boxes else default for n in names], dtype=float)
        w, h = off[:, 2] - off[:, 0], off[:, 3] - off[:, 1]
        scale = math.sqrt(float((w * h).sum()) * _ROOM / math.pi) if len(names) > 1 else 0.0
        # Stretched to the boxes' mean shape: labels are wide, so neighbours sit side by side
        # with room for them, and overlaps are not all resolved upwards into a tall column.
        aspect = math.sqrt(min(max(float(w.mean() / h.mean()), 1.0), _ASPECT))
        xy = np.array([local[n] for n in names], dtype=float) * np.array([scale * aspect, scale / aspect])
        xy = separate_boxes(xy, off, seed=seed)
        xy -= ((xy + off[:, :2]).min(axis=0) + (xy + off[:, 2:]).max(axis=0)) / 2  # centre the group's boxes
        corners = np.concatenate([xy + off[:, [0, 1]], xy + off[:, [2, 1]], xy + off[:, [0, 3]], xy + off[:, [2, 3]]])
        radius = float(np.sqrt((corners ** 2).sum(axis=1)).max())
        if i == 0:
            cx = cy = 0.0
        else:  # the k-th disc sits where the discs before it would fill a circle
            ring = math.sqrt(area / math.pi) + radius
            cx, cy = ring * math.cos(i * _GOLDEN), ring * math.sin(i * _GOLDEN)
        area += math.pi * (radius * 1.15) ** 2
        all_names.extend(names)
        all_xy.append(xy + np.array([cx, cy]))
    xy = np.concatenate(all_xy)
    off = np.array([boxes.get(n, default) if boxes else default for n in all_names], dtype=float)
    # Discs only touch, so this pass mostly checks; its boxes are 0.6 px wider all round so
    # that rounding to whole pixels below cannot make touching boxes overlap.
    xy = separate_boxes(xy, off + np.array([-0.6, -0.6, 0.6, 0.6]), seed=seed, jitter=False)
    for n, (x, y) in zip(all_names, xy):
        pos[n] = (float(round(x)), float(round(y)))  # whole pixels: vis-network truncates to them
    return pos


def _overlapping_pairs(xy: np.ndarray, off: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Index pairs ``(i, j)`` whose boxes overlap, with the overlaps along x and y.

    Sweep and prune: boxes sorted by their left edge; each box is paired only with the boxes
    whose left edge lies before its right edge, then the pairs are filtered on y.
    """
    n = len(xy)
    lo, hi = xy[:, 0] + off[:, 0], xy[:, 0] + off[:, 2]
    top, bot = xy[:, 1] + off[:, 1], xy[:, 1] + off[:, 3]
    order = np.argsort(lo, kind="stable")
    ends = np.searchsorted(lo[order], hi[order], side="left")
    counts = np.maximum(ends - np.arange(n) - 1, 0)
    total = int(counts.sum())
    empty = np.zeros(0, dtype=np.int64)
    if total == 0:
        return empty, empty, np.zeros(0), np.zeros(0)
    ki = np.repeat(np.arange(n), counts)
    starts = np.cumsum(counts) - counts
    kj = np.arange(total) - np.repeat(starts, counts) + ki + 1
    i, j = order[ki], order[kj]
    ox = np.minimum(hi[i], hi[j]) - np.maximum(lo[i], lo[j])
    oy = np.minimum(bot[i], bot[j]) - np.maximum(top[i], top[j])
    keep = (ox > 1e-6) & (oy > 1e-6)
    return i[keep], j[keep], ox[keep], oy[keep]


def separate_boxes(xy: np.ndarray, off: np.ndarray, *, seed: int = 0, rounds: int = _ROUNDS,
                   jitter: bool = True) -> np.ndarray:
    """Move boxes apart until none overlaps (or ``rounds`` runs out).

    ``xy`` holds box centres' reference points, ``off`` each box as ``(left, top, right,
    bottom)`` relative to its point. Each round finds the overlapping pairs (sweep and prune,
    :func:`_overlapping_pairs`) and moves both boxes of a pair half the overlap apart along
    the axis where that overlap is smaller, so a wide label moves up or down rather than
    sideways; a box in n overlaps takes the sum of its moves divided by n^¼, so a knot opens
    out without flinging boxes far away. Where boxes are still jammed after 30 rounds, every
    10th round spreads the whole set 3% from its centre, so the rounds end. Returns new
    positions.
    """
    xy = np.array(xy, dtype=float)
    n = len(xy)
    if n < 2:
        return xy
    if jitter:  # coincident points need a direction to move apart
        xy += np.random.default_rng(seed + n).uniform(-1e-2, 1e-2, size=xy.shape)
    for r in range(rounds):
        i, j, ox, oy = _overlapping_pairs(xy, off)
        if not len(i):
            break
        c = xy + (off[:, :2] + off[:, 2:]) / 2
        d = c[i] - c[j]
        along_x = ox < oy
        step = np.where(along_x, ox, oy) / 2 + 0.5
        sign = np.where(np.where(along_x, d[:, 0], d[:, 1]) >= 0, 1.0, -1.0)
        px = np.where(along_x, sign * step, 0.0)
        py = np.where(along_x, 0.0, sign * step)
        disp = np.stack([np.bincount(i, px, n) - np.bincount(j, px, n),
                         np.bincount(i, py, n) - np.bincount(j, py, n)], axis=1)
        hits = np.bincount(i, minlength=n) + np.bincount(j, minlength=n)
        xy += disp / (np.maximum(hits, 1.0) ** 0.25)[:, None]
        if r >= 30 and r % 10 == 0:  # a knot that is still jammed: make room all round
            mid = xy.mean(axis=0)
            xy = mid + (xy - mid) * 1.03
    return xy


def count_overlaps(pos: Mapping[Hashable, tuple[float, float]],
                   boxes: Mapping[Hashable, tuple[float, float, float, float]]) -> int:
    """Number of node pairs whose boxes (``boxes[n]`` around ``pos[n]``) overlap."""
    names = list(pos)
    if len(names) < 2:
        return 0
    xy = np.array([pos[n] for n in names], dtype=float)
    off = np.array([boxes[n] for n in names], dtype=float)
    return len(_overlapping_pairs(xy, off)[0])


def _default_groups(G: nx.Graph, U: nx.Graph) -> list[list[Hashable]]:
    """Connected components; one larger than :data:`_EXACT_LIMIT` is split by the
    ``community`` attribute when most of its nodes have one, else by label propagation.

    A small view (a focused one) is drawn as one piece, so its nodes of other communities
    stay next to their neighbours instead of in discs of their own.
    """
    given = {n: c for n, c in G.nodes(data="community") if c is not None}
    out: list[list[Hashable]] = []
    for cc in nx.connected_components(U):  # in U's node order
        if len(cc) <= _EXACT_LIMIT:
            out.append(list(cc))
            continue
        known = [n for n in cc if n in given]
        if len(known) >= 0.5 * len(cc) and len({given[n] for n in known}) > 1:
            comm: dict[Any, list[Hashable]] = {}
            for n in cc:
                c = given.get(n)
                if c is None:  # categories, cited works: join the community most of their neighbours are in
                    votes = Counter(given[m] for m in U[n] if m in given)
                    c = votes.most_common(1)[0][0] if votes else ("alone", n)
                comm.setdefault(c, []).append(n)
            out.extend(comm.values())
        else:
            out.extend(list(c) for c in nx.community.label_propagation_communities(_subgraph(U, [n for n in U if n in cc])))
    return out


def _subgraph(U: nx.Graph, nodes: list[Hashable]) -> nx.Graph:
    """The subgraph of ``U`` on ``nodes``, its nodes in the order given and its edges in ``U``'s
    (``U.subgraph`` may iterate in the order of a set)."""
    inside = set(nodes)
    H = nx.Graph()
    H.add_nodes_from(nodes)
    H.add_edges_from((u, v) for u in nodes for v in U[u] if v in inside)
    return H


def _group_layout(H: nx.Graph, rng: np.random.Generator, seed: int) -> dict[Hashable, tuple[float, float]]:
    """Positions of one group inside the unit disc."""
    nodes = list(H)
    if len(nodes) == 1:
        return {nodes[0]: (0.0, 0.0)}
    if len(nodes) <= _EXACT_LIMIT:
        raw = nx.spring_layout(H, seed=seed, method="force") if len(nodes) > 2 else nx.circular_layout(H)
        xy = np.array([raw[v] for v in nodes], dtype=float)
    else:
        xy = _sampled_fr(nodes, H.edges(), rng)
    xy = xy - xy.mean(axis=0)
    xy /= float(np.sqrt((xy ** 2).sum(axis=1)).max()) or 1.0
    return {v: (float(x), float(y)) for v, (x, y) in zip(nodes, xy)}


def _sampled_fr(nodes: list[Hashable], edges: Iterable[tuple[Hashable, Hashable]],
                rng: np.random.Generator, iterations: int = 60) -> np.ndarray:
    """Fruchterman-Reingold with sampled repulsion: O((n·samples + m) · iterations)."""
    n = len(nodes)
    index = {v: i for i, v in enumerate(nodes)}
    ed = np.array([(index[u], index[v]) for u, v in edges], dtype=np.int64).reshape(-1, 2)
    pos = rng.uniform(-1.0, 1.0, size=(n, 2))
    k = math.sqrt(4.0 / n)  # ideal edge length when n nodes share a square of side 2
    temp = 0.2
    scale = (n - 1) / _SAMPLES
    for _ in range(iterations):
        others = rng.integers(0, n, size=(n, _SAMPLES))
        delta = pos[:, None, :] - pos[others]
        dist2 = np.maximum((delta ** 2).sum(axis=2), 1e-6)
        disp = (delta * (k * k / dist2)[:, :, None]).sum(axis=1) * scale
        if len(ed):
            d = pos[ed[:, 0]] - pos[ed[:, 1]]
            dist = np.maximum(np.sqrt((d ** 2).sum(axis=1)), 1e-6)
            f = d * (dist / k)[:, None]
            np.add.at(disp, ed[:, 0], -f)
            np.add.at(disp, ed[:, 1], f)
        disp -= pos  # gravity keeps loose pieces near the centre
        length = np.maximum(np.sqrt((disp ** 2).sum(axis=1)), 1e-9)
        pos += disp * (np.minimum(length, temp) / length)[:, None]
        temp *= 0.95
    return pos


# --------------------------------------------------------------------------- the page

def _asset(name: str) -> str:
    return (_DATA / name).read_text(encoding="utf-8")


def _vis_assets() -> tuple[str, str]:
    """vis-network's script and stylesheet as bundled in the installed pyvis package."""
    spec = importlib.util.find_spec("pyvis")
    if spec is None or not spec.submodule_search_locations:
        raise PaperkgError("pyvis is not installed; it provides the vis-network files for HTML views")
    lib = Path(next(iter(spec.submodule_search_locations))) / "lib" / f"vis-{VIS_VERSION}"
    js, css = lib / "vis-network.min.js", lib / "vis-network.css"
    if not js.is_file() or not css.is_file():
        raise PaperkgError(f"{lib}: vis-network {VIS_VERSION} files not found in the pyvis package")
    return js.read_text(encoding="utf-8"), css.read_text(encoding="utf-8")


def _script_json(obj: Any) -> str:
    """JSON safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` can close or open tags."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _inline_script(js: str) -> str:
    return re.sub(r"</(script)", r"<\\/\1", js, flags=re.IGNORECASE)


def _fill(template: str, values: Mapping[str, str]) -> str:
    """Replace ``@@NAME@@`` markers in one pass (inserted text is never re-scanned)."""
    return re.sub(r"@@([A-Z_]+)@@", lambda m: values[m.group(1)], template)


def _view_data(G: nx.MultiDiGraph, *, budget: int, focus: Hashable | None, depth: int,
               title: str, seed: int, size_by: str) -> dict[str, Any]:
    if budget < 1:
        raise PaperkgError(f"budget must be at least 1, got {budget}")
    full = G
    H = ego_graph(G, focus, depth=depth) if focus is not None else G
    cent = _centrality(G)
    total = H.number_of_nodes()
    if focus is not None:
        dist = nx.single_source_shortest_path_length(H.to_undirected(as_view=True), focus)
        order = sorted(H, key=lambda n: (dist.get(n, depth + 1), -cent.get(n, 0.0), str(n)))
    else:
        order = sorted(H, key=lambda n: (-cent.get(n, 0.0), str(n)))
    H = _trim(H, budget, order)
    shown = H.number_of_nodes()
    ranked = nx.get_node_attributes(G, "pagerank")
    if size_by == "pagerank":
        # asked for by name: PageRank it is (nodes outside citations get the smallest size)
        if not ranked:
            raise PaperkgError("size by PageRank: this graph has none (it is computed over citations, "
                               "and none of its papers cites another); use --size-by degree")
        by = "PageRank"
    elif size_by == "auto" and len(ranked) == len(G):
        by = "PageRank"
    else:
        by = "degree"
    note = ""
    if shown < total:
        note = (f"Showing {shown:,} of {total:,} nodes: the {'closest to the focus, then the ' if focus is not None else ''}"
                f"most central by {'PageRank' if by == 'PageRank' else 'degree'}. "
                "Use a focused view (kg view OUT --author/--method/--community ...) to see the rest.")
    size_val = ({n: float(G.nodes[n].get("pagerank") or 0.0) for n in H} if by == "PageRank"
                else {n: float(deg) for n, deg in full.degree(H)})
    vmax = max(size_val.values(), default=0.0) or 1.0
    looks = {}
    for n in H:
        rel = math.sqrt(size_val[n] / vmax)
        # Label size follows importance: with the page's drawThreshold, zooming out hides the
        # minor labels first, so dense clusters do not turn into a smear.
        looks[n] = (node_label(full, n), round(8 + 28 * rel, 1), round(9 + 15 * rel))
    # Every node's box covers its shape and its label, so no two labels are drawn on each other.
    pos = layout_positions(H, seed=seed, boxes={n: node_box(s, lab, f) for n, (lab, s, f) in looks.items()})
    nodes = []
    counts: Counter[str] = Counter()
    for n in H:
        d = H.nodes[n]
        t = _type_of(d, n)
        counts[t] += 1
        label, size, font = looks[n]
        item = {"id": str(n), "label": label, "group": t, "title": node_tooltip(full, n),
                "size": size, "font": {"size": font}, "x": pos[n][0], "y": pos[n][1]}
        if n == focus:
            item["borderWidth"] = 4
            item["focus"] = True
        nodes.append(item)
    edges = []
    for i, (u, v, k, d) in enumerate(H.edges(keys=True, data=True)):
        kind = _edge_kind(k, d)
        w = d.get("weight")
        try:
            w = float(w) if w is not None else 1.0
        except (TypeError, ValueError):
            w = 1.0
        e = {"id": i, "from": str(u), "to": str(v), "kind": kind,
             "width": round(min(1 + 1.5 * math.log2(max(w, 1.0)), 8), 2),
             "title": _edge_tooltip(full, u, v, kind, d)}
        if not d.get("undirected"):
            e["arrows"] = "to"
        edges.append(e)
    types = [{"type": t, **NODE_STYLES.get(t, _OTHER_STYLE), "count": counts[t]}
             for t in [*NODE_STYLES, *sorted(set(counts) - set(NODE_STYLES))] if counts[t]]
    return {"title": title, "note": note, "size_by": by, "types": types, "nodes": nodes, "edges": edges,
            "focus": str(focus) if focus is not None else None,
            "total_nodes": total, "total_edges": G.number_of_edges() if focus is None else None}


def to_html(G: nx.MultiDiGraph, *, budget: int = DEFAULT_BUDGET, focus: Hashable | None = None,
            depth: int = 1, title: str = "paperkg", seed: int = 0, size_by: str = "auto") -> str:
    """The HTML page of a view of ``G`` (see :func:`write_html`)."""
    if size_by not in ("auto", "pagerank", "degree"):
        raise PaperkgError(f"size_by must be auto, pagerank or degree, got {size_by!r}")
    data = _view_data(G, budget=budget, focus=focus, depth=depth, title=title, seed=seed, size_by=size_by)
    js, css = _vis_assets()
    return _fill(_asset("html_view.html"), {
        "TITLE": _html.escape(title),
        "VIS_CSS": css.replace("</", "<\\/"),
        "PAGE_CSS": _asset("html_view.css"),
        "VIS_JS": _inline_script(js),
        "PAGE_JS": _inline_script(_asset("html_view.js")),
        "DATA": _script_json(data),
    })


def write_html(G: nx.MultiDiGraph, path: str | Path, *, budget: int = DEFAULT_BUDGET,
               focus: Hashable | None = None, depth: int = 1, title: str = "paperkg",
               seed: int = 0, size_by: str = "auto") -> Path:
    """Write one self-contained interactive view of ``G`` to ``path`` (UTF-8).

    Parameters
    ----------
    G : nx.MultiDiGraph
        A graph following the :mod:`kg.schema` contract.
    path : str or Path
        The HTML file to write (its folder is created; nothing else is written).
    budget : int
        Most nodes to draw; above it the most central nodes are kept and the page says so.
    focus : node key, optional
        Draw only the nodes within ``depth`` steps of this node, which is highlighted.
    depth : int
        Radius of a focused view.
    title : str
        Page title and heading (escaped).
    seed : int
        Layout seed.
    size_by : {"auto", "pagerank", "degree"}
        Node size: PageRank when every node has one (``auto``), else degree.

    Returns
    -------
    Path
        ``path``.
    """
    page = to_html(G, budget=budget, focus=focus, depth=depth, title=title, seed=seed, size_by=size_by)
    path = Path(path)
    with atomic_write(path, encoding="utf-8") as fh:
        fh.write(page)
    return path


# --------------------------------------------------------------------------- the site

def _top(G: nx.MultiDiGraph, t: str, k: int) -> list[Hashable]:
    cent = _centrality(G)
    nodes = [n for n, d in G.nodes(data=True) if _type_of(d, n) == t]
    return sorted(nodes, key=lambda n: (-cent.get(n, 0.0), str(n)))[:k]


def _view_filename(t: str, n: Hashable) -> str:
    """``<type>-<slug of the node id>.html``; ids that are not already short slugs (paper
    DOIs, long names) get a digest so that two nodes never share a file."""
    ident = str(n).split(":", 1)[-1]
    slug = slugify(ident)[:48]
    if slug != ident:
        slug = f"{slug[:40]}-{digest(str(n), length=8)}"
    return f"{t}-{slug}.html"


def write_site(G: nx.MultiDiGraph, html_dir: str | Path, *, top: int = 10,
               budget: int = DEFAULT_BUDGET, depth: int = 1, title: str = "paperkg") -> list[Path]:
    """Write ``overview.html``, focused views of the top authors, methods and benchmarks
    (under ``views/``) and ``index.html`` linking them all.

    "Top" is by PageRank when the graph has it, else by degree. Returns the written paths,
    index last.
    """
    html_dir = Path(html_dir)
    remove_temporaries(html_dir, ".*.html.*.tmp", "views/.*.html.*.tmp")  # of a killed earlier build
    written = [write_html(G, html_dir / "overview.html", budget=budget, title=f"{title}: overview")]
    sections: list[tuple[str, list[tuple[str, str, int]]]] = []
    for t in (NodeType.AUTHOR.value, NodeType.METHOD.value, NodeType.BENCHMARK.value):
        links = []
        for n in _top(G, t, top):
            label = node_label(G, n)
            name = _view_filename(t, n)
            written.append(write_html(G, html_dir / "views" / name, budget=budget, focus=n, depth=depth,
                                      title=f"{title}: {NODE_STYLES[t]['name'].lower()} {label}"))
            links.append((label, f"views/{name}", G.degree(n)))
        sections.append((NODE_STYLES[t]["name"] + "s", links))
    counts = Counter(_type_of(d, n) for n, d in G.nodes(data=True))
    parts = [f"<li>{NODE_STYLES.get(t, _OTHER_STYLE)['name']}: {c:,}</li>" for t, c in sorted(counts.items())]
    body = [f"<h1>{_html.escape(title)}</h1>",
            f"<p>{G.number_of_nodes():,} nodes, {G.number_of_edges():,} edges.</p>",
            f"<ul class='counts'>{''.join(parts)}</ul>",
            '<p><a href="overview.html">Overview of the whole graph</a></p>']
    for heading, links in sections:
        body.append(f"<h2>Top {_html.escape(heading.lower())}</h2>")
        if not links:
            body.append("<p>None in this graph.</p>")
            continue
        body.append("<ol>" + "".join(
            f'<li><a href="{_html.escape(href)}">{_html.escape(label)}</a> '
            f'<span class="deg">({deg} links)</span></li>' for label, href, deg in links) + "</ol>")
    page = _fill(_asset("html_index.html"), {"TITLE": _html.escape(title), "BODY": "\n".join(body)})
    index = html_dir / "index.html"
    with atomic_write(index, encoding="utf-8") as fh:
        fh.write(page)
    written.append(index)
    return written
