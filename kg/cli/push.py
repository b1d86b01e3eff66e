"""``kg push OUT/ --endpoint URL``: load a build into an external SPARQL server."""

from __future__ import annotations

from pathlib import Path

import click

from kg.push import DEFAULT_BATCH


@click.command("push")
@click.argument("out", type=click.Path(path_type=Path, file_okay=False))
@click.option("--endpoint", required=True, metavar="URL",
              help="Graph Store Protocol URL, e.g. http://127.0.0.1:7878/store (Oxigraph).")
@click.option("--graph", metavar="IRI", default=None, help="Named graph to replace (default: the build's graph IRI).")
@click.option("--batch-size", default=DEFAULT_BATCH, show_default=True, type=click.IntRange(1),
              help="Triples per request (first PUT replaces the graph, then POST appends).")
@click.option("--auth", metavar="USER:PASSWORD", envvar="PAPERKG_PUSH_AUTH", default=None,
              help="HTTP Basic credentials (or $PAPERKG_PUSH_AUTH).")
@click.option("--timeout", default=300.0, show_default=True, type=click.FloatRange(1), help="Seconds per request.")
def command(out: Path, endpoint: str, graph: str | None, batch_size: int, auth: str | None, timeout: float) -> None:
    """Replace one named graph on an external SPARQL server with the build OUT
    (SPARQL 1.1 Graph Store HTTP Protocol)."""
    from kg.push import push
    from kg.store import stale_store_warning

    warning = stale_store_warning(out)
    if warning:
        click.echo(warning, err=True)
    r = push(out, endpoint, graph=graph, batch_size=batch_size, auth=auth, timeout=timeout)
    click.echo(f"pushed {r.triples:,} triples to <{r.graph}> at {r.endpoint} "
               f"in {r.batches} request{'s' if r.batches != 1 else ''} ({r.seconds:.1f}s)")
