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

``--side-by-side TREE`` compares this work tree with another checkout (say a ``git worktree`` of
the commit before a change): each round runs, in a fresh process per tree and alternating which
goes first, one ``extract_raw`` pass on a freshly built pipeline (cold) and two more on it
(warm), then prints the median CPU seconds, words/s and the ratio of this tree to the other,
and the same for the load (importing ``extractors.pipeline`` and building ``make_nlp()``: what
a ``kg extract`` of a few records mostly pays).
On a machine shared with other work that ratio, not the absolute figures, is what to quote.
The load is that of a warm phrase-pattern cache (:func:`extractors.gazetteer.phrase_patterns`,
one file per gazetteer, tokenizer and code version, written by the first run that misses it; the
median of three rounds is a hit); ``PAPERKG_CACHE_DIR=`` (empty) measures the pipeline without it.

``--consolidation RAW --input FILE...`` times the corpus-level consolidation alone on a saved raw
extraction (one :meth:`~extractors.pipeline.RawExtraction.to_dict` per line, in the order of the
records that ``kg extract FILE...`` reads; made with ``extract_raw`` on ``--n-process`` processes
when RAW does not exist yet). It prints the wall-clock and CPU seconds (best of ``--repeat``) and the
peak RSS of the process; ``--write OUT`` writes the consolidated records as ``kg extract -o OUT``
does, and ``--module FILE`` consolidates with the ``consolidate_corpus`` of another copy of
``extractors/consolidate.py`` (say the one before a change), so two versions can be compared
byte for byte on one raw extraction while the per-document extractors keep changing.

Usage::

    python bench/bench_extract.py [--limit N] [--n-process 2] [--repeat 1] [--json]
    python bench/bench_extract.py --side-by-side ../baseline-tree [--rounds 3] [--limit N]
    python bench/bench_extract.py --consolidation RAW.jsonl --input CORPUS [--write OUT] [--module FILE]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

CONF = REPO.parent / "shared" / "data" / "confpapers" / "jsonl"


def load_records(limit: int | None = None) -> list:
    from kg.records import Source, make_record  # not at import: --root decides which kg

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


def _cold_warm(limit: int | None) -> dict[str, Any]:
    """CPU seconds of ``extract_raw`` on a freshly built pipeline (cold), then twice on it (warm),
    with the ``extractors`` found first on ``sys.path``; ``load`` is the CPU seconds of
    importing ``extractors.pipeline`` (spaCy included) and of the first ``make_nlp()``."""
    c = time.process_time()
    from extractors.pipeline import _join, extract_raw, make_nlp

    imported = time.process_time() - c
    records = load_records(limit)
    c = time.process_time()
    nlp = make_nlp()
    load = [imported, time.process_time() - c]
    times = []
    for _ in range(3):
        gc.collect()
        c = time.process_time()
        for _raw in extract_raw(records, nlp=nlp):
            pass
        times.append(time.process_time() - c)
    return {"words": sum(len(_join(r)[0].split()) for r in records), "cold": times[0], "warm": times[1:],
            "load": load}


def side_by_side(other: str, *, rounds: int = 3, limit: int | None = None) -> dict[str, Any]:
    """This tree against ``other`` (see the module docstring); the figures as a dict."""
    trees = [str(REPO), str(Path(other).resolve())]
    if not (Path(trees[1]) / "extractors" / "pipeline.py").exists():
        raise SystemExit(f"{other}: no extractors/pipeline.py there (give the root of a paperkg checkout)")
    cpu: dict[str, dict[str, list[float]]] = {t: {"cold": [], "warm": [], "load": []} for t in trees}
    words = 0
    loads = []
    for i in range(rounds):
        for tree in trees if i % 2 == 0 else trees[::-1]:
            cmd = [sys.executable, str(Path(__file__).resolve()), "--cold-warm", "--root", tree]
            if limit:
                cmd += ["--limit", str(limit)]
            d = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines()[-1])
            words = d["words"]
            cpu[tree]["cold"].append(d["cold"])
            cpu[tree]["warm"].extend(d["warm"])
            cpu[tree]["load"].append(sum(d["load"]))
            loads.append(os.getloadavg()[0])
    out: dict[str, Any] = {"words": words, "rounds": rounds, "load_average": [min(loads), max(loads)], "trees": {}}
    for tree in trees:
        out["trees"][tree] = {k: {"cpu_seconds": [round(x, 3) for x in xs],
                                  "median": round(statistics.median(xs), 3),
                                  "words_per_s": round(words / statistics.median(xs))}
                              for k, xs in cpu[tree].items()}
    for k in ("cold", "warm", "load"):
        out[f"ratio_{k}"] = round(out["trees"][trees[0]][k]["median"] / out["trees"][trees[1]][k]["median"], 3)
    return out


def _print_side_by_side(result: dict[str, Any]) -> None:
    print(f"{result['words']:,} words, {result['rounds']} rounds, load average "
          f"{result['load_average'][0]:.2f}-{result['load_average'][1]:.2f}")
    print(f"{'tree':<40}{'cold s':>8}{'cold words/s':>14}{'warm s':>8}{'warm words/s':>14}{'load s':>8}")
    for tree, r in result["trees"].items():
        print(f"{tree:<40}{r['cold']['median']:>8.2f}{r['cold']['words_per_s']:>14,}"
              f"{r['warm']['median']:>8.2f}{r['warm']['words_per_s']:>14,}{r['load']['median']:>8.2f}")
    print(f"CPU time, this tree / the other (median): cold {result['ratio_cold']:.3f}, warm {result['ratio_warm']:.3f}, "
          f"load (import + make_nlp) {result['ratio_load']:.3f}")


