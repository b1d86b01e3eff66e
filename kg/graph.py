"""Build the knowledge graph: one typed :class:`networkx.MultiDiGraph` from records.

The graph contract (node keys, attributes, edge keys) is documented in :mod:`kg.schema`.
:func:`build_graph` is the one entry point; the ``add_*`` edge builders it calls are public so a
caller can rebuild one kind of edge with other options.

How the derived edges are made
------------------------------
- **coauthor** (author–author): weight = number of joint papers, ``papers`` lists them. A paper
  with more than ``coauthor_cap`` authors does not make a clique (300 authors would give 44,850
  edges): each of its authors is linked only to its first and its last author (the usual lead
  and senior positions), ``2n - 3`` edges. Such papers are listed in the edge's
  ``capped_papers`` and the paper node gets ``coauthors_capped=True``; every author is still
  linked to the paper by ``authored``. Edges touching a paper whose author list was cut
  (``authors_truncated``) carry ``truncated=True``, and the authors get ``truncated=True``, so
  their missing co-authors are not mistaken for absence.
- **shares** (paper–paper and author–author): each entity (method, benchmark, concept) gets an
  IDF weight ``log(N / df)`` where ``df`` is the number of papers carrying it (Sparck Jones, 1972,
  "A statistical interpretation of term specificity"). An entity carried by more than
  ``max_df`` of the papers (and by more than two) makes no edge. Pairs are found through the
  inverted index entity -> papers, never by comparing all pairs, and only through entities held
  by at most ``DEFAULT_MAX_POSTINGS`` (50) nodes, so the work grows linearly with the corpus
  (commoner entities still add to the weight of the pairs found); each node keeps its ``top_k``
  strongest partners whose summed weight is at least ``min_weight`` (so at most ``top_k`` edges
  per node). Author–author edges do the same over the union of each author's entities. Each
  edge lists the shared entities, rarest first, in ``shared``.
- **cites**: references of a record that name a paper of the corpus (by record id or any of its
  external ids) link to that paper; the others go to external ``work`` nodes. In-text citations
  (surnames and year) are resolved by first-author family name and year; see
  :func:`add_in_text_citations`.
"""

from __future__ import annotations

import gc
import math
from collections import Counter, defaultdict
from typing import Any, Iterable, Mapping

import networkx as nx

from kg import PIPELINE_VERSION
from kg.authors import AuthorIndex
from kg.names import name_key
from kg.records import Record
from kg.schema import (
    ROLE_EDGES,
    SCHEMA_VERSION,
    EdgeType,
    EntityType,
    NodeType,
    Role,
    category_key,
    node_key,
)

#: Default options of :func:`build_graph`.
DEFAULT_TOP_K = 10
DEFAULT_MIN_WEIGHT = 1.0
DEFAULT_MAX_DF = 0.05
DEFAULT_COAUTHOR_CAP = 50
#: Entities held by more nodes than this do not *find* shared-concept partners (they still add
#: to the weight of pairs found through rarer ones); this bounds the work per node.
DEFAULT_MAX_POSTINGS = 50

_ENTITY_NODE = {
    EntityType.METHOD: NodeType.METHOD,
    EntityType.BENCHMARK: NodeType.BENCHMARK,
    EntityType.CONCEPT: NodeType.CONCEPT,
}
_LABEL_LEN = 80


def build_graph(
    records: Iterable[Record],
    *,
    authors: AuthorIndex | None = None,
    top_k: int = DEFAULT_TOP_K,
    min_weight: float = DEFAULT_MIN_WEIGHT,
    max_df: float = DEFAULT_MAX_DF,
    coauthor_cap: int = DEFAULT_COAUTHOR_CAP,
) -> nx.MultiDiGraph:
    """The knowledge graph of a corpus.

    Parameters
    ----------
    records
        Distinct papers (merged by ingest), with extraction results when available.
    authors
        The author index to resolve names with; built from ``records`` when None.
    top_k
        Shared-concept partners kept per paper and per author (0 turns ``shares`` edges off).
    min_weight
        Smallest summed IDF weight of a ``shares`` edge.
    max_df
        An entity carried by more than this fraction of the papers makes no ``shares`` edge.
    coauthor_cap
        Papers with more authors than this do not make a co-author clique (see module doc).

    Returns
    -------
    networkx.MultiDiGraph
        Typed as documented in :mod:`kg.schema`; ``G.graph`` holds ``schema_version``,
        ``pipeline_version`` and ``options``.

    Examples
    --------
    >>> from kg.records import Record
    >>> G = build_graph([Record("p1", "A", None, ("Ann Lee", "Bo Chen")),
    ...                  Record("p2", "B", None, ("Ann Lee",))])
    >>> G.nodes["author:ann-lee"]["n_papers"]
    2
    >>> G.edges["author:ann-lee", "author:bo-chen", "coauthor"]["weight"]
    1
    """
    records = list(records)
    # Millions of small containers are made and all kept: the cyclic collector would rescan them
    # over and over for nothing (about a third of the build time at 100k papers).
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _build(records, authors=authors, top_k=top_k, min_weight=min_weight, max_df=max_df,
                      coauthor_cap=coauthor_cap)
    finally:
        if was_enabled:
            gc.enable()


