"""exports.rdf: the mapping, IRIs, the six serializations and their round trips."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pyoxigraph as ox
import pytest
import rdflib
from rdflib import Literal, URIRef
from rdflib.compare import isomorphic

from exports import rdf
from kg.errors import InputError
import kg.namespace as ns
from kg.schema import SCHEMA_VERSION, EdgeType, NodeType, category_key, node_key

BASE = "https://example.org/kg/"
HOSTILE = [
    'with space and "quotes"',
    "<angle> & {braces} | ^caret` \\back",
    "Ünïcødé 中文 ∑ 🚀",
    "a/b?c#d%20e",
    ".",
    "..",
    "x" * 500,
    "tab\there\nnewline",
]


def _ev(text: str, start: int = 0, rule: str = "test", field: str = "abstract") -> dict:
    return {"start": start, "end": start + len(text), "text": text, "rule": rule, "field": field}


def hand_graph() -> nx.MultiDiGraph:
    """Every node and edge type of the contract, with strings that break naive writers."""
    G = nx.MultiDiGraph(schema_version=SCHEMA_VERSION)
    p1, p2, p3 = (node_key(NodeType.PAPER, i) for i in ("doi:10.1/a<b>", "h:2", "arxiv:2401.00001"))
    G.add_node(p1, type="paper", label="Paper \"one\"", record_id="doi:10.1/a<b>", title='Paper "one" \\ <x>',
               abstract="We propose FooNet.\r\nIt uses BERT\x01 on ImageNet.\ud800", year=2024, venue="ICML",
               doi="10.1/a<b>", authors=["Ada Lovelace", "Émile Zola"], authors_truncated=True,
               category="Theory · Game Theory", n_entities=3)
    G.add_node(p2, type="paper", label="h:2", record_id="h:2", title=None, abstract="Uses BERT and FooNet.",
               year=None, venue=None, doi=None, authors=["Ada Lovelace"], authors_truncated=False,
               category=None, n_entities=2)
    G.add_node(p3, type="paper", label="Third", record_id="arxiv:2401.00001", title="Third", abstract=None,
               year=999, venue=None, doi=None, authors=[], authors_truncated=False, category=None, n_entities=0)
    a1, a2 = node_key(NodeType.AUTHOR, "ada-lovelace"), node_key(NodeType.AUTHOR, "emile-zola")
    G.add_node(a1, type="author", label="Ada Lovelace", name="Ada Lovelace", aliases=["A. Lovelace"], n_papers=2,
               truncated=True)
    G.add_node(a2, type="author", label="Émile Zola", name="Émile Zola", aliases=[], n_papers=1, truncated=True)
    m1, m2 = node_key(NodeType.METHOD, "FooNet"), node_key(NodeType.METHOD, "BERT")
    G.add_node(m1, type="method", label="FooNet", name="FooNet", aliases=["Foo-Net"], n_papers=2)
    G.add_node(m2, type="method", label="BERT", name="BERT", aliases=[], n_papers=2)
    b1 = node_key(NodeType.BENCHMARK, "ImageNet")
    G.add_node(b1, type="benchmark", label="ImageNet", name="ImageNet", aliases=["ILSVRC"], n_papers=1)
    c1 = node_key(NodeType.CONCEPT, "image classification")
    G.add_node(c1, type="concept", label="image classification", name="image classification", aliases=[],
               n_papers=1)
    area, sub = category_key("Theory"), category_key("Theory", "Game Theory")
    G.add_node(area, type="category", label="Theory", name="Theory", level="area", area="Theory")
    G.add_node(sub, type="category", label="Game Theory", name="Game Theory", level="subarea", area="Theory")
    w = node_key(NodeType.WORK, "doi:10.9/ext work")
    G.add_node(w, type="work", label="doi:10.9/ext work", work_id="doi:10.9/ext work")

    G.add_edge(a1, p1, key=EdgeType.AUTHORED.value, position=0)
    G.add_edge(a2, p1, key=EdgeType.AUTHORED.value, position=1)
    G.add_edge(a1, p2, key=EdgeType.AUTHORED.value, position=0)
    G.add_edge(p1, m1, key=EdgeType.PROPOSES.value, evidence=[_ev("FooNet", 11, "propose_pattern")])
    G.add_edge(p1, m2, key=EdgeType.USES.value, evidence=[_ev("BERT", 27), _ev("BERT", 0, field="title")])
    G.add_edge(p2, m2, key=EdgeType.USES.value, evidence=[_ev("BERT", 5)])
    G.add_edge(p2, m1, key=EdgeType.USES.value, evidence=[_ev('Foo"Net\\', 14)])
    G.add_edge(p1, b1, key=EdgeType.EVALUATES_ON.value, evidence=[_ev("ImageNet", 35)])
    G.add_edge(p2, b1, key=EdgeType.INTRODUCES.value, evidence=[])
    G.add_edge(p1, c1, key=EdgeType.ABOUT.value, evidence=[_ev("image classification", 50, "concept_head")])
    G.add_edge(p1, sub, key=EdgeType.IN_CATEGORY.value)
    G.add_edge(sub, area, key=EdgeType.BROADER.value)
    G.add_edge(p2, p1, key=EdgeType.CITES.value, source="references", confidence=1.0)
    G.add_edge(p1, w, key=EdgeType.CITES.value, source="in_text", confidence=0.75,
               evidence=[_ev("(Zola, 1880)", 60, "in_text_citation")])
    G.add_edge(a1, a2, key=EdgeType.COAUTHOR.value, weight=1, papers=[p1], undirected=True)
    G.add_edge(p1, p2, key=EdgeType.SHARES.value, weight=1.386294, undirected=True,
               shared=[{"type": "method", "name": "BERT", "weight": 0.69}, {"type": "method", "name": "FooNet",
                                                                             "weight": 0.69},
                       {"type": "concept", "name": "not in graph", "weight": 1.0}])
    return G


def iri(key: str) -> URIRef:
    kind, _, ident = key.partition(":")
    if kind in ("method", "benchmark", "concept"):
        key = node_key(kind, ident)
    return URIRef(rdf.node_iri(key, BASE))


@pytest.fixture(scope="module")
def G() -> nx.MultiDiGraph:
    return hand_graph()


@pytest.fixture(scope="module")
def g(G: nx.MultiDiGraph) -> rdflib.Graph:
    return rdf.to_rdf(G, base_iri=BASE)


# ----------------------------------------------------------------------------- mapping

def test_paper_mapping(g: rdflib.Graph) -> None:
    p = iri("paper:doi:10.1/a<b>")
    assert (p, ns.RDF.type, ns.FABIO.ResearchPaper) in g
    assert (p, ns.RDF.type, ns.SDO.ScholarlyArticle) in g
    assert g.value(p, ns.DCTERMS.title) == Literal('Paper "one" \\ <x>')
    assert g.value(p, ns.FABIO.hasPublicationYear) == Literal("2024", datatype=ns.XSD.gYear)
    assert g.value(p, ns.BIBO.doi) == Literal("10.1/a<b>")
    assert g.value(p, ns.PKG.recordId) == Literal("doi:10.1/a<b>")
    assert g.value(p, ns.PKG.venue) == Literal("ICML")
    assert g.value(p, ns.PKG.authorsTruncated) == Literal(True)
    assert g.value(p, ns.PKG.nEntities) == Literal(3)
    # characters XML cannot carry are dropped, CRLF becomes LF
    assert str(g.value(p, ns.DCTERMS.abstract)) == "We propose FooNet.\nIt uses BERT on ImageNet."
    # a paper without title, year or abstract has none of those triples
    p2 = iri("paper:h:2")
    assert g.value(p2, ns.DCTERMS.title) is None and g.value(p2, ns.FABIO.hasPublicationYear) is None
    assert g.value(iri("paper:arxiv:2401.00001"), ns.FABIO.hasPublicationYear) == Literal("0999", datatype=ns.XSD.gYear)


def test_authors_and_order(g: rdflib.Graph) -> None:
    p = iri("paper:doi:10.1/a<b>")
    ada, emile = iri("author:ada-lovelace"), iri("author:emile-zola")
    assert set(g.objects(p, ns.DCTERMS.creator)) == {ada, emile}
    order = sorted((int(g.value(a, ns.PKG.position)), g.value(a, ns.PKG.author)) for a in g.objects(p, ns.PKG.hasAuthorship))
    assert order == [(0, ada), (1, emile)]
    assert all((a, ns.RDF.type, ns.PKG.Authorship) in g for a in g.objects(p, ns.PKG.hasAuthorship))
    assert (ada, ns.RDF.type, ns.FOAF.Person) in g
    assert g.value(emile, ns.FOAF.givenName) == Literal("Émile")
    assert g.value(emile, ns.FOAF.familyName) == Literal("Zola")
    assert g.value(ada, ns.SKOS.altLabel) == Literal("A. Lovelace")
    assert g.value(ada, ns.PKG.nPapers) == Literal(2)
    assert (ada, ns.PKG.coauthorWith, emile) in g and (emile, ns.PKG.coauthorWith, ada) in g


def test_entities_roles_and_categories(g: rdflib.Graph) -> None:
    p1, p2 = iri("paper:doi:10.1/a<b>"), iri("paper:h:2")
    foonet, bert, imagenet = iri("method:FooNet"), iri("method:BERT"), iri("benchmark:ImageNet")
    concept = iri("concept:image classification")
    assert (foonet, ns.RDF.type, ns.MLS.Algorithm) in g
    assert {(imagenet, ns.RDF.type, ns.MLS.Dataset), (imagenet, ns.RDF.type, ns.SDO.Dataset)} <= set(g)
    assert (p1, ns.PKG.proposes, foonet) in g and (p2, ns.PKG.uses, foonet) in g
    assert (p1, ns.PKG.uses, bert) in g
    assert (p1, ns.PKG.evaluatesOn, imagenet) in g and (p2, ns.PKG.introduces, imagenet) in g
    assert (p1, ns.PKG.about, concept) in g
    assert (concept, ns.RDF.type, ns.SKOS.Concept) in g
    assert g.value(concept, ns.SKOS.inScheme) == URIRef(BASE + "scheme/concepts")
    assert g.value(foonet, ns.SKOS.altLabel) == Literal("Foo-Net")
    area, sub = iri("category:theory"), iri("category:theory/game-theory")
    assert (p1, ns.PKG.inCategory, sub) in g
    assert (sub, ns.SKOS.broader, area) in g
    assert g.value(sub, ns.SKOS.prefLabel) == Literal("Game Theory")
    assert (area, ns.SKOS.topConceptOf, URIRef(BASE + "scheme/categories")) in g
    assert (URIRef(BASE + "scheme/categories"), ns.RDF.type, ns.SKOS.ConceptScheme) in g


def test_citations_and_sharing(g: rdflib.Graph) -> None:
    p1, p2 = iri("paper:doi:10.1/a<b>"), iri("paper:h:2")
    work = iri("work:doi:10.9/ext work")
    assert (p2, ns.CITO.cites, p1) in g and (p1, ns.CITO.cites, work) in g
    assert (work, ns.RDF.type, ns.FABIO.Work) in g
    assert g.value(work, ns.PKG.workId) == Literal("doi:10.9/ext work")
    assert (p1, ns.PKG.sharesWith, p2) in g and (p2, ns.PKG.sharesWith, p1) in g
    assert not set(g.subjects(ns.RDF.type, ns.PKG.Sharing))  # opt-in: derivable, and big
    detailed = rdflib.Graph()
    for s, p, o in rdf.iter_triples(hand_graph(), base_iri=BASE, sharing=True):
        detailed.add((URIRef(s), URIRef(p), rdf._rdflib_term(o)))
    (rel,) = set(detailed.subjects(ns.RDF.type, ns.PKG.Sharing))
    assert set(detailed.objects(rel, ns.PKG.between)) == {p1, p2}
    assert detailed.value(rel, ns.PKG.weight) == Literal("1.386294", datatype=ns.XSD.decimal)
    # "not in graph" names no node: skipped, never invented
    assert set(detailed.objects(rel, ns.PKG.sharedEntity)) == {iri("method:BERT"), iri("method:FooNet")}


def test_every_extracted_fact_traces_to_its_mentions(g: rdflib.Graph) -> None:
    p1 = iri("paper:doi:10.1/a<b>")
    facts = {(g.value(st, ns.RDF.subject), g.value(st, ns.RDF.predicate), g.value(st, ns.RDF.object)): st
             for st in g.subjects(ns.RDF.type, ns.RDF.Statement)}
    st = facts[(p1, ns.PKG.uses, iri("method:BERT"))]
    mentions = sorted((str(g.value(m, ns.PKG.field)), int(g.value(m, ns.PKG.start)), int(g.value(m, ns.PKG.end)),
                       str(g.value(m, ns.PROV.value)), str(g.value(m, ns.PKG.rule)))
                      for m in g.objects(st, ns.PROV.wasDerivedFrom))
    assert mentions == [("abstract", 27, 31, "BERT", "test"), ("title", 0, 4, "BERT", "test")]
    for m in g.objects(st, ns.PROV.wasDerivedFrom):
        assert (m, ns.RDF.type, ns.PKG.Mention) in g
    cite = facts[(p1, ns.CITO.cites, iri("work:doi:10.9/ext work"))]
    assert g.value(cite, ns.PKG.citationSource) == Literal("in_text")
    assert g.value(cite, ns.PKG.confidence) == Literal("0.75", datatype=ns.XSD.decimal)
    # every role edge with evidence in the graph has its statement
    G = hand_graph()
    with_ev = {(u, k, v) for u, v, k, d in G.edges(keys=True, data=True) if d.get("evidence")}
    assert len(with_ev) == sum(1 for (s, p, o) in facts if p != ns.CITO.cites) + 1  # +1: the in-text cite


def test_no_evidence_leaves_out_statements_and_mentions(G: nx.MultiDiGraph, g: rdflib.Graph) -> None:
    lean = rdf.to_rdf(G, base_iri=BASE, evidence=False)
    assert not set(lean.subjects(ns.RDF.type, ns.RDF.Statement))
    assert not set(lean.subjects(ns.RDF.type, ns.PKG.Mention))
    assert not set(lean.subjects(ns.PROV.wasDerivedFrom, None))
    assert set(lean.subjects(ns.PKG.sharesWith, None))
    # everything else is the same
    full_minus = {t for t in g if not any(str(x).startswith((BASE + "fact/", BASE + "mention/")) for x in t)}
    assert set(lean) == full_minus
    assert len(lean) < len(g)


def test_unknown_edge_types_are_left_out(G: nx.MultiDiGraph) -> None:
    H = G.copy()
    H.add_edge("paper:h:2", "paper:arxiv:2401.00001", key="mystery")
    assert isomorphic(rdf.to_rdf(H, base_iri=BASE), rdf.to_rdf(G, base_iri=BASE))


# ----------------------------------------------------------------------------- IRIs

@pytest.mark.parametrize("ident", HOSTILE)
def test_iris_are_valid_for_any_input(ident: str) -> None:
    for kind in ("paper", "author", "work", "method"):
        key = f"{kind}:{ident}" if kind != "method" else node_key(NodeType.METHOD, ident)
        value = rdf.node_iri(key, BASE)
        ox.NamedNode(value)  # raises ValueError on an invalid IRI
        assert value.startswith(BASE + kind + "/")
        assert not any(c in value for c in ' "<>{}|^`\\\n\t')
        assert len(value) < len(BASE) + 200
        assert "/./" not in value + "/" and "/../" not in value + "/"


def test_iris_are_stable_and_distinct() -> None:
    keys = [f"paper:{h}" for h in HOSTILE] + [f"paper:{'x' * 499}y", "paper:a b", "paper:a%20b", "paper:a+b"]
    iris = [rdf.node_iri(k, BASE) for k in keys]
    assert iris == [rdf.node_iri(k, BASE) for k in keys]
    assert len(set(iris)) == len(keys)


@pytest.mark.parametrize("bad", ["", "no-scheme", "http://x.org/a b", "http://x.org/<x>", 'http://x.org/"'])
def test_bad_base_iri_is_refused(bad: str) -> None:
    with pytest.raises(InputError, match="bad base IRI"):
        rdf.check_base_iri(bad)


def test_base_iri_is_used_and_completed(G: nx.MultiDiGraph) -> None:
    g2 = rdf.to_rdf(G, base_iri="urn:paperkg:test")
    subjects = {str(s) for s in g2.subjects() if not str(s).startswith("https://w3id.org/paperkg/ns#")}
    assert subjects and all(s.startswith("urn:paperkg:test/") for s in subjects)


# ----------------------------------------------------------------------------- serializations

WRITERS = {
    "nt": rdf.write_ntriples, "nq": rdf.write_nquads, "ttl": rdf.write_turtle, "trig": rdf.write_trig,
    "jsonld": rdf.write_jsonld, "rdfxml": rdf.write_rdfxml,
}
OX_FORMATS = {"nt": ox.RdfFormat.N_TRIPLES, "nq": ox.RdfFormat.N_QUADS, "ttl": ox.RdfFormat.TURTLE,
              "trig": ox.RdfFormat.TRIG, "jsonld": ox.RdfFormat.JSON_LD, "rdfxml": ox.RdfFormat.RDF_XML}


@pytest.mark.parametrize("fmt", list(WRITERS))
def test_round_trip_with_rdflib_and_oxigraph(fmt: str, G: nx.MultiDiGraph, g: rdflib.Graph, tmp_path: Path) -> None:
    path = WRITERS[fmt](G, tmp_path / f"out{rdf.FORMATS[fmt][0]}", base_iri=BASE)
    back = rdf.read_rdf(path)
    assert isomorphic(back, g), f"{fmt}: parsed back differs"
    quads = list(ox.parse(path=str(path), format=OX_FORMATS[fmt]))
    assert len({(q.subject, q.predicate, q.object) for q in quads}) == len(g)
    if fmt in ("nq", "trig"):
        assert {q.graph_name for q in quads} == {ox.NamedNode(rdf.graph_iri(G, BASE))}


def test_jsonld_uses_the_shipped_context(G: nx.MultiDiGraph) -> None:
    text = rdf.to_jsonld(G, base_iri=BASE).decode("utf-8")
    assert '"@context"' in text and '"fabio:ResearchPaper"' in text


def test_ntriples_are_sorted_and_deterministic(G: nx.MultiDiGraph) -> None:
    data = rdf.to_ntriples(G, base_iri=BASE)
    lines = data.decode("utf-8").splitlines()
    assert lines == sorted(lines) and len(lines) == len(set(lines))
    # the same graph built in another order gives the same bytes
    H = nx.MultiDiGraph(**G.graph)
    H.add_nodes_from(reversed(list(G.nodes(data=True))))
    H.add_edges_from(reversed(list(G.edges(keys=True, data=True))))
    assert rdf.to_ntriples(H, base_iri=BASE) == data
    assert rdf.to_nquads(H, base_iri=BASE) == rdf.to_nquads(G, base_iri=BASE)


def test_ntriples_escape_literals(G: nx.MultiDiGraph) -> None:
    data = rdf.to_ntriples(G, base_iri=BASE).decode("utf-8")
    assert '"Paper \\"one\\" \\\\ <x>"' in data
    assert "We propose FooNet.\\nIt uses BERT on ImageNet." in data
    assert "\r" not in data and "\x01" not in data


def test_graph_iri_is_stable_and_depends_on_the_papers(G: nx.MultiDiGraph) -> None:
    assert rdf.graph_iri(G, BASE) == rdf.graph_iri(hand_graph(), BASE)
    H = G.copy()
    H.remove_node("paper:h:2")
    assert rdf.graph_iri(H, BASE) != rdf.graph_iri(G, BASE)
    assert rdf.graph_iri(G, BASE).startswith(BASE + "graph/")


def test_write_build_rdf(G: nx.MultiDiGraph, g: rdflib.Graph, tmp_path: Path) -> None:
    paths = rdf.write_build_rdf(G, tmp_path / "rdf", base_iri=BASE, formats=("nt", "ttl", "rdfxml"))
    assert {"nq", "nt", "ttl", "rdfxml", "ontology", "shapes", "context", "build"} <= set(paths)
    for fmt in ("nq", "nt", "ttl", "rdfxml"):
        assert isomorphic(rdf.read_rdf(paths[fmt]), g), fmt
    assert paths["nt"].read_bytes() == rdf.to_ntriples(G, base_iri=BASE)
    rdflib.Graph().parse(paths["ontology"], format="turtle")
    rdflib.Graph().parse(paths["shapes"], format="turtle")
    with pytest.raises(InputError, match="unknown RDF format"):
        rdf.write_build_rdf(G, tmp_path / "x", formats=("yaml",))


def test_read_rdf_unknown_suffix(tmp_path: Path) -> None:
    p = tmp_path / "g.yaml"
    p.write_text("x")
    with pytest.raises(InputError, match="unknown RDF format"):
        rdf.read_rdf(p)


# ----------------------------------------------------------------------------- real data

@pytest.fixture(scope="module")
def real_graph(seeds_dir: Path, shared_data: Path) -> nx.MultiDiGraph:
    from extractors.pipeline import extract_records
    from kg.graph import build_graph
    from kg.merge import merge_records
    from kg.readers import read_file

    records = []
    for path in sorted(seeds_dir.glob("*.txt")):
        records.extend(read_file(path))
    # a slice of a conference list with research areas, for the category mapping
    records.extend(list(read_file(shared_data / "confpapers" / "jsonl" / "iclr2024.jsonl"))[:80])
    return build_graph(extract_records(merge_records(records).records))


def test_real_graph_round_trips_and_parses_with_oxigraph(real_graph: nx.MultiDiGraph, tmp_path: Path) -> None:
    g = rdf.to_rdf(real_graph)
    assert len(g) > 5_000
    paths = rdf.write_build_rdf(real_graph, tmp_path, formats=("nt", "ttl", "trig", "jsonld", "rdfxml"))
    for fmt in ("nt", "ttl", "trig", "jsonld", "rdfxml"):
        assert isomorphic(rdf.read_rdf(paths[fmt]), g), fmt
        n = len({(q.subject, q.predicate, q.object) for q in ox.parse(path=str(paths[fmt]), format=OX_FORMATS[fmt])})
        assert n == len(g), fmt
    # every paper, author and extracted entity of the graph is in the RDF
    types = {t: sum(1 for _, d in real_graph.nodes(data=True) if d["type"] == t) for t in ("paper", "author", "method")}
    assert len(set(g.subjects(ns.RDF.type, ns.FABIO.ResearchPaper))) == types["paper"]
    assert len(set(g.subjects(ns.RDF.type, ns.FOAF.Person))) == types["author"]
    assert len(set(g.subjects(ns.RDF.type, ns.MLS.Algorithm))) == types["method"] > 0
    assert set(g.subjects(ns.RDF.type, ns.PKG.Mention))
    assert set(g.subjects(ns.SKOS.broader, None))
