"""Search latency on the resampled workspaces, with and without the impact lists.

The corpus is ``bench/bench_graph.py``'s: the confpapers records extracted once (``--cache``,
default ``bench/out/graph_conf_extracted_1.3.1.jsonl``), resampled to N papers. The graph is
built once per size and kept, stripped of the edges the search index never reads (shares,
coauthor, cites, broader), in ``bench/out/search_graph_N.pickle``; delete it to rebuild.

For every size three indexes are built from the same graph and timed (seconds, MB):

- ``before``: ``kg/search.py`` as it was at ``--before`` (git revision, default the commit
  before the impact lists), loaded from git into its own module: FTS5 ranks every query itself;
- ``fts5``: today's code with ``impact_min_df=0``, so no impact lists (filters as rowid masks);
- ``impact``: today's default, frequent terms' BM25 contributions precomputed at index time
  (see :mod:`kg.search`).

All answer the same fixed query set, interleaved, ``--repeat`` times: typical topics, the
most common words of the corpus (``learning``, ``model``, ``the``), common pairs, filters
(year, the largest category, the busiest author, method and benchmark) with and without
common words, author-name queries, queries no paper matches in full (the any-word fallback),
and a whole abstract and title pasted as the query. Each query opens the index as ``kg search``
does. Wall-clock milliseconds are reported, and the process's CPU time alongside: on a shared
machine a query can wait for a core longer than it computes. The top ten of every query are
checked to be the same papers with the same scores (to 1e-9) as ``before``'s.

Usage::

    python bench/bench_search.py --sizes 10000 100000 [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import importlib.util
import pickle
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

OUT = REPO / "bench" / "out"
CACHE = OUT / "graph_conf_extracted_1.3.1.jsonl"
TOPICS = ["hypergraph clustering", "large language models", "reinforcement learning", "diffusion",
          "graph neural networks", "federated learning privacy", "bandit regret", "contrastive",
          "transformer attention", "optimal transport", "causal inference", "continual learning",
          "strategic classification", "adversarial robustness", "kernel", "sparse"]
BEFORE = "d7a38c2"
_KEEP_EDGES = {"authored", "proposes", "uses", "introduces", "evaluates_on", "about", "in_category"}


def search_graph(n: int, cache: Path = CACHE):
    """The graph of ``n`` resampled papers with only the edges the search index reads (cached)."""
    path = OUT / f"search_graph_{n}.pickle"
    if path.exists():
        with open(path, "rb") as fh:
            return pickle.load(fh)
    from bench_graph import extracted_base, resample_extracted

    from kg.graph import build_graph

    t0 = time.perf_counter()
    G = build_graph(resample_extracted(extracted_base(cache), n))
    G.remove_edges_from([(u, v, k) for u, v, k in G.edges(keys=True) if k not in _KEEP_EDGES])
    sys.stderr.write(f"graph of {n:,} papers built in {time.perf_counter() - t0:.1f} s\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        pickle.dump(G, fh, protocol=pickle.HIGHEST_PROTOCOL)
    return G


def queries(G) -> list[tuple[str, str, dict]]:
    """(kind, query, filters): the fixed set, with the busiest author/method/benchmark of ``G``."""
    def busiest(t):
        return max((d for _, d in G.nodes(data=True) if d.get("type") == t),
                   key=lambda d: d.get("n_papers") or 0, default=None)

    papers = [d for _, d in G.nodes(data=True) if d.get("type") == "paper"]
    year = Counter(d.get("year") for d in papers if d.get("year")).most_common(1)[0][0]
    cats = Counter(d.get("category").split(" · ")[0] if isinstance(d.get("category"), str) else None
                   for d in papers)
    cats.pop(None, None)
    author, method, benchmark = busiest("author"), busiest("method"), busiest("benchmark")
    qs = [("topic", q, {}) for q in TOPICS]
    qs += [("common word", w, {}) for w in ("learning", "model", "models", "the", "of")]
    qs += [("common words", w, {}) for w in ("neural network", "neural networks", "language models",
                                             "deep learning", "learning model", "the of", "a model for learning")]
    qs += [("year filter", "learning", {"year": year}), ("year filter", "model", {"year": f"{year - 2}-{year}"}),
           ("year filter", "graph neural networks", {"year": year}), ("year only", "", {"year": year}),
           ("no full match", "hypergraph zyzzyva", {}), ("no full match", "learning zyzzyva", {}),
           ("no full match", "the learning zyzzyva qwxv", {})]
    if cats:
        cat = cats.most_common(1)[0][0]
        qs += [("category filter", "learning", {"category": cat}), ("category filter", "model", {"category": cat})]
    if author:
        qs += [("author filter", "learning", {"author": author["name"]}),
               ("author filter", "the", {"author": author["name"]}),
               ("author only", "", {"author": author["name"]}), ("author name", author["name"], {})]
    others = sorted((d for _, d in G.nodes(data=True) if d.get("type") == "author"),
                    key=lambda d: d.get("name") or "")
    qs += [("author name", others[len(others) // 3]["name"], {}), ("author name", "wang", {}),
           ("author name", "zhang learning", {})]
    pasted = sorted((k, d["abstract"]) for k, d in G.nodes(data=True)
                    if d.get("type") == "paper" and len((d.get("abstract") or "").split()) > 150)
    if pasted:
        qs += [("pasted abstract", pasted[0][1], {}), ("pasted title", _title(G, pasted[0][0]), {})]
    if method:
        qs += [("method filter", "learning", {"method": method["name"]}), ("method filter", method["name"], {})]
    if benchmark:
        qs += [("benchmark filter", "model", {"benchmark": benchmark["name"]}),
               ("benchmark filter", "learning", {"benchmark": benchmark["name"], "year": year})]
    return qs


def _label(q: str, kw: dict) -> str:
    text = repr(q) if len(q) < 60 else f"<{len(q.split())} words>"
    return f"{text} {kw}" if kw else text


def _title(G, key: str) -> str:
    return G.nodes[key].get("title") or ""


def _same(a: list[tuple[str, float]], b: list[tuple[str, float]]) -> bool:
    """Same scores (to 1e-9) and, above the last score (equal scores may be cut anywhere), same papers."""
    if len(a) != len(b) or any(abs(x[1] - y[1]) > 1e-9 * max(1.0, abs(x[1])) for x, y in zip(a, b)):
        return False
    return not a or {k for k, s in a if s > a[-1][1] + 1e-9} == {k for k, s in b if s > a[-1][1] + 1e-9}


def _pct(lat: list[float], p: float) -> float:
    lat = sorted(lat)
    return lat[min(len(lat) - 1, int(round(p * (len(lat) - 1))))]


def module_at(rev: str):
    """``kg/search.py`` as it was at git revision ``rev``, as a module of its own."""
    source = subprocess.run(["git", "-C", str(REPO), "show", f"{rev}:kg/search.py"], capture_output=True,
                            text=True, check=True).stdout
    path = OUT / f"search_at_{rev}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"search_at_{rev}", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def run_size(n: int, repeat: int, cache: Path, keep: bool, before: str) -> dict:
    import kg.search

    G = search_graph(n, cache)
    out: dict = {"papers": sum(1 for _, d in G.nodes(data=True) if d.get("type") == "paper"), "before": before}
    old = module_at(before)
    modules = {"before": old, "fts5": kg.search, "impact": kg.search}
    paths = {}
    for variant, kw in (("before", {}), ("fts5", {"impact_min_df": 0}), ("impact", {})):
        path = OUT / f"search_{n}_{variant}.sqlite"
        t0 = time.perf_counter()
        modules[variant].build_search_index(G, path, **kw)
        out[f"{variant}_index_s"] = round(time.perf_counter() - t0, 2)
        out[f"{variant}_index_mb"] = round(path.stat().st_size / 2**20, 1)
        paths[variant] = path
    qs = queries(G)
    del G
    lat: dict[str, list[float]] = {v: [] for v in paths}
    cpu: dict[str, list[float]] = {v: [] for v in paths}
    worst: dict[str, dict[str, tuple[float, str]]] = {v: {} for v in paths}
    per_query: dict[str, dict[str, list[float]]] = {v: {} for v in paths}
    mismatches = []
    for r in range(repeat):
        for kind, q, kw in qs:
            tops = {}
            for variant in (list(paths) if r % 2 == 0 else list(reversed(paths))):
                t0, c0 = time.perf_counter(), time.process_time()
                res = modules[variant].search(paths[variant], q, limit=10, **kw)
                ms = (time.perf_counter() - t0) * 1000
                cpu[variant].append((time.process_time() - c0) * 1000)
                lat[variant].append(ms)
                per_query[variant].setdefault(_label(q, kw), []).append(ms)
                if ms > worst[variant].get(kind, (0.0, ""))[0]:
                    worst[variant][kind] = (ms, _label(q, kw))
                tops[variant] = [(h.key, h.score) for h in res.papers]
            if r == 0:
                mismatches += [f"{v}: {_label(q, kw)}" for v in ("fts5", "impact")
                               if not _same(tops["before"], tops[v])]
    for variant in paths:
        v = lat[variant]
        # The slowest query by the median of its runs: one run can stall on a loaded machine.
        slowest = max(per_query[variant].items(), key=lambda kv: statistics.median(kv[1]))
        out[variant] = {"median": round(statistics.median(v), 2), "p95": round(_pct(v, 0.95), 2),
                        "max": round(max(v), 2), "slowest_query_median": round(statistics.median(slowest[1]), 2),
                        "slowest_query": slowest[0],
                        "cpu_ms": {"median": round(statistics.median(cpu[variant]), 2),
                                   "p95": round(_pct(cpu[variant], 0.95), 2), "max": round(max(cpu[variant]), 2)},
                        "worst_by_kind": {k: f"{ms:.1f} {q}" for k, (ms, q) in sorted(worst[variant].items())}}
    out["queries"] = len(qs)
    out["runs_per_variant"] = len(lat["impact"])
    out["top10_mismatches"] = mismatches
    if not keep:
        for p in paths.values():
            p.unlink()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", nargs="+", type=int, default=[10000, 100000])
    ap.add_argument("--cache", type=Path, default=CACHE, help="extracted confpapers records (JSON Lines)")
    ap.add_argument("--repeat", type=int, default=5, help="times each query is run per index")
    ap.add_argument("--keep", action="store_true", help="keep the indexes in bench/out/")
    ap.add_argument("--before", default=BEFORE, help="git revision of kg/search.py to compare with")
    args = ap.parse_args(argv)
    rows = []
    for n in args.sizes:
        load = os.getloadavg()[0]
        row = run_size(n, args.repeat, args.cache, args.keep, args.before)
        row["load_before"], row["load_after"] = round(load, 2), round(os.getloadavg()[0], 2)
        rows.append(row)
        print(json.dumps(row, indent=1), flush=True)
    print(f"\n{'papers':>8} {'index':>7} {'build s':>8} {'MB':>6} {'ms median':>10} {'p95':>7} {'max':>7} "
          f"{'slowest query (median)':>40} {'CPU ms med/p95/max':>20}  load")
    for r in rows:
        for v in ("before", "fts5", "impact"):
            print(f"{r['papers']:>8} {v:>7} {r[v + '_index_s']:>8} {r[v + '_index_mb']:>6} {r[v]['median']:>10} "
                  f"{r[v]['p95']:>7} {r[v]['max']:>7} {r[v]['slowest_query'][:30]:>32} "
                  f"{r[v]['slowest_query_median']:>7}"
                  f" {'/'.join(str(r[v]['cpu_ms'][k]) for k in ('median', 'p95', 'max')):>20}"
                  f"  {r['load_before']}-{r['load_after']}")
    bad = [m for r in rows for m in r["top10_mismatches"]]
    print("top 10 identical to before's for every query" if not bad else f"top 10 differ for: {bad}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