def _build(records: list[Record], *, authors: AuthorIndex | None, top_k: int, min_weight: float, max_df: float,
           coauthor_cap: int) -> nx.MultiDiGraph:
    index = authors or AuthorIndex.from_records(records)
    G = nx.MultiDiGraph()
    G.graph.update(
        schema_version=SCHEMA_VERSION,
        pipeline_version=PIPELINE_VERSION,
        options={"top_k": top_k, "min_weight": min_weight, "max_df": max_df, "coauthor_cap": coauthor_cap},
    )
    add_papers(G, records, index)
    add_entities(G, records)
    add_categories(G, records)
    add_references(G, records)
    add_in_text_citations(G, records)
    add_coauthors(G, records, index, cap=coauthor_cap)
    if top_k > 0:
        add_shared_concepts(G, top_k=top_k, min_weight=min_weight, max_df=max_df)
    return G


def _short(text: str | None, n: int = _LABEL_LEN) -> str:
    if not text:
        return ""
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def paper_key(record: Record) -> str:
    return node_key(NodeType.PAPER, record.id)


def _paper_author_ids(record: Record, index: AuthorIndex, cache: dict[str, str] | None = None) -> list[str]:
    """Author ids of a paper in order, each once (a name listed twice counts once)."""
    if cache is None:
        return list(dict.fromkeys(index.resolve(a) for a in record.authors))
    out = []
    for a in record.authors:
        aid = cache.get(a)
        if aid is None:
            aid = cache[a] = index.resolve(a)
        out.append(aid)
    return list(dict.fromkeys(out))


def add_papers(G: nx.MultiDiGraph, records: list[Record], index: AuthorIndex) -> None:
    """Paper and author nodes, and ``authored`` edges (author -> paper, 0-based ``position``)."""
    n_papers: Counter = Counter()
    truncated: set[str] = set()
    resolved: dict[str, str] = {}
    display: dict[str, str] = {}
    for rec in records:
        pk = paper_key(rec)
        aids = _paper_author_ids(rec, index, resolved)
        names = []
        for a in aids:
            name = display.get(a)
            if name is None:
                name = display[a] = index.display(a)
            names.append(name)
        G.add_node(
            pk,
            type=NodeType.PAPER.value,
            label=_short(rec.title) or _short(rec.abstract, 60) or rec.id,
            record_id=rec.id,
            title=rec.title,
            abstract=rec.abstract,
            year=rec.year,
            venue=rec.venue,
            doi=rec.doi,
            authors=names,
            authors_truncated=rec.authors_truncated,
            category=str(rec.category) if rec.category else None,
            n_entities=len(rec.entities),
        )
        for pos, (aid, name) in enumerate(zip(aids, names)):
            ak = "author:" + aid  # == node_key(NodeType.AUTHOR, aid), inlined: this loop is hot
            n_papers[ak] += 1
            if rec.authors_truncated:
                truncated.add(ak)
            if ak not in G:
                G.add_node(ak, type=NodeType.AUTHOR.value, label=name, name=name, aliases=index.aliases(aid))
            G.add_edge(ak, pk, key=EdgeType.AUTHORED.value, position=pos)
    for ak, n in n_papers.items():
        G.nodes[ak]["n_papers"] = n
        G.nodes[ak]["truncated"] = ak in truncated


