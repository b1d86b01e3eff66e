"""Benchmark of the HTML views: write time, file size and first complete draw in headless Chromium.

Usage::

    python bench/bench_html.py                 # 500, 2,000 and 5,000 nodes
    python bench/bench_html.py --sizes 500 --no-browser --pyvis

Graphs are schema-following synthetic graphs (``tests/exports/export_graphs.synthetic_graph``)
plus, with ``--real N``, the first N records of a real conference list
(``shared/data/confpapers``) through ``kg.graph.build_graph`` and ``kg.metrics.add_metrics``.
Each view is written with ``budget`` = its size (everything drawn), and the 5,000-node graph
also with the default budget. "Draw" is ``performance.now()`` at vis-network's first
``afterDrawing`` event (milliseconds since navigation start), and the wall time from
``page.goto`` to that event. In the browser each view's overlapping node pairs are counted as
``tests/exports/test_html_layout.py`` counts them: ``shape_ovl`` pairs of node shapes,
``label_ovl`` pairs of vis-network's node boxes with their labels. ``--pyvis`` also times feeding the same nodes and edges to
``pyvis.network.Network.add_node``/``add_edge`` one by one (their membership checks scan
Python lists), which is why exports.html builds the lists itself.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "exports"))

from browser import chromium, open_page  # noqa: E402
from export_graphs import synthetic_graph  # noqa: E402
from test_html_layout import measure  # noqa: E402

from exports.html import DEFAULT_BUDGET, layout_positions, write_html  # noqa: E402


def _pyvis_feed(G) -> float:
    from pyvis.network import Network

    t = time.perf_counter()
    net = Network(directed=True)
    for n in G:
        net.add_node(str(n), label=str(n))
    for u, v in G.edges():
        net.add_edge(str(u), str(v))
    return time.perf_counter() - t


def _real_graph(n_records: int):
    from kg.graph import build_graph
    from kg.metrics import add_metrics
    from kg.readers import read_file

    src = ROOT.parent / "shared" / "data" / "confpapers" / "jsonl" / "iclr2024.jsonl"
    records = []
    for rec in read_file(src):
        records.append(rec)
        if len(records) >= n_records:
            break
    G = build_graph(records)
    add_metrics(G)
    return G


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="500,2000,5000")
    ap.add_argument("--no-browser", action="store_true")
    ap.add_argument("--pyvis", action="store_true", help="also time pyvis add_node/add_edge feeding")
    ap.add_argument("--real", type=int, default=0, metavar="N", help="also a real graph of N confpapers records")
    args = ap.parse_args(argv)
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    cases = []
    for size in (int(s) for s in args.sizes.split(",")):
        G = synthetic_graph(size, seed=1)
        cases.append((f"synthetic {size}", G, size))
        if size > DEFAULT_BUDGET:
            cases.append((f"synthetic {size} (default budget)", G, DEFAULT_BUDGET))
    if args.real:
        G = _real_graph(args.real)
        cases.append((f"confpapers {args.real} records", G, max(G.number_of_nodes(), 1)))
    tmp = Path(tempfile.mkdtemp(prefix="paperkg-bench-"))
    rows = []
    for name, G, budget in cases:
        t = time.perf_counter()
        layout_positions(G)
        t_layout = time.perf_counter() - t
        path = tmp / f"{len(rows)}.html"
        t = time.perf_counter()
        write_html(G, path, budget=budget)
        t_write = time.perf_counter() - t
        row = {"case": name, "nodes": G.number_of_nodes(), "edges": G.number_of_edges(),
               "drawn": min(budget, G.number_of_nodes()), "layout_s": t_layout, "write_s": t_write,
               "size_mb": path.stat().st_size / 1e6, "path": path}
        if args.pyvis:
            row["pyvis_feed_s"] = _pyvis_feed(G)
        rows.append(row)
    if not args.no_browser:
        with chromium() as ctx:
            for row in rows:
                t = time.perf_counter()
                page, log = open_page(ctx, row["path"], timeout_ms=120000)
                row["wall_draw_s"] = time.perf_counter() - t
                row["draw_ms"] = page.evaluate("window.paperkgDrawn")
                row["errors"] = len(log.console_errors) + len(log.page_errors) + len(log.external)
                m = measure(page)
                row["shape_ovl"], row["label_ovl"] = m["shape"], m["label"]
                page.close()
    cols = ["case", "nodes", "edges", "drawn", "layout_s", "write_s", "size_mb", "pyvis_feed_s", "draw_ms",
            "wall_draw_s", "shape_ovl", "label_ovl", "errors"]
    cols = [c for c in cols if any(c in r for r in rows)]
    print("  ".join(f"{c:>14}" if c != "case" else f"{c:<34}" for c in cols))
    for r in rows:
        cells = []
        for c in cols:
            v = r.get(c, "")
            cells.append(f"{v:<34}" if c == "case" else f"{v:>14.2f}" if isinstance(v, float) else f"{v!s:>14}")
        print("  ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
