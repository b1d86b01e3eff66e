"""Cold ``kg related`` calls on one build folder: the stored index against the graph.

Each call runs in a fresh Python process (imports included, as from the command line) and
reports its wall time, its phases and its peak RSS; for every query (``--name`` authors and
``--paper`` papers) the modes run side by side:

- **index**: what ``kg related OUT NAME`` (or ``--paper ID``) does on a build with a current
  index: open ``OUT/related/`` (memory-mapped) and answer;
- **graph**: the graph-loading path (what answered before the stored index, and what
  ``kg related`` falls back to on a build without a current one, less storing it): load
  ``graph.pickle``, derive the index from the graph (for authors, their term profiles too)
  and answer;
- **build** (authors only): what ``kg build`` adds to store the index, and what the first
  ``kg related`` on a build without a current index pays once: load the graph, derive the
  index and write it (into a scratch folder: the build's own index is left alone), answer;
- **kg**: the installed ``kg related OUT NAME --json`` itself, as a user runs it.

The answers (keys, labels, hops, reasons, and scores and components unrounded) of "graph"
and "build" must equal the index's to the bit; the JSON of "kg" (scores rounded to 4
places) must match the index's answer. A mismatch, or a build folder without a current
index, is exit status 1.

Usage::

    kg build --demo -o /tmp/rel_demo
    python bench/bench_related.py /tmp/rel_demo [--name NAME ...] [--paper ID ...] [--repeat 2]

Without ``--name``/``--paper`` the most prolific author and their first paper are asked about. The files are read through the page cache: "cold" means a fresh
process, not a cold disk.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MODES = {"author": ("index", "graph", "build", "kg"), "paper": ("index", "graph", "kg")}


def _answer(results: list) -> list:
    return [[r.key, r.label, r.hops, list(r.reasons), r.score, r.components] for r in results]


def _child(mode: str, kind: str, out: str, query: str, top: int) -> None:
    t0 = time.perf_counter()
    phases: dict[str, float] = {}

    def mark(what: str) -> None:
        phases[what] = round(time.perf_counter() - t0 - sum(phases.values()), 3)

    from kg.related import RelatedIndex, related_authors, related_papers
    from kg.related_index import INDEX_DIR, graph_fingerprint, load_related_index, write_related_index
    from kg.workspace import Workspace

    ws = Workspace(out)
    ask = related_authors if kind == "author" else related_papers
    extra: dict = {}
    mark("import")
    if mode == "index":
        source = load_related_index(ws.path / INDEX_DIR, key=graph_fingerprint(ws.graph_path))
        mark("open index")
    else:
        G = ws.load_graph()
        mark("load graph")
        source = RelatedIndex(G)
        mark("derive index")
        if mode == "build":
            with tempfile.TemporaryDirectory(prefix="bench_related_") as tmp:
                extra["bytes"] = write_related_index(source, tmp, key="bench")["bytes"]
            mark("term profiles + write")
        elif kind == "author":
            source.terms()
            mark("term profiles")
    res = ask(source, query, top=top)
    mark("query")
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(json.dumps({"phases": phases, "rss_mb": round(rss), "answer": _answer(res)} | extra))


def _run(mode: str, kind: str, out: Path, query: str, top: int) -> dict:
    if mode == "kg":
        kg = shutil.which("kg", path=os.path.dirname(sys.executable)) or "kg"
        args = [kg, "related", str(out), *([query] if kind == "author" else ["--paper", query]),
                "--top", str(top), "--json"]
    else:
        args = [sys.executable, __file__, str(out), "--child", mode, "--kind", kind, "--query", query,
                "--top", str(top)]
    t0 = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if proc.returncode:
        raise SystemExit(f"{mode} {kind} {query!r} failed:\n{proc.stderr}")
    if mode == "kg":
        if proc.stderr:  # the index was not current: kg rebuilt it, the figures are not of the index
            raise SystemExit(f"kg related said: {proc.stderr.strip()}")
        return {"wall": wall, "json": json.loads(proc.stdout), "phases": {}, "rss_mb": None}
    d = json.loads(proc.stdout.strip().splitlines()[-1])
    d["wall"] = wall
    return d


def _same_as_json(answer: list, data: list) -> bool:
    """The index's answer and the JSON of ``kg related`` (scores rounded to 4 places)."""
    return len(answer) == len(data) and all(
        [a[0], a[1], a[2], a[3], round(a[4], 4)] == [d["key"], d["label"], d["hops"], d["reasons"], d["score"]]
        for a, d in zip(answer, data))


