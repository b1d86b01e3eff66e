"""``kg build INPUT... -o OUT/``: the one command."""

from __future__ import annotations

from pathlib import Path

import click

from kg.build import BuildOptions, build
from kg.cli._common import format_option, quiet_option, skip_bad_option, stderr_logger
from kg.cli.ingest import format_ingest_summary

DEMO_DIR = Path(__file__).resolve().parent.parent / "data" / "demo"


@click.command("build")
@click.argument("inputs", nargs=-1, type=click.Path(path_type=Path))
@click.option("-o", "--output", "out", required=True, type=click.Path(path_type=Path, file_okay=False),
              help="Build folder to write (created if missing; re-runs are incremental). The outputs are "
                   "made in OUT/.staging-PID and renamed into place only when every stage succeeded: a "
                   "failed or interrupted build leaves OUT as the last good build left it.")
@click.option("--demo", is_flag=True, help="Build the bundled demo corpus (invented papers).")
@format_option
@skip_bad_option
@click.option("-j", "--n-process", default=1, show_default=True, type=click.IntRange(1, 64),
              help="Processes for extraction (2 uses both cores of a 2-core machine).")
@click.option("--spacy-model", default=None, metavar="NAME",
              help="Use an installed trained spaCy pipeline (e.g. en_core_web_sm) for better concepts.")
@click.option("--base-iri", default=None, metavar="IRI",
              help="Base of every RDF IRI [default: https://w3id.org/paperkg/id/].")
@click.option("--no-evidence", is_flag=True, help="Leave mention evidence out of the RDF (a leaner graph).")
@click.option("--rdf-format", "rdf_formats", multiple=True, metavar="FMT",
              type=click.Choice(["nt", "ttl", "trig", "jsonld", "rdfxml"]),
              help="Also write this serialization (repeatable): OUT/rdf/paperkg.nt, .ttl, .trig, .jsonld, "
                   "or paperkg.rdf for rdfxml. N-Quads (paperkg.nq) are always written.")
@click.option("--authors-file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Explicit author decisions: lines `A = B` (same person) or `A != B` (different).")
@click.option("--no-extract", is_flag=True,
              help="Find no entities in the abstracts; entities and citations already in the inputs "
                   "(kg extract output) are kept.")
@click.option("--no-rdf", is_flag=True, help="Skip the RDF files and the triple store.")
@click.option("--no-html", is_flag=True, help="Skip the HTML views.")
@quiet_option
def command(inputs: tuple[Path, ...], out: Path, demo: bool, format_: str | None, skip_bad: bool,
            n_process: int, spacy_model: str | None, base_iri: str | None, no_evidence: bool,
            rdf_formats: tuple[str, ...], authors_file: str | None, no_extract: bool, no_rdf: bool, no_html: bool, quiet: bool) -> None:
    """Build the knowledge graph of INPUTS (files or folders) into OUT: records, entities, graph,
    search index, RDF and triple store, and HTML views. Prints where the views and RDF are."""
    if demo:
        inputs = inputs + (DEMO_DIR,)
    if not inputs:
        raise click.UsageError("give at least one INPUT file or folder (or --demo)")
    log = stderr_logger(quiet)
    options = BuildOptions(format=format_, skip_bad=skip_bad, n_process=n_process, spacy_model=spacy_model,
                           base_iri=base_iri, evidence=not no_evidence, rdf_formats=rdf_formats,
                           authors_file=authors_file,
                           extract=not no_extract, rdf=not no_rdf, html=not no_html, progress=not quiet)
    result = build(inputs, out, options=options, log=log)
    s = result.summary
    if not quiet:
        click.echo(format_ingest_summary(s["ingest"]), err=True)
        if "extract" in s:
            e = s["extract"]
            click.echo(f"extraction: {e['extracted']:,} papers processed, {e['cached']:,} from cache; "
                       + ", ".join(f"{k} {v:,}" for k, v in e["entities"].items()), err=True)
        g = s["graph"]
        click.echo(f"graph: {g['nodes']:,} nodes, {g['edges']:,} edges; "
                   f"{sum(s['seconds'].values()):.1f} s in all", err=True)
    click.echo(f"build folder: {result.workspace.path}")
    for name in ("html", "rdf", "store", "graph", "records"):
        if name in result.outputs:
            click.echo(f"{name:8} {result.outputs[name]}")
