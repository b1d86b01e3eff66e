"""The vocabulary: kg.namespace.PKG, the published ontology and the SHACL shapes agree."""

from __future__ import annotations

import pytest
import rdflib

import kg.namespace as ns
from exports import rdf


def _declared_terms() -> set[str]:
    return {name for name in ns.PKG.__annotations__ if not name.startswith("_")}


def test_ontology_describes_exactly_the_pkg_terms() -> None:
    onto = rdflib.Graph().parse(rdf.data_path("paperkg.ttl"), format="turtle")
    in_ontology = {str(s)[len(ns.PKG_IRI):] for s in onto.subjects()
                   if str(s).startswith(ns.PKG_IRI) and str(s) != ns.PKG_IRI}
    assert in_ontology == _declared_terms()
    for term in _declared_terms():
        s = rdflib.URIRef(ns.PKG_IRI + term)
        assert onto.value(s, ns.RDFS.label) is not None, term
        assert onto.value(s, ns.RDFS.comment) is not None, term
        assert onto.value(s, ns.RDF.type) in (ns.OWL.Class, ns.OWL.ObjectProperty, ns.OWL.DatatypeProperty), term


def test_pkg_namespace_refuses_unknown_terms() -> None:
    assert str(ns.PKG.evaluatesOn) == ns.PKG_IRI + "evaluatesOn"
    with pytest.raises(AttributeError):
        ns.PKG.evaluatesOnn  # noqa: B018 (the typo must fail)
    with pytest.raises(AttributeError):
        ns.MLS.Algorithmm  # noqa: B018


def test_mapping_writes_only_declared_pkg_terms(tmp_path) -> None:
    from test_rdf import hand_graph

    used = {p for _, p, _ in rdf.iter_triples(hand_graph(), sharing=True)}
    used |= {o for _, p, o in rdf.iter_triples(hand_graph()) if p == str(ns.RDF.type)}
    pkg_used = {u[len(ns.PKG_IRI):] for u in used if isinstance(u, str) and u.startswith(ns.PKG_IRI)}
    assert pkg_used and pkg_used <= _declared_terms()


def test_context_and_shapes_parse() -> None:
    ctx = rdf.jsonld_context()
    assert ctx["pkg"] == ns.PKG_IRI and ctx["mls"] == "http://www.w3.org/ns/mls#"
    assert ctx == ns.PREFIXES | {}  # one list of prefixes for every syntax
    shapes = rdflib.Graph().parse(rdf.data_path("shapes.ttl"), format="turtle")
    assert len(set(shapes.subjects(ns.RDF.type, ns.SH.NodeShape))) >= 8
