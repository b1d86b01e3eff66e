"""The embedded triple store of a build (``OUT/store/``) and running SPARQL on it.

The store is Oxigraph used directly through ``pyoxigraph`` (RocksDB on disk), chosen by
measurement (``bench/bench_rdf.py``; figures in ``bench/RESULTS.md``) against rdflib's in-memory
store and rdflib with the Oxigraph backend (``oxrdflib``) on the 13.6k-paper confpapers graph
(3.1M triples): the on-disk store opens in 0.05 s, whereas both in-memory stores must re-load
the build in every process (15 s with oxrdflib's Oxigraph parser, minutes and gigabytes with
rdflib's), which rules them out for ``kg sparql``; and several processes can open one store
read-only at once (``kg sparql`` while ``kg serve`` runs). Oxigraph in memory answered the
example queries 2-10x faster than on disk, so ``kg serve --memory`` copies the store into RAM
in each worker for a long-running endpoint.

The whole build lives in one named graph (:func:`exports.rdf.graph_iri`); queries see it as
their default graph, unless they name their dataset: ``FROM`` / ``FROM NAMED`` in the query,
or the SPARQL 1.1 Protocol's ``default-graph-uri`` / ``named-graph-uri`` (``kg serve``; options
of the same names for ``kg sparql``), which take precedence (:func:`run_query`).

Functions
---------
- :func:`build_store` writes the store from a graph or from an N-Quads/N-Triples file.
- :func:`query` runs a query on a build (or a store folder) and returns a :class:`QueryResult`,
  which renders as a table or as SPARQL JSON, XML, CSV or TSV results.
- :func:`example_queries` / :func:`load_example` read the shipped queries in ``kg/queries/``;
  a query declares its parameters in its comment header (``# @param NAME TYPE description``)
  and :func:`query` binds them (``params={"author": "Renzhe Xu"}``).
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr

from kg.errors import NotFoundError, QueryError, WorkspaceError
from kg.io import default_mode
from kg.namespace import PREFIXES
from kg.workspace import Workspace

if TYPE_CHECKING:
    import networkx as nx
    import pyoxigraph

__all__ = [
    "STORE_META", "QueryResult", "ExampleQuery", "build_store", "open_store", "store_dir",
    "store_info", "query", "run_query", "example_queries", "load_example", "resolve_query",
    "read_query_file", "parse_params", "stale_store_reason", "stale_store_warning",
    "RESULT_FORMATS", "has_dataset_clause", "check_graph_iri",
]

#: Written beside the database: what was loaded, from where, and how many quads.
STORE_META = "paperkg-store.json"
STORE_VERSION = 1

#: --format / content type of query results.
RESULT_FORMATS: dict[str, str] = {
    "json": "application/sparql-results+json",
    "xml": "application/sparql-results+xml",
    "csv": "text/csv",
    "tsv": "text/tab-separated-values",
}
#: --format / content type of CONSTRUCT and DESCRIBE results.
GRAPH_FORMATS: dict[str, str] = {
    "ttl": "text/turtle",
    "nt": "application/n-triples",
    "rdfxml": "application/rdf+xml",
}


# --------------------------------------------------------------------------- building

def store_dir(ws_or_path: Workspace | str | Path) -> Path:
    """The store folder of a build folder, or ``ws_or_path`` itself when it is a store folder."""
    if isinstance(ws_or_path, Workspace):
        return ws_or_path.store_dir
    p = Path(ws_or_path)
    if (p / STORE_META).exists():
        return p
    return Workspace(p).store_dir


def build_store(source: "nx.MultiDiGraph | str | Path", ws: Workspace | str | Path, *,
                base_iri: str | None = None, evidence: bool = True,
                graph: str | None = None) -> Path:
    """Write the embedded store of a build, replacing any previous one.

    Parameters
    ----------
    source
        The graph (mapped with :func:`exports.rdf.iter_triples`), or the path of an N-Quads
        (``.nq``, e.g. ``OUT/rdf/paperkg.nq``) or N-Triples (``.nt``) file to load.
    ws
        The build folder (the store goes to ``OUT/store/``), or a :class:`~kg.workspace.Workspace`.
    base_iri, evidence
        Passed to the mapping when ``source`` is a graph.
    graph
        Named graph for the triples of an N-Triples file or a graph (default: the build's
        :func:`exports.rdf.graph_iri`).

    Returns
    -------
    Path
        The store folder. The store is built in a temporary folder beside it and moved into
        place, so a failed build never leaves a half-written store.
    """
    import pyoxigraph as ox

    from exports.rdf import DEFAULT_BASE_IRI, graph_iri, iter_ntriples_lines

    target = store_dir(ws)
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_leftovers(target)
    tmp = Path(tempfile.mkdtemp(prefix=_TMP_PREFIX, dir=target.parent))
    tmp.chmod(default_mode(folder=True))  # mkdtemp's 0700 would stay on OUT/store
    t0 = time.perf_counter()
    try:
        store = ox.Store(str(tmp / "db"))
        base = base_iri or DEFAULT_BASE_IRI
        if isinstance(source, (str, Path)):
            path = Path(source)
            if not path.exists():
                raise WorkspaceError(f"{path}: no such RDF file to load into the store")
            is_quads = path.suffix in (".nq", ".trig")
            fmt = ox.RdfFormat.from_extension(path.suffix.lstrip(".")) or ox.RdfFormat.N_TRIPLES
            gname = graph or (_graph_of_nquads(path) if is_quads else f"{base.rstrip('/#')}/graph/default")
            store.bulk_load(path=str(path), format=fmt,
                            to_graph=None if is_quads else ox.NamedNode(gname))
            # relative to the build folder when in it: a build writes its store in a staging
            # folder (kg.build) and renames it into place, so an absolute path would name a
            # folder that is gone
            try:
                origin = path.resolve().relative_to(target.parent.resolve()).as_posix()
            except ValueError:
                origin = str(path)
        else:
            gname = graph or graph_iri(source, base)
            # streamed through a file: the N-Quads of a big graph never sit in memory at once
            quads = tmp / "load.nq"
            with open(quads, "w", encoding="utf-8") as fh:
                batch: list[str] = []
                for line in iter_ntriples_lines(source, base_iri=base, evidence=evidence, graph=gname):
                    batch.append(line)
                    if len(batch) >= 100_000:
                        fh.write("".join(batch))
                        batch.clear()
                fh.write("".join(batch))
            store.bulk_load(path=str(quads), format=ox.RdfFormat.N_QUADS)
            quads.unlink()
            origin = "graph"
        store.flush()
        # compacting the freshly bulk-loaded files made the example queries up to 4x faster
        # (bench/bench_rdf.py, 13.6k papers)
        store.optimize()
        n = len(store)
        del store
        meta = {"version": STORE_VERSION, "engine": "pyoxigraph", "graph": gname, "quads": n,
                "source": origin, "base_iri": base, "evidence": evidence,
                "seconds": round(time.perf_counter() - t0, 3)}
        (tmp / STORE_META).write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        if target.exists():
            old = target.with_name(target.name + ".old")
            shutil.rmtree(old, ignore_errors=True)
            target.rename(old)
            tmp.rename(target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            tmp.rename(target)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target


#: Prefix of the folder a store is built in before it is moved into place.
_TMP_PREFIX = ".store-"


def _remove_leftovers(target: Path) -> None:
    """Delete what killed builds left beside the store ``target``: half-built stores
    (``.store-*``) and a previous store moved aside (``store.old``) but not yet deleted. A store
    is as large as the RDF it holds; one build writes a folder at a time, so none is in use."""
    leftovers = [*target.parent.glob(_TMP_PREFIX + "*"), target.with_name(target.name + ".old")]
    for p in leftovers:
        if p.is_dir() and not p.is_symlink():
            shutil.rmtree(p, ignore_errors=True)


def _graph_of_nquads(path: Path) -> str:
    """The graph IRI of the first quad of an N-Quads file (a build has one named graph)."""
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            m = re.search(r"<([^>]*)>\s*\.\s*$", line)
            if m and line.count("<") >= 2:
                return m.group(1)
    raise WorkspaceError(f"{path}: no quads to load")


def store_info(ws_or_path: Workspace | str | Path) -> dict[str, Any]:
    """The metadata written by :func:`build_store` (graph IRI, number of quads, ...)."""
    d = store_dir(ws_or_path)
    meta = d / STORE_META
    if not meta.exists():
        raise WorkspaceError(f"{ws_or_path}: has no triple store; run `kg build INPUT... -o OUT` "
                             f"(with RDF enabled) first")
    return json.loads(meta.read_text(encoding="utf-8"))


def stale_store_reason(ws_or_path: Workspace | str | Path) -> str | None:
    """Why the store of a build folder answers for an earlier build than the rest of it, or None.

    Two cases are told from the files alone: the last ``kg build`` ran with ``--no-rdf``
    (``summary.json`` lists no store among its outputs: the store, RDF and views are left from
    before), and a build was stopped between writing ``OUT/rdf/`` and the store (their graph
    IRIs, a digest of the paper keys, differ). A store folder given directly has nothing to be
    compared with.
    """
    p = ws_or_path.path if isinstance(ws_or_path, Workspace) else Path(ws_or_path)
    if (p / STORE_META).exists():
        return None
    ws = Workspace(p)
    try:
        graph = store_info(ws).get("graph")
    except (WorkspaceError, OSError, ValueError):
        return None
    try:
        outputs = json.loads(ws.summary_path.read_text(encoding="utf-8")).get("outputs")
    except (OSError, ValueError, AttributeError):
        outputs = None
    if isinstance(outputs, dict) and outputs and "store" not in outputs:
        return "the last kg build ran with --no-rdf"
    try:
        rdf_graph = json.loads((ws.rdf_dir / "build.json").read_text(encoding="utf-8")).get("graph")
    except (OSError, ValueError, AttributeError):
        rdf_graph = None
    if rdf_graph and graph and rdf_graph != graph:
        return "its graph is not the one in rdf/: was a kg build stopped?"
    return None


def stale_store_warning(ws_or_path: Workspace | str | Path) -> str | None:
    """One line for the CLI when :func:`stale_store_reason` finds a reason, else None."""
    why = stale_store_reason(ws_or_path)
    if why is None:
        return None
    again = "kg build without --no-rdf" if "--no-rdf" in why else "kg build again"
    return (f"kg: warning: {store_dir(ws_or_path)} is from an earlier build ({why}); its answers "
            f"may not match the records and the graph: run {again} to refresh it")


def open_store(ws_or_path: Workspace | str | Path) -> "pyoxigraph.Store":
    """Open the store of a build read-only (several processes may do so at once)."""
    import pyoxigraph as ox

    store_info(ws_or_path)  # clear error when missing
    return ox.Store.read_only(str(store_dir(ws_or_path) / "db"))


# --------------------------------------------------------------------------- results

@dataclass
class QueryResult:
    """What a query returned.

    ``kind`` is ``"select"``, ``"ask"`` or ``"graph"`` (CONSTRUCT / DESCRIBE). SELECT results
    have ``variables`` and ``rows`` (tuples of pyoxigraph terms or None for unbound); ASK has
    ``boolean``; graph results have ``triples``. ``truncated`` is True when ``limit`` cut the
    results.
    """

    kind: str
    variables: list[str] = field(default_factory=list)
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    boolean: bool | None = None
    triples: list[Any] = field(default_factory=list)
    truncated: bool = False
    seconds: float = 0.0

    def __len__(self) -> int:
        return len(self.triples) if self.kind == "graph" else len(self.rows)

    def values(self) -> list[tuple[Any, ...]]:
        """Rows as Python values: IRIs and literals as their text, integers as int, unbound as None."""
        return [tuple(_py(t) for t in row) for row in self.rows]

    def serialize(self, fmt: str = "json") -> bytes:
        """SPARQL results in ``json``, ``xml``, ``csv`` or ``tsv``; graphs in ``ttl``, ``nt``, ``rdfxml``."""
        if self.kind == "graph":
            return _serialize_triples(self.triples, fmt)
        if fmt == "json":
            return _to_json(self)
        if fmt == "xml":
            return _to_xml(self)
        if fmt == "csv":
            return _to_csv(self)
        if fmt == "tsv":
            return _to_tsv(self)
        raise QueryError(f"unknown result format {fmt!r}; expected one of {', '.join(RESULT_FORMATS)}")

    def to_table(self, *, max_width: int = 60) -> str:
        """A plain-text table (for the terminal), IRIs shortened with paperkg's prefixes."""
        if self.kind == "ask":
            return "yes" if self.boolean else "no"
        if self.kind == "graph":
            return _serialize_triples(self.triples, "ttl").decode("utf-8")
        header = list(self.variables)
        body = [[_short(t, max_width) for t in row] for row in self.rows]
        widths = [max([len(h)] + [len(r[i]) for r in body]) for i, h in enumerate(header)]
        lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip(),
                 "  ".join("-" * w for w in widths)]
        lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in body]
        n = len(self.rows)
        lines.append(f"({n} row{'s' if n != 1 else ''}{', truncated' if self.truncated else ''})")
        return "\n".join(lines)