def add_entities(G: nx.MultiDiGraph, records: list[Record]) -> None:
    """Method, benchmark and concept nodes with their role edges and evidence."""
    papers_of: dict[str, set[str]] = defaultdict(set)
    keys: dict[tuple[EntityType, str], str] = {}
    seen: dict[str, set[str]] = {}  # aliases already listed (a list test was quadratic for common concepts)
    for rec in records:
        pk = paper_key(rec)
        for ent in rec.entities:
            ntype = _ENTITY_NODE[ent.type]
            ek = keys.get((ent.type, ent.name))
            if ek is None:
                ek = keys[(ent.type, ent.name)] = node_key(ntype, ent.name)
            if ek not in G:
                G.add_node(ek, type=ntype.value, label=ent.name, name=ent.name, aliases=[])
            node = G.nodes[ek]
            listed = seen.get(ek)
            if listed is None:
                listed = seen[ek] = {node["name"], *node["aliases"]}
            for alias in (ent.name, *ent.aliases):
                if alias not in listed:
                    listed.add(alias)
                    node["aliases"].append(alias)
            etype = ROLE_EDGES.get((ent.type, ent.role)) or ROLE_EDGES[(ent.type, Role.USED)]
            evidence = [m.to_dict() for m in ent.mentions]
            if G.has_edge(pk, ek, etype.value):
                G.edges[pk, ek, etype.value]["evidence"].extend(evidence)
            else:
                G.add_edge(pk, ek, key=etype.value, evidence=evidence)
            papers_of[ek].add(pk)
    for ek, ps in papers_of.items():
        G.nodes[ek]["n_papers"] = len(ps)


def add_categories(G: nx.MultiDiGraph, records: list[Record]) -> None:
    """Area and subarea nodes, ``broader`` (subarea -> area) and ``in_category`` (paper -> most specific)."""
    for rec in records:
        cat = rec.category
        if cat is None:
            continue
        ak = category_key(cat.area)
        if ak not in G:
            G.add_node(ak, type=NodeType.CATEGORY.value, label=cat.area, name=cat.area, level="area", area=cat.area)
        target = ak
        if cat.subarea:
            sk = category_key(cat.area, cat.subarea)
            if sk not in G:
                G.add_node(sk, type=NodeType.CATEGORY.value, label=cat.subarea, name=cat.subarea,
                           level="subarea", area=cat.area)
                G.add_edge(sk, ak, key=EdgeType.BROADER.value)
            target = sk
        G.add_edge(paper_key(rec), target, key=EdgeType.IN_CATEGORY.value)


def _paper_lookup(records: list[Record]) -> dict[str, str]:
    """Every id a paper is known by (record id, ``kind:value`` and bare external ids) -> paper key."""
    lookup: dict[str, str] = {}
    for rec in records:
        pk = paper_key(rec)
        lookup.setdefault(rec.id, pk)
        lookup.setdefault(rec.id.lower(), pk)
        for kind, value in rec.ids.items():
            for ident in (f"{kind}:{value}", value):
                lookup.setdefault(ident, pk)
                lookup.setdefault(ident.lower(), pk)
    return lookup


def add_references(G: nx.MultiDiGraph, records: list[Record]) -> None:
    """``cites`` edges from the records' reference lists (unresolved ids become ``work`` nodes)."""
    lookup = _paper_lookup(records)
    for rec in records:
        pk = paper_key(rec)
        for ref in rec.references:
            target = lookup.get(ref) or lookup.get(ref.lower())
            if target is None:
                target = node_key(NodeType.WORK, ref)
                if target not in G:
                    G.add_node(target, type=NodeType.WORK.value, label=ref, work_id=ref)
            if target == pk or G.has_edge(pk, target, EdgeType.CITES.value):
                continue
            G.add_edge(pk, target, key=EdgeType.CITES.value, source="references", confidence=1.0)


def _family_key(name: str) -> str:
    words = name_key(name).split()
    return words[-1] if words else ""


def resolve_citation(surnames: tuple[str, ...] | list[str], year: int | None,
                     candidates: Mapping[tuple[str, int], list[tuple[str, list[str]]]]) -> tuple[str, float] | None:
    """The paper an in-text citation refers to, with a confidence, or None.

    ``candidates`` maps (last word of the first author's name key, year) to
    ``(paper key, author name keys)``. A candidate must have the cited first surname as the end
    of its first author's name (so ``van der Schaar`` matches ``Mihaela van der Schaar``) and
    every other cited surname somewhere in its author list. One candidate is linked with
    confidence 0.9 when two or more surnames matched, 0.7 for one surname (``X et al.``);
    none, several, or no year: not linked.
    """
    if not surnames or year is None:
        return None
    first = name_key(surnames[0])
    if not first:
        return None
    found = []
    for pk, keys in candidates.get((first.split()[-1], year), ()):
        if not (keys and (keys[0] == first or keys[0].endswith(" " + first))):
            continue
        others = [name_key(s) for s in surnames[1:]]
        if all(any(k == o or k.endswith(" " + o) for k in keys) for o in others if o):
            found.append(pk)
    if len(found) != 1:
        return None
    return found[0], (0.9 if len(surnames) >= 2 else 0.7)


