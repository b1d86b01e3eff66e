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

The *other-venue* batches (``batch61`` ... ``batch80``, drawn in the seventh session) teach the
extractor names of other venues and years: ``OTHER_PER_SOURCE`` ids of each of
``OTHER_SOURCES`` (NeurIPS 2018, ICML 2019, IJCAI 2024, COLM 2024 and 2025) that the
out-of-domain gold split ``ood1`` (``sample.choose_ood``) does not hold, one seeded generator per
source; the 800 ids are then shuffled together and cut into batches of ``BATCH``, so each batch
mixes the venues.

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
OTHER_SEED = "20240531:silver-other"
OTHER_SOURCES = ("neurips2018.jsonl", "icml2019.jsonl", "ijcai2024.jsonl", "colm2024.jsonl", "colm2025.jsonl")
OTHER_PER_SOURCE = 160


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
    first = SILVER_SIZE // BATCH
    return [
        (f"batch{n // BATCH + 1:02d}", source, rec_id)
        for n, (source, rec_id) in enumerate(pool[:SILVER_SIZE])
    ] + [
        (f"batch{first + n // BATCH + 1:02d}", source, rec_id)
        for n, (source, rec_id) in enumerate(draw_other(data, sample))
    ]


def draw_other(data: Path, sample=None) -> list[tuple[str, str]]:
    """Return ``(source, id)`` of the other-venue silver abstracts, in batch order."""
    sample = sample or _sample_module()
    held = {rec_id for _, _, rec_id in sample.choose_ood(data)}
    chosen = []
    for source in OTHER_SOURCES:
        ids = [i for i in sample.read_ids(data / "confpapers" / "jsonl" / source) if i not in held]
        rng = random.Random(f"{OTHER_SEED}:{source}")
        chosen += [(source, i) for i in rng.sample(ids, OTHER_PER_SOURCE)]
    random.Random(OTHER_SEED).shuffle(chosen)
    return chosen


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
