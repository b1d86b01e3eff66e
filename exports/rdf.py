"""The paperkg graph as RDF, in the vocabularies the scholarly web already uses.

One mapping, :func:`iter_triples`, turns the NetworkX graph (the contract in :mod:`kg.schema`)
into triples; everything else serializes those triples:

- :func:`to_rdf` builds an ``rdflib.Graph`` (handy, but slow beyond a few hundred thousand
  triples);
- :func:`to_ntriples` / :func:`to_nquads` write N-Triples / N-Quads *directly* from the mapping,
  sorted, so the same graph always gives the same bytes; this is the path ``kg build`` takes
  and it scales to millions of triples;
- Turtle, TriG and RDF/XML are written by Oxigraph (``pyoxigraph.serialize``) from those
  N-Triples, JSON-LD by rdflib with the shipped context (``exports/data/context.jsonld``).

The mapping
-----------
========================  ==============================================================
paper                     ``fabio:ResearchPaper``, ``schema:ScholarlyArticle``;
                          ``dcterms:title``, ``dcterms:abstract``,
                          ``fabio:hasPublicationYear`` (``xsd:gYear``), ``bibo:doi``,
                          ``pkg:recordId``, ``pkg:venue``, ``pkg:nEntities``
author -> paper           ``dcterms:creator`` plus a ``pkg:Authorship`` node with the
                          0-based ``pkg:position`` (as SemOpenAlex records author order)
author                    ``foaf:Person``, ``foaf:name``, ``foaf:givenName`` /
                          ``foaf:familyName`` (:func:`kg.names.split_name`)
method                    ``mls:Algorithm``
benchmark                 ``mls:Dataset``, ``schema:Dataset``
concept, category         ``skos:Concept`` in a ``skos:ConceptScheme``; subarea
                          ``skos:broader`` area; aliases ``skos:altLabel``
roles                     ``pkg:proposes``, ``pkg:uses``, ``pkg:introduces``,
                          ``pkg:evaluatesOn``, ``pkg:about``, ``pkg:inCategory``
citation                  ``cito:cites`` (to a paper, or to a ``fabio:Work``)
coauthor, shares          ``pkg:coauthorWith`` / ``pkg:sharesWith`` in both directions;
                          with ``sharing=True`` a ``pkg:Sharing`` node also says what is
                          shared and how much
evidence                  each fact extracted from text is an ``rdf:Statement``
                          (``rdf:subject`` = the paper, ``rdf:predicate``,
                          ``rdf:object``) that ``prov:wasDerivedFrom`` its
                          ``pkg:Mention`` nodes (``pkg:start``, ``pkg:end``,
                          ``prov:value``, ``pkg:rule``, ``pkg:field``); in-text
                          citations also carry ``pkg:citationSource`` and
                          ``pkg:confidence`` (a ``cito:cites`` without a statement came
                          from the reference list). ``evidence=False`` leaves out the
                          statements and mentions
========================  ==============================================================

IRIs are ``<base><type>/<id>``: ids are percent-encoded (only unreserved characters and ``:``
stay as they are; category slugs keep their ``/``), so spaces, quotes, ``<>`` or any Unicode
never break the output; an id longer than :data:`MAX_ID_CHARS` encoded characters is cut
and suffixed with a SHA-1 digest of the whole id. The same graph gives the same IRIs in
every run.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, NamedTuple
from urllib.parse import quote

from kg.errors import InputError
from kg.names import split_name
from kg.namespace import (
    BIBO, CITO, DCTERMS, FABIO, FOAF, MLS, PKG, PREFIXES, PROV, RDF, RDFS, SDO, SKOS, XSD,
    bind_prefixes,
)
from kg.schema import EdgeType, NodeType, node_key

if TYPE_CHECKING:
    import networkx as nx
    import rdflib

__all__ = [
    "DEFAULT_BASE_IRI", "Lit", "iter_triples", "node_iri", "graph_iri", "check_base_iri",
    "to_rdf", "to_dataset", "to_ntriples", "to_nquads", "to_turtle", "to_trig", "to_jsonld",
    "to_rdfxml", "write_ntriples", "write_nquads", "write_turtle", "write_trig", "write_jsonld",
    "write_rdfxml", "read_rdf", "write_build_rdf", "data_path", "jsonld_context", "FORMATS",
]

#: Where node IRIs live unless ``--base-iri`` says otherwise.
DEFAULT_BASE_IRI = "https://w3id.org/paperkg/id/"
#: Longer encoded ids are cut and suffixed with a digest.
MAX_ID_CHARS = 120

#: format name -> (file suffix, media type)
FORMATS: dict[str, tuple[str, str]] = {
    "nt": (".nt", "application/n-triples"),
    "nq": (".nq", "application/n-quads"),
    "ttl": (".ttl", "text/turtle"),
    "trig": (".trig", "application/trig"),
    "jsonld": (".jsonld", "application/ld+json"),
    "rdfxml": (".rdf", "application/rdf+xml"),
}

#: The build file every consumer (store, push) reads.
BUILD_NQUADS = "paperkg.nq"


class Lit(NamedTuple):
    """A literal in the mapping: lexical form and datatype IRI (None = ``xsd:string``)."""

    lex: str
    datatype: str | None = None


#: A triple of the mapping: subject and predicate IRIs, object IRI (str) or :class:`Lit`.
Triple = tuple[str, str, "str | Lit"]

_SLUG_TYPES = {NodeType.METHOD.value, NodeType.BENCHMARK.value, NodeType.CONCEPT.value,
               NodeType.CATEGORY.value}
_BAD_IRI_CHARS = re.compile(r'[\x00-\x20<>"{}|^`\\]')
# Characters XML 1.0 (RDF/XML) cannot carry, and lone surrogates UTF-8 cannot encode.
_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_NT_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r"})

_ROLE_PREDICATES: dict[str, str] = {
    EdgeType.PROPOSES.value: str(PKG.proposes),
    EdgeType.USES.value: str(PKG.uses),
    EdgeType.INTRODUCES.value: str(PKG.introduces),
    EdgeType.EVALUATES_ON.value: str(PKG.evaluatesOn),
    EdgeType.ABOUT.value: str(PKG.about),
    EdgeType.IN_CATEGORY.value: str(PKG.inCategory),
    EdgeType.BROADER.value: str(SKOS.broader),
    EdgeType.CITES.value: str(CITO.cites),
}

_T = str(RDF.type)
_LABEL = str(RDFS.label)
_INT = str(XSD.integer)
_DEC = str(XSD.decimal)
_BOOL = str(XSD.boolean)
_GYEAR = str(XSD.gYear)
# IRIs of the terms the mapping writes, computed once (DefinedNamespace lookups are slow).
_BIBO_doi = str(BIBO.doi)
_DCTERMS_abstract = str(DCTERMS.abstract)
_DCTERMS_creator = str(DCTERMS.creator)
_DCTERMS_title = str(DCTERMS.title)
_FABIO_ResearchPaper = str(FABIO.ResearchPaper)
_FABIO_Work = str(FABIO.Work)
_FABIO_hasPublicationYear = str(FABIO.hasPublicationYear)
_FOAF_Person = str(FOAF.Person)
_FOAF_familyName = str(FOAF.familyName)
_FOAF_givenName = str(FOAF.givenName)
_FOAF_name = str(FOAF.name)
_MLS_Algorithm = str(MLS.Algorithm)
_MLS_Dataset = str(MLS.Dataset)
_PKG_Authorship = str(PKG.Authorship)
_PKG_Mention = str(PKG.Mention)
_PKG_Sharing = str(PKG.Sharing)
_PKG_author = str(PKG.author)
_PKG_authorsTruncated = str(PKG.authorsTruncated)
_PKG_between = str(PKG.between)
_PKG_citationSource = str(PKG.citationSource)
_PKG_coauthorWith = str(PKG.coauthorWith)
_PKG_confidence = str(PKG.confidence)
_PKG_end = str(PKG.end)
_PKG_field = str(PKG.field)
_PKG_hasAuthorship = str(PKG.hasAuthorship)
_PKG_level = str(PKG.level)
_PKG_nEntities = str(PKG.nEntities)
_PKG_nPapers = str(PKG.nPapers)
_PKG_position = str(PKG.position)
_PKG_recordId = str(PKG.recordId)
_PKG_rule = str(PKG.rule)
_PKG_sharedEntity = str(PKG.sharedEntity)
_PKG_sharesWith = str(PKG.sharesWith)
_PKG_start = str(PKG.start)
_PKG_venue = str(PKG.venue)
_PKG_weight = str(PKG.weight)
_PKG_workId = str(PKG.workId)
_PROV_value = str(PROV.value)
_PROV_wasDerivedFrom = str(PROV.wasDerivedFrom)
_RDF_Statement = str(RDF.Statement)
_RDF_object = str(RDF.object)
_RDF_predicate = str(RDF.predicate)
_RDF_subject = str(RDF.subject)
_SDO_Dataset = str(SDO.Dataset)
_SDO_ScholarlyArticle = str(SDO.ScholarlyArticle)
_SKOS_Concept = str(SKOS.Concept)
_SKOS_ConceptScheme = str(SKOS.ConceptScheme)
_SKOS_altLabel = str(SKOS.altLabel)
_SKOS_inScheme = str(SKOS.inScheme)
_SKOS_prefLabel = str(SKOS.prefLabel)
_SKOS_topConceptOf = str(SKOS.topConceptOf)


# --------------------------------------------------------------------------- IRIs

def check_base_iri(base_iri: str) -> str:
    """Validate a base IRI and return it ending in ``/`` or ``#``.

    Raises
    ------
    InputError
        When it is not an absolute IRI or holds characters an IRI cannot contain.

    Examples
    --------
    >>> check_base_iri("https://example.org/kg")
    'https://example.org/kg/'
    """
    if not re.match(r"^[A-Za-z][A-Za-z0-9+.\-]*:\S", base_iri or "") or _BAD_IRI_CHARS.search(base_iri):
        raise InputError(f"bad base IRI {base_iri!r}: expected an absolute IRI such as "
                         f"'https://example.org/kg/' without spaces, quotes or <>")
    return base_iri if base_iri.endswith(("/", "#")) else base_iri + "/"


def _encode_id(ident: str, *, keep_slash: bool) -> str:
    enc = quote(ident, safe=":/" if keep_slash else ":")
    if enc in (".", ".."):  # would vanish under IRI path normalisation
        enc = enc.replace(".", "%2E")
    if len(enc) > MAX_ID_CHARS:
        cut = enc[:60]
        pct = cut.rfind("%", len(cut) - 2)
        if pct != -1:
            cut = cut[:pct]
        enc = f"{cut}_{hashlib.sha1(ident.encode('utf-8', 'surrogatepass')).hexdigest()[:20]}"
    return enc


def node_iri(key: str, base_iri: str = DEFAULT_BASE_IRI) -> str:
    """The IRI of a graph node key (``"paper:doi:10.1/x"`` -> ``<base>paper/doi:10.1%2Fx``).

    ``base_iri`` must already be checked (:func:`check_base_iri`).

    Examples
    --------
    >>> node_iri("author:renzhe-xu", "https://ex.org/")
    'https://ex.org/author/renzhe-xu'
    >>> node_iri('paper:h:a b"<c>', "https://ex.org/")
    'https://ex.org/paper/h:a%20b%22%3Cc%3E'
    >>> node_iri("category:theory/game-theory", "https://ex.org/")
    'https://ex.org/category/theory/game-theory'
    """
    kind, _, ident = key.partition(":")
    return f"{base_iri}{quote(kind, safe='')}/{_encode_id(ident, keep_slash=kind in _SLUG_TYPES)}"


def graph_iri(G: "nx.MultiDiGraph", base_iri: str = DEFAULT_BASE_IRI) -> str:
    """The named graph of one build: a digest of its paper keys, so it is stable across runs."""
    h = hashlib.sha1()
    for key in sorted(k for k, d in G.nodes(data=True) if d.get("type") == NodeType.PAPER.value):
        h.update(key.encode("utf-8", "surrogatepass"))
        h.update(b"\n")
    return f"{check_base_iri(base_iri)}graph/{h.hexdigest()[:16]}"


def _digest(*parts: object) -> str:
    return hashlib.sha1("\x1f".join(map(str, parts)).encode("utf-8", "surrogatepass")).hexdigest()[:20]


# --------------------------------------------------------------------------- the mapping

def _text(value: Any) -> Lit:
    s = str(value)
    if _XML_BAD.search(s):
        s = _XML_BAD.sub("", s)
    if "\r" in s:
        s = s.replace("\r\n", "\n").replace("\r", "\n")
    return Lit(s)


def _int(value: Any) -> Lit:
    return Lit(str(int(value)), _INT)


def _number(value: Any) -> Lit:
    if isinstance(value, bool) or isinstance(value, int):
        return Lit(str(int(value)), _INT)
    s = f"{float(value):.6f}".rstrip("0")
    return Lit(s + "0" if s.endswith(".") else s, _DEC)


def _type(node: str, data: dict[str, Any]) -> str:
    t = data.get("type")
    return str(t.value if hasattr(t, "value") else t) if t else node.partition(":")[0]


def _names(value: Any) -> list[str]:
    if not value:
        return []
    if isinstance(value, str):
        return [value]
    return [v for v in value if v]


def iter_triples(G: "nx.MultiDiGraph", *, base_iri: str = DEFAULT_BASE_IRI,
                 evidence: bool = True, sharing: bool = False) -> Iterator[Triple]:
    """Every triple of the RDF form of ``G`` (may repeat a triple; consumers de-duplicate).

    Parameters
    ----------
    G
        A graph following the :mod:`kg.schema` contract.
    base_iri
        Prefix of every node IRI.
    evidence
        Also write the ``rdf:Statement`` and ``pkg:Mention`` nodes that trace each extracted
        fact to its text.
    sharing
        Also write a ``pkg:Sharing`` node per ``pkg:sharesWith`` pair: its two ends, weight
        and shared entities. Off by default: what two papers share is found by joining their
        entities, and on the confpapers corpus these nodes were half of all triples.
    """
    base = check_base_iri(base_iri)
    iri: dict[str, str] = {n: node_iri(n, base) for n in G.nodes}
    types: dict[str, str] = {n: _type(n, d) for n, d in G.nodes(data=True)}
    concept_scheme = f"{base}scheme/concepts"
    category_scheme = f"{base}scheme/categories"
    seen_types = set(types.values())
    entity_keys: dict[tuple[str, str], str | None] = {}
    if NodeType.CONCEPT.value in seen_types:
        yield concept_scheme, _T, _SKOS_ConceptScheme
        yield concept_scheme, _LABEL, Lit("paperkg concepts")
    if NodeType.CATEGORY.value in seen_types:
        yield category_scheme, _T, _SKOS_ConceptScheme
        yield category_scheme, _LABEL, Lit("paperkg categories")

    for n, d in G.nodes(data=True):
        s = iri[n]
        t = types[n]
        label = d.get("label") or d.get("name") or d.get("title")
        if label:
            yield s, _LABEL, _text(label)
        for alias in _names(d.get("aliases")):
            yield s, _SKOS_altLabel, _text(alias)
        if d.get("n_papers") is not None:
            yield s, _PKG_nPapers, _int(d["n_papers"])
        if t == NodeType.PAPER.value:
            yield s, _T, _FABIO_ResearchPaper
            yield s, _T, _SDO_ScholarlyArticle
            yield s, _PKG_recordId, _text(d.get("record_id") or n.partition(":")[2])
            if d.get("title"):
                yield s, _DCTERMS_title, _text(d["title"])
            if d.get("abstract"):
                yield s, _DCTERMS_abstract, _text(d["abstract"])
            if d.get("year") is not None:
                yield s, _FABIO_hasPublicationYear, Lit(f"{int(d['year']):04d}", _GYEAR)
            if d.get("venue"):
                yield s, _PKG_venue, _text(d["venue"])
            if d.get("doi"):
                yield s, _BIBO_doi, _text(d["doi"])
            if d.get("authors_truncated"):
                yield s, _PKG_authorsTruncated, Lit("true", _BOOL)
            if d.get("n_entities") is not None:
                yield s, _PKG_nEntities, _int(d["n_entities"])
        elif t == NodeType.AUTHOR.value:
            yield s, _T, _FOAF_Person
            name = d.get("name") or d.get("label")
            if name:
                yield s, _FOAF_name, _text(name)
                given, family = split_name(str(name))
                if given:
                    yield s, _FOAF_givenName, _text(given)
                if family:
                    yield s, _FOAF_familyName, _text(family)
        elif t == NodeType.METHOD.value:
            yield s, _T, _MLS_Algorithm
        elif t == NodeType.BENCHMARK.value:
            yield s, _T, _MLS_Dataset
            yield s, _T, _SDO_Dataset
        elif t == NodeType.CONCEPT.value:
            yield s, _T, _SKOS_Concept
            yield s, _SKOS_inScheme, concept_scheme
            if d.get("name") or label:
                yield s, _SKOS_prefLabel, _text(d.get("name") or label)
        elif t == NodeType.CATEGORY.value:
            yield s, _T, _SKOS_Concept
            yield s, _SKOS_inScheme, category_scheme
            if d.get("name") or label:
                yield s, _SKOS_prefLabel, _text(d.get("name") or label)
            level = d.get("level") or ("subarea" if "/" in n else "area")
            yield s, _PKG_level, _text(level)
            if level == "area":
                yield s, _SKOS_topConceptOf, category_scheme
        elif t == NodeType.WORK.value:
            yield s, _T, _FABIO_Work
            yield s, _PKG_workId, _text(d.get("work_id") or n.partition(":")[2])

    for u, v, k, d in G.edges(keys=True, data=True):
        kind = str(k.value if hasattr(k, "value") else k)
        su, sv = iri[u], iri[v]
        if kind == EdgeType.AUTHORED.value:
            # author -> paper
            yield sv, _DCTERMS_creator, su
            pos = d.get("position")
            if pos is not None:
                a = f"{base}authorship/{_encode_id(v.partition(':')[2], keep_slash=False)}/{int(pos)}"
                yield sv, _PKG_hasAuthorship, a
                yield a, _T, _PKG_Authorship
                yield a, _PKG_author, su
                yield a, _PKG_position, _int(pos)
            continue
        if kind == EdgeType.COAUTHOR.value:
            yield su, _PKG_coauthorWith, sv
            yield sv, _PKG_coauthorWith, su
            continue
        if kind == EdgeType.SHARES.value:
            yield su, _PKG_sharesWith, sv
            yield sv, _PKG_sharesWith, su
            if not sharing:
                continue
            rel = f"{base}sharing/{_digest(u, v)}"
            yield rel, _T, _PKG_Sharing
            yield rel, _PKG_between, su
            yield rel, _PKG_between, sv
            if d.get("weight") is not None:
                yield rel, _PKG_weight, _number(d["weight"])
            for item in d.get("shared") or ():
                target = _entity_key(G, item, entity_keys) if isinstance(item, dict) else None
                if target is not None:
                    yield rel, _PKG_sharedEntity, iri[target]
            continue
        pred = _ROLE_PREDICATES.get(kind)
        if pred is None:
            continue  # an edge type this mapping does not know: left out, never invented
        yield su, pred, sv
        mentions = d.get("evidence")
        if not evidence or not mentions:
            # a citation without evidence came from the reference list: the plain
            # cito:cites says it all
            continue
        st = f"{base}fact/{_digest(u, kind, v)}"
        yield st, _T, _RDF_Statement
        yield st, _RDF_subject, su
        yield st, _RDF_predicate, pred
        yield st, _RDF_object, sv
        if kind == EdgeType.CITES.value:
            if d.get("source"):
                yield st, _PKG_citationSource, _text(d["source"])
            if d.get("confidence") is not None:
                yield st, _PKG_confidence, _number(d["confidence"])
        for m in mentions:
            field = m.get("field") or "abstract"
            mi = f"{base}mention/{_digest(u, field, m.get('start'), m.get('end'), m.get('text'), m.get('rule'))}"
            yield st, _PROV_wasDerivedFrom, mi
            yield mi, _T, _PKG_Mention
            if m.get("start") is not None:
                yield mi, _PKG_start, _int(m["start"])
            if m.get("end") is not None:
                yield mi, _PKG_end, _int(m["end"])
            if m.get("text") is not None:
                yield mi, _PROV_value, _text(m["text"])
            if m.get("rule"):
                yield mi, _PKG_rule, _text(m["rule"])
            yield mi, _PKG_field, _text(field)


def _entity_key(G: "nx.MultiDiGraph", item: dict[str, Any], cache: dict[tuple[str, str], str | None]) -> str | None:
    """The node a ``shares`` explanation item names, when it is in the graph."""
    ident = (str(item.get("type")), str(item.get("name")))
    if ident not in cache:
        try:
            key: str | None = node_key(*ident)
        except ValueError:
            key = None
        cache[ident] = key if key is not None and key in G else None
    return cache[ident]


# --------------------------------------------------------------------------- N-Triples, directly

def _nt_term(o: "str | Lit") -> str:
    if isinstance(o, Lit):
        lex = '"' + o.lex.translate(_NT_ESCAPES) + '"'
        return lex if o.datatype is None else f"{lex}^^<{o.datatype}>"
    return f"<{o}>"


def iter_ntriples_lines(G: "nx.MultiDiGraph", *, base_iri: str = DEFAULT_BASE_IRI,
                        evidence: bool = True, graph: str | None = None) -> Iterator[str]:
    """Unsorted N-Triples (or N-Quads, with ``graph``) lines, each ending in a newline.

    A line may repeat (one mention can support two facts); the sorted writers drop repeats.
    """
    g = f" <{graph}>" if graph else ""
    nt = _nt_term
    for s, p, o in iter_triples(G, base_iri=base_iri, evidence=evidence):
        yield f"<{s}> <{p}> {nt(o)}{g} .\n"


#: Lines sorted in memory at once; bigger outputs are merged from sorted runs on disk.
SORT_CHUNK = 2_000_000


def write_sorted_lines(lines: Iterable[str], fh: Any, *, chunk: int = SORT_CHUNK) -> int:
    """Write ``lines`` sorted and without repeats to the binary file ``fh``; returns the count.

    Memory stays bounded: every ``chunk`` lines are sorted into a temporary run file and the
    runs are merged (an external merge sort), so a 100k-paper graph's tens of millions of
    lines never sit in memory together.
    """
    import heapq
    import tempfile

    runs: list[Any] = []
    buf: list[str] = []

    def spill() -> None:
        buf.sort()
        run = tempfile.TemporaryFile(mode="w+", encoding="utf-8", newline="")
        run.writelines(buf)
        run.seek(0)
        runs.append(run)
        buf.clear()

    for line in lines:
        buf.append(line)
        if len(buf) >= chunk:
            spill()
    if runs and buf:
        spill()
    if not runs:
        buf.sort()
        merged: Iterable[str] = buf
    else:
        merged = heapq.merge(*runs)
    n = 0
    prev = None
    out: list[str] = []
    try:
        for line in merged:
            if line == prev:
                continue
            prev = line
            out.append(line)
            n += 1
            if len(out) >= 100_000:
                fh.write("".join(out).encode("utf-8"))
                out.clear()
        fh.write("".join(out).encode("utf-8"))
    finally:
        for run in runs:
            run.close()
    return n


def _sorted_bytes(lines: Iterable[str]) -> bytes:
    buf = io.BytesIO()
    write_sorted_lines(lines, buf)
    return buf.getvalue()


def to_ntriples(G: "nx.MultiDiGraph", *, base_iri: str = DEFAULT_BASE_IRI,
                evidence: bool = True) -> bytes:
    """Sorted N-Triples: the same graph always gives the same bytes.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.MultiDiGraph(schema_version="1")
    >>> G.add_node("method:bert", type="method", label="BERT", name="BERT")
    >>> print(to_ntriples(G, base_iri="https://ex.org/").decode(), end="")
    <https://ex.org/method/bert> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/ns/mls#Algorithm> .
    <https://ex.org/method/bert> <http://www.w3.org/2000/01/rdf-schema#label> "BERT" .
    """
    return _sorted_bytes(iter_ntriples_lines(G, base_iri=base_iri, evidence=evidence))


def to_nquads(G: "nx.MultiDiGraph", *, base_iri: str = DEFAULT_BASE_IRI, evidence: bool = True,
              graph: str | None = None) -> bytes:
    """Sorted N-Quads, every triple in the build's named graph (:func:`graph_iri` by default)."""
    graph = graph or graph_iri(G, base_iri)
    return _sorted_bytes(iter_ntriples_lines(G, base_iri=base_iri, evidence=evidence, graph=graph))


