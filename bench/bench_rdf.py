"""RDF and SPARQL figures: mapping and serialization cost, and the choice of embedded store.

Usage::

    python bench/bench_rdf.py --papers 10000            # the real confpapers corpus (~13.6k)
    python bench/bench_rdf.py --papers 100000           # resampled to 100k papers
    python bench/bench_rdf.py --papers 10000 --stores rdflib,oxrdflib,pyoxigraph

The corpus is every ``shared/data/confpapers/jsonl`` file read with :func:`kg.readers.read_file`
and run through :func:`extractors.pipeline.extract_records` (cached in ``bench/out/``, which is
git-ignored). Bigger corpora resample those extracted records: each copy gets a new id, keeps
the title, abstract and extracted entities (so mention offsets stay true), and takes the author
list of another random record, so co-authorship grows like a real corpus rather than
repeating one. confpapers has no reference lists, so each paper also gets ``--refs`` references
to random other papers of the corpus, as an OpenAlex-style input would have; set ``--refs 0``
to leave them out.

Each store is measured in its own subprocess (load time, peak RSS, each example query's time:
first run and best of three).

To time the example queries again on a store built earlier, without rebuilding it::

    python bench/bench_rdf.py --queries-on bench/out/rdf_ws_13620   # params: rdf_params_13620.json

which runs them as ``kg sparql`` does (with the safety check, which run_query remembers per
text, so "first" includes rdflib's parse and "best" does not).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
CONF = REPO.parent / "shared" / "data" / "confpapers" / "jsonl"
OUT = REPO / "bench" / "out"


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def peak_mb() -> float:
    """Peak resident memory of this process (VmHWM: unlike ru_maxrss, not inherited across exec)."""
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1e3
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3


def extracted_conf() -> list:
    """confpapers records with extraction results (cached)."""
    from kg.records import Record

    cache = OUT / "rdf_conf_extracted.jsonl"
    if cache.exists():
        return [Record.from_dict(json.loads(line)) for line in cache.open(encoding="utf-8")]
    from extractors.pipeline import extract_records
    from kg.merge import merge_records
    from kg.readers import read_file
    from kg.workspace import write_records

    records = []
    for f in sorted(CONF.glob("*.jsonl")):
        records.extend(read_file(f))
    records = merge_records(records).records
    t0 = time.perf_counter()
    records = extract_records(records)
    print(f"extracted {len(records):,} records in {time.perf_counter() - t0:.1f}s", flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    write_records(records, cache, extraction=True)
    return records


def corpus(n: int, *, refs: int, seed: int = 0) -> list:
    base = extracted_conf()
    rng = random.Random(seed)
    records = list(base[:n])
    i = 0
    while len(records) < n:
        src = base[i % len(base)]
        other = rng.choice(base)
        records.append(replace(src, id=f"bench:{len(records)}", doi=None, ids={},
                               authors=other.authors, author_ids=(), citations=()))
        i += 1
    if refs:
        ids = [r.id for r in records]
        records = [replace(r, references=tuple(rng.sample(ids, refs))) for r in records]
    return records


def params_for(G) -> dict[str, dict[str, str]]:
    """Realistic parameters: the busiest author, benchmark and paper of the graph."""
    from kg.schema import EdgeType

    def top(t):
        return max((n for n, d in G.nodes(data=True) if d.get("type") == t),
                   key=lambda n: G.nodes[n].get("n_papers") or 0, default=None)

    author = top("author")
    bench = top("benchmark")
    method_papers = max((n for n, d in G.nodes(data=True) if d.get("type") == "paper"),
                        key=lambda p: sum(1 for _, _, k in G.out_edges(p, keys=True)
                                          if k in (EdgeType.USES.value, EdgeType.PROPOSES.value)))
    a = {"author": G.nodes[author]["name"]} if author else {}
    return {"coauthors": a, "shared-methods-not-coauthors": a,
            "benchmark-users": {"benchmark": G.nodes[bench]["name"]} if bench else {},
            "papers-sharing-methods": {"paper": G.nodes[method_papers]["record_id"]},
            "evidence": {"paper": G.nodes[method_papers]["record_id"]}}


def time_queries(run, params: dict[str, dict[str, str]]) -> dict[str, dict[str, float]]:
    from kg.store import example_queries

    out = {}
    for name, ex in example_queries().items():
        times = []
        n = 0
        for _ in range(4):
            t0 = time.perf_counter()
            n = run(ex, params.get(name, {}))
            times.append(time.perf_counter() - t0)
        out[name] = {"first_ms": round(times[0] * 1e3, 1), "best_ms": round(min(times[1:]) * 1e3, 1), "rows": n}
    return out


def queries_on(ws: Path, params_path: Path) -> int:
    """Time every example query on an existing build's store (first run, best of three more)."""
    from kg.store import open_store, run_query

    params = json.loads(params_path.read_text()) if params_path.exists() else {}
    print(f"load average at start: {os.getloadavg()}; params {params_path.name}", flush=True)
    st = open_store(ws)
    res = time_queries(lambda ex, p: len(run_query(st, ex.text, params=p or None, example=ex)), params)
    for name, q in res.items():
        print(f"  {name:32s} first {q['first_ms']:8.1f} ms  best {q['best_ms']:8.1f} ms  rows {q['rows']}")
    print(f"load average at end: {os.getloadavg()}")
    return 0


