"""Extraction speed on every abstract in ``shared/data/confpapers/jsonl/`` (words per second).

Prints, for the default pipeline (``make_nlp()``): a reference row (``spacy.blank("en")``'s own
tokenizer, which none of paperkg's code touches), the full ``extract_raw`` on a freshly built
pipeline (first pass: the tokenizer cache and the components' memo tables start empty, as in
``kg extract``) and that first pass's tokenizer alone, then on the warm pipeline: its tokenizer alone, each paperkg component added in
turn, the full ``extract_raw`` on one process and on ``--n-process`` processes, and the
corpus-level ``consolidate`` step. Words are whitespace-separated tokens of
title + abstract. Timings are wall-clock and CPU (``time.process_time``), best of ``--repeat``
runs; the CPU time of the ``--n-process`` row adds the worker processes' CPU time (their
``getrusage`` once they have exited), so its words/s is per CPU second, like the other rows, and
its wall-clock words/s shows what the extra processes gain. On a shared machine the CPU figures
and the ratio of the full pipeline to the tokenizer alone (printed last, with the load average)
are the ones to compare between runs.

Usage::

    python bench/bench_extract.py [--limit N] [--n-process 2] [--repeat 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from kg.records import Source, make_record  # noqa: E402

CONF = REPO.parent / "shared" / "data" / "confpapers" / "jsonl"


def load_records(limit: int | None = None) -> list:
    out = []
    for path in sorted(CONF.glob("*.jsonl")):
        with open(path, encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                d = json.loads(line)
                if not d.get("abstract"):
                    continue
                out.append(make_record(source=Source(str(path), n, "confpapers"), title=d.get("title"),
                                       abstract=d["abstract"], authors=d.get("authors") or ()))
                if limit and len(out) >= limit:
                    return out
    return out


def _children_cpu() -> float:
    """CPU seconds of this process's exited (and waited-for) child processes."""
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _best(fn, repeat: int) -> tuple[float, float]:
    """Best wall-clock and best CPU seconds (this process and its finished workers) of ``repeat`` runs."""
    best = cpu = float("inf")
    for _ in range(repeat):
        t, c, k = time.perf_counter(), time.process_time(), _children_cpu()
        fn()
        best = min(best, time.perf_counter() - t)
        cpu = min(cpu, time.process_time() - c + _children_cpu() - k)
    return best, cpu


def _first_pass(records: list, make_nlp, extract_raw) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one ``extract_raw`` on a pipeline built just before (not timed)."""
    nlp = make_nlp()
    t, c = time.perf_counter(), time.process_time()
    for _ in extract_raw(records, nlp=nlp):
        pass
    return time.perf_counter() - t, time.process_time() - c


def _first_tokenize(texts: list[str], make_nlp) -> tuple[float, float]:
    """Wall-clock and CPU seconds of tokenizing ``texts`` once with a freshly built pipeline's
    tokenizer: the tokenizer's share of the first pass (every distinct word is split by the
    affix rules and gets its vocabulary entry)."""
    nlp = make_nlp()
    t, c = time.perf_counter(), time.process_time()
    for text in texts:
        nlp.make_doc(text)
    return time.perf_counter() - t, time.process_time() - c


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="only the first N abstracts")
    ap.add_argument("--n-process", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    from extractors.pipeline import _join, consolidate, extract_raw, make_nlp

    records = load_records(args.limit)
    texts = [_join(r)[0] for r in records]
    words = sum(len(t.split()) for t in texts)
    rows: list[dict[str, Any]] = []

    def row(name: str, timing: tuple[float, float]) -> None:
        seconds, cpu = timing
        rows.append({"step": name, "seconds": round(seconds, 3), "words_per_s": round(words / seconds),
                     "cpu_seconds": round(cpu, 3), "cpu_words_per_s": round(words / max(cpu, 1e-9))})

    import spacy

    blank = spacy.blank("en")
    [blank.make_doc(t) for t in texts]  # warm, like the tokenizer row below
    row("reference: spacy.blank tokenizer", _best(lambda: [blank.make_doc(t) for t in texts], args.repeat))
    del blank
    row("extract_raw, first pass (cold)", _first_pass(records, make_nlp, extract_raw))
    row("tokenizer, first pass (cold)", _first_tokenize(texts, make_nlp))
    nlp = make_nlp()
    [nlp.make_doc(t) for t in texts]  # warm the lexeme cache: every step below then sees the same vocab
    row("tokenizer only", _best(lambda: [nlp.make_doc(t) for t in texts], args.repeat))
    names = list(nlp.pipe_names)
    for k in range(1, len(names) + 1):
        keep = names[:k]
        with nlp.select_pipes(enable=keep):
            row("+ " + names[k - 1], _best(lambda: list(nlp.pipe(texts, batch_size=256)), args.repeat))
    raws: list = []

    def run1() -> None:
        raws[:] = list(extract_raw(records, nlp=nlp))

    row("extract_raw, 1 process", _best(run1, args.repeat))
    row(f"extract_raw, {args.n_process} processes",
        _best(lambda: list(extract_raw(records, nlp=nlp, n_process=args.n_process)), args.repeat))
    row("consolidate", _best(lambda: consolidate(records, raws), args.repeat))
    import os

    def cpu(step: str) -> float:
        return next(r for r in rows if r["step"] == step)["cpu_seconds"]

    full = cpu("extract_raw, 1 process")
    result = {"abstracts": len(records), "words": words, "rows": rows,
              "ratio_full_to_tokenizer": round(cpu("tokenizer only") / full, 3),
              "ratio_full_to_reference": round(cpu("reference: spacy.blank tokenizer") / full, 3),
              "load_average": os.getloadavg()}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"{len(records)} abstracts (title + abstract), {words:,} words")
        print(f"{'step':<34}{'seconds':>9}{'words/s':>12}{'cpu s':>9}{'cpu words/s':>13}")
        for r in rows:
            print(f"{r['step']:<34}{r['seconds']:>9.2f}{r['words_per_s']:>12,}{r['cpu_seconds']:>9.2f}"
                  f"{r['cpu_words_per_s']:>13,}")
        print(f"CPU time of the reference tokenizer / full pipeline (1 process): "
              f"{result['ratio_full_to_reference']:.3f}; pipeline's tokenizer / full pipeline: "
              f"{result['ratio_full_to_tokenizer']:.3f}; load average "
              f"{', '.join(f'{x:.2f}' for x in result['load_average'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
