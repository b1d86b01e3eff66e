"""``kg stats OUT/``: a summary table of a build."""

from __future__ import annotations

import json
from pathlib import Path

import click

from kg.cli._common import print_table
from kg.metrics import summarize
from kg.workspace import Workspace


@click.command("stats")
@click.argument("out", type=click.Path(path_type=Path, file_okay=False))
@click.option("--top", default=10, show_default=True, type=click.IntRange(1, 1000), help="Rows per top list.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")
def command(out: Path, top: int, as_json: bool) -> None:
    """Counts by node and edge type, top methods, benchmarks, concepts and authors, most cited
    papers and the largest communities of the build OUT."""
    s = summarize(Workspace(out).load_graph(), top=top)
    if as_json:
        click.echo(json.dumps(s, indent=2, ensure_ascii=False))
        return
    click.echo(f"paperkg graph (schema {s['schema_version']}, pipeline {s['pipeline_version']})")
    _section("Nodes", [{"type": k, "count": v} for k, v in s["nodes"].items()], ["type", "count"])
    _section("Edges", [{"type": k, "count": v} for k, v in s["edges"].items()], ["type", "count"])
    for key, title, col in (("top_methods", "Top methods", "method"), ("top_benchmarks", "Top benchmarks", "benchmark"),
                            ("top_concepts", "Top concepts", "concept"), ("top_authors", "Top authors", "author")):
        _section(title, [{col: name, "papers": n} for name, n in s[key]], [col, "papers"])
    _section("Most cited (PageRank)", [{"paper": name, "pagerank": pr} for name, pr in s["top_cited"]],
             ["paper", "pagerank"])
    _section("Largest communities", [{"community": c["id"], "size": c["size"], "papers": c["papers"],
                                       "authors": c["authors"], "top entities": c["top_entities"]}
                                      for c in s["communities"]],
             ["community", "size", "papers", "authors", "top entities"])


def _section(title: str, rows: list[dict], columns: list[str]) -> None:
    if not rows:
        return
    click.echo(f"\n{title}")
    print_table(rows, columns)
