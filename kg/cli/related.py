"""``kg related OUT/ NAME`` (or ``--paper ID``): related authors or papers, with reasons.

Both are answered from the index ``kg build`` stores in ``OUT/related/`` (a few seconds at
100k papers, without loading the graph); a build without a current index gets one, made from
the graph on the first call (a one-line note on stderr says so).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from kg.related import find_author, find_paper, related_authors, related_papers
from kg.related_index import workspace_index
from kg.workspace import Workspace


@click.command("related")
@click.argument("out", type=click.Path(path_type=Path, file_okay=False))
@click.argument("name", required=False)
@click.option("--paper", "paper_id", default=None, metavar="ID", help="Related papers of this paper (id or title).")
@click.option("--top", default=10, show_default=True, type=click.IntRange(1, 1000), help="How many.")
@click.option("--exclude-coauthors", is_flag=True, help="Leave out existing co-authors (conflicts of interest).")
@click.option("--exclude-within", default=None, type=click.IntRange(1, 10), metavar="N",
              help="Leave out everyone within N co-author hops.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def command(out: Path, name: str | None, paper_id: str | None, top: int, exclude_coauthors: bool,
            exclude_within: int | None, as_json: bool) -> None:
    """Authors related to NAME in the build OUT (or papers related to --paper ID), ranked by
    co-author proximity, shared rare methods/benchmarks/concepts, categories and citations;
    each with its reasons."""
    if (name is None) == (paper_id is None):
        raise click.UsageError("give an author NAME or --paper ID (one of them)")
    ws = Workspace(out)
    # The index stored by `kg build` (OUT/related/) answers without loading the graph; when it
    # is missing or stale it is rebuilt from the graph once, after an unknown name has failed.
    log = lambda msg: click.echo(f"kg: {msg}", err=True)  # noqa: E731
    if paper_id is not None:
        idx = workspace_index(ws, log=log, check=lambda index: find_paper(index, paper_id))
        results = related_papers(idx, paper_id, top=top)
    else:
        idx = workspace_index(ws, log=log, check=lambda index: find_author(index, name))
        results = related_authors(idx, name, top=top, exclude_coauthors=exclude_coauthors,
                                  exclude_within=exclude_within)
    if as_json:
        click.echo(json.dumps([r.to_dict() for r in results], indent=2, ensure_ascii=False))
        return
    if not results:
        click.echo("nothing related found")
        return
    for i, r in enumerate(results, 1):
        click.echo(f"{i:>2}. {r.label}  ({r.score:.3f})")
        click.echo(f"    {r.why}")
