"""Small graphs built by hand, following the graph contract in :mod:`kg.schema` exactly.

The real builder (:func:`kg.graph.build_graph`) is exercised by the end-to-end tests; these
hand-made graphs pin down what the exporters must handle, including hostile strings.
"""

from __future__ import annotations

import networkx as nx

from kg.schema import SCHEMA_VERSION, EdgeType, NodeType, category_key, node_key

#: Strings that would run script if any part of a page parsed them as HTML.
INJECTIONS = (
    "<img src=x onerror=alert(1)>",
    "<script>alert(2)</script>",
    "</script><script>alert(3)</script>",
    "\"><svg onload=alert(4)>",
    "&lt;b&gt;not bold&lt;/b&gt; & <b>bold?</b>",
)


def _paper(G: nx.MultiDiGraph, rid: str, *, title: str | None, abstract: str, authors: list[str],
           year: int | None = 2024, category: str | None = None, truncated: bool = False) -> str:
    key = node_key(NodeType.PAPER, rid)
    G.add_node(key, type=NodeType.PAPER.value, label=title or abstract[:30], record_id=rid, title=title,
               abstract=abstract, year=year, venue=None, doi=None, authors=list(authors),
               authors_truncated=truncated, category=category, n_entities=0)
    return key


def _author(G: nx.MultiDiGraph, aid: str, name: str, aliases: list[str] | None = None) -> str:
    key = node_key(NodeType.AUTHOR, aid)
    if key not in G:
        G.add_node(key, type=NodeType.AUTHOR.value, label=name, name=name, aliases=list(aliases or []),
                   n_papers=0, truncated=False)
    return key


def _entity(G: nx.MultiDiGraph, t: NodeType, name: str) -> str:
    key = node_key(t, name)
    if key not in G:
        G.add_node(key, type=t.value, label=name, name=name, aliases=[], n_papers=0)
    G.nodes[key]["n_papers"] += 1
    return key


def _evidence(text: str, rule: str = "test") -> list[dict]:
    return [{"start": 0, "end": len(text), "text": text, "rule": rule, "field": "abstract"}]


