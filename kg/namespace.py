"""Every RDF vocabulary paperkg writes, in one place.

paperkg's own terms live in :class:`PKG`, an rdflib ``DefinedNamespace`` with ``_fail = True``,
so a misspelt term is an ``AttributeError`` at the line that uses it instead of a silently wrong
IRI in the output. The published ontology (``exports/data/paperkg.ttl``) describes exactly these
terms; ``tests/exports/test_rdf_vocab.py`` checks that the two agree.

Standard vocabularies come from rdflib (FOAF, DCTERMS, SKOS, PROV, SDO = schema.org, RDF, RDFS,
OWL, XSD, SH) or are declared here with the few terms paperkg uses (FaBiO, CiTO, BIBO and
ML-Schema), again with ``_fail = True``:

- FaBiO and CiTO: the SPAR ontologies, https://sparontologies.github.io/ (Peroni & Shotton 2012).
- BIBO: the Bibliographic Ontology, http://purl.org/ontology/bibo/.
- ML-Schema: W3C ML Schema Community Group, http://www.w3.org/ns/mls# (Publio et al. 2018).
"""

from __future__ import annotations

from rdflib import URIRef
from rdflib.namespace import (
    DCTERMS,
    FOAF,
    OWL,
    PROV,
    RDF,
    RDFS,
    SDO,
    SH,
    SKOS,
    XSD,
    DefinedNamespace,
    Namespace,
)

__all__ = [
    "BIBO", "CITO", "DCTERMS", "FABIO", "FOAF", "MLS", "OWL", "PKG", "PROV", "RDF", "RDFS",
    "SDO", "SH", "SKOS", "XSD", "PKG_IRI", "PREFIXES", "bind_prefixes",
]

#: The IRI of paperkg's own vocabulary (the ontology file declares it as an owl:Ontology).
PKG_IRI = "https://w3id.org/paperkg/ns#"


class PKG(DefinedNamespace):
    """paperkg's own vocabulary: roles, derived relations, authorship and evidence."""

    _fail = True
    _NS = Namespace(PKG_IRI)

    # classes
    Authorship: URIRef  # one author at one position on one paper
    Mention: URIRef  # a span of a paper's text that an extracted fact came from
    Sharing: URIRef  # why two papers or two authors are linked by pkg:sharesWith
    # paper -> entity roles
    proposes: URIRef
    uses: URIRef
    introduces: URIRef
    evaluatesOn: URIRef
    about: URIRef
    inCategory: URIRef
    # authorship
    hasAuthorship: URIRef
    author: URIRef
    position: URIRef
    # derived, undirected relations (written in both directions)
    coauthorWith: URIRef
    sharesWith: URIRef
    between: URIRef
    sharedEntity: URIRef
    weight: URIRef
    # descriptive attributes without a standard term
    recordId: URIRef
    venue: URIRef
    workId: URIRef
    nPapers: URIRef
    nEntities: URIRef
    authorsTruncated: URIRef
    level: URIRef
    # citation qualifiers
    citationSource: URIRef
    confidence: URIRef
    # evidence
    start: URIRef
    end: URIRef
    rule: URIRef
    field: URIRef


class FABIO(DefinedNamespace):
    """FRBR-aligned Bibliographic Ontology (the terms paperkg uses)."""

    _fail = True
    _NS = Namespace("http://purl.org/spar/fabio/")

    ResearchPaper: URIRef
    Work: URIRef
    hasPublicationYear: URIRef


class CITO(DefinedNamespace):
    """Citation Typing Ontology (the terms paperkg uses)."""

    _fail = True
    _NS = Namespace("http://purl.org/spar/cito/")

    cites: URIRef


class BIBO(DefinedNamespace):
    """The Bibliographic Ontology (the terms paperkg uses)."""

    _fail = True
    _NS = Namespace("http://purl.org/ontology/bibo/")

    doi: URIRef


class MLS(DefinedNamespace):
    """W3C ML-Schema (the terms paperkg uses)."""

    _fail = True
    _NS = Namespace("http://www.w3.org/ns/mls#")

    Algorithm: URIRef
    Dataset: URIRef


#: prefix -> namespace IRI, used by every serializer, the JSON-LD context and the example queries.
PREFIXES: dict[str, str] = {
    "pkg": PKG_IRI,
    "fabio": str(FABIO._NS),
    "cito": str(CITO._NS),
    "bibo": str(BIBO._NS),
    "mls": str(MLS._NS),
    "dcterms": str(DCTERMS),
    "foaf": str(FOAF),
    "skos": str(SKOS),
    "prov": str(PROV),
    "schema": str(SDO),
    "rdf": str(RDF),
    "rdfs": str(RDFS),
    "owl": str(OWL),
    "xsd": str(XSD),
}


def bind_prefixes(graph: object) -> object:
    """Bind :data:`PREFIXES` on an rdflib Graph or Dataset (returns it, for chaining)."""
    for prefix, iri in PREFIXES.items():
        graph.bind(prefix, iri, override=True, replace=True)  # type: ignore[attr-defined]
    return graph