_XSD = "http://www.w3.org/2001/XMLSchema#"
_INT_TYPES = {_XSD + t for t in ("integer", "int", "long", "short", "nonNegativeInteger",
                                 "positiveInteger", "gYear")}


def _py(term: Any) -> Any:
    import pyoxigraph as ox

    if term is None:
        return None
    if isinstance(term, ox.Literal):
        dt = term.datatype.value if term.datatype is not None else None
        if dt in _INT_TYPES:
            try:
                return int(term.value)
            except ValueError:
                return term.value
        if dt == _XSD + "boolean":
            return term.value == "true"
        if dt in (_XSD + "decimal", _XSD + "double", _XSD + "float"):
            try:
                return float(term.value)
            except ValueError:
                return term.value
        return term.value
    return term.value


def _short(term: Any, max_width: int) -> str:
    import pyoxigraph as ox

    if term is None:
        return ""
    if isinstance(term, ox.NamedNode):
        text = term.value
        for prefix, iri in PREFIXES.items():
            if text.startswith(iri):
                text = f"{prefix}:{text[len(iri):]}"
                break
    elif isinstance(term, ox.BlankNode):
        text = f"_:{term.value}"
    else:
        text = term.value
    text = " ".join(text.split())
    return text if len(text) <= max_width else text[: max_width - 1] + "…"