def tiny_graph(*, with_injections: bool = True) -> nx.MultiDiGraph:
    """Four papers, four authors, two methods, two benchmarks, a concept, categories, a work.

    Paper ``paper:h:p3`` has no title and proposes ``SparseMix``; ``paper:h:p4`` has no title,
    no proposed method, and (with ``with_injections``) hostile text in its abstract, its
    author's name and a method name.
    """
    G = nx.MultiDiGraph(schema_version=SCHEMA_VERSION, name="tiny")
    hostile = with_injections
    p1 = _paper(G, "h:p1", title="Attention for Graphs", abstract="We propose GraphFormer for graphs.",
                authors=["Ada Lovelace", "Alan Turing"], year=2023, category="Deep Learning · Graphs")
    p2 = _paper(G, "h:p2", title="Benchmarks of Reasoning", abstract="A study on ImageNet and GSM8K.",
                authors=["Alan Turing", "Grace Hopper"], year=2024)
    p3 = _paper(G, "h:p3", title=None, abstract="We propose SparseMix, a sparse mixture layer evaluated on GSM8K.",
                authors=["Grace Hopper"], year=None, truncated=True)
    abstract4 = ("Plain words first and then " + " ".join(INJECTIONS)) if hostile else "Plain words first and then more."
    p4 = _paper(G, "h:p4", title=None, abstract=abstract4, authors=[INJECTIONS[0] if hostile else "Edsger Dijkstra"],
                year=2022, category=None)
    a1 = _author(G, "a:ada", "Ada Lovelace", ["A. Lovelace"])
    a2 = _author(G, "a:alan", "Alan Turing")
    a3 = _author(G, "a:grace", "Grace Hopper")
    a4 = _author(G, "a:x", INJECTIONS[0] if hostile else "Edsger Dijkstra")
    for pos, (a, p) in enumerate([(a1, p1), (a2, p1)]):
        G.add_edge(a, p, key=EdgeType.AUTHORED.value, position=pos)
    for pos, (a, p) in enumerate([(a2, p2), (a3, p2)]):
        G.add_edge(a, p, key=EdgeType.AUTHORED.value, position=pos)
    G.add_edge(a3, p3, key=EdgeType.AUTHORED.value, position=0)
    G.add_edge(a4, p4, key=EdgeType.AUTHORED.value, position=0)
    for a in (a1, a2, a3, a4):
        G.nodes[a]["n_papers"] = G.out_degree(a)
    m1 = _entity(G, NodeType.METHOD, "GraphFormer")
    m2 = _entity(G, NodeType.METHOD, "SparseMix")
    m3 = _entity(G, NodeType.METHOD, INJECTIONS[1] if hostile else "Transformer")
    b1 = _entity(G, NodeType.BENCHMARK, "ImageNet")
    b2 = _entity(G, NodeType.BENCHMARK, "GSM8K")
    c1 = _entity(G, NodeType.CONCEPT, "sparsity")
    G.add_edge(p1, m1, key=EdgeType.PROPOSES.value, evidence=_evidence("We propose GraphFormer", "propose_np"))
    G.add_edge(p3, m2, key=EdgeType.PROPOSES.value, evidence=_evidence("We propose SparseMix", "propose_np"))
    G.add_edge(p4, m3, key=EdgeType.USES.value, evidence=_evidence(INJECTIONS[1] if hostile else "Transformer"))
    G.add_edge(p2, b1, key=EdgeType.EVALUATES_ON.value, evidence=_evidence("ImageNet"))
    G.add_edge(p2, b2, key=EdgeType.EVALUATES_ON.value, evidence=_evidence("GSM8K"))
    G.add_edge(p3, b2, key=EdgeType.EVALUATES_ON.value, evidence=_evidence("GSM8K"))
    G.add_edge(p3, c1, key=EdgeType.ABOUT.value, evidence=_evidence("sparse"))
    area = category_key("Deep Learning")
    sub = category_key("Deep Learning", "Graphs")
    G.add_node(area, type=NodeType.CATEGORY.value, label="Deep Learning", name="Deep Learning", level="area",
               area="Deep Learning")
    G.add_node(sub, type=NodeType.CATEGORY.value, label="Graphs", name="Deep Learning · Graphs", level="subarea",
               area="Deep Learning")
    G.add_edge(sub, area, key=EdgeType.BROADER.value)
    G.add_edge(p1, sub, key=EdgeType.IN_CATEGORY.value)
    w = node_key(NodeType.WORK, "doi:10.1000/xyz")
    G.add_node(w, type=NodeType.WORK.value, label="10.1000/xyz", work_id="doi:10.1000/xyz")
    G.add_edge(p2, w, key=EdgeType.CITES.value, source="references", confidence=1.0)
    G.add_edge(p3, p2, key=EdgeType.CITES.value, source="in_text", confidence=0.8,
               evidence=_evidence("(Turing et al., 2024)", "cite_author_year"))
    u, v = sorted([a1, a2])
    G.add_edge(u, v, key=EdgeType.COAUTHOR.value, undirected=True, weight=1, papers=[p1])
    u, v = sorted([a2, a3])
    G.add_edge(u, v, key=EdgeType.COAUTHOR.value, undirected=True, weight=1, papers=[p2])
    u, v = sorted([p2, p3])
    G.add_edge(u, v, key=EdgeType.SHARES.value, undirected=True, weight=2,
               shared=[{"type": "benchmark", "name": "GSM8K", "weight": 1},
                       {"type": "author", "name": "Grace Hopper", "weight": 1}])
    return G


def synthetic_graph(n_nodes: int, *, seed: int = 0) -> nx.MultiDiGraph:
    """A schema-following random graph of about ``n_nodes`` nodes (papers, authors, entities)."""
    import random

    rnd = random.Random(seed)
    G = nx.MultiDiGraph(schema_version=SCHEMA_VERSION)
    n_papers = max(1, n_nodes * 4 // 10)
    n_authors = max(1, n_nodes * 4 // 10)
    n_methods = max(1, n_nodes // 10)
    n_bench = max(1, n_nodes - n_papers - n_authors - n_methods)
    authors = [_author(G, f"a{i}", f"Author {i}") for i in range(n_authors)]
    methods = [_entity(G, NodeType.METHOD, f"Method {i}") for i in range(n_methods)]
    benches = [_entity(G, NodeType.BENCHMARK, f"Bench {i}") for i in range(n_bench)]
    for i in range(n_papers):
        group = rnd.randrange(20)
        names = rnd.sample(authors[group::20] or authors, k=min(3, len(authors[group::20] or authors)))
        p = _paper(G, f"h:{i}", title=f"Paper {i} on topic {group}", abstract=f"Abstract {i}.",
                   authors=[G.nodes[a]["name"] for a in names], year=2000 + i % 25)
        for pos, a in enumerate(names):
            G.add_edge(a, p, key=EdgeType.AUTHORED.value, position=pos)
        G.add_edge(p, rnd.choice(methods[group::20] or methods), key=EdgeType.USES.value, evidence=[])
        G.add_edge(p, rnd.choice(benches[group::20] or benches), key=EdgeType.EVALUATES_ON.value, evidence=[])
    return G
