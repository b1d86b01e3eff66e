"""Community detection side by side: NetworkX's Louvain against igraph's Leiden.

For each size, the extracted confpapers records are resampled to N papers (as in
``bench/bench_graph.py --extract``), the graph is built, and the weighted graph that
:func:`kg.metrics.add_metrics` partitions (:func:`kg.metrics.community_graph`) is handed to
both methods in the same process, one after the other. Printed per method: CPU seconds,
number of communities and the modularity of the partition (computed once, by NetworkX, for
both). ``--graph OUT/graph.pickle`` measures the graph of a finished ``kg build`` instead;
Louvain is skipped there unless ``--louvain`` is given (it took 15 minutes at 100k papers).

Usage::

    python bench/bench_metrics.py --sizes 10000 30000 [--cache bench/out/graph_conf_extracted_1.3.1.jsonl]
    python bench/bench_metrics.py --graph /tmp/b100k/graph.pickle [--louvain]
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))


def compare(G, *, louvain: bool = True, seed: int = 0) -> dict:
    """Time both methods on the community graph of ``G``; returns one row per method."""
    import networkx as nx

    from kg.metrics import community_graph, communities_leiden

    t = time.process_time()
    H = community_graph(G)
    row = {"nodes": H.number_of_nodes(), "edges": H.number_of_edges(),
           "community_graph_s": round(time.process_time() - t, 2)}
    runs = [("leiden", lambda: communities_leiden(H, seed=seed))]
    if louvain:
        runs.append(("louvain", lambda: nx.community.louvain_communities(H, weight="weight", seed=seed)))
    for name, fn in runs:
        t = time.process_time()
        parts = fn()
        secs = time.process_time() - t
        row[name] = {"cpu_s": round(secs, 2), "communities": len(parts),
                     "modularity": round(nx.community.modularity(H, parts, weight="weight"), 4)}
    if louvain:
        row["louvain_over_leiden"] = round(row["louvain"]["cpu_s"] / max(row["leiden"]["cpu_s"], 1e-3), 1)
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", nargs="+", type=int, default=[10000, 30000])
    ap.add_argument("--cache", type=Path, default=REPO / "bench" / "out" / "graph_conf_extracted_1.3.1.jsonl",
                    help="extracted confpapers records (see bench_graph.py)")
    ap.add_argument("--graph", type=Path, help="a pickled graph from `kg build` instead of resampled sizes")
    ap.add_argument("--louvain", action="store_true", help="with --graph: also run Louvain")
    args = ap.parse_args(argv)
    rows = []
    if args.graph:
        with open(args.graph, "rb") as fh:
            G = pickle.load(fh)
        rows.append({"graph": str(args.graph), **compare(G, louvain=args.louvain)})
    else:
        from bench_graph import extracted_base, resample_extracted

        from kg.graph import build_graph

        base = extracted_base(args.cache)
        for n in args.sizes:
            G = build_graph(resample_extracted(base, n))
            rows.append({"papers": n, **compare(G)})
            del G
    for row in rows:
        print(json.dumps(row))
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
