"""``kg view OUT/``: write the overview page, a focused view, or the whole site of a build."""

from __future__ import annotations

from pathlib import Path

import click

from kg.schema import slugify
from kg.workspace import Workspace


@click.command("view")
@click.argument("out", type=click.Path(path_type=Path, file_okay=False))
@click.option("--author", metavar="NAME", help="Focus on an author (name, alias or id; a surname that fits "
                                                 "one author is enough, as for `kg related`).")
@click.option("--paper", metavar="ID", help="Focus on a paper (record id, key or title).")
@click.option("--method", metavar="NAME", help="Focus on a method.")
@click.option("--benchmark", metavar="NAME", help="Focus on a benchmark or dataset.")
@click.option("--concept", metavar="NAME", help="Focus on a concept.")
@click.option("--community", metavar="N", type=int, help="Show one community (see `kg stats`).")
@click.option("--depth", default=1, show_default=True, type=click.IntRange(0, 5),
              help="Steps from the focus node to include.")
@click.option("--budget", default=2000, show_default=True, type=click.IntRange(1, 1_000_000),
              help="Most nodes to draw; above it the most central are kept (the page says so).")
@click.option("--size-by", type=click.Choice(["auto", "pagerank", "degree"]), default="auto", show_default=True,
              help="What node size shows: pagerank (citation PageRank; nodes outside citations get the "
                   "smallest size), degree, or auto (PageRank when every node has one, else degree).")
@click.option("--site", is_flag=True, help="Write overview.html, focused views of the top authors, methods "
                                          "and benchmarks, and index.html (what `kg build` writes).")
@click.option("--top", default=10, show_default=True, type=click.IntRange(0, 1000),
              help="With --site: focused views per kind.")
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False),
              help="HTML file to write (default: OUT/html/overview.html or OUT/html/views/<focus>.html).")
def command(out: Path, author: str | None, paper: str | None, method: str | None, benchmark: str | None,
            concept: str | None, community: int | None, depth: int, budget: int, size_by: str, site: bool,
            top: int, output: Path | None) -> None:
    """Write an interactive HTML view of the build OUT: one self-contained file that works offline.

    Without a focus option, the overview of the whole graph; with one, the nodes within
    --depth steps of that author, paper, method, benchmark or concept, or one community.
    """
    from exports.html import select_view, write_html, write_site

    ws = Workspace(out)
    G = ws.load_graph()
    if site:
        paths = write_site(G, output.parent if output else ws.html_dir, top=top, budget=budget, depth=depth)
        click.echo(str(paths[-1]))
        return
    author_key = author
    if author is not None and (paper, method, benchmark, concept, community) == (None,) * 5:
        from kg.related import find_author

        # the lookup of `kg related`: whole words of a name ("Li" is never "Lin"), one
        # message for a part of a name that fits several authors
        author_key = find_author(G, author)
    H, focus, title = select_view(G, author=author_key, paper=paper, method=method, benchmark=benchmark,
                                  concept=concept, community=community)
    if output is None:
        given = [(k, v) for k, v in (("author", author), ("paper", paper), ("method", method),
                                      ("benchmark", benchmark), ("concept", concept),
                                      ("community", community)) if v is not None]
        if given:
            kind, value = given[0]
            output = ws.html_dir / "views" / f"{kind}-{slugify(str(value))[:60]}.html"
        else:
            output = ws.html_dir / "overview.html"
    path = write_html(H, output, budget=budget, focus=focus, depth=depth, size_by=size_by,
                      title=f"paperkg: {title}")
    click.echo(str(path))
