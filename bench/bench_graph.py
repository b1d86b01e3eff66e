"""Graph build and search at scale: time, peak memory, shared-concept edges vs papers.

Generates a resampled corpus from the real confpapers records (``bench/corpus.py``: new ids,
shuffled author lists), reads it with the ``jsonl`` reader, attaches entities, then times
:func:`kg.graph.build_graph` (and :func:`kg.metrics.add_metrics` separately) and the search
index, and the latency of typical queries. Each size runs in a fresh child process so peak RSS
is that of one build.

Entities: with ``--extract`` the real extractor (``extractors.pipeline.extract_records``)
runs on the base records once and the resampled copies reuse the entities of the record they
were copied from (the resampler keeps titles and abstracts, so the extractor would find the same
names). Without it, a cheap stand-in gives every record the concept entities of its title's
word pairs (stop words dropped) -- about the density the extractor gives, and with the same kind
of long-tailed frequency; stated in the output as ``entities: stand-in``.

Usage::

    python bench/bench_graph.py --sizes 10000 50000 100000 [--extract] [--queries 50]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

QUERIES = ["hypergraph clustering", "large language models", "reinforcement learning", "diffusion",
           "graph neural networks", "federated learning privacy", "bandit regret", "contrastive",
           "transformer attention", "optimal transport", "causal inference", "continual learning",
           "strategic classification", "adversarial robustness", "kernel", "sparse"]


def _stand_in_entities(record):
    from kg.records import Entity, Mention
    from kg.related import paper_terms_of
    from kg.schema import EntityType

    terms = sorted(t for t in paper_terms_of(record.title, None) if " " in t)
    return record.with_extraction(
        [Entity(EntityType.CONCEPT, t, None, (), (Mention(0, 0, t, "bench_stand_in", "title"),)) for t in terms], [])


def _load(n: int, extract: bool):
    from corpus import resample
    from kg.readers import read_file

    path = resample(n)
    records = list(read_file(path))
    if not extract:
        return [_stand_in_entities(r) for r in records], "stand-in (title word pairs as concepts)"
    from extractors.pipeline import extract_records

    # Extract each distinct (title, abstract) once; copies share the base record's entities.
    by_text: dict = {}
    for r in records:
        by_text.setdefault((r.title, r.abstract), r)
    base = list(by_text.values())
    t0 = time.perf_counter()
    done = {(r.title, r.abstract): r for r in extract_records(base)}
    sys.stderr.write(f"extracted {len(base)} distinct texts in {time.perf_counter() - t0:.1f} s\n")
    return [r.with_extraction(done[(r.title, r.abstract)].entities, done[(r.title, r.abstract)].citations)
            for r in records], "extractor"


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def one(n: int, extract: bool, n_queries: int, metrics: bool) -> dict:
    from kg.graph import build_graph
    from kg.search import build_search_index, search

    records, ents = _load(n, extract)
    rss_loaded = _peak_rss_mb()
    t0 = time.perf_counter()
    G = build_graph(records)
    t_graph = time.perf_counter() - t0
    rss_graph = _peak_rss_mb()
    shares_pp = sum(1 for u, _, k in G.edges(keys=True) if k == "shares" and u.startswith("paper:"))
    shares_aa = sum(1 for u, _, k in G.edges(keys=True) if k == "shares" and u.startswith("author:"))
    coauthor = sum(1 for _, _, k in G.edges(keys=True) if k == "coauthor")
    out = {"papers": len(records), "entities": ents, "graph_s": round(t_graph, 2),
           "peak_rss_mb_before_graph": round(rss_loaded), "peak_rss_mb_after_graph": round(rss_graph),
           "nodes": G.number_of_nodes(), "edges": G.number_of_edges(), "shares_paper_paper": shares_pp,
           "shares_author_author": shares_aa, "coauthor": coauthor,
           "shares_pp_per_paper": round(shares_pp / max(1, len(records)), 3)}
    del records
    if metrics:
        from kg.metrics import add_metrics

        t0 = time.perf_counter()
        add_metrics(G)
        out["metrics_s"] = round(time.perf_counter() - t0, 2)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "search.sqlite"
        t0 = time.perf_counter()
        build_search_index(G, path)
        out["search_index_s"] = round(time.perf_counter() - t0, 2)
        out["search_index_mb"] = round(path.stat().st_size / 2**20, 1)
        lat = []
        qs = (QUERIES * (n_queries // len(QUERIES) + 1))[:n_queries]
        for i, q in enumerate(qs):
            kw = {"year": 2024} if i % 4 == 3 else {}
            t0 = time.perf_counter()
            search(path, q, limit=10, **kw)
            lat.append((time.perf_counter() - t0) * 1000)
        lat.sort()
        out["search_ms_median"] = round(statistics.median(lat), 2)
        out["search_ms_p95"] = round(lat[int(0.95 * (len(lat) - 1))], 2)
        out["search_ms_max"] = round(lat[-1], 2)
    out["peak_rss_mb"] = round(_peak_rss_mb())
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", nargs="+", type=int, default=[10000, 50000, 100000])
    ap.add_argument("--extract", action="store_true", help="entities from the real extractor")
    ap.add_argument("--queries", type=int, default=48)
    ap.add_argument("--metrics", action="store_true", help="also time add_metrics (Louvain is slow)")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one, args.extract, args.queries, args.metrics)))
        return 0
    rows = []
    for n in args.sizes:
        cmd = [sys.executable, __file__, "--one", str(n), "--queries", str(args.queries)]
        cmd += ["--extract"] * args.extract + ["--metrics"] * args.metrics
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env={**os.environ})
        if proc.returncode:
            sys.stderr.write(proc.stderr)
            return proc.returncode
        row = json.loads(proc.stdout.strip().splitlines()[-1])
        rows.append(row)
        print(json.dumps(row), flush=True)
    print(f"\n{'papers':>8} {'graph s':>8} {'RSS MB':>7} {'shares p-p':>11} {'/paper':>7} {'search ms med/p95':>18}")
    for r in rows:
        print(f"{r['papers']:>8} {r['graph_s']:>8} {r['peak_rss_mb_after_graph']:>7} {r['shares_paper_paper']:>11} "
              f"{r['shares_pp_per_paper']:>7} {r['search_ms_median']:>8}/{r['search_ms_p95']}")
    print(f"entities: {rows[0]['entities']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