def _write_lines(path: str | Path, lines: Iterable[str]) -> Path:
    from kg.io import atomic_write

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(path, "wb") as fh:
        write_sorted_lines(lines, fh)
    return path


def write_ntriples(G: "nx.MultiDiGraph", path: str | Path, *, base_iri: str = DEFAULT_BASE_IRI,
                   evidence: bool = True) -> Path:
    """Write sorted N-Triples (:func:`to_ntriples`) to ``path``, in bounded memory."""
    return _write_lines(path, iter_ntriples_lines(G, base_iri=base_iri, evidence=evidence))


def write_nquads(G: "nx.MultiDiGraph", path: str | Path, *, base_iri: str = DEFAULT_BASE_IRI,
                 evidence: bool = True, graph: str | None = None) -> Path:
    """Write sorted N-Quads (:func:`to_nquads`) to ``path``, in bounded memory."""
    graph = graph or graph_iri(G, base_iri)
    return _write_lines(path, iter_ntriples_lines(G, base_iri=base_iri, evidence=evidence, graph=graph))


def _write_bytes(path: str | Path, data: bytes) -> Path:
    from kg.io import atomic_write

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(path, "wb") as fh:
        fh.write(data)
    return path


# --------------------------------------------------------------------------- rdflib

def _rdflib_term(o: "str | Lit") -> Any:
    from rdflib import Literal, URIRef

    if isinstance(o, Lit):
        return Literal(o.lex, datatype=URIRef(o.datatype) if o.datatype else None)
    return URIRef(o)


