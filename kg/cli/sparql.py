"""``kg sparql OUT/ QUERY``: run SPARQL on a build's embedded store."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kg.errors import QueryError

_FORMATS = ["table", "json", "xml", "csv", "tsv", "ttl", "nt"]


@click.command("sparql")
@click.argument("out", type=click.Path(path_type=Path, file_okay=False))
@click.argument("query", required=False)
@click.option("--file", "-f", "query_file", type=click.Path(path_type=Path, dir_okay=False, exists=True),
              help="Read the query from a .rq file.")
@click.option("--param", "-p", "params", multiple=True, metavar="NAME=VALUE",
              help="Bind a parameter of a shipped query (repeatable), e.g. --param author=\"Renzhe Xu\".")
@click.option("--format", "fmt", type=click.Choice(_FORMATS), default="table", show_default=True,
              help="table, SPARQL results (json, xml, csv, tsv), or ttl / nt for CONSTRUCT and DESCRIBE.")
@click.option("--limit", type=click.IntRange(0), default=None, help="Print at most this many rows.")
@click.option("--list", "list_queries", is_flag=True, help="List the shipped example queries and their parameters.")
@click.option("--default-graph-uri", "default_graphs", multiple=True, metavar="IRI",
              help="A graph of the default graph (repeatable); with --named-graph-uri it replaces the "
                   "query's FROM / FROM NAMED, as the SPARQL protocol parameters of that name do.")
@click.option("--named-graph-uri", "named_graphs", multiple=True, metavar="IRI",
              help="A named graph for GRAPH patterns (repeatable); see --default-graph-uri.")
def command(out: Path, query: str | None, query_file: Path | None, params: tuple[str, ...], fmt: str,
            limit: int | None, list_queries: bool, default_graphs: tuple[str, ...],
            named_graphs: tuple[str, ...]) -> None:
    """Run a SPARQL QUERY on the build OUT: query text, the name of a shipped example query
    (see --list), or --file q.rq. Queries are read-only; the build is their default graph
    unless the query has FROM / FROM NAMED or --default-graph-uri / --named-graph-uri are given.

    \b
    Examples:
      kg sparql OUT/ coauthors --param author="Renzhe Xu"
      kg sparql OUT/ citation-indegree --format csv
      kg sparql OUT/ 'SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }'
    """
    from kg.store import (example_queries, open_store, parse_params, read_query_file, resolve_query,
                          run_query, stale_store_warning)

    if list_queries:
        import textwrap

        for name, ex in example_queries().items():
            click.echo(textwrap.fill(ex.title, 100, initial_indent=f"{name:30s} ", subsequent_indent=" " * 31))
            for p, (ptype, desc) in ex.params.items():
                click.echo(textwrap.fill(f"--param {p}=... ({ptype}) {desc}", 100,
                                         initial_indent=" " * 33, subsequent_indent=" " * 35))
        return
    if (query is None) == (query_file is None):
        raise QueryError("give exactly one of QUERY (text or example name) and --file; --list shows the examples")
    if query_file is not None:
        example = read_query_file(query_file)  # its header may declare @param s too
        text = example.text
    else:
        text, example = resolve_query(query or "")
    bound = parse_params(params)
    if bound and example is None:
        raise QueryError("--param applies to shipped queries and --file queries with @param headers")
    store = open_store(out)
    warning = stale_store_warning(out)
    if warning:
        click.echo(warning, err=True)
    dataset = {"default_graphs": list(default_graphs), "named_graphs": list(named_graphs)} \
        if default_graphs or named_graphs else {}
    result = run_query(store, text, params=bound, example=example, limit=limit, **dataset)
    if fmt == "table":
        click.echo(result.to_table())
        return
    if result.kind == "graph" and fmt not in ("ttl", "nt"):
        raise QueryError(f"a CONSTRUCT/DESCRIBE result prints as ttl or nt, not {fmt}")
    if result.kind != "graph" and fmt in ("ttl", "nt"):
        raise QueryError(f"--format {fmt} is for CONSTRUCT/DESCRIBE; use table, json, xml, csv or tsv")
    data = result.serialize(fmt)
    sys.stdout.buffer.write(data)
    if not data.endswith(b"\n"):
        sys.stdout.buffer.write(b"\n")
    sys.stdout.buffer.flush()
