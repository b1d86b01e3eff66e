"""Cold ``kg related`` calls on one build folder, before and after the stored index.

Each call runs in a fresh Python process (imports included, as from the command line) and
reports its wall time, its phases and its peak RSS:

- **before**: ``kg related`` as it was before the stored index (``kg/related.py`` of git revision
  ``--before-rev``): load ``graph.pickle``, derive the author index from the graph, term
  profiles from ``OUT/.cache/related_terms.npz`` (made by a first, untimed call if missing),
  then the query;
- **graph** (``--graph``): the current code on the loaded graph (what ``kg related`` falls back
  to without a current index, less writing it);
- **after**: the stored index ``OUT/related/`` (memory-mapped) and the query;
- **rebuild** (``--rebuild``): what ``kg build`` adds, or a ``kg related`` on a build without
  the index pays once: derive the index from the loaded graph and write it.

The answers (keys, labels, hops, reasons, scores and components unrounded) are compared with
the stored index's: "graph" must match to the bit; "before" summed the topic weights in set
order, which changes from process to process, so its scores may differ in the last bits
(the largest difference is printed).

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


def _module_at(rev: str):
    """``kg/related.py`` as it was at git revision ``rev``, imported under another name."""
    import types

    src = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:kg/related.py"], capture_output=True,
                         text=True, check=True).stdout
    mod = types.ModuleType("kg_related_before")
    mod.__file__ = f"{rev}:kg/related.py"
    sys.modules[mod.__name__] = mod  # dataclasses look their module up
    exec(compile(src, mod.__file__, "exec"), mod.__dict__)
    return mod


def _child(mode: str, out: str, name: str, top: int, rev: str) -> None:
    t0 = time.perf_counter()
    phases: dict[str, float] = {}

    def mark(what: str) -> None:
        phases[what] = round(time.perf_counter() - t0 - sum(phases.values()), 3)

    if mode == "before":
        old = _module_at(rev)
        _index, related_authors, use_terms_cache = old._index, old.related_authors, old.use_terms_cache
    else:
        from kg.related import _index, related_authors
    from kg.related_index import INDEX_DIR, graph_fingerprint, load_related_index, write_related_index
    from kg.workspace import Workspace

    ws = Workspace(out)
    mark("import")
    if mode == "after":
        source = load_related_index(ws.path / INDEX_DIR, key=graph_fingerprint(ws.graph_path))
        mark("open index")
    else:
        source = G = ws.load_graph()
        mark("load graph")
        idx = _index(G)
        mark("author index")
        if mode == "before":
            use_terms_cache(G, ws.cache_dir / "related_terms.npz", graph_fingerprint(ws.graph_path))
            mark("term profiles")
        elif mode == "rebuild":  # into a scratch folder: the build's own index is left alone
            meta = write_related_index(idx, ws.cache_dir / "bench_related_index", key="bench")
            mark("write index")
    res = related_authors(source, name, top=top)
    mark("query")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    answer = [[r.key, r.label, r.hops, list(r.reasons), r.score, r.components] for r in res]
    out_d = {"phases": phases, "rss_mb": round(rss), "answer": answer}
    if mode == "rebuild":
        out_d["bytes"] = meta["bytes"]
    print(json.dumps(out_d))


def _run(mode: str, out: Path, name: str, top: int, rev: str) -> dict:
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, __file__, "--child", mode, str(out), "--name", name, "--top", str(top),
                           "--before-rev", rev],
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
    ap.add_argument("--graph", action="store_true", help="Also time the current code on the loaded graph.")
    ap.add_argument("--before-rev", default="56d06bb", help="Git revision of 'before' (default: the last "
                    "one without the stored index).")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    names = args.name or ["Yoshua Bengio"]
    if args.child:
        _child(args.child, str(args.out), names[0], args.top, args.before_rev)
        return
    out = args.out
    if not (out / "related" / "meta.json").exists():
        raise SystemExit(f"{out}: no related/ index; run `kg build` (or one `kg related`) first")
    if not (out / ".cache" / "related_terms.npz").exists():
        print("making OUT/.cache/related_terms.npz for the 'before' path (one untimed call) ...", flush=True)
        _run("before", out, names[0], args.top, args.before_rev)
    print(f"build folder {out}: graph.pickle {os.path.getsize(out / 'graph.pickle') / 1e6:.0f} MB, "
          f"related/ {sum(_sizes(out).values()) / 1e6:.0f} MB "
          f"({', '.join(f'{k} {v / 1e6:.0f}' for k, v in _sizes(out).items())}), "
          f".cache/related_terms.npz {os.path.getsize(out / '.cache' / 'related_terms.npz') / 1e6:.0f} MB; "
          f"load {os.getloadavg()[0]:.1f}")
    modes = ["before"] + (["graph"] if args.graph else []) + ["after"] + (["rebuild"] if args.rebuild else [])
    bad = False
    for name in names:
        runs = {m: [_run(m, out, name, args.top, args.before_rev) for _ in range(args.repeat)] for m in modes}
        ref = runs["after"][0]["answer"]
        exact = {m: all(r["answer"] == ref for r in rs) for m, rs in runs.items()}
        words = all([a[:4] for a in r["answer"]] == [a[:4] for a in ref] for rs in runs.values() for r in rs)
        diff = max((abs(x - y) for rs in runs.values() for r in rs for a, b in zip(r["answer"], ref)
                    for x, y in [(a[4], b[4]), *((a[5][k], b[5][k]) for k in a[5])]), default=0.0)
        print(f"\n{name!r}: top {args.top}; same authors, order, hops and reasons in every call: "
              f"{'yes' if words else 'NO'}; scores and components bit-identical to 'after': "
              + ", ".join(f"{m} {'yes' if ok else 'no'}" for m, ok in exact.items() if m != "after")
              + f" (largest difference {diff:.1e})")
        bad |= not words or not all(ok for m, ok in exact.items() if m != "before") or diff > 1e-9
        print(f"  {'':8} {'wall s':>8} {'best s':>8} {'peak RSS MB':>12}  phases (s, first call)")
        for m, rs in runs.items():
            walls = [r["wall"] for r in rs]
            phases = ", ".join(f"{k} {v:.2f}" for k, v in rs[0]["phases"].items())
            extra = f", wrote {rs[0]['bytes'] / 1e6:.0f} MB" if m == "rebuild" else ""
            print(f"  {m:8} {walls[0]:8.2f} {min(walls):8.2f} {max(r['rss_mb'] for r in rs):12,}  {phases}{extra}")
    if bad:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