def to_rdf(G: "nx.MultiDiGraph", *, base_iri: str = DEFAULT_BASE_IRI,
           evidence: bool = True) -> "rdflib.Graph":
    """The graph as an ``rdflib.Graph`` with paperkg's prefixes bound.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.MultiDiGraph(schema_version="1")
    >>> G.add_node("author:ada-lovelace", type="author", label="Ada Lovelace", name="Ada Lovelace")
    >>> g = to_rdf(G, base_iri="https://ex.org/")
    >>> from kg.namespace import FOAF
    >>> [str(o) for o in g.objects(None, FOAF.familyName)]
    ['Lovelace']
    """
    import rdflib
    from rdflib import URIRef

    g = bind_prefixes(rdflib.Graph())
    add = g.add
    for s, p, o in iter_triples(G, base_iri=base_iri, evidence=evidence):
        add((URIRef(s), URIRef(p), _rdflib_term(o)))
    return g  # type: ignore[return-value]


def to_dataset(G: "nx.MultiDiGraph", *, base_iri: str = DEFAULT_BASE_IRI, evidence: bool = True,
               graph: str | None = None) -> "rdflib.Dataset":
    """An ``rdflib.Dataset`` holding the build as one named graph."""
    import rdflib
    from rdflib import URIRef

    ds = bind_prefixes(rdflib.Dataset())
    ng = ds.graph(URIRef(graph or graph_iri(G, base_iri)))
    for triple in to_rdf(G, base_iri=base_iri, evidence=evidence):
        ng.add(triple)
    return ds  # type: ignore[return-value]