def _json_term(term: Any) -> dict[str, str]:
    import pyoxigraph as ox

    if isinstance(term, ox.NamedNode):
        return {"type": "uri", "value": term.value}
    if isinstance(term, ox.BlankNode):
        return {"type": "bnode", "value": term.value}
    d = {"type": "literal", "value": term.value}
    if term.language:
        d["xml:lang"] = term.language
    elif term.datatype is not None and term.datatype.value != _XSD + "string":
        d["datatype"] = term.datatype.value
    return d


def _to_json(r: QueryResult) -> bytes:
    if r.kind == "ask":
        doc: dict[str, Any] = {"head": {}, "boolean": bool(r.boolean)}
    else:
        doc = {"head": {"vars": r.variables}, "results": {"bindings": [
            {v: _json_term(t) for v, t in zip(r.variables, row) if t is not None} for row in r.rows]}}
    return json.dumps(doc, ensure_ascii=False).encode("utf-8")


def _to_xml(r: QueryResult) -> bytes:
    import pyoxigraph as ox

    out = ['<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#">\n<head>']
    if r.kind == "ask":
        out.append(f"</head>\n<boolean>{'true' if r.boolean else 'false'}</boolean>\n</sparql>\n")
        return "".join(out).encode("utf-8")
    out += [f"<variable name={quoteattr(v)}/>" for v in r.variables]
    out.append("</head>\n<results>")
    for row in r.rows:
        out.append("<result>")
        for v, t in zip(r.variables, row):
            if t is None:
                continue
            if isinstance(t, ox.NamedNode):
                inner = f"<uri>{xml_escape(t.value)}</uri>"
            elif isinstance(t, ox.BlankNode):
                inner = f"<bnode>{xml_escape(t.value)}</bnode>"
            elif t.language:
                inner = f"<literal xml:lang={quoteattr(t.language)}>{xml_escape(t.value)}</literal>"
            elif t.datatype is not None and t.datatype.value != _XSD + "string":
                inner = f"<literal datatype={quoteattr(t.datatype.value)}>{xml_escape(t.value)}</literal>"
            else:
                inner = f"<literal>{xml_escape(t.value)}</literal>"
            out.append(f"<binding name={quoteattr(v)}>{inner}</binding>")
        out.append("</result>")
    out.append("</results>\n</sparql>\n")
    return "\n".join(out).encode("utf-8")


