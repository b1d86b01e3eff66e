"""Graph metrics stored as node attributes, and the summary behind ``kg stats``.

:func:`add_metrics` sets, on every node, ``degree`` (distinct neighbours) and ``degree_<type>``
(distinct neighbours of each node type, only the non-zero ones); on papers and works that take
part in a citation, ``pagerank`` (PageRank over ``cites`` edges); and on papers, authors and
entities, ``community`` (Leiden communities, numbered from 0 = largest). ``G.graph["metrics"]``
records what was computed.

Communities come from igraph's Leiden implementation with the modularity objective (Traag,
Waltman & van Eck, "From Louvain to Leiden: guaranteeing well-connected communities",
Scientific Reports 9, 2019). With NetworkX's pure-Python Louvain the metrics stage of the
100k-paper build took 891 s (``bench/bench_metrics.py`` runs both side by side); Leiden also
never returns a community that is internally disconnected, which Louvain can.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import networkx as nx

from kg.schema import EdgeType, NodeType

#: Node types that take part in community detection (categories and external works would
#: glue everything together or say nothing).
COMMUNITY_TYPES = {NodeType.PAPER.value, NodeType.AUTHOR.value, NodeType.METHOD.value,
                   NodeType.BENCHMARK.value, NodeType.CONCEPT.value}


def add_metrics(G: nx.MultiDiGraph, *, seed: int = 0, communities: bool = True) -> None:
    """Compute degree by type, citation PageRank and Leiden communities, in place.

    Parameters
    ----------
    G
        A graph from :func:`kg.graph.build_graph`.
    seed
        Seed of the community detection (the result is deterministic for a given seed).
    communities
        Set False to skip community detection (the slowest part on large graphs).
    """
    _add_degrees(G)
    n_cites = _add_pagerank(G)
    n_comm = _add_communities(G, seed=seed) if communities else 0
    G.graph["metrics"] = {"degree": True, "pagerank_edges": n_cites, "communities": n_comm,
                          "community_method": "leiden" if communities else None}


def _add_degrees(G: nx.MultiDiGraph) -> None:
    types = G.nodes(data="type")
    for n in G.nodes:
        neigh = set(G.successors(n)) | set(G.predecessors(n))
        neigh.discard(n)
        attrs = G.nodes[n]
        attrs["degree"] = len(neigh)
        for t, c in Counter(types[m] for m in neigh).items():
            attrs[f"degree_{t}"] = c


def _add_pagerank(G: nx.MultiDiGraph) -> int:
    cites = nx.DiGraph()
    for u, v, k in G.edges(keys=True):
        if k == EdgeType.CITES.value:
            cites.add_edge(u, v)
    if cites.number_of_edges() == 0:
        return 0
    for n, pr in pagerank(cites).items():
        G.nodes[n]["pagerank"] = pr
    return cites.number_of_edges()


def pagerank(D: nx.DiGraph, *, alpha: float = 0.85, tol: float = 1.0e-10, max_iter: int = 200) -> dict[str, float]:
    """PageRank by power iteration (Page, Brin, Motwani & Winograd, 1999), in pure Python.

    Dangling nodes (works, uncited-citing papers) spread their rank uniformly, as in NetworkX's
    definition; used here so that no SciPy is needed.

    Examples
    --------
    >>> D = nx.DiGraph([("a", "c"), ("b", "c")])
    >>> r = pagerank(D)
    >>> max(r, key=r.get), round(sum(r.values()), 6)
    ('c', 1.0)
    """
    nodes = list(D)
    n = len(nodes)
    if n == 0:
        return {}
    out_deg = {u: D.out_degree(u) for u in nodes}
    preds = {v: list(D.predecessors(v)) for v in nodes}
    rank = dict.fromkeys(nodes, 1.0 / n)
    for _ in range(max_iter):
        dangling = alpha * sum(rank[u] for u in nodes if out_deg[u] == 0) / n
        base = (1.0 - alpha) / n + dangling
        new = {v: base + alpha * sum(rank[u] / out_deg[u] for u in preds[v]) for v in nodes}
        err = sum(abs(new[v] - rank[v]) for v in nodes)
        rank = new
        if err < n * tol:
            break
    return rank


def community_graph(G: nx.MultiDiGraph) -> nx.Graph:
    """The weighted undirected graph communities are found on.

    Authorship, entity and citation edges weigh 1; ``coauthor`` edges their joint papers;
    ``shares`` edges their weight scaled to the largest one. Weights are then made integers
    (thousandths), so that the partition does not depend on the order in which float weights
    were summed (with float weights networkx's Louvain could even swap nodes between
    communities forever on rounding ties, networkx issue #8739).
    """
    types = G.nodes(data="type")
    H = nx.Graph()
    H.add_nodes_from(n for n, t in types if t in COMMUNITY_TYPES)
    max_share = max((d.get("weight", 0.0) for _, _, k, d in G.edges(keys=True, data=True)
                     if k == EdgeType.SHARES.value), default=1.0) or 1.0
    for u, v, k, d in G.edges(keys=True, data=True):
        if types[u] not in COMMUNITY_TYPES or types[v] not in COMMUNITY_TYPES or u == v:
            continue
        if k == EdgeType.COAUTHOR.value:
            w = float(d.get("weight", 1))
        elif k == EdgeType.SHARES.value:
            w = d.get("weight", 0.0) / max_share
        else:
            w = 1.0
        if H.has_edge(u, v):
            H[u][v]["weight"] += w
        else:
            H.add_edge(u, v, weight=w)
    for _, _, d in H.edges(data=True):
        d["weight"] = max(1, round(d["weight"] * 1000))
    return H


def _add_communities(G: nx.MultiDiGraph, *, seed: int) -> int:
    H = community_graph(G)
    if H.number_of_edges() == 0:
        return 0
    parts = communities_leiden(H, seed=seed)
    for i, members in enumerate(parts):
        for n in members:
            G.nodes[n]["community"] = i
    return len(parts)


def communities_leiden(H: nx.Graph, *, seed: int = 0, weight: str = "weight") -> list[set[Any]]:
    """Leiden communities (modularity, resolution 1) of a weighted undirected graph.

    Runs igraph's C implementation for two passes (igraph's default): on the 100k-paper
    build that takes 3.4 s for modularity 0.659, where iterating until nothing changes takes
    63 s for 0.665 (CPU, load about 6); with NetworkX's Louvain the whole metrics stage of that
    build took 891 s. Returned largest
    first (ties by smallest member), so community 0 is the largest; the same graph and seed
    give the same partition.

    Examples
    --------
    >>> H = nx.Graph([(0, 1), (1, 2), (0, 2), (3, 4), (4, 5), (3, 5), (2, 3)])
    >>> communities_leiden(H)
    [{0, 1, 2}, {3, 4, 5}]
    """
    import random

    import igraph

    nodes = sorted(H, key=str)
    index = {n: i for i, n in enumerate(nodes)}
    g = igraph.Graph(n=len(nodes), edges=[(index[u], index[v]) for u, v in H.edges()])
    weights = [float(d.get(weight, 1.0)) for _, _, d in H.edges(data=True)]
    state = random.getstate()
    random.seed(seed)  # python-igraph draws its random numbers from Python's `random`
    try:
        membership = g.community_leiden(objective_function="modularity", weights=weights,
                                        n_iterations=2).membership
    finally:
        random.setstate(state)
    groups: dict[int, set[Any]] = defaultdict(set)
    for n, c in zip(nodes, membership):
        groups[c].add(n)
    return sorted(groups.values(), key=lambda c: (-len(c), min(map(str, c))))


def _top(G: nx.MultiDiGraph, node_type: str, attr: str, n: int) -> list[tuple[str, Any]]:
    rows = [(d.get("label", k), d.get(attr) or 0) for k, d in G.nodes(data=True) if d.get("type") == node_type]
    rows.sort(key=lambda r: (-r[1], r[0]))
    return rows[:n]


def _top_cited(G: nx.MultiDiGraph, n: int) -> list[tuple[str, Any]]:
    """Papers cited at least once, by PageRank. PageRank gives every node of a citation some
    rank, so a paper that only cites others (cited by none) would otherwise be listed too."""
    cited = {v for _, v, k in G.edges(keys=True) if k == EdgeType.CITES.value}
    rows = [(d.get("label", k), d.get("pagerank") or 0) for k, d in G.nodes(data=True)
            if d.get("type") == "paper" and k in cited]
    rows.sort(key=lambda r: (-r[1], r[0]))
    return [r for r in rows[:n] if r[1]]


def summarize(G: nx.MultiDiGraph, *, top: int = 10) -> dict[str, Any]:
    """What ``kg stats`` prints: counts by node and edge type, top entities, authors, communities.

    Examples
    --------
    >>> from kg.graph import build_graph
    >>> from kg.records import Record
    >>> s = summarize(build_graph([Record("p", "T", None, ("Ann Lee", "Bo Chen"))]))
    >>> s["nodes"], s["edges"]
    ({'author': 2, 'paper': 1}, {'authored': 2, 'coauthor': 1})
    """
    nodes = Counter(t for _, t in G.nodes(data="type"))
    edges = Counter(k for _, _, k in G.edges(keys=True))
    comm: dict[int, list[str]] = defaultdict(list)
    for k, d in G.nodes(data=True):
        if "community" in d:
            comm[d["community"]].append(k)
    communities = []
    for cid in sorted(comm, key=lambda c: (-len(comm[c]), c))[:top]:
        members = comm[cid]
        by_type = Counter(G.nodes[m]["type"] for m in members)
        ents = [m for m in members if G.nodes[m]["type"] in ("method", "benchmark", "concept")]
        ents.sort(key=lambda m: (-(G.nodes[m].get("n_papers") or 0), m))
        communities.append({"id": cid, "size": len(members), "papers": by_type.get("paper", 0),
                            "authors": by_type.get("author", 0),
                            "top_entities": [G.nodes[m]["label"] for m in ents[:3]]})
    return {
        "schema_version": G.graph.get("schema_version"),
        "pipeline_version": G.graph.get("pipeline_version"),
        "nodes": dict(sorted(nodes.items())),
        "edges": dict(sorted(edges.items())),
        "top_methods": _top(G, "method", "n_papers", top),
        "top_benchmarks": _top(G, "benchmark", "n_papers", top),
        "top_concepts": _top(G, "concept", "n_papers", top),
        "top_authors": _top(G, "author", "n_papers", top),
        "top_cited": _top_cited(G, top),
        "communities": communities,
    }