# --------------------------------------------------------------------------- other syntaxes

def _oxigraph_serialize(data: bytes, in_fmt: str, out_fmt: str) -> bytes:
    import pyoxigraph as ox

    fmts = {"nt": ox.RdfFormat.N_TRIPLES, "nq": ox.RdfFormat.N_QUADS, "ttl": ox.RdfFormat.TURTLE,
            "trig": ox.RdfFormat.TRIG, "rdfxml": ox.RdfFormat.RDF_XML}
    quads = ox.parse(data, format=fmts[in_fmt])
    if in_fmt == "nt":
        quads = (q.triple for q in quads)
    out = ox.serialize(quads, format=fmts[out_fmt], prefixes=PREFIXES)
    assert out is not None
    return out


def _atomic(path: Path) -> Any:
    from kg.io import atomic_write

    return atomic_write(path, "wb")  # it makes the folder, or says in one line why it cannot


def _convert_file(nq: Path, path: Path, fmt: str) -> Path:
    """Turn the build's N-Quads file into Turtle / RDF/XML (triples) or TriG, streaming in Oxigraph."""
    import os

    import pyoxigraph as ox

    fmts = {"ttl": ox.RdfFormat.TURTLE, "trig": ox.RdfFormat.TRIG, "rdfxml": ox.RdfFormat.RDF_XML}
    quads = ox.parse(path=str(nq), format=ox.RdfFormat.N_QUADS)
    items = quads if fmt == "trig" else (q.triple for q in quads)
    tmp = path.with_name(path.name + ".tmp")
    try:
        ox.serialize(items, str(tmp), fmts[fmt], prefixes=PREFIXES)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def to_turtle(G: "nx.MultiDiGraph", **kw: Any) -> bytes:
    """Turtle with paperkg's prefixes (written by Oxigraph from the sorted N-Triples)."""
    return _oxigraph_serialize(to_ntriples(G, **kw), "nt", "ttl")