def add_in_text_citations(G: nx.MultiDiGraph, records: list[Record]) -> None:
    """``cites`` edges (``source="in_text"``) from in-text citations resolved in the corpus."""
    candidates: dict[tuple[str, int], list[tuple[str, list[str]]]] = defaultdict(list)
    for rec in records:
        if rec.authors and rec.year is not None:
            keys = [name_key(a) for a in rec.authors]
            candidates[(_family_key(rec.authors[0]), rec.year)].append((paper_key(rec), keys))
    if not candidates:
        return
    for rec in records:
        pk = paper_key(rec)
        for cit in rec.citations:
            hit = resolve_citation(cit.surnames, cit.year, candidates)
            if hit is None or hit[0] == pk:
                continue
            target, confidence = hit
            ev = {"start": cit.start, "end": cit.end, "text": cit.text, "rule": "in_text_citation",
                  "field": cit.field}
            if G.has_edge(pk, target, EdgeType.CITES.value):
                data = G.edges[pk, target, EdgeType.CITES.value]
                data.setdefault("evidence", []).append(ev)
                data["confidence"] = max(data.get("confidence", 0.0), confidence)
            else:
                G.add_edge(pk, target, key=EdgeType.CITES.value, source="in_text",
                           confidence=confidence, evidence=[ev])


def _undirected(u: str, v: str) -> tuple[str, str]:
    return (u, v) if u < v else (v, u)


def coauthor_pairs(aids: list[str], cap: int) -> list[tuple[int, int]]:
    """Index pairs of a paper's authors that get a co-author edge.

    All pairs up to ``cap`` authors; above it, every author with the first and the last one.

    Examples
    --------
    >>> coauthor_pairs(["a", "b", "c"], 10)
    [(0, 1), (0, 2), (1, 2)]
    >>> len(coauthor_pairs([str(i) for i in range(300)], 50))
    597
    """
    n = len(aids)
    if n <= cap:
        return [(i, j) for i in range(n) for j in range(i + 1, n)]
    last = n - 1
    pairs = [(0, j) for j in range(1, n)]
    pairs += [(i, last) for i in range(1, last)]
    return pairs


def add_coauthors(G: nx.MultiDiGraph, records: list[Record], index: AuthorIndex, *,
                  cap: int = DEFAULT_COAUTHOR_CAP) -> None:
    """``coauthor`` edges (undirected, stored once from the smaller key): weight, papers."""
    edges: dict[tuple[str, str], dict[str, Any]] = {}
    resolved: dict[str, str] = {}
    for rec in records:
        pk = paper_key(rec)
        keys = ["author:" + a for a in _paper_author_ids(rec, index, resolved)]
        capped = len(keys) > cap
        if capped:
            G.nodes[pk]["coauthors_capped"] = True
        for i, j in coauthor_pairs(keys, cap):
            uv = _undirected(keys[i], keys[j])
            data = edges.get(uv)
            if data is None:
                data = edges[uv] = {"weight": 0, "papers": [], "undirected": True}
            data["weight"] += 1
            data["papers"].append(pk)
            if capped:
                data.setdefault("capped_papers", []).append(pk)
            if rec.authors_truncated:
                data["truncated"] = True
    for (u, v), data in edges.items():
        G.add_edge(u, v, key=EdgeType.COAUTHOR.value, **data)


def entity_idf(G: nx.MultiDiGraph) -> dict[str, float]:
    """IDF weight ``log(N / df)`` of every entity node (df = papers carrying it)."""
    n = sum(1 for _, t in G.nodes(data="type") if t == NodeType.PAPER.value)
    out = {}
    for k, d in G.nodes(data=True):
        if d["type"] in _ENTITY_TYPES and d.get("n_papers"):
            out[k] = math.log(max(n, 1) / d["n_papers"]) if n else 0.0
    return out


