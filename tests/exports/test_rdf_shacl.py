"""SHACL: graphs built from shared/data conform to the shipped shapes; broken ones do not."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
import rdflib
from pyshacl import validate

import kg.namespace as ns
from exports import rdf


@pytest.fixture(scope="module")
def shapes() -> rdflib.Graph:
    return rdflib.Graph().parse(rdf.data_path("shapes.ttl"), format="turtle")


def _records(paths: list[Path], limit: int | None = None) -> list:
    from extractors.pipeline import extract_records
    from kg.merge import merge_records
    from kg.readers import read_file

    records = []
    for p in paths:
        records.extend(list(read_file(p))[:limit])
    return extract_records(merge_records(records).records)


def _check(g: rdflib.Graph, shapes: rdflib.Graph) -> tuple[bool, str]:
    conforms, _, text = validate(g, shacl_graph=shapes, inference="none", advanced=True)
    return conforms, text


def test_seed_pages_conform(seeds_dir: Path, shapes: rdflib.Graph) -> None:
    from kg.graph import build_graph

    G = build_graph(_records(sorted(seeds_dir.glob("*.txt"))))
    for evidence in (True, False):
        conforms, text = _check(rdf.to_rdf(G, evidence=evidence), shapes)
        assert conforms, text


@pytest.mark.parametrize("name", ["iclr2024.jsonl", "ijcai2024.jsonl", "icml2025_titles_only.jsonl"])
def test_conference_lists_conform(name: str, shared_data: Path, shapes: rdflib.Graph) -> None:
    from kg.graph import build_graph

    G = build_graph(_records([shared_data / "confpapers" / "jsonl" / name], limit=120))
    g = rdf.to_rdf(G)
    assert len(set(g.subjects(ns.RDF.type, ns.FABIO.ResearchPaper))) >= 100
    conforms, text = _check(g, shapes)
    assert conforms, text


def test_hand_graph_conforms_and_broken_graphs_do_not(shapes: rdflib.Graph) -> None:
    from test_rdf import hand_graph

    G = hand_graph()
    g = rdf.to_rdf(G)
    assert _check(g, shapes)[0]
    detailed = rdflib.Graph()
    for s, p, o in rdf.iter_triples(G, sharing=True):
        detailed.add((rdflib.URIRef(s), rdflib.URIRef(p), rdf._rdflib_term(o)))
    assert _check(detailed, shapes)[0]
    # a paper that lost its record id
    broken = rdflib.Graph()
    for t in g:
        if t[1] != ns.PKG.recordId:
            broken.add(t)
    conforms, text = _check(broken, shapes)
    assert not conforms and "recordId" in text
    # an authorship with two positions
    H: nx.MultiDiGraph = G.copy()
    g2 = rdf.to_rdf(H)
    a = next(g2.subjects(ns.RDF.type, ns.PKG.Authorship))
    g2.add((a, ns.PKG.position, rdflib.Literal(7)))
    assert not _check(g2, shapes)[0]
    # a method used by a paper but typed as a dataset only
    g3 = rdf.to_rdf(G)
    m = next(g3.subjects(ns.RDF.type, ns.MLS.Algorithm))
    g3.remove((m, ns.RDF.type, ns.MLS.Algorithm))
    assert not _check(g3, shapes)[0]
