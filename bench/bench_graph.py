"""Graph build and search at scale: time, peak memory, shared-concept edges vs papers.

Two corpora:

- ``--extract`` (the issue's measurement): the real confpapers records (about 7.7k with
  abstracts and 5.9k titles only), merged and run through the real extractor
  (``extractors.pipeline.extract_records``) **once**, cached in ``--cache`` (default
  ``bench/out/rdf_conf_extracted.jsonl``, shared with ``bench/bench_rdf.py``; reused when it
  holds entities, so give a new path to measure the current extractor). They are then resampled to N papers: the base records in a seeded random
  order, then copies cycling through them, each copy with a new id, no DOI or external ids, and
  the author list of another random record; title, abstract, entities and in-text citations are
  kept, since their offsets refer to the same text. Each base text is thus repeated about
  N / 13.6k times, which favours ``shares`` edges between copies (they share every entity).
- default: the mixed corpus of ``bench/corpus.py`` (sentence halves of two records, so the
  extractor's offsets would not hold) with a cheap stand-in for entities: the concept entities
  of each title's word pairs (stated in the output as ``entities: stand-in``).

Each size runs in a fresh child process. Memory is read from ``/proc/self/status``: ``VmRSS``
once the records are loaded, then the peak (``VmHWM``) after ``build_graph``, after
``add_metrics`` and at the end; the peak is reset (``/proc/self/clear_refs``) before the build
when the kernel allows it, so the build figure is that of the build, records included.
:func:`kg.graph.build_graph` and :func:`kg.metrics.add_metrics` are timed separately, then the
search index is built and queried: typical topics, a very common single word (``learning``), a
two-word phrase, an author filter (the busiest author, with and without a query), a year filter
and a method filter, and a query no paper matches in full (the any-word fallback).

Usage::

    python bench/bench_graph.py --extract --sizes 10000 50000 100000 [--metrics] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

QUERIES = ["hypergraph clustering", "large language models", "reinforcement learning", "diffusion",
           "graph neural networks", "federated learning privacy", "bandit regret", "contrastive",
           "transformer attention", "optimal transport", "causal inference", "continual learning",
           "strategic classification", "adversarial robustness", "kernel", "sparse"]
CACHE = REPO / "bench" / "out" / "rdf_conf_extracted.jsonl"


def _stand_in_entities(record):
    from kg.records import Entity, Mention
    from kg.related import paper_terms_of
    from kg.schema import EntityType

    terms = sorted(t for t in paper_terms_of(record.title, None) if " " in t)
    return record.with_extraction(
        [Entity(EntityType.CONCEPT, t, None, (), (Mention(0, 0, t, "bench_stand_in", "title"),)) for t in terms], [])


def extracted_base(path: Path = CACHE) -> list:
    """The merged confpapers records with extraction results, from ``path`` or extracted once."""
    from kg.records import Record

    if path.exists():
        with open(path, encoding="utf-8") as fh:
            records = [Record.from_dict(json.loads(line)) for line in fh if line.strip()]
        if any(r.entities for r in records):
            return records
    from corpus import CONF
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
    sys.stderr.write(f"extracted {len(records):,} records in {time.perf_counter() - t0:.1f} s\n")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_records(records, path, extraction=True)
    return records


def resample_extracted(base: list, n: int, *, seed: int = 0) -> list:
    """``n`` papers from extracted ``base`` records (see the module docstring)."""
    from dataclasses import replace

    rng = random.Random(seed)
    order = list(base)
    rng.shuffle(order)
    out = order[:n]
    i = 0
    while len(out) < n:
        src, other = order[i % len(order)], rng.choice(order)
        out.append(replace(src, id=f"bench:{len(out)}", doi=None, ids={}, authors=other.authors,
                           authors_truncated=other.authors_truncated, author_ids=other.author_ids))
        i += 1
    return out


def _load(n: int, extract: bool, cache: Path = CACHE):
    if extract:
        records = resample_extracted(extracted_base(cache), n)
        return records, f"extractor (confpapers extracted once into {cache.name}, resampled)"
    from corpus import resample
    from kg.readers import read_file

    records = list(read_file(resample(n)))
    return [_stand_in_entities(r) for r in records], "stand-in (title word pairs as concepts)"


def _status_mb(field: str) -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def _queries(G) -> list[tuple[str, str, dict]]:
    """(kind, query, filters) with the busiest author and method of the graph."""
    def busiest(t):
        return max((d for _, d in G.nodes(data=True) if d.get("type") == t),
                   key=lambda d: d.get("n_papers") or 0, default=None)

    author, method = busiest("author"), busiest("method")
    years = Counter(d.get("year") for _, d in G.nodes(data=True) if d.get("type") == "paper" and d.get("year"))
    year = years.most_common(1)[0][0] if years else 2024
    qs = [("topic", q, {}) for q in QUERIES]
    qs += [("common word", "learning", {}), ("common word", "model", {}),
           ("two words", "language models", {}), ("two words", "neural networks", {}),
           ("year filter", "learning", {"year": year}), ("year filter", "graph neural networks", {"year": year}),
           ("year only", "", {"year": year}), ("no full match", "hypergraph zyzzyva", {})]
    if author:
        qs += [("author filter", "learning", {"author": author["name"]}), ("author only", "", {"author": author["name"]})]
    if method:
        qs += [("method filter", "learning", {"method": method["name"]})]
    return qs


def _search_bench(G, repeat: int) -> dict:
    from kg.search import build_search_index, search

    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "search.sqlite"
        t0 = time.perf_counter()
        build_search_index(G, path)
        out["search_index_s"] = round(time.perf_counter() - t0, 2)
        out["search_index_mb"] = round(path.stat().st_size / 2**20, 1)
        qs = _queries(G)
        lat: list[float] = []
        worst: dict[str, float] = {}
        for _ in range(repeat):
            for kind, q, kw in qs:
                t0 = time.perf_counter()
                res = search(path, q, limit=10, **kw)
                ms = (time.perf_counter() - t0) * 1000
                lat.append(ms)
                worst[kind] = max(worst.get(kind, 0.0), ms)
                if not res.papers and kind != "no full match":
                    sys.stderr.write(f"no hits for {kind} {q!r} {kw}\n")
        lat.sort()
        out["search_queries"] = len(lat)
        out["search_ms_median"] = round(statistics.median(lat), 2)
        out["search_ms_p95"] = round(lat[int(0.95 * (len(lat) - 1))], 2)
        out["search_ms_max"] = round(lat[-1], 2)
        out["search_ms_max_by_kind"] = {k: round(v, 1) for k, v in worst.items()}
        out["search_filters"] = {kind: kw for kind, _, kw in qs if kw}
    return out


def one(n: int, extract: bool, repeat: int, metrics: bool, cache: Path = CACHE) -> dict:
    from kg.graph import build_graph

    t0 = time.perf_counter()
    records, ents = _load(n, extract, cache)
    out: dict = {"papers": len(records), "entities": ents, "load_s": round(time.perf_counter() - t0, 1),
                 "entities_per_paper": round(sum(len(r.entities) for r in records) / max(1, len(records)), 2),
                 "rss_mb_loaded": round(_status_mb("VmRSS")), "peak_reset": _reset_peak()}
    t0 = time.perf_counter()
    G = build_graph(records)
    out["graph_s"] = round(time.perf_counter() - t0, 2)
    out["peak_mb_graph"] = round(_status_mb("VmHWM"))
    kinds = Counter()
    for u, _, k in G.edges(keys=True):
        kinds[(k, u.split(":", 1)[0]) if k == "shares" else k] += 1
    shares_pp = kinds[("shares", "paper")]
    out.update(nodes=G.number_of_nodes(), edges=G.number_of_edges(), shares_paper_paper=shares_pp,
               shares_author_author=kinds[("shares", "author")], coauthor=kinds["coauthor"], cites=kinds["cites"],
               shares_pp_per_paper=round(shares_pp / max(1, len(records)), 3))
    del records
    if metrics:
        from kg.metrics import add_metrics

        t0 = time.perf_counter()
        add_metrics(G)
        out["metrics_s"] = round(time.perf_counter() - t0, 2)
        out["peak_mb_metrics"] = round(_status_mb("VmHWM"))
    out.update(_search_bench(G, repeat))
    out["peak_mb"] = round(_status_mb("VmHWM"))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", nargs="+", type=int, default=[10000, 50000, 100000])
    ap.add_argument("--extract", action="store_true", help="entities from the real extractor (see above)")
    ap.add_argument("--cache", type=Path, default=CACHE, help="extracted confpapers records (JSON Lines)")
    ap.add_argument("--repeat", type=int, default=3, help="times each search query is run")
    ap.add_argument("--metrics", action="store_true", help="also time add_metrics (Louvain is slow)")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one, args.extract, args.repeat, args.metrics, args.cache)))
        return 0
    if args.extract:
        extracted_base(args.cache)  # extract (and cache) once, not in every child
    rows = []
    for n in args.sizes:
        load = os.getloadavg()[0]
        cmd = [sys.executable, __file__, "--one", str(n), "--repeat", str(args.repeat), "--cache", str(args.cache)]
        cmd += ["--extract"] * args.extract + ["--metrics"] * args.metrics
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env={**os.environ})
        if proc.returncode:
            sys.stderr.write(proc.stderr)
            return proc.returncode
        sys.stderr.write(proc.stderr)
        row = json.loads(proc.stdout.strip().splitlines()[-1])
        row["load_before"], row["load_after"] = round(load, 2), round(os.getloadavg()[0], 2)
        rows.append(row)
        print(json.dumps(row), flush=True)
    print(f"\n{'papers':>8} {'graph s':>8} {'metrics s':>9} {'peak MB':>8} {'shares p-p':>11} {'/paper':>7} "
          f"{'search ms med/p95/max':>22} {'load':>10}")
    for r in rows:
        search_ms = f"{r['search_ms_median']}/{r['search_ms_p95']}/{r['search_ms_max']}"
        print(f"{r['papers']:>8} {r['graph_s']:>8} {r.get('metrics_s', '-'):>9} {r['peak_mb_graph']:>8} "
              f"{r['shares_paper_paper']:>11} {r['shares_pp_per_paper']:>7} {search_ms:>22} "
              f"{r['load_before']:>4}-{r['load_after']}")
    print(f"entities: {rows[0]['entities']}; peak MB = VmHWM after build_graph, records included")
    return 0


if __name__ == "__main__":
    sys.exit(main())