def _to_csv(r: QueryResult) -> bytes:
    import pyoxigraph as ox

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\r\n")
    if r.kind == "ask":
        w.writerow(["boolean"])
        w.writerow(["true" if r.boolean else "false"])
        return buf.getvalue().encode("utf-8")
    w.writerow(r.variables)
    for row in r.rows:
        w.writerow(["" if t is None else (f"_:{t.value}" if isinstance(t, ox.BlankNode) else t.value)
                    for t in row])
    return buf.getvalue().encode("utf-8")


def _to_tsv(r: QueryResult) -> bytes:
    if r.kind == "ask":
        return b"?boolean\n" + (b"true\n" if r.boolean else b"false\n")
    lines = ["\t".join(f"?{v}" for v in r.variables)]
    for row in r.rows:
        lines.append("\t".join("" if t is None else str(t).replace("\t", "\\t") for t in row))
    return ("\n".join(lines) + "\n").encode("utf-8")


def _serialize_triples(triples: Sequence[Any], fmt: str) -> bytes:
    import pyoxigraph as ox

    fmts = {"ttl": ox.RdfFormat.TURTLE, "nt": ox.RdfFormat.N_TRIPLES, "rdfxml": ox.RdfFormat.RDF_XML}
    if fmt not in fmts:
        raise QueryError(f"unknown graph format {fmt!r}; expected one of {', '.join(GRAPH_FORMATS)}")
    out = ox.serialize(triples, format=fmts[fmt], prefixes=PREFIXES if fmt == "ttl" else None)
    return out or b""


