"""``kg serve OUT/``: the build as a read-only SPARQL endpoint."""

from __future__ import annotations

from pathlib import Path

import click

from kg.endpoint import DEFAULT_MAX_ROWS, DEFAULT_TIMEOUT


@click.command("serve")
@click.argument("out", type=click.Path(path_type=Path, file_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Interface to bind; anything but loopback exposes the build to the network.")
@click.option("--port", default=8890, show_default=True, type=click.IntRange(0, 65535), help="0 picks a free port.")
@click.option("--timeout", default=DEFAULT_TIMEOUT, show_default=True, type=click.FloatRange(0.1),
              help="Seconds a query may run before it is stopped (503).")
@click.option("--max-rows", default=DEFAULT_MAX_ROWS, show_default=True, type=click.IntRange(1),
              help="Results are cut after this many rows (header X-Paperkg-Truncated: true).")
@click.option("--workers", default=2, show_default=True, type=click.IntRange(1, 64),
              help="Query worker processes (queries running at once).")
@click.option("--memory", is_flag=True,
              help="Copy the store into RAM in each worker: slower start, faster queries.")
@click.option("--quiet", is_flag=True, help="Do not log requests.")
def command(out: Path, host: str, port: int, timeout: float, max_rows: int, workers: int, memory: bool,
            quiet: bool) -> None:
    """Serve the build OUT as a SPARQL 1.1 Protocol endpoint at http://HOST:PORT/sparql
    (GET and POST; JSON, XML, CSV or TSV results). Read-only: updates and SERVICE are refused."""
    from kg.endpoint import serve
    from kg.store import stale_store_warning

    warning = stale_store_warning(out)
    if warning:
        click.echo(warning, err=True)
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"kg: warning: binding {host}: the endpoint is reachable from other machines", err=True)
    serve(out, host=host, port=port, timeout=timeout, max_rows=max_rows, workers=workers, quiet=quiet,
          memory=memory, log=lambda msg: click.echo(msg, err=True))
