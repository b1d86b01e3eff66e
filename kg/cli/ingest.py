"""``kg ingest INPUT... -o records.jsonl``."""

from __future__ import annotations

import json
from pathlib import Path

import click

from kg.cli._common import format_option, quiet_option, skip_bad_option, stderr_logger
from kg.ingest import ingest, write_conflicts
from kg.io import atomic_write
from kg.workspace import write_records


@click.command("ingest")
@click.argument("inputs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="JSON Lines file to write (one merged record per paper).")
@click.option("--conflicts", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the merge conflicts as JSON Lines here.")
@click.option("--summary", "summary_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the ingest summary as JSON here.")
@format_option
@skip_bad_option
@quiet_option
def command(inputs: tuple[Path, ...], output: Path, conflicts: Path | None, summary_path: Path | None,
            format_: str | None, skip_bad: bool, quiet: bool) -> None:
    """Read paper records from INPUTS (files or folders, any supported format) and write one
    merged record per distinct paper."""
    log = stderr_logger(quiet)
    result = ingest(inputs, format=format_, skip_bad=skip_bad, on_file=lambda p: log(f"read {p}"))
    write_records(result.records, output)
    if conflicts:
        write_conflicts(result.conflicts, conflicts)
    summary = result.summary()
    if summary_path:
        with atomic_write(summary_path) as fh:
            fh.write(json.dumps(summary, indent=2, ensure_ascii=False))
    log(format_ingest_summary(summary))
    log(f"wrote {output}")


def format_ingest_summary(s: dict) -> str:
    lines = [f"{s['records_read']:,} records read from {len(s['files'])} file(s): "
             f"{s['papers']:,} papers, {s['merged']:,} merged as duplicates, "
             f"{s['skipped']:,} skipped, {s['conflicts']:,} merge conflicts"]
    for reason, n in sorted(s["skipped_reasons"].items()):
        lines.append(f"  skipped {n:,}: {reason}")
    for ex in s["skipped_examples"][:5]:
        lines.append(f"    e.g. {ex}")
    return "\n".join(lines)
