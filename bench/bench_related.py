"""Cold ``kg related`` calls on one build folder, before and after the stored index.

Each call runs in a fresh Python process (imports included, as from the command line) and
reports its wall time, its phases and its peak RSS:

- **before**: the path without ``OUT/related/``: load ``graph.pickle``, derive the author index
  from the graph, term profiles from ``OUT/.cache/related_terms.npz`` (made by a first, untimed
  call if missing), then the query;
- **after**: the stored index ``OUT/related/`` (memory-mapped) and the query;
- **rebuild** (``--rebuild``): what ``kg build`` adds, or a ``kg related`` on a build without
  the index pays once: derive the index from the loaded graph and write it.

Both answers (keys, labels, scores and components unrounded, reasons) are compared; the
figures are printed side by side with the index's size on disk.

Usage::

    python bench/bench_related.py OUT [--name "Yoshua Bengio" ...] [--repeat 2] [--rebuild]

The files are read through the page cache: "cold" means a fresh process, not a cold disk.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _child(mode: str, out: str, name: str, top: int) -> None:
    t0 = time.perf_counter()
    phases: dict[str, float] = {}

    def mark(what: str) -> None:
        phases[what] = round(time.perf_counter() - t0 - sum(phases.values()), 3)

    from kg.related import _index, related_authors, use_terms_cache
    from kg.related_index import INDEX_DIR, graph_fingerprint, load_related_index, write_related_index
    from kg.workspace import Workspace

    ws = Workspace(out)
    mark("import")
    if mode == "after":
        idx = load_related_index(ws.path / INDEX_DIR, key=graph_fingerprint(ws.graph_path))
        mark("open index")
    else:
        G = ws.load_graph()
        mark("load graph")
        idx = _index(G)
        mark("author index")
        if mode == "before":
            use_terms_cache(G, ws.cache_dir / "related_terms.npz", graph_fingerprint(ws.graph_path))
            mark("term profiles")
        else:  # rebuild: into a scratch folder, the build's own index is left alone
            meta = write_related_index(idx, ws.cache_dir / "bench_related_index", key="bench")
            mark("write index")
    res = related_authors(idx, name, top=top)
    mark("query")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    answer = [[r.key, r.label, repr(r.score), r.hops, list(r.reasons), {k: repr(v) for k, v in r.components.items()}]
              for r in res]
    out_d = {"phases": phases, "rss_mb": round(rss), "answer": answer}
    if mode == "rebuild":
        out_d["bytes"] = meta["bytes"]
    print(json.dumps(out_d))


def _run(mode: str, out: Path, name: str, top: int) -> dict:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, __file__, "--child", mode, str(out), "--name", name, "--top", str(top)],
                          capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if proc.returncode:
        raise SystemExit(f"{mode} failed:\n{proc.stderr}")
    d = json.loads(proc.stdout.strip().splitlines()[-1])
    d["wall"] = wall
    return d


def _sizes(out: Path) -> dict[str, int]:
    folder = out / "related"
    groups = {"term profiles": ("terms_", "vocab_"), "paper texts": ("title_", "abstract_"),
              "names and keys": ("author_", "paper_blob", "paper_offs", "item_", "cat_", "name_")}
    sizes = {g: 0 for g in groups} | {"tables": 0}
    for p in folder.glob("*.npy"):
        g = next((g for g, pre in groups.items() if p.name.startswith(pre)), "tables")
        sizes[g] += p.stat().st_size
    return sizes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--name", action="append", help="Author to ask about (repeatable).")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=1, help="Calls per mode and name (the best is shown too).")
    ap.add_argument("--rebuild", action="store_true", help="Also time deriving and writing the index.")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    names = args.name or ["Yoshua Bengio"]
    if args.child:
        _child(args.child, str(args.out), names[0], args.top)
        return
    out = args.out
    if not (out / "related" / "meta.json").exists():
        raise SystemExit(f"{out}: no related/ index; run `kg build` (or one `kg related`) first")
    if not (out / ".cache" / "related_terms.npz").exists():
        print("making OUT/.cache/related_terms.npz for the 'before' path (one untimed call) ...", flush=True)
        _run("before", out, names[0], args.top)
    print(f"build folder {out}: graph.pickle {os.path.getsize(out / 'graph.pickle') / 1e6:.0f} MB, "
          f"related/ {sum(_sizes(out).values()) / 1e6:.0f} MB "
          f"({', '.join(f'{k} {v / 1e6:.0f}' for k, v in _sizes(out).items())}), "
          f".cache/related_terms.npz {os.path.getsize(out / '.cache' / 'related_terms.npz') / 1e6:.0f} MB; "
          f"load {os.getloadavg()[0]:.1f}")
    modes = ["before", "after"] + (["rebuild"] if args.rebuild else [])
    for name in names:
        runs = {m: [_run(m, out, name, args.top) for _ in range(args.repeat)] for m in modes}
        same = all(r["answer"] == runs["before"][0]["answer"] for rs in runs.values() for r in rs)
        print(f"\n{name!r}: top {args.top}, answers identical before/after: {'yes' if same else 'NO'}")
        print(f"  {'':8} {'wall s':>8} {'best s':>8} {'peak RSS MB':>12}  phases (s, first call)")
        for m, rs in runs.items():
            walls = [r["wall"] for r in rs]
            phases = ", ".join(f"{k} {v:.2f}" for k, v in rs[0]["phases"].items())
            extra = f", wrote {rs[0]['bytes'] / 1e6:.0f} MB" if m == "rebuild" else ""
            print(f"  {m:8} {walls[0]:8.2f} {min(walls):8.2f} {max(r['rss_mb'] for r in rs):12,}  {phases}{extra}")
        if not same:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