def consolidation(raw_path: str | Path, inputs: list[str], *, n_process: int = 2, repeat: int = 1,
                  write: str | Path | None = None, module: str | Path | None = None) -> dict[str, Any]:
    """Time the corpus-level consolidation alone on a saved raw extraction (see the module docstring)."""
    import importlib.util
    import resource

    from extractors.pipeline import RawExtraction, _gc_paused, extract_raw
    from kg.ingest import ingest
    from kg.workspace import write_records

    t = time.perf_counter()
    records = ingest(inputs).records
    ingest_s = time.perf_counter() - t
    raw_path = Path(raw_path)
    made_s = None
    if not raw_path.exists():
        t = time.perf_counter()
        tmp = raw_path.with_name(raw_path.name + ".part")
        with open(tmp, "w", encoding="utf-8") as fh:
            for raw in extract_raw(records, n_process=n_process):
                fh.write(json.dumps(raw.to_dict(), ensure_ascii=False) + "\n")
        tmp.replace(raw_path)
        made_s = time.perf_counter() - t
    with _gc_paused(), open(raw_path, encoding="utf-8") as fh:
        raws = [RawExtraction.from_dict(json.loads(line)) for line in fh]
    if [r.record_id for r in raws] != [r.id for r in records]:
        raise SystemExit(f"{raw_path}: its record ids are not those of {' '.join(inputs)} (in that order)")
    if module is None:
        from extractors.consolidate import consolidate_corpus
    else:
        spec = importlib.util.spec_from_file_location("_consolidate_under_test", module)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        consolidate_corpus = mod.consolidate_corpus

    out: list = []

    def run() -> None:
        with _gc_paused():  # as extractors.pipeline.consolidate runs it
            out[:] = consolidate_corpus(records, raws)

    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    seconds, cpu = _best(run, repeat)
    result = {"records": len(records), "raw": str(raw_path), "module": str(module or "extractors.consolidate"),
              "ingest_seconds": round(ingest_s, 2), "extract_raw_seconds": made_s and round(made_s, 2),
              "consolidate_seconds": round(seconds, 3), "consolidate_cpu_seconds": round(cpu, 3),
              "peak_rss_mb_before": round(rss_before / 1024),
              "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
              "load_average": os.getloadavg()}
    if write:
        write_records(out, write, extraction=True)
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=None, help="only the first N abstracts")
    ap.add_argument("--n-process", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--side-by-side", metavar="TREE", help="compare with the paperkg checkout at TREE")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of --side-by-side")
    ap.add_argument("--consolidation", metavar="RAW", help="time consolidation alone on this raw extraction")
    ap.add_argument("--input", nargs="+", default=[], help="with --consolidation: the corpus (as for kg extract)")
    ap.add_argument("--write", metavar="OUT", help="with --consolidation: write the consolidated records")
    ap.add_argument("--module", metavar="FILE", help="with --consolidation: another copy of consolidate.py")
    ap.add_argument("--cold-warm", action="store_true", help=argparse.SUPPRESS)  # one side-by-side run
    ap.add_argument("--root", help=argparse.SUPPRESS)  # the tree whose extractors --cold-warm imports
    args = ap.parse_args(argv)

    if args.cold_warm:
        if args.root:
            sys.path.insert(0, args.root)
        print(json.dumps(_cold_warm(args.limit)))
        return 0
    if args.consolidation:
        if not args.input:
            ap.error("--consolidation needs --input (the corpus the raw extraction was made from)")
        result = consolidation(args.consolidation, args.input, n_process=args.n_process, repeat=args.repeat,
                               write=args.write, module=args.module)
        if args.json:
            print(json.dumps(result, indent=2))
        else:
            print(f"{result['records']:,} records; consolidation {result['consolidate_seconds']:.2f} s wall, "
                  f"{result['consolidate_cpu_seconds']:.2f} s CPU (best of {args.repeat}); peak RSS "
                  f"{result['peak_rss_mb_before']:,} MB before it, {result['peak_rss_mb']:,} MB after; load average "
                  f"{', '.join(f'{x:.2f}' for x in result['load_average'])}")
        return 0
    if args.side_by_side:
        result = side_by_side(args.side_by_side, rounds=args.rounds, limit=args.limit)
        if args.json:
            print(json.dumps(result, indent=2))
        else:
            _print_side_by_side(result)
        return 0

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
    from extractors.pipeline import _process_batch

    def batched() -> None:
        # as extract_raw runs the pipeline: 256 texts at a time, one component after another
        for i in range(0, len(texts), 256):
            _process_batch(nlp, texts[i:i + 256], 256)

    for k in range(1, len(names) + 1):
        keep = names[:k]
        with nlp.select_pipes(enable=keep):
            row("+ " + names[k - 1], _best(batched, args.repeat))
    raws: list = []

    def run1() -> None:
        raws[:] = list(extract_raw(records, nlp=nlp))

    row("extract_raw, 1 process", _best(run1, args.repeat))
    row(f"extract_raw, {args.n_process} processes",
        _best(lambda: list(extract_raw(records, nlp=nlp, n_process=args.n_process)), args.repeat))
    row("consolidate", _best(lambda: consolidate(records, raws), args.repeat))
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
