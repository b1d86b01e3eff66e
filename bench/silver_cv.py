"""Cross-validate what the gazetteer learns from the silver batches, on the silver batches.

The silver training batches (``tests/gold/silver/``, 60 x 40 ICLR 2024 / ICML 2023 abstracts
annotated blind from ``tests/gold/GUIDELINES.md``) are many more abstracts than any gold split.
Used as test data in folds they measure two things with narrow error bars:

- the extractor's figure on abstracts nobody tuned on (fold by fold the names mined from the
  fold's own batches are left out, so the fold is unseen by the gazetteer);
- whether, and at which thresholds, silver-mined names (:mod:`extractors.build_silver`) help on
  unseen abstracts: each fold's gazetteer is built from the *other* folds' batches only.

Batches are dealt to ``--folds`` folds round-robin (batch01 to fold 0, batch02 to fold 1, ...).
For each fold and setting a gazetteer is built with :func:`extractors.build_gazetteer.build`
(``--settings``: ``none`` = no silver input, ``shipped`` = the thresholds the package ships, or
a name of :data:`SETTINGS`), and the fold's abstracts are extracted and consolidated with it,
*without* the learned component (``paperkg_learned`` is trained on every silver batch, so it has
seen each fold), in a subprocess so that each gazetteer starts from a fresh cache. The fold's
silver labels are the gold; matching is ``bench/eval_extraction.py``'s. Counts are summed over
folds (micro averages).

Usage::

    python bench/silver_cv.py                      # every setting, 5 folds (about 15 minutes)
    python bench/silver_cv.py --settings none shipped --folds 5
    python bench/silver_cv.py --settings none shipped --test-range 61-80   # other venues, unseen
    python bench/silver_cv.py --settings shipped --test-range 61-80 --train-exclude 61-80

The silver labels come from one annotator per batch; a second annotation of a gold split by an
annotator of the same kind agrees with the gold at entity F1 0.985
(``tests/gold/agreement/test3_second.ann``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SILVER = REPO / "tests" / "gold" / "silver"


def _settings() -> dict:
    from extractors.build_silver import Thresholds

    return {
        "none": None,
        "shipped": Thresholds(),
        "labelled2": Thresholds(min_labelled=2, min_common=2),
        "labelled1": Thresholds(min_labelled=1, min_common=1),
        "labelled1-rate0.5": Thresholds(min_labelled=1, min_common=1, min_rate=0.5),
    }


def _worker(gazetteer: str, batches: list[str]) -> dict:
    """Score the pipeline with ``gazetteer`` on ``batches`` (run in a fresh process)."""
    sys.path.insert(0, str(REPO / "bench"))
    import extractors.gazetteer as gaz

    gaz.GAZETTEER_PATH = Path(gazetteer)
    import extractors.pipeline as pipeline

    make_nlp = pipeline.make_nlp

    def without_learned(**kw):
        nlp = make_nlp(**kw)
        if "paperkg_learned" in nlp.pipe_names:
            nlp.remove_pipe("paperkg_learned")
        return nlp

    pipeline.make_nlp = without_learned
    import eval_extraction as ev
    from extractors.build_silver import read_silver

    blocks, texts, _ = read_silver(SILVER, batches)
    build = _gold_build()
    gold = [build.build_block(b, texts[b["id"]], lambda _msg: None) for b in blocks]
    ev._load_gold = lambda _split: gold
    res = ev.score_gold("silver")
    return {"all": res["entity"]["all"], "proposed": res["proposed"]}


def _batch_range(text: str):
    """``"61-80"`` -> a test of batch names ``batch61`` ... ``batch80``."""
    lo, _, hi = text.partition("-")
    lo, hi = int(lo), int(hi or lo)
    return lambda batch: lo <= int(batch[5:]) <= hi


def _gold_build():
    import importlib.util

    spec = importlib.util.spec_from_file_location("gold_build", REPO / "tests" / "gold" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(REPO))
    settings = _settings()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--settings", nargs="+", default=list(settings), choices=list(settings))
    ap.add_argument("--test-range", type=_batch_range, default=None, metavar="A-B",
                    help="deal only batches A..B to the folds (e.g. 61-80, the other-venue batches); "
                         "the rest are always training batches")
    ap.add_argument("--train-exclude", type=_batch_range, default=None, metavar="A-B",
                    help="never mine names from batches A..B (e.g. 61-80: in-venue names only)")
    ap.add_argument("--worker", nargs=2, metavar=("GAZETTEER", "BATCHES"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(args.worker[0], args.worker[1].split(","))))
        return 0
    from extractors import build_gazetteer
    from extractors.build_silver import batch_order

    batches = sorted((p.stem for p in SILVER.glob("batch*.ann")), key=batch_order)
    dealt = [b for b in batches if args.test_range is None or args.test_range(b)]
    folds = [dealt[k::args.folds] for k in range(args.folds)]
    totals = {name: [0, 0, 0, 0, 0, 0] for name in args.settings}
    with tempfile.TemporaryDirectory() as tmp:
        for k, test in enumerate(folds):
            train = [b for b in batches if b not in test and not (args.train_exclude and args.train_exclude(b))]
            for name in args.settings:
                path = Path(tmp) / f"gazetteer-{k}-{name}.json"
                data = (build_gazetteer.build(silver=None) if settings[name] is None
                        else build_gazetteer.build(batches=train, thresholds=settings[name]))
                path.write_text(json.dumps(data), encoding="utf-8")
                out = subprocess.run([sys.executable, __file__, "--worker", str(path), ",".join(test)],
                                     capture_output=True, text=True, check=True, cwd=REPO)
                res = json.loads(out.stdout.strip().splitlines()[-1])
                a, p = res["all"], res["proposed"]
                for i, v in enumerate((a["tp"], a["fp"], a["fn"], p["tp"], p["fp"], p["fn"])):
                    totals[name][i] += v
                print(f"fold {k} ({len(test)} batches) {name:18s} F1 {a['f1']:.4f}  proposed R {p['recall']:.4f}",
                      flush=True)
    n = sum(len(f) for f in folds) * 40
    print(f"\n{n} silver abstracts, {args.folds} folds, micro averages:")
    for name, (tp, fp, fn, ptp, pfp, pfn) in totals.items():
        prec, rec = tp / (tp + fp), tp / (tp + fn)
        print(f"  {name:18s} P {prec:.4f}  R {rec:.4f}  F1 {2 * prec * rec / (prec + rec):.4f}  "
              f"(tp {tp}, fp {fp}, fn {fn})  proposed P {ptp / (ptp + pfp):.4f} R {ptp / (ptp + pfn):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
