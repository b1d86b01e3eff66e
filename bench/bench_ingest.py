"""Time ``kg ingest`` on the real confpapers corpus (~10k papers) and a 100k resampled corpus.

Each run is a separate ``kg ingest`` process, so its peak RSS (``ru_maxrss`` of the child) is
its own. Prints one line per corpus and, with ``--json``, a JSON object.

    python bench/bench_ingest.py [--sizes 100000] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import conf_files, resample  # noqa: E402

KG = [sys.executable, "-m", "kg"]


def run_ingest(inputs: list[Path]) -> dict:
    out = Path(tempfile.mkdtemp()) / "records.jsonl"
    t0 = time.perf_counter()
    proc = subprocess.Popen([*KG, "ingest", *map(str, inputs), "-o", str(out), "-q"])
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    if status != 0:
        raise SystemExit(f"kg ingest failed with status {status}")
    papers = sum(1 for _ in open(out, encoding="utf-8"))
    out.unlink()
    return {"seconds": round(seconds, 2), "peak_rss_mb": round(usage.ru_maxrss / 1024, 1), "papers": papers}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", type=int, nargs="*", default=[100_000])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    corpora = {"confpapers (all jsonl)": conf_files(with_abstracts=False)}
    for n in args.sizes:
        corpora[f"resampled {n:,}"] = [resample(n)]
    results = {}
    for name, inputs in corpora.items():
        n_in = sum(sum(1 for _ in open(p, encoding="utf-8")) for p in inputs)
        runs = [run_ingest(inputs) for _ in range(args.repeat)]
        best = min(runs, key=lambda r: r["seconds"])
        results[name] = {"records_in": n_in, "papers_out": best["papers"],
                         "best_seconds": best["seconds"], "all_seconds": [r["seconds"] for r in runs],
                         "peak_rss_mb": max(r["peak_rss_mb"] for r in runs),
                         "records_per_second": round(n_in / best["seconds"])}
        if not args.json:
            r = results[name]
            print(f"{name:28} {n_in:>8,} records -> {r['papers_out']:>8,} papers  "
                  f"best {r['best_seconds']:6.2f} s of {args.repeat}  {r['records_per_second']:>7,}/s  "
                  f"peak RSS {r['peak_rss_mb']:.0f} MB")
    meta = {"python": platform.python_version(), "cpus": os.cpu_count(), "load": os.getloadavg()}
    if args.json:
        print(json.dumps({"results": results, "machine": meta}, indent=2))
    else:
        print(f"machine: {meta}")


if __name__ == "__main__":
    main()