# --------------------------------------------------------------------------- example queries

_PARAM = re.compile(r"^#\s*@param\s+(\w+)\s+(\w+)\s*(.*)$")


@dataclass(frozen=True)
class ExampleQuery:
    """A query shipped in ``kg/queries/``: its name, one-line title, parameters and text."""

    name: str
    title: str
    params: dict[str, tuple[str, str]]  # name -> (type, description)
    text: str
    path: Path


def _queries_dir() -> Path:
    return Path(str(resources.files("kg") / "queries"))


def read_query_file(path: str | Path) -> ExampleQuery:
    """Read a ``.rq`` file with its comment header.

    The header's first paragraph (``# name: what it answers``, up to an empty ``#`` line) is
    the title, whatever its number of lines; ``# @param NAME TYPE description`` declares a
    parameter, whose description may go on over indented comment lines.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "q.rq"
    >>> _ = f.write_text("# q: papers of a year, one row\\n# per paper.\\n#\\n"
    ...                  "# @param year integer  The year,\\n#                     e.g. 2024.\\nASK {}\\n")
    >>> ex = read_query_file(f)
    >>> ex.title, ex.params
    ('papers of a year, one row per paper.', {'year': ('integer', 'The year, e.g. 2024.')})
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    title: list[str] = []
    in_title = False
    params: dict[str, tuple[str, str]] = {}
    last_param: str | None = None
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        body = line[1:].strip()
        m = _PARAM.match(line)
        if m:
            params[m.group(1)] = (m.group(2), m.group(3).strip())
            last_param, in_title = m.group(1), False
        elif not body:
            last_param, in_title = None, False
        elif last_param is not None and line[1:].startswith("  "):
            ptype, desc = params[last_param]
            params[last_param] = (ptype, f"{desc} {body}".strip())
        elif not title and ":" in body:
            title.append(body.split(":", 1)[1].strip())
            in_title = True
        elif in_title:
            title.append(body)
    return ExampleQuery(path.stem, " ".join(title), params, text, path)


def example_queries() -> dict[str, ExampleQuery]:
    """The shipped example queries by name (file stem), sorted."""
    return {p.stem: read_query_file(p) for p in sorted(_queries_dir().glob("*.rq"))}


def load_example(name: str) -> ExampleQuery:
    """One shipped query by name; :class:`NotFoundError` lists the names when it is unknown."""
    queries = example_queries()
    if name.removesuffix(".rq") not in queries:
        raise NotFoundError(f"no example query {name!r}; known: {', '.join(queries)}")
    return queries[name.removesuffix(".rq")]


def resolve_query(text_or_name: str) -> tuple[str, ExampleQuery | None]:
    """Query text for ``kg sparql``: a shipped query's name, or SPARQL text as it is."""
    candidate = text_or_name.strip()
    if re.fullmatch(r"[\w\-]+(\.rq)?", candidate):
        ex = load_example(candidate)
        return ex.text, ex
    return text_or_name, None


