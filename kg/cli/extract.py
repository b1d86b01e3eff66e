"""``kg extract INPUT... -o extracted.jsonl``: methods, benchmarks, concepts and citations."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from kg.cli._common import format_option, skip_bad_option
from kg.errors import PaperkgError


@click.command("extract", help="Extract methods, benchmarks, concepts and citations from abstracts.")
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="JSON Lines file to write (records plus entities and citations).")
@format_option
@skip_bad_option
@click.option("-j", "--n-process", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes for spaCy (results are the same as with one).")
@click.option("--spacy-model", default=None,
              help="An installed trained spaCy pipeline (e.g. en_core_web_sm) for better concept phrases.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar or summary line.")
def command(inputs: tuple[Path, ...], output: Path, format_: str | None, skip_bad: bool, n_process: int,
            spacy_model: str | None, quiet: bool) -> None:
    from extractors.pipeline import consolidate, extract_raw, make_nlp
    from kg.workspace import write_records

    try:
        from kg.ingest import ingest
    except ImportError:  # pragma: no cover - ingest is part of the package; kept for partial installs
        ingest = None
    skipped_note = ""
    if ingest is not None:
        result = ingest(inputs, format=format_, skip_bad=skip_bad)
        records = result.records
        if result.skipped:
            # --skip-bad skips and counts: the count and the first examples are said, as by kg ingest
            from kg.cli.ingest import format_ingest_summary

            summary = result.summary()
            skipped_note = "\n".join(format_ingest_summary(summary).splitlines()[1:])
            if quiet:
                skipped_note = ""
    else:  # pragma: no cover
        from kg.readers import read_file

        records = [r for p in inputs for r in read_file(p, format=format_, skip_bad=skip_bad)]
    if not records:
        raise PaperkgError(f"no records in {', '.join(str(p) for p in inputs)}")
    nlp = make_nlp(spacy_model=spacy_model)
    raws_iter = extract_raw(records, n_process=n_process, nlp=nlp)
    if not quiet:
        from tqdm import tqdm

        raws_iter = tqdm(raws_iter, total=len(records), unit="paper", desc="extract", file=sys.stderr)
    raws = list(raws_iter)
    out = consolidate(records, raws)
    n = write_records(out, output, extraction=True)
    if not quiet:
        n_ent = sum(1 for r in out for e in r.entities if e.type.value != "concept")
        n_cit = sum(len(r.citations) for r in out)
        click.echo(f"{n} records, {n_ent} methods/benchmarks, {n_cit} in-text citations -> {output}", err=True)
    if skipped_note:
        click.echo(skipped_note, err=True)