def _sizes(folder: Path) -> dict[str, int]:
    groups = {"term profiles": ("terms_", "vocab_"), "paper texts": ("title_", "abstract_"),
              "paper lookup": ("paper_label_", "record_id_", "items_of_paper_", "papers_of_item_"),
              "names and keys": ("author_", "paper_blob", "paper_offs", "item_", "cat_", "name_")}
    sizes = {g: 0 for g in groups} | {"other tables": 0}
    for p in folder.glob("*.npy"):
        g = next((g for g, pre in groups.items() if p.name.startswith(pre)), "other tables")
        sizes[g] += p.stat().st_size
    return sizes


def _defaults(out: Path) -> tuple[str, str]:
    """The most prolific author (ties: first key) and their first paper by key."""
    from kg.related_index import INDEX_DIR, load_related_index

    idx = load_related_index(out / INDEX_DIR)
    i = max(range(len(idx.authors)), key=lambda j: (idx.n_papers[j], -j))
    return idx.label(idx.authors[i]), min(idx.papers_of[idx.authors[i]])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--name", action="append", default=[], help="Author to ask about (repeatable).")
    ap.add_argument("--paper", action="append", default=[], help="Paper id or title to ask about (repeatable).")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=1, help="Calls per mode and query (the best is shown too).")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--kind", default="author", help=argparse.SUPPRESS)
    ap.add_argument("--query", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _child(args.child, args.kind, str(args.out), args.query, args.top)
        return
    from kg.related_index import INDEX_DIR, StaleIndexError, graph_fingerprint, load_related_index

    out = args.out
    try:
        load_related_index(out / INDEX_DIR, key=graph_fingerprint(out / "graph.pickle"))
    except (StaleIndexError, OSError) as e:
        raise SystemExit(f"{out}: {e}; run `kg build` (or one `kg related`) first")
    queries = [("author", n) for n in args.name] + [("paper", p) for p in args.paper]
    if not queries:
        name, paper = _defaults(out)
        queries = [("author", name), ("paper", paper)]
    sizes = _sizes(out / INDEX_DIR)
    print(f"build folder {out}: graph.pickle {os.path.getsize(out / 'graph.pickle') / 1e6:.1f} MB, "
          f"related/ {sum(sizes.values()) / 1e6:.1f} MB ({', '.join(f'{k} {v / 1e6:.1f}' for k, v in sizes.items())}); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    bad = False
    for kind, query in queries:
        runs = {m: [_run(m, kind, out, query, args.top) for _ in range(args.repeat)] for m in MODES[kind]}
        ref = runs["index"][0]["answer"]
        exact = {m: all(r["answer"] == ref for r in rs) for m, rs in runs.items() if m not in ("index", "kg")}
        exact["index (every call)"] = all(r["answer"] == ref for r in runs["index"])
        cli = all(_same_as_json(ref, r["json"]) for r in runs["kg"])
        print(f"\n{kind} {query!r}: top {args.top}, {len(ref)} found; answers equal to the index's to the bit: "
              + ", ".join(f"{m} {'yes' if ok else 'NO'}" for m, ok in exact.items())
              + f"; kg related --json the same: {'yes' if cli else 'NO'}")
        bad |= not all(exact.values()) or not cli or not ref
        print(f"  {'':6} {'wall s':>8} {'best s':>8} {'peak RSS MB':>12}  phases (s, first call)")
        for m, rs in runs.items():
            walls = [r["wall"] for r in rs]
            phases = ", ".join(f"{k} {v:.2f}" for k, v in rs[0]["phases"].items())
            if m == "build":
                phases += f"; wrote {rs[0]['bytes'] / 1e6:.1f} MB"
            rss = "" if rs[0]["rss_mb"] is None else f"{max(r['rss_mb'] for r in rs):,}"
            print(f"  {m:6} {walls[0]:8.2f} {min(walls):8.2f} {rss:>12}  {phases}")
    if bad:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