def to_trig(G: "nx.MultiDiGraph", *, graph: str | None = None, **kw: Any) -> bytes:
    """TriG: the build as one named graph."""
    return _oxigraph_serialize(to_nquads(G, graph=graph, **kw), "nq", "trig")


def to_rdfxml(G: "nx.MultiDiGraph", **kw: Any) -> bytes:
    """RDF/XML (written by Oxigraph)."""
    return _oxigraph_serialize(to_ntriples(G, **kw), "nt", "rdfxml")


def data_path(name: str) -> Path:
    """Path of a file shipped in ``exports/data/`` (ontology, shapes, JSON-LD context)."""
    return Path(__file__).resolve().parent / "data" / name


def jsonld_context() -> dict[str, Any]:
    """The shipped JSON-LD context (``exports/data/context.jsonld``), as a dict."""
    return json.loads(data_path("context.jsonld").read_text(encoding="utf-8"))["@context"]


def to_jsonld(G: "nx.MultiDiGraph", **kw: Any) -> bytes:
    """JSON-LD compacted with the shipped context (written by rdflib)."""
    g = to_rdf(G, **kw)
    return g.serialize(format="json-ld", context=jsonld_context(), indent=1,
                       sort_keys=True).encode("utf-8")


def write_turtle(G: "nx.MultiDiGraph", path: str | Path, **kw: Any) -> Path:
    return _write_bytes(path, to_turtle(G, **kw))