def store_subprocess(kind: str, nq: Path, params_path: Path) -> dict:
    """Load ``nq`` into one kind of store and time the example queries (runs in a child)."""
    params = json.loads(params_path.read_text())
    t0 = time.perf_counter()
    if kind == "pyoxigraph-memory":
        import pyoxigraph as ox

        from kg.store import run_query

        st = ox.Store()
        st.bulk_load(path=str(nq), format=ox.RdfFormat.N_QUADS)
        load = time.perf_counter() - t0
        reopen = float("nan")

        def run(ex, p):
            return len(run_query(st, ex.text, params=p, example=ex, check=False))
    elif kind == "pyoxigraph":
        import tempfile

        import pyoxigraph as ox

        from kg.store import run_query

        d = tempfile.mkdtemp(dir=OUT)
        st = ox.Store(d)
        st.bulk_load(path=str(nq), format=ox.RdfFormat.N_QUADS)
        st.flush()
        st.optimize()  # as kg.store.build_store does
        load = time.perf_counter() - t0
        t1 = time.perf_counter()
        ro = ox.Store.read_only(d)
        reopen = time.perf_counter() - t1

        def run(ex, p):
            return len(run_query(ro, ex.text, params=p, example=ex, check=False))
    else:
        import rdflib

        g = rdflib.Dataset(store="Oxigraph" if kind == "oxrdflib" else "default", default_union=True)
        g.parse(str(nq), format="ox-nquads" if kind == "oxrdflib" else "nquads")
        load = time.perf_counter() - t0
        reopen = float("nan")  # in-memory: every process re-parses

        def run(ex, p):
            bindings = {rdflib.Variable(k): rdflib.Literal(v) for k, v in p.items()}
            return len(list(g.query(ex.text, initBindings=bindings)))
    return {"store": kind, "load_s": round(load, 2), "reopen_s": round(reopen, 3),
            "peak_rss_mb": round(peak_mb()), "queries": time_queries(run, params)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--papers", type=int, default=10000)
    ap.add_argument("--refs", type=int, default=10)
    ap.add_argument("--stores", default="pyoxigraph")
    ap.add_argument("--rdflib-graph", action="store_true", help="also time to_rdf (rdflib Graph)")
    ap.add_argument("--queries-on", type=Path, metavar="WS",
                    help="only time the example queries on the store of this build (no rebuild)")
    ap.add_argument("--params", type=Path, help="with --queries-on: the parameters file "
                    "(default: bench/out/rdf_params_N.json, N from the folder name rdf_ws_N)")
    ap.add_argument("--child", nargs=3, metavar=("KIND", "NQ", "PARAMS"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.queries_on:
        params = args.params or OUT / f"rdf_params_{args.queries_on.name.removeprefix('rdf_ws_')}.json"
        return queries_on(args.queries_on, params)
    if args.child:
        print(json.dumps(store_subprocess(args.child[0], Path(args.child[1]), Path(args.child[2]))))
        return 0

    from exports.rdf import to_nquads, to_rdf, write_build_rdf
    from kg.graph import build_graph
    from kg.store import build_store

    OUT.mkdir(parents=True, exist_ok=True)
    print(f"load average at start: {os.getloadavg()}", flush=True)
    import pickle

    cached = OUT / f"rdf_graph_{args.papers}_r{args.refs}.pickle"
    if cached.exists():
        with open(cached, "rb") as fh:
            G = pickle.load(fh)
        print(f"graph (cached {cached.name}): {G.number_of_nodes():,} nodes, {G.number_of_edges():,} edges", flush=True)
    else:
        records = corpus(args.papers, refs=args.refs)
        t0 = time.perf_counter()
        G = build_graph(records)
        print(f"graph: {len(records):,} papers -> {G.number_of_nodes():,} nodes, {G.number_of_edges():,} edges "
              f"in {time.perf_counter() - t0:.1f}s, rss {rss_mb():.0f} MB", flush=True)
        del records
        with open(cached, "wb") as fh:
            pickle.dump(G, fh, protocol=pickle.HIGHEST_PROTOCOL)
    from exports.rdf import iter_triples

    for evidence in (True, False):
        t0 = time.perf_counter()
        n = sum(1 for _ in iter_triples(G, evidence=evidence))
        print(f"mapping alone (iter_triples, evidence={evidence}): {n:,} triples in "
              f"{time.perf_counter() - t0:.1f}s", flush=True)
    for evidence in (True, False):
        t0 = time.perf_counter()
        data = to_nquads(G, evidence=evidence)
        dt = time.perf_counter() - t0
        nlines = data.count(b"\n")
        print(f"to_nquads(evidence={evidence}): {nlines:,} quads, {len(data) / 1e6:.0f} MB "
              f"in {dt:.1f}s, rss {rss_mb():.0f} MB, peak {peak_mb():.0f} MB", flush=True)
        del data
    ws = OUT / f"rdf_ws_{args.papers}"
    t0 = time.perf_counter()
    paths = write_build_rdf(G, ws / "rdf")
    print(f"write_build_rdf (nq + ttl + vocab): {time.perf_counter() - t0:.1f}s; "
          + ", ".join(f"{k} {p.stat().st_size / 1e6:.1f} MB" for k, p in paths.items()
                      if k in ("nq", "ttl")), flush=True)
    t0 = time.perf_counter()
    build_store(paths["nq"], ws)
    print(f"build_store from paperkg.nq: {time.perf_counter() - t0:.1f}s", flush=True)
    t0 = time.perf_counter()
    build_store(G, ws)
    print(f"build_store from the graph: {time.perf_counter() - t0:.1f}s, peak {peak_mb():.0f} MB", flush=True)
    if args.rdflib_graph:
        t0 = time.perf_counter()
        g = to_rdf(G)
        print(f"to_rdf (rdflib Graph): {len(g):,} triples in {time.perf_counter() - t0:.1f}s, "
              f"rss {rss_mb():.0f} MB", flush=True)
        del g
    params_path = OUT / f"rdf_params_{args.papers}.json"
    params_path.write_text(json.dumps(params_for(G)))
    print("query parameters:", params_path.read_text(), flush=True)
    del G
    for kind in args.stores.split(","):
        proc = subprocess.run([sys.executable, __file__, "--child", kind, str(paths["nq"]), str(params_path)],
                              capture_output=True, text=True)
        if proc.returncode:
            print(f"{kind}: failed\n{proc.stderr[-2000:]}")
            continue
        res = json.loads(proc.stdout.strip().splitlines()[-1])
        print(f"\nstore {kind}: load {res['load_s']}s, reopen {res['reopen_s']}s, peak RSS {res['peak_rss_mb']} MB")
        for name, q in res["queries"].items():
            print(f"  {name:32s} first {q['first_ms']:8.1f} ms  best {q['best_ms']:8.1f} ms  rows {q['rows']}")
    print(f"load average at end: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