def _bind(params: Mapping[str, Any], declared: Mapping[str, tuple[str, str]] | None) -> dict[Any, Any]:
    import pyoxigraph as ox

    out: dict[Any, Any] = {}
    for name, value in params.items():
        ptype = declared[name][0] if declared and name in declared else "string"
        if ptype == "integer":
            try:
                term: Any = ox.Literal(str(int(value)), datatype=ox.NamedNode(_XSD + "integer"))
            except (TypeError, ValueError):
                raise QueryError(f"parameter {name}: expected an integer, got {value!r}") from None
        elif ptype == "iri":
            term = ox.NamedNode(str(value).strip("<>"))
        else:
            term = ox.Literal(str(value))
        out[ox.Variable(name)] = term
    return out


# --------------------------------------------------------------------------- running queries

@functools.lru_cache(maxsize=256)
def _checked(sparql: str) -> str:
    """:func:`kg.sparql_safety.check_query`, remembered per text.

    rdflib's parser takes 10-25 ms on an example query, often more than Oxigraph takes to
    answer it; a text that passed once passes again (a refused one raises, and is not kept).
    """
    from kg.sparql_safety import check_query

    return check_query(sparql)


_FROM_WORD = re.compile(r"\bfrom\b", re.IGNORECASE)


def has_dataset_clause(sparql: str) -> bool:
    """Whether a query names its dataset with ``FROM`` or ``FROM NAMED``.

    Only a query with the word ``from`` is parsed (with rdflib's SPARQL grammar, which tells a
    dataset clause from the word in a string, an IRI or a comment); text rdflib cannot parse
    counts as without one.

    Examples
    --------
    >>> has_dataset_clause("SELECT * FROM <http://example.org/g> WHERE { ?s ?p ?o }")
    True
    >>> has_dataset_clause('SELECT * WHERE { ?s ?p "from" } # from here')
    False
    """
    if not _FROM_WORD.search(sparql):
        return False
    from rdflib.plugins.sparql.parser import parseQuery

    try:
        parsed = parseQuery(sparql)
    except Exception:  # noqa: BLE001 (pyparsing and rdflib raise several kinds)
        return False
    clauses = parsed[1].get("datasetClause") if len(parsed) > 1 else None
    return isinstance(clauses, list) and bool(clauses)


def check_graph_iri(value: str, what: str) -> str:
    """``value`` when it is an absolute IRI, else a :class:`QueryError` naming ``what`` (the
    protocol parameter or option that gave it)."""
    import pyoxigraph as ox

    try:
        ox.NamedNode(value)
    except ValueError as exc:
        raise QueryError(f"{what}: {value!r} is not an absolute IRI ({exc})") from None
    return value


def _dataset(sparql: str, default_graphs: Sequence[str] | None,
             named_graphs: Sequence[str] | None) -> dict[str, Any]:
    """The dataset keywords of ``store.query``, as the SPARQL 1.1 Protocol (2.1.4) and Query
    (13.2) define it: graphs given with the request replace the query's ``FROM`` and ``FROM
    NAMED`` (a request naming only default graphs has no named ones, and the reverse); else the
    query's own dataset clause; else paperkg's default: the union of the build's named graphs
    (a build has one) as the default graph, every named graph for ``GRAPH``."""
    import pyoxigraph as ox

    if default_graphs is not None or named_graphs is not None:
        return {"default_graph": [ox.NamedNode(check_graph_iri(g, "default-graph-uri"))
                                  for g in default_graphs or ()],
                "named_graphs": [ox.NamedNode(check_graph_iri(g, "named-graph-uri")) for g in named_graphs or ()]}
    if has_dataset_clause(sparql):
        return {}  # Oxigraph builds the dataset from the query's FROM / FROM NAMED
    return {"use_default_graph_as_union": True}


