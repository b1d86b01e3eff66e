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

The *later other-venue* batches (``batch81`` ... ``batch100``, drawn in the sixteenth session,
:func:`draw_other_late`) add 800 more abstracts of the same venues, ``LATE_PER_SOURCE`` per
source, that no earlier silver batch nor any out-of-domain gold split up to ``ood5`` holds
(a later gold split must avoid them too); shuffled together and cut into batches the same way.
The per-source counts leave at least 30 of every out-of-domain gold source for later splits.

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
OTHER_BATCHES = OTHER_PER_SOURCE * len(OTHER_SOURCES) // BATCH
LATE_SEED = "20240531:silver-other-late"
#: COLM 2025 had 128 abstracts left after ood5, COLM 2024 139: the counts leave 68 and 39.
LATE_PER_SOURCE = {"neurips2018.jsonl": 200, "icml2019.jsonl": 200, "ijcai2024.jsonl": 240,
                   "colm2024.jsonl": 100, "colm2025.jsonl": 60}
#: The out-of-domain gold splits drawn before the later batches
#: (``sample.choose_ood_before_late_silver``): a split drawn later (``ood6`` on, in
#: ``sample.choose_ood_late``) avoids the later batches, not the other way round.
LATE_AVOIDS = ("ood2", "ood3", "ood4", "ood5")


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
    ] + [
        (f"batch{first + OTHER_BATCHES + n // BATCH + 1:02d}", source, rec_id)
        for n, (source, rec_id) in enumerate(draw_other_late(data, sample))
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


def draw_other_late(data: Path, sample=None) -> list[tuple[str, str]]:
    """Return ``(source, id)`` of the later other-venue silver abstracts, in batch order: per
    source ``LATE_PER_SOURCE`` ids that neither ``ood1``, the splits ``LATE_AVOIDS`` nor
    :func:`draw_other` hold, one seeded generator per source, then shuffled together."""
    sample = sample or _sample_module()
    held = {rec_id for _, _, rec_id in sample.choose_ood(data)}
    held |= {rec_id for split, _, rec_id in sample.choose_ood_before_late_silver(data)
             if split in LATE_AVOIDS}
    held |= {rec_id for _, rec_id in draw_other(data, sample)}
    chosen = []
    for source in OTHER_SOURCES:
        ids = [i for i in sample.read_ids(data / "confpapers" / "jsonl" / source) if i not in held]
        rng = random.Random(f"{LATE_SEED}:{source}")
        chosen += [(source, i) for i in rng.sample(ids, LATE_PER_SOURCE[source])]
    random.Random(LATE_SEED).shuffle(chosen)
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
