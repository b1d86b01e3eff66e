"""Choose the abstracts of the extraction gold set, reproducibly.

Run ``python tests/gold/sample.py`` (optionally ``--data DIR``, default ``../shared/data``
beside the repository). It prints one line per chosen abstract: ``split<TAB>source<TAB>id``.

The choice is a seeded ``random.Random(SEED).sample`` over each source file's ids in file
order: the first ``DEV_PER_SOURCE`` drawn ids of each source form the dev half, the next
``TEST_PER_SOURCE`` the held-out test half. Changing the seed or the counts changes the set,
so do not (the annotations in ``dev.jsonl``/``test.jsonl`` refer to these ids).

The second held-out split ``test2`` was added after ``test`` had been used once to report a
figure. It is drawn after the others with a separate generator per source, seeded from
``TEST2_SEED`` and the source name, over the ids not already in dev or test, so the dev and
test draws are unchanged: ``TEST2_PER_SOURCE`` ids per source.

The third held-out split ``test3`` was added after ``test`` and ``test2`` had been used to
report figures. It is drawn last, the same way: a separate generator per source seeded from
``TEST3_SEED`` and the source name, over the ids not already in dev, test or test2, so the
earlier draws are unchanged: ``TEST3_PER_SOURCE`` ids per source.

The fourth held-out split ``test4`` was added after ``test3`` had been used to report a
figure, drawn after it in the same way from ``TEST4_SEED``: ``TEST4_PER_SOURCE`` ids per source.
``test5`` followed once test4 had been scored, from ``TEST5_SEED``, ``TEST5_PER_SOURCE`` per source,
and ``test6`` once test5 had been scored, from ``TEST6_SEED``, ``TEST6_PER_SOURCE`` per source.
``test7`` (``TEST7_SEED``) was drawn right after test6 and is held out together with it: 160
abstracts narrow the interval of the held-out figure. ``test8`` and ``test9`` (``TEST8_SEED``,
``TEST9_SEED``) are the next held-out pair, drawn once test6 and test7 had been reported.
``test10`` and ``test11`` (``TEST10_SEED``, ``TEST11_SEED``) are the pair after that, drawn when
test8 and test9 were scored for 1.7.0 (figures only) at the start of the next round.
``test12`` and ``test13`` (``TEST12_SEED``, ``TEST13_SEED``) were drawn at the start of the sixth
session, before the silver training batches of ``silver/draw.py``, which take their ids from what
is left.

``test14`` and ``test15`` (``TEST14_SEED``, ``TEST15_SEED``) were drawn at the start of the eighth
session by ``choose_late``, not ``choose``: the silver batches (``silver/draw.py``) take their pool
from what ``choose`` leaves, so a new split inside ``choose`` would reshuffle them. ``choose_late``
draws from the ICLR/ICML ids that neither ``choose`` nor the silver batches hold, one seeded
generator per source, test14 first. ``test16`` and ``test17`` (``TEST16_SEED``, ``TEST17_SEED``)
were appended to ``choose_late`` the same way at the start of the ninth session, once test14 and
test15 had been reported, and ``test18`` and ``test19`` (``TEST18_SEED``, ``TEST19_SEED``) at the
start of the tenth, once test16 and test17 had been.

``ood1`` is an out-of-domain held-out split (``choose_ood``): 20 abstracts each from NeurIPS 2018,
ICML 2019, IJCAI 2024 and COLM 2025, venues and years none of the in-domain splits nor the silver
batches come from, so its figure says how the extractor carries over to other venues.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
from pathlib import Path

SEED = 20240531
SOURCES = ("iclr2024.jsonl", "icml2023.jsonl")
DEV_PER_SOURCE = 25
TEST_PER_SOURCE = 26
TEST2_SEED = "20240531:test2"
TEST2_PER_SOURCE = 30
TEST3_SEED = "20240531:test3"
TEST3_PER_SOURCE = 40
TEST4_SEED = "20240531:test4"
TEST4_PER_SOURCE = 40
TEST5_SEED = "20240531:test5"
TEST5_PER_SOURCE = 40
TEST6_SEED = "20240531:test6"
TEST6_PER_SOURCE = 40
TEST7_SEED = "20240531:test7"
TEST7_PER_SOURCE = 40
TEST8_SEED = "20240531:test8"
TEST8_PER_SOURCE = 40
TEST9_SEED = "20240531:test9"
TEST9_PER_SOURCE = 40
TEST10_SEED = "20240531:test10"
TEST10_PER_SOURCE = 40
TEST11_SEED = "20240531:test11"
TEST11_PER_SOURCE = 40
TEST12_SEED = "20240531:test12"
TEST12_PER_SOURCE = 40
TEST13_SEED = "20240531:test13"
TEST13_PER_SOURCE = 40
TEST14_SEED = "20240531:test14"
TEST14_PER_SOURCE = 40
TEST15_SEED = "20240531:test15"
TEST15_PER_SOURCE = 40
TEST16_SEED = "20240531:test16"
TEST16_PER_SOURCE = 40
TEST17_SEED = "20240531:test17"
TEST17_PER_SOURCE = 40
TEST18_SEED = "20240531:test18"
TEST18_PER_SOURCE = 40
TEST19_SEED = "20240531:test19"
TEST19_PER_SOURCE = 40
TEST20_SEED = "20240531:test20"
TEST20_PER_SOURCE = 40
#: test21 takes 35 per source: after test20 the in-domain pool holds 91 ICLR and 35 ICML ids.
TEST21_SEED = "20240531:test21"
TEST21_PER_SOURCE = 35
#: The out-of-domain split ``ood1``: other venues and years than the in-domain splits above.
OOD_SOURCES = ("neurips2018.jsonl", "icml2019.jsonl", "ijcai2024.jsonl", "colm2025.jsonl")
OOD1_SEED = "20240531:ood1"
OOD1_PER_SOURCE = 20
#: The second out-of-domain split ``ood2``: the same venues, avoiding ood1 and the other-venue
#: silver batches.
OOD2_SEED = "20240531:ood2"
OOD2_PER_SOURCE = 20
#: The third out-of-domain split ``ood3``: the same venues, avoiding ood1, ood2 and the other-venue
#: silver batches (drawn in ``choose_ood_late`` after ood2, which it leaves as it was).
OOD3_SEED = "20240531:ood3"
OOD3_PER_SOURCE = 20
#: The fourth out-of-domain split ``ood4``, the held-out split of the thirteenth session (the
#: in-domain pool is used up): 30 of each venue, drawn in ``choose_ood_late`` after ood3.
OOD4_SEED = "20240531:ood4"
OOD4_PER_SOURCE = 30
#: The fifth out-of-domain split ``ood5``, the held-out split from the sixteenth session (ood4 was
#: reported at 1.16.0 and became development data): 30 of each venue, drawn after ood4.
OOD5_SEED = "20240531:ood5"
OOD5_PER_SOURCE = 30
#: The sixth out-of-domain split ``ood6``, the held-out split from the seventeenth session (ood5
#: was reported at 1.17.0 and became development data): 30 of each venue, drawn after ood5 and
#: avoiding the later other-venue silver batches (``silver/draw.py``'s ``draw_other_late``).
OOD6_SEED = "20240531:ood6"
OOD6_PER_SOURCE = 30
#: The seventh out-of-domain split ``ood7``, the held-out split from the eighteenth session (ood6
#: was reported at 1.18.0 and became development data): 30 of each venue, drawn after ood6 from
#: the same pool (COLM 2025 has about 38 records left before it).
OOD7_SEED = "20240531:ood7"
OOD7_PER_SOURCE = 30
_HERE = Path(__file__).resolve().parent
_DEFAULT_DATA = _HERE.parents[2] / "shared" / "data"


def read_ids(path: Path) -> list[str]:
    """Ids of the records with a non-empty abstract, in file order."""
    ids = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            if (rec.get("abstract") or "").strip():
                ids.append(rec["id"])
    return ids


def choose(data: Path) -> list[tuple[str, str, str]]:
    """Return ``(split, source, id)`` for every chosen abstract: dev, test, test2, test3, test4, test5, test6, test7, test8, test9, test10, test11, test12, then test13."""
    chosen: list[tuple[str, str, str]] = []
    for source in SOURCES:
        ids = read_ids(data / "confpapers" / "jsonl" / source)
        # One generator per source, seeded from SEED and the name, so adding a source
        # later does not change the draws of the others.
        rng = random.Random(f"{SEED}:{source}")
        drawn = rng.sample(ids, DEV_PER_SOURCE + TEST_PER_SOURCE)
        chosen += [("dev", source, i) for i in drawn[:DEV_PER_SOURCE]]
        chosen += [("test", source, i) for i in drawn[DEV_PER_SOURCE:]]
    chosen.sort(key=lambda row: row[0] != "dev")
    # test2: a later, separate draw; the rows above are not touched by it.
    taken = {rec_id for _, _, rec_id in chosen}
    for source in SOURCES:
        ids = read_ids(data / "confpapers" / "jsonl" / source)
        rest = [i for i in ids if i not in taken]
        rng = random.Random(f"{TEST2_SEED}:{source}")
        chosen += [("test2", source, i) for i in rng.sample(rest, TEST2_PER_SOURCE)]
    # test3: drawn after test2 in the same way; the rows above are not touched by it.
    chosen += _later_draw(data, "test3", TEST3_SEED, TEST3_PER_SOURCE, chosen)
    # test4: drawn after test3 in the same way.
    chosen += _later_draw(data, "test4", TEST4_SEED, TEST4_PER_SOURCE, chosen)
    # test5: drawn after test4 in the same way.
    chosen += _later_draw(data, "test5", TEST5_SEED, TEST5_PER_SOURCE, chosen)
    # test6: drawn after test5 in the same way.
    chosen += _later_draw(data, "test6", TEST6_SEED, TEST6_PER_SOURCE, chosen)
    # test7: drawn after test6 in the same way, to score together with it (a narrower interval).
    chosen += _later_draw(data, "test7", TEST7_SEED, TEST7_PER_SOURCE, chosen)
    # test8 and test9: the next held-out pair, drawn once test6 and test7 had been reported.
    chosen += _later_draw(data, "test8", TEST8_SEED, TEST8_PER_SOURCE, chosen)
    chosen += _later_draw(data, "test9", TEST9_SEED, TEST9_PER_SOURCE, chosen)
    # test10 and test11: the pair after that, drawn when test8 and test9 were first scored.
    chosen += _later_draw(data, "test10", TEST10_SEED, TEST10_PER_SOURCE, chosen)
    chosen += _later_draw(data, "test11", TEST11_SEED, TEST11_PER_SOURCE, chosen)
    # test12 and test13: the pair after that, drawn at the start of the sixth session, before the
    # silver training batches (silver/draw.py), which avoid every id drawn here.
    chosen += _later_draw(data, "test12", TEST12_SEED, TEST12_PER_SOURCE, chosen)
    chosen += _later_draw(data, "test13", TEST13_SEED, TEST13_PER_SOURCE, chosen)
    return chosen


def _later_draw(
    data: Path, split: str, seed: str, per_source: int, earlier: list[tuple[str, str, str]]
) -> list[tuple[str, str, str]]:
    """Draw ``per_source`` ids per source for ``split``, avoiding every id in ``earlier``."""
    taken = {rec_id for _, _, rec_id in earlier}
    rows = []
    for source in SOURCES:
        ids = read_ids(data / "confpapers" / "jsonl" / source)
        rest = [i for i in ids if i not in taken]
        rng = random.Random(f"{seed}:{source}")
        rows += [(split, source, i) for i in rng.sample(rest, per_source)]
    return rows


def _silver_draw():
    """``silver/draw.py`` as a module (it imports this file in turn, so it is loaded on demand)."""
    spec = importlib.util.spec_from_file_location("gold_silver_draw", _HERE / "silver" / "draw.py")
    silver = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(silver)
    return silver


def choose_late(data: Path) -> list[tuple[str, str, str]]:
    """Return ``(split, source, id)`` for test14, test15, ..., then test21: the splits drawn after
    the silver batches, from the in-domain ids that neither ``choose`` nor ``silver/draw.py`` holds. Each split avoids the ones before it, so appending a pair leaves the earlier ones as
    they were."""
    silver = _silver_draw()
    taken = {rec_id for _, _, rec_id in choose(data)}
    taken |= {rec_id for _, _, rec_id in silver.draw(data)}
    rows: list[tuple[str, str, str]] = []
    for split, seed, per_source in (("test14", TEST14_SEED, TEST14_PER_SOURCE),
                                    ("test15", TEST15_SEED, TEST15_PER_SOURCE),
                                    ("test16", TEST16_SEED, TEST16_PER_SOURCE),
                                    ("test17", TEST17_SEED, TEST17_PER_SOURCE),
                                    ("test18", TEST18_SEED, TEST18_PER_SOURCE),
                                    ("test19", TEST19_SEED, TEST19_PER_SOURCE),
                                    ("test20", TEST20_SEED, TEST20_PER_SOURCE),
                                    ("test21", TEST21_SEED, TEST21_PER_SOURCE)):
        for source in SOURCES:
            ids = read_ids(data / "confpapers" / "jsonl" / source)
            rest = [i for i in ids if i not in taken]
            rng = random.Random(f"{seed}:{source}")
            drawn = rng.sample(rest, per_source)
            taken.update(drawn)
            rows += [(split, source, i) for i in drawn]
    return rows


def choose_ood(data: Path) -> list[tuple[str, str, str]]:
    """Return ``(split, source, id)`` for the out-of-domain split ``ood1``: ``OOD1_PER_SOURCE``
    ids of each of ``OOD_SOURCES`` (NeurIPS 2018, ICML 2019, IJCAI 2024, COLM 2025), one seeded
    generator per source. These files share no record with the in-domain sources, so the draw
    needs no exclusion."""
    rows = []
    for source in OOD_SOURCES:
        ids = read_ids(data / "confpapers" / "jsonl" / source)
        rng = random.Random(f"{OOD1_SEED}:{source}")
        rows += [("ood1", source, i) for i in rng.sample(ids, OOD1_PER_SOURCE)]
    return rows


def choose_ood_before_late_silver(data: Path) -> list[tuple[str, str, str]]:
    """Return ``(split, source, id)`` for the out-of-domain splits ``ood2`` ... ``ood5``, the ones
    drawn before the later other-venue silver batches: ``OOD2_PER_SOURCE`` (``OOD3_PER_SOURCE``,
    ...) ids of each of ``OOD_SOURCES`` that neither ``ood1``, the other-venue silver batches
    (``silver/draw.py``'s ``draw_other``) nor an earlier split here hold, one seeded generator per
    split and source. A separate function, because ``draw_other`` avoids ``choose_ood``: adding
    splits there would reshuffle the silver batches. ood3 was appended in the twelfth session,
    ood4 in the thirteenth and ood5 in the sixteenth; each is drawn after the earlier ones from
    the same pool, so they are unchanged. ``draw_other_late`` avoids exactly these splits."""
    silver = _silver_draw()
    taken = {rec_id for _, _, rec_id in choose_ood(data)}
    taken |= {rec_id for _, rec_id in silver.draw_other(data)}
    return _draw_ood_splits(data, taken, (("ood2", OOD2_SEED, OOD2_PER_SOURCE),
                                          ("ood3", OOD3_SEED, OOD3_PER_SOURCE),
                                          ("ood4", OOD4_SEED, OOD4_PER_SOURCE),
                                          ("ood5", OOD5_SEED, OOD5_PER_SOURCE)))


def choose_ood_late(data: Path) -> list[tuple[str, str, str]]:
    """Return ``(split, source, id)`` for the later out-of-domain splits ``ood2`` ... ``ood7``:
    those of :func:`choose_ood_before_late_silver`, then ``ood6`` (seventeenth session) and
    ``ood7`` (eighteenth), which also avoid the later other-venue silver batches
    (``silver/draw.py``'s ``draw_other_late``, batch81-batch100). Each split is drawn after the
    ones before it, so appending one leaves them as they were."""
    silver = _silver_draw()
    rows = choose_ood_before_late_silver(data)
    taken = {rec_id for _, _, rec_id in rows}
    taken |= {rec_id for _, _, rec_id in choose_ood(data)}
    taken |= {rec_id for _, rec_id in silver.draw_other(data)}
    taken |= {rec_id for _, rec_id in silver.draw_other_late(data)}
    return rows + _draw_ood_splits(data, taken, (("ood6", OOD6_SEED, OOD6_PER_SOURCE),
                                                 ("ood7", OOD7_SEED, OOD7_PER_SOURCE)))


def _draw_ood_splits(data: Path, taken: set[str], splits) -> list[tuple[str, str, str]]:
    """Draw each ``(split, seed, per_source)`` in turn from the ``OOD_SOURCES`` ids not in
    ``taken``, one seeded generator per split and source; each split avoids the ones before it."""
    taken = set(taken)
    rows = []
    for split, seed, per_source in splits:
        drawn_here = []
        for source in OOD_SOURCES:
            ids = [i for i in read_ids(data / "confpapers" / "jsonl" / source) if i not in taken]
            rng = random.Random(f"{seed}:{source}")
            drawn = rng.sample(ids, per_source)
            drawn_here += drawn
            rows += [(split, source, i) for i in drawn]
        taken.update(drawn_here)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=_DEFAULT_DATA)
    args = parser.parse_args()
    for split, source, rec_id in [*choose(args.data), *choose_late(args.data), *choose_ood(args.data),
                                 *choose_ood_late(args.data)]:
        print(f"{split}\t{source}\t{rec_id}")


if __name__ == "__main__":
    main()