def write_trig(G: "nx.MultiDiGraph", path: str | Path, **kw: Any) -> Path:
    return _write_bytes(path, to_trig(G, **kw))


def write_rdfxml(G: "nx.MultiDiGraph", path: str | Path, **kw: Any) -> Path:
    return _write_bytes(path, to_rdfxml(G, **kw))


def write_jsonld(G: "nx.MultiDiGraph", path: str | Path, **kw: Any) -> Path:
    return _write_bytes(path, to_jsonld(G, **kw))


_RDFLIB_FORMATS = {"nt": "nt", "nq": "nquads", "ttl": "turtle", "trig": "trig", "jsonld": "json-ld",
                   "rdfxml": "xml"}


def read_rdf(path: str | Path, fmt: str | None = None) -> "rdflib.Graph":
    """Read a file written by this module back into rdflib (all named graphs merged)."""
    import rdflib

    path = Path(path)
    fmt = fmt or next((f for f, (suffix, _) in FORMATS.items() if path.name.endswith(suffix)), None)
    if fmt not in _RDFLIB_FORMATS:
        raise InputError(f"unknown RDF format; expected one of {', '.join(FORMATS)}", path=str(path))
    if fmt in ("nq", "trig"):
        ds = rdflib.Dataset()
        ds.parse(path, format=_RDFLIB_FORMATS[fmt])
        g = rdflib.Graph()
        for s, p, o, _ in ds.quads((None, None, None, None)):
            g.add((s, p, o))
        return g
    return rdflib.Graph().parse(path, format=_RDFLIB_FORMATS[fmt])


