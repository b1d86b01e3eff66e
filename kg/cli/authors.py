"""``kg authors OUT/``: authors of a build, and probable duplicates with evidence."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import click

from kg.authors import build_authors_file, find_duplicates, read_overrides, resolve_authors
from kg.cli._common import print_table
from kg.workspace import Workspace


@click.command("authors")
@click.argument("out", type=click.Path(path_type=Path, file_okay=False))
@click.option("--duplicates", is_flag=True, help="List name variants that may be one person, with evidence.")
@click.option("--authors-file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Explicit decisions (`A = B`, `A != B`) to apply [default: the file kg build "
                   "applied, if it is unchanged].")
@click.option("--top", default=50, show_default=True, type=click.IntRange(1),
              help="How many authors to list (without --duplicates, which lists every candidate).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def command(out: Path, duplicates: bool, authors_file: str | None, top: int, as_json: bool) -> None:
    """Authors of the build OUT by number of papers, or (--duplicates) probable same-person
    variants: merged ones had shared co-authors or topics, listed ones lack that evidence."""
    ws = Workspace(out)
    records = list(ws.iter_records())
    if authors_file is None and ws.summary_path.exists():
        # the decisions kg build applied, so that these names are the graph's
        authors_file, warning = build_authors_file(ws.load_summary())
        if warning:
            click.echo(f"kg: warning: {warning}", err=True)
    if duplicates:
        merges, splits = read_overrides(authors_file) if authors_file else ([], [])
        rows = _duplicate_rows(records, merges, splits)
        if as_json:
            click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
            return
        if not rows:
            click.echo("no probable duplicate author names found")
            return
        print_table(rows, ["a", "b", "kind", "decision", "reason"])
        return
    index, _ = resolve_authors(records, overrides=authors_file)
    counts: Counter = Counter()
    for r in records:
        for aid in dict.fromkeys(index.resolve(a) for a in r.authors):
            counts[aid] += 1
    rows = [{"author": index.display(aid), "papers": n, "id": aid, "aliases": index.aliases(aid)}
            for aid, n in counts.most_common(top)]
    if as_json:
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
    else:
        print_table(rows, ["author", "papers", "id", "aliases"])


def _duplicate_rows(records: list, merges: list[tuple[str, str]],
                    splits: list[tuple[str, str]]) -> list[dict]:
    """The candidates of :func:`find_duplicates` as rows, with the user's ``A = B`` lines applied:
    such a pair is ``merged-by-user`` (as ``kg build --authors-file`` merges it), whatever the
    evidence says."""
    rows = []
    for c in find_duplicates(records, splits=splits, merges=merges):
        row = c.to_dict()
        if c.decision == "merged-by-user":
            row["reason"] = f"authors file: {c.name_a} = {c.name_b}"
        rows.append(row)
    return rows