_ENTITY_TYPES = {NodeType.METHOD.value, NodeType.BENCHMARK.value, NodeType.CONCEPT.value}


def paper_entities(G: nx.MultiDiGraph) -> dict[str, list[str]]:
    """Paper key -> its entity node keys (each once, in edge order)."""
    out: dict[str, list[str]] = {}
    for u, nbrs in G.adj.items():
        items = [v for v, keys in nbrs.items() if not _ENTITY_EDGE_KEYS.isdisjoint(keys)]
        if items:
            out[u] = items
    return out


_ENTITY_EDGE_KEYS = {e.value for e in (EdgeType.PROPOSES, EdgeType.USES, EdgeType.INTRODUCES,
                                       EdgeType.EVALUATES_ON, EdgeType.ABOUT)}


def top_shared(items_of: Mapping[str, Iterable[str]], idf: Mapping[str, float], *, top_k: int,
               min_weight: float, max_postings: int = DEFAULT_MAX_POSTINGS) -> dict[tuple[str, str], float]:
    """Strongest pairs of nodes sharing entities, found through an inverted index.

    The weight of a pair is the summed ``idf`` of the entities both carry (only entities in
    ``idf`` count). Partners are *found* through entities held by at most ``max_postings`` nodes
    (so the work is at most ``max_postings`` times the number of postings, linear in the corpus);
    each node ranks them by the weight of those rare entities, keeps its ``top_k``, and the kept
    pairs get their full weight (common entities included), kept when at least ``min_weight``.
    A pair kept by either side is returned once, keyed from the smaller node.

    Examples
    --------
    >>> top_shared({"a": ["x", "y"], "b": ["x", "y"], "c": ["y"]}, {"x": 2.0, "y": 0.5},
    ...            top_k=1, min_weight=0.1)
    {('a', 'b'): 2.5, ('a', 'c'): 0.5}
    """
    sets = {node: [it for it in dict.fromkeys(items) if it in idf] for node, items in items_of.items()}
    return _top_pairs(sets, idf, top_k=top_k, min_weight=min_weight, max_postings=max_postings)


def _top_pairs(sets: Mapping[str, list[str]], idf: Mapping[str, float], *, top_k: int, min_weight: float,
               max_postings: int) -> dict[tuple[str, str], float]:
    """:func:`top_shared` on de-duplicated, filtered item lists, vectorised with NumPy.

    Every ordered pair of holders of each finding entity becomes one (pair code, idf) row; rows
    of entities with the same number of holders are made in one broadcast. Rows are summed per
    pair, sorted by (node, -weight, partner) and the first ``top_k`` of each node kept.
    """
    import numpy as np

    nodes = list(sets)
    n = len(nodes)
    postings: dict[str, list[int]] = defaultdict(list)
    for i, node in enumerate(nodes):
        for it in sets[node]:
            postings[it].append(i)
    by_len: dict[int, list[tuple[list[int], float]]] = defaultdict(list)
    for it, ns in postings.items():
        if 2 <= len(ns) <= max_postings:
            by_len[len(ns)].append((ns, idf[it]))
    codes, weights = [], []
    for m, group in by_len.items():
        holders = np.array([ns for ns, _ in group], dtype=np.int64)          # (k, m), ascending rows
        w = np.array([x for _, x in group], dtype=np.float64)                # (k,)
        iu, ju = np.triu_indices(m, 1)
        codes.append((holders[:, iu] * n + holders[:, ju]).ravel())          # each pair once, u < v
        weights.append(np.repeat(w, len(iu)))
    if not codes:
        return {}
    code = np.concatenate(codes)
    weight = np.concatenate(weights)
    del codes, weights
    uniq, inverse = np.unique(code, return_inverse=True)
    del code
    total = np.bincount(inverse, weights=weight)
    del inverse, weight
    lo = uniq // n
    hi = uniq % n
    del uniq
    # Both directions, so that each node ranks its own partners.
    u = np.concatenate([lo, hi])
    v = np.concatenate([hi, lo])
    both = np.concatenate([total, total])
    order = np.lexsort((v, -both, u))
    u, v, both = u[order], v[order], both[order]
    starts = np.flatnonzero(np.r_[True, u[1:] != u[:-1]])
    rank = np.arange(len(u)) - np.repeat(starts, np.diff(np.r_[starts, len(u)]))
    chosen = rank < top_k
    # Entities that did not find partners still add to the weight of the pairs kept.
    others = {i: [it for it in sets[node] if not 2 <= len(postings[it]) <= max_postings]
              for i, node in enumerate(nodes)}
    other_sets: dict[int, set[str]] = {}  # membership tests; the sum runs in list order (deterministic)
    keep: dict[tuple[str, str], float] = {}
    for a, b, w0 in zip(u[chosen].tolist(), v[chosen].tolist(), both[chosen].tolist()):
        if a > b:
            a, b = b, a
        na, nb = nodes[a], nodes[b]
        key = (na, nb) if na < nb else (nb, na)
        if key in keep:
            continue
        full = w0
        oa, ob = others[a], others[b]
        if oa and ob:
            sb = other_sets.get(b)
            if sb is None:
                sb = other_sets[b] = set(ob)
            full += sum(idf[it] for it in oa if it in sb)
        if full >= min_weight:
            keep[key] = full
    return keep


