"""Choose the abstracts of the silver training batches, reproducibly.

The gold splits (``../sample.py``) are for scoring. The silver batches are for *learning*: they
are annotated by the same kind of annotators, from the same ``GUIDELINES.md``, blind to the
extractor, and what the extractor learns from them (names and how often annotators label them)
is measured on the gold splits, which share no abstract with them.

The pool is every id of ``iclr2024.jsonl`` and ``icml2023.jsonl`` with a non-empty abstract that
``sample.choose`` has not drawn into any gold split (dev ... test13). It is shuffled by
``random.Random(SEED)`` in file order (ICLR ids first, then ICML) and its first
``SILVER_SIZE`` ids are cut into batches of ``BATCH`` (``batch01``, ``batch02``, ...). The rest of
the pool (about 690 abstracts) is left untouched for later held-out gold splits: a later gold
draw must avoid both ``sample.choose`` and every id printed here.

Run ``python tests/gold/silver/draw.py`` (optionally ``--data DIR``); it prints
``batch<TAB>source<TAB>id``. ``--batch batch07`` prints that batch's ids only.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = "20240531:silver"
SILVER_SIZE = 2400
BATCH = 40


def _sample_module():
    spec = importlib.util.spec_from_file_location("gold_sample", HERE.parent / "sample.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def draw(data: Path) -> list[tuple[str, str, str]]:
    """Return ``(batch, source, id)`` for every silver abstract, batch by batch."""
    sample = _sample_module()
    taken = {rec_id for _, _, rec_id in sample.choose(data)}
    pool = [
        (source, rec_id)
        for source in sample.SOURCES
        for rec_id in sample.read_ids(data / "confpapers" / "jsonl" / source)
        if rec_id not in taken
    ]
    random.Random(SEED).shuffle(pool)
    return [
        (f"batch{n // BATCH + 1:02d}", source, rec_id)
        for n, (source, rec_id) in enumerate(pool[:SILVER_SIZE])
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=_sample_module()._DEFAULT_DATA)
    parser.add_argument("--batch", help="print only this batch's ids, one per line")
    args = parser.parse_args()
    for batch, source, rec_id in draw(args.data):
        if args.batch is None:
            print(f"{batch}\t{source}\t{rec_id}")
        elif batch == args.batch:
            print(rec_id)


if __name__ == "__main__":
    main()