def run_query(store: "pyoxigraph.Store", sparql: str, *, params: Mapping[str, Any] | None = None,
              example: ExampleQuery | None = None, limit: int | None = None,
              check: bool = True, default_graphs: Sequence[str] | None = None,
              named_graphs: Sequence[str] | None = None) -> QueryResult:
    """Run one read-only query on an open store.

    Parameters
    ----------
    store
        From :func:`open_store` (or any pyoxigraph Store).
    sparql
        Query text. With ``check`` (the default) it is first parsed by
        :func:`kg.sparql_safety.check_query`: updates and ``SERVICE`` are refused.
    params
        Values bound to variables (an example query's ``@param`` s; they must appear in the
        query's SELECT projection).
    limit
        Keep at most this many rows (or triples); ``truncated`` tells when more existed.
    default_graphs, named_graphs
        The RDF dataset, as the SPARQL 1.1 Protocol's ``default-graph-uri`` and
        ``named-graph-uri`` give it: when either is not None they replace the query's ``FROM``
        and ``FROM NAMED``. Without them a query's dataset clause is honoured, and a query
        without one sees all the build as its default graph.

    Raises
    ------
    QueryError
        For a malformed, refused or wrongly parametrised query (message from the parser).
    """
    import pyoxigraph as ox

    if example is not None:
        missing = [p for p in example.params if not params or p not in params]
        if missing:
            detail = "; ".join(f"--param {p}=... ({example.params[p][1]})" for p in missing)
            raise QueryError(f"query {example.name!r} needs {detail}")
        unknown = [p for p in (params or {}) if p not in example.params]
        if unknown:
            raise QueryError(f"query {example.name!r} has no parameter {unknown[0]!r}; "
                             f"it takes: {', '.join(example.params) or 'none'}")
    if check:
        _checked(sparql)
    t0 = time.perf_counter()
    try:
        res = store.query(sparql, **_dataset(sparql, default_graphs, named_graphs),
                          substitutions=_bind(params, example.params if example else None) if params else None)
    except SyntaxError as exc:
        raise QueryError(f"malformed SPARQL query: {exc}") from None
    except RuntimeError as exc:
        raise QueryError(f"cannot run query: {exc}") from None
    cap = limit if limit is not None and limit >= 0 else None
    if isinstance(res, ox.QueryBoolean):
        out = QueryResult("ask", boolean=bool(res))
    elif isinstance(res, ox.QuerySolutions):
        variables = [v.value for v in res.variables]
        rows: list[tuple[Any, ...]] = []
        truncated = False
        for sol in res:
            if cap is not None and len(rows) >= cap:
                truncated = True
                break
            rows.append(tuple(sol[i] for i in range(len(variables))))
        out = QueryResult("select", variables=variables, rows=rows, truncated=truncated)
    else:
        triples: list[Any] = []
        truncated = False
        for t in res:
            if cap is not None and len(triples) >= cap:
                truncated = True
                break
            triples.append(t)
        out = QueryResult("graph", triples=triples, truncated=truncated)
    # pyoxigraph's result iterators must be dropped on the thread that made them (the
    # endpoint and tests query from several threads), so do not leave it to the GC
    del res
    out.seconds = time.perf_counter() - t0
    return out


def query(ws_or_path: Workspace | str | Path, sparql: str, *,
          params: Mapping[str, Any] | None = None, limit: int | None = None) -> QueryResult:
    """Run a query (text, or the name of a shipped example) on a build's store.

    Examples
    --------
    >>> r = query("OUT", "coauthors", params={"author": "Renzhe Xu"})  # doctest: +SKIP
    >>> print(r.to_table())  # doctest: +SKIP
    """
    text, example = resolve_query(sparql)
    store = open_store(ws_or_path)
    return run_query(store, text, params=params, example=example, limit=limit)


def parse_params(items: Iterable[str]) -> dict[str, str]:
    """``["author=Renzhe Xu", ...]`` -> ``{"author": "Renzhe Xu"}`` (for ``--param``)."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not re.fullmatch(r"\w+", name.strip()):
            raise QueryError(f"bad --param {item!r}: expected NAME=VALUE, e.g. author=\"Renzhe Xu\"")
        out[name.strip()] = value
    return out
