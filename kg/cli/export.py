"""``kg export OUT/ --to FORMAT -o PATH``: the graph as GraphML, GEXF, JSON, Neo4j CSV or VOSviewer."""

from __future__ import annotations

from pathlib import Path

import click

from kg.workspace import Workspace

FORMATS = ("graphml", "gexf", "json", "neo4j", "vosviewer")
_TYPES = ("paper", "author", "method", "benchmark", "concept", "category", "work")


@click.command("export")
@click.argument("out", type=click.Path(path_type=Path, file_okay=False))
@click.option("--to", "fmt", required=True, type=click.Choice(FORMATS),
              help="graphml/gexf (Gephi, yEd, Cytoscape), json (node-link), neo4j (bulk-import CSV folder), "
                   "vosviewer (VOSviewer Online JSON).")
@click.option("-o", "--output", required=True, type=click.Path(path_type=Path),
              help="File to write (a folder for neo4j).")
@click.option("--types", metavar="TYPE,...", help=f"vosviewer only: keep these node types ({', '.join(_TYPES)}).")
def command(out: Path, fmt: str, output: Path, types: str | None) -> None:
    """Export the graph of the build OUT; prints what was written.

    Lists and dicts become JSON text and None is omitted in GraphML, GEXF and Neo4j CSV
    (see the exports modules for the exact rules).
    """
    from kg.errors import PaperkgError

    if types and fmt != "vosviewer":
        raise PaperkgError("--types applies to --to vosviewer only")
    wanted = [t.strip() for t in types.split(",") if t.strip()] if types else None
    for t in wanted or ():
        if t not in _TYPES:
            raise PaperkgError(f"unknown node type {t!r} in --types; valid: {', '.join(_TYPES)}")
    G = Workspace(out).load_graph()
    if fmt == "neo4j":
        from exports.neo4j import write_neo4j

        paths = write_neo4j(G, output)
        click.echo(f"{output}: {len(paths)} files ({sum(1 for p in paths if p.suffix == '.csv')} CSV); "
                   f"load with {output / 'import.sh'}")
        return
    if fmt == "vosviewer":
        from exports.vosviewer import write_vosviewer

        path = write_vosviewer(G, output, types=wanted)
    else:
        from exports import networkx_formats

        path = getattr(networkx_formats, f"write_{fmt}")(G, output)
    click.echo(str(path))