_WRITERS = {"nt": to_ntriples, "nq": to_nquads, "ttl": to_turtle, "trig": to_trig,
            "jsonld": to_jsonld, "rdfxml": to_rdfxml}


def _remove_stale_temporaries(out: Path) -> None:
    """Delete the temporary files a killed earlier build left in ``rdf/``: ``.paperkg.nq.*.tmp``
    of :func:`kg.io.atomic_write` (as large as the N-Quads) and ``paperkg.*.tmp`` of the
    converted copies. A build folder is written by one build at a time."""
    from kg.io import remove_temporaries

    remove_temporaries(out, ".paperkg.*.tmp", "paperkg.*.tmp")


def write_build_rdf(G: "nx.MultiDiGraph", out_dir: str | Path, *,
                    base_iri: str = DEFAULT_BASE_IRI, evidence: bool = True,
                    formats: Iterable[str] = ("nq", "ttl")) -> dict[str, Path]:
    """Write what ``kg build`` puts in ``OUT/rdf/``.

    Always writes ``paperkg.nq`` (sorted N-Quads, one named graph for the build: what
    :func:`kg.store.build_store` and :func:`kg.push.push` load) plus the vocabulary files
    ``ontology.ttl``, ``shapes.ttl`` and ``context.jsonld``; ``formats`` adds more
    serializations (``nt``, ``ttl``, ``trig``, ``jsonld``, ``rdfxml``; JSON-LD goes through
    rdflib and is slow on big graphs). ``paperkg.*`` serializations not asked for this time are
    removed, so the folder never mixes two builds. ``build.json`` says what was written: the
    graph IRI, the base IRI, whether evidence is in, the files, and the ``pipeline_version``
    and ``extractor_version`` of ``G.graph`` (those it has).

    Parameters
    ----------
    G
        The graph (:func:`kg.graph.build_graph`).
    out_dir
        The ``rdf/`` folder of the build (created when missing).

    Returns
    -------
    dict
        format name (and ``"ontology"``, ``"shapes"``, ``"context"``) -> path written.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    _remove_stale_temporaries(out)
    base = check_base_iri(base_iri)
    formats = list(dict.fromkeys(["nq", *formats]))
    for fmt in formats:
        if fmt not in _WRITERS:
            raise InputError(f"unknown RDF format {fmt!r}; expected one of {', '.join(FORMATS)}")
    written: dict[str, Path] = {}
    graph = graph_iri(G, base)
    nq = written["nq"] = write_nquads(G, out / BUILD_NQUADS, base_iri=base, evidence=evidence, graph=graph)
    for fmt in formats:
        if fmt == "nq":
            continue
        path = out / f"paperkg{FORMATS[fmt][0]}"
        if fmt == "jsonld":
            written[fmt] = write_jsonld(G, path, base_iri=base, evidence=evidence)
        elif fmt == "nt":
            # dropping the one graph term keeps the sorted order (it precedes " ." on every line)
            suffix = f" <{graph}> .\n".encode("utf-8")
            with open(nq, "rb") as src, _atomic(path) as dst:
                for line in src:
                    dst.write(line[: -len(suffix)] + b" .\n" if line.endswith(suffix) else line)
            written[fmt] = path
        else:
            written[fmt] = _convert_file(nq, path, fmt)
    for fmt, (ext, _) in FORMATS.items():  # a copy left by an earlier build would be stale
        if fmt not in written:
            (out / f"paperkg{ext}").unlink(missing_ok=True)
    for name, key in (("paperkg.ttl", "ontology"), ("shapes.ttl", "shapes"),
                      ("context.jsonld", "context")):
        target = out / ("ontology.ttl" if key == "ontology" else name)
        shutil.copyfile(data_path(name), target)
        written[key] = target
    # the versions of the code that made the graph (kg build sets both; no extraction, no extractor)
    versions = {k: G.graph[k] for k in ("pipeline_version", "extractor_version") if G.graph.get(k)}
    (out / "build.json").write_text(json.dumps({
        "graph": graph_iri(G, base), "base_iri": base, "evidence": evidence,
        "files": {k: p.name for k, p in written.items()}, **versions,
    }, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    written["build"] = out / "build.json"
    return written
