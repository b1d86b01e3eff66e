"""Options and output helpers shared by the subcommands."""

from __future__ import annotations

import sys
from typing import Any, Callable

import click

quiet_option = click.option("-q", "--quiet", is_flag=True, help="No progress or summary output.")
format_option = click.option(
    "--format", "format_", metavar="FORMAT", default=None,
    help="Force the input format instead of detecting it (seeds, jsonl, confpapers, csv, bibtex, "
         "openalex, semanticscholar, arxiv).")
skip_bad_option = click.option(
    "--skip-bad", is_flag=True, help="Skip malformed items and count them, instead of stopping at the first.")


def stderr_logger(quiet: bool) -> Callable[[str], None]:
    if quiet:
        return lambda msg: None
    return lambda msg: click.echo(msg, err=True)


def print_table(rows: list[dict[str, Any]], columns: list[str], *, file: Any = None) -> None:
    """A plain aligned text table (no dependency; wide values are cut at 60 characters)."""
    out = file or sys.stdout
    cells = [[_cell(r.get(c)) for c in columns] for r in rows]
    widths = [max([len(c)] + [len(row[i]) for row in cells]) for i, c in enumerate(columns)]
    click.echo("  ".join(c.ljust(w) for c, w in zip(columns, widths)).rstrip(), file=out)
    click.echo("  ".join("-" * w for w in widths), file=out)
    for row in cells:
        click.echo("  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip(), file=out)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, (list, tuple)):
        value = ", ".join(map(str, value))
    text = str(value).replace("\n", " ")
    return text if len(text) <= 60 else text[:57] + "..."