def shareable_idf(G: nx.MultiDiGraph, *, max_df: float = DEFAULT_MAX_DF) -> dict[str, float]:
    """IDF of the entities that may make ``shares`` edges: in 2 papers or more, and in at most
    ``max_df`` of the corpus (or 2 papers, whichever is larger)."""
    n_papers = sum(1 for _, t in G.nodes(data="type") if t == NodeType.PAPER.value)
    limit = max(2, int(max_df * n_papers))
    return {k: w for k, w in entity_idf(G).items() if 2 <= G.nodes[k]["n_papers"] <= limit and w > 0}


def add_shared_concepts(G: nx.MultiDiGraph, *, top_k: int = DEFAULT_TOP_K,
                        min_weight: float = DEFAULT_MIN_WEIGHT, max_df: float = DEFAULT_MAX_DF,
                        max_postings: int = DEFAULT_MAX_POSTINGS) -> None:
    """``shares`` edges paper–paper and author–author, each listing the shared entities."""
    idf = shareable_idf(G, max_df=max_df)
    per_paper = paper_entities(G)
    _add_shares(G, per_paper, idf, top_k=top_k, min_weight=min_weight, max_postings=max_postings)
    per_author: dict[str, dict[str, None]] = defaultdict(dict)
    authored = EdgeType.AUTHORED.value
    for u, nbrs in G.adj.items():
        for v, keys in nbrs.items():
            if authored in keys and v in per_paper:
                per_author[u].update(dict.fromkeys(per_paper[v]))
    _add_shares(G, per_author, idf, top_k=top_k, min_weight=min_weight, max_postings=max_postings)


def _add_shares(G: nx.MultiDiGraph, items_of: Mapping[str, Iterable[str]], idf: Mapping[str, float], *,
                top_k: int, min_weight: float, max_postings: int) -> None:
    filtered = {node: [it for it in dict.fromkeys(items) if it in idf] for node, items in items_of.items()}
    pairs = _top_pairs(filtered, idf, top_k=top_k, min_weight=min_weight, max_postings=max_postings)
    # One explanation dict per entity, shared by the edges that list it (read-only by contract;
    # sharing keeps a 100k-paper graph and its pickle small). Each node's entities are sorted
    # once, rarest first, so an intersection comes out in explanation order.
    explain = {e: {"type": G.nodes[e]["type"], "name": G.nodes[e]["name"], "weight": round(w, 4)}
               for e, w in idf.items()}
    ranked: dict[str, list[str]] = {}
    sets: dict[str, set[str]] = {}
    shares = EdgeType.SHARES.value
    edges = []
    for (u, v), weight in pairs.items():
        a, b = (u, v) if len(filtered[u]) <= len(filtered[v]) else (v, u)
        ra = ranked.get(a)
        if ra is None:
            ra = ranked[a] = sorted(filtered[a], key=lambda e: (-idf[e], e))
        sb = sets.get(b)
        if sb is None:
            sb = sets[b] = set(filtered[b])
        edges.append((u, v, shares, {"undirected": True, "weight": round(weight, 4),
                                     "shared": [explain[e] for e in ra if e in sb]}))
    G.add_edges_from(edges)


def nodes_of_type(G: nx.MultiDiGraph, node_type: NodeType | str) -> list[str]:
    """Keys of all nodes of one type, in graph order."""
    t = NodeType(node_type).value
    return [k for k, d in G.nodes(data=True) if d.get("type") == t]
