"""``kg search OUT/ QUERY``: full-text search over papers, authors and entities."""

from __future__ import annotations

import json
from pathlib import Path

import click

from kg.cli._common import print_table
from kg.search import search
from kg.workspace import Workspace


@click.command("search")
@click.argument("out", type=click.Path(path_type=Path, file_okay=False))
@click.argument("query", default="")
@click.option("--author", default=None, help="Only papers by this author (accents and case ignored).")
@click.option("--method", default=None, help="Only papers with this method.")
@click.option("--benchmark", default=None, help="Only papers with this benchmark or dataset.")
@click.option("--category", default=None, help="Only papers in this area or subarea.")
@click.option("--year", default=None, help="A year (2024) or a range (2018-2020).")
@click.option("-n", "--limit", default=10, show_default=True, type=click.IntRange(1, 10000), help="Most results.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
def command(out: Path, query: str, author: str | None, method: str | None, benchmark: str | None,
            category: str | None, year: str | None, limit: int, as_json: bool) -> None:
    """Papers of the build OUT matching QUERY (title, abstract, entity names, authors; BM25),
    and authors and entities whose names match."""
    ws = Workspace(out)
    ws.require(ws.search_path, "search index")
    res = search(ws.search_path, query, author=author, method=method, benchmark=benchmark,
                 category=category, year=year, limit=limit)
    if as_json:
        click.echo(json.dumps(res.to_dict(), indent=2, ensure_ascii=False))
        return
    if res.names:
        click.echo("Names")
        print_table([{"type": h.type, "name": h.label, "papers": h.detail} for h in res.names],
                    ["type", "name", "papers"])
        click.echo()
    if not res.papers:
        click.echo("no papers found")
        return
    click.echo("Papers")
    print_table([{"#": i, "year": h.year, "paper": h.label, "authors": h.detail, "id": h.key.removeprefix("paper:")}
                 for i, h in enumerate(res.papers, 1)], ["#", "year", "paper", "authors", "id"])
