"""Link prediction: does paperkg's related-author score predict new co-authorships?

Builds the graph from the history papers. A *query* is an author present in the history who,
in the future papers, co-authors with someone else present in the history with whom they had
no joint history paper. For each query, every other history author who is not already a
co-author is a candidate; the candidates are ranked by each method and the rank of the true new
co-authors is scored:

- MRR: mean over queries of 1 / rank of the best-ranked true new co-author;
- Hits@10: share of queries with a true new co-author in the top 10.

Ties are broken at random, in expectation (:func:`expected_rr_hits`), so a method gets no
credit for ties and the figures do not depend on a seed. Methods: ``paperkg``
(:func:`kg.related.combine` of all the signals), ``adamic_adar`` and ``common_neighbours`` over
the history co-author graph, and ``random``.

Entities come from ``extractors.pipeline.extract_records`` when that module exists; without it
the graph has no methods/benchmarks/concepts and the run says so (``"entities": false``). With
``--cache FILE`` (the confpapers records extracted once by ``bench/bench_graph.py``, e.g.
``bench/out/graph_conf_extracted_1.3.1.jsonl``) the history records are taken from that file,
those read from one of the history files, instead of being extracted again (minutes under load).

``--signals`` also ranks by each signal of :func:`kg.related.author_signals` alone (ties broken
at random, as for the baselines) and by the activity prior alone, under ``"signals"``.

Usage::

    python bench/linkpred.py --history neurips2018.jsonl --future icml2019.jsonl [--json]
        [--cache bench/out/graph_conf_extracted_1.3.1.jsonl] [--signals] [--weights '{"terms": 4}']

File names without a folder are looked up in ``shared/data/confpapers/jsonl/``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parent.parent
CONF = REPO.parent / "shared" / "data" / "confpapers" / "jsonl"
sys.path.insert(0, str(REPO))

from kg.authors import AuthorIndex  # noqa: E402
from kg.graph import build_graph  # noqa: E402
from kg.records import Record  # noqa: E402
from kg.related import SIGNALS, _index, _signals, combine  # noqa: E402
from kg.schema import NodeType, node_key  # noqa: E402


def _path(name: str) -> Path:
    p = Path(name)
    return p if p.exists() or p.parent != Path(".") else CONF / name


def read_records(names: list[str]) -> list[Record]:
    from kg.ingest import ingest

    return ingest([_path(n) for n in names]).records


def cached_records(path: Path, names: list[str]) -> list[Record]:
    """The records of ``path`` (extracted records, JSON Lines) read from one of the files ``names``."""
    want = {_path(n).name for n in names}
    out = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                d = json.loads(line)
                if any(Path(src["file"]).name in want for src in d.get("sources") or ()):
                    out.append(Record.from_dict(d))
    return out


def extract(records: list[Record]) -> tuple[list[Record], bool]:
    try:
        from extractors.pipeline import extract_records
    except ImportError:
        return records, False
    return list(extract_records(records)), True


def _queries(G, future: list[Record], index: AuthorIndex) -> dict[str, set[str]]:
    hist = {k for k, t in G.nodes(data="type") if t == NodeType.AUTHOR.value}
    co = _index(G).co
    out: dict[str, set[str]] = {}
    for rec in future:
        keys = list(dict.fromkeys(node_key(NodeType.AUTHOR, index.resolve(a)) for a in rec.authors))
        keys = [k for k in keys if k in hist]
        for a in keys:
            for b in keys:
                if a != b and b not in co.get(a, {}):
                    out.setdefault(a, set()).add(b)
    return out


def expected_rr_hits(scores, truth_idx) -> tuple[float, float]:
    """Expected reciprocal rank of the best-ranked true candidate, and expected Hits@10, when
    ties are broken uniformly at random (excluded candidates score -inf).

    If ``greater`` candidates beat the best true score ``s`` and ``g`` candidates (``k`` of them
    true) tie at ``s``, the best true is at ``greater + j`` with probability
    ``C(g - j, k - 1) / C(g, k)``.

    Examples
    --------
    >>> expected_rr_hits(np.array([3.0, 1.0, 1.0]), [1])   # tie of two at ranks 2-3
    (0.41666666666666663, 1.0)
    """
    best = max(scores[t] for t in truth_idx)
    greater = int(np.count_nonzero(scores > best))
    g = int(np.count_nonzero(scores == best))
    k = sum(1 for t in truth_idx if scores[t] == best)
    # p[j - 1] = P(best true at tie position j), j = 1 .. g - k + 1, by the ratio of successive terms
    j = np.arange(1, g - k + 1, dtype=np.float64)
    p = (k / g) * np.cumprod(np.concatenate(([1.0], (g - j - k + 1) / (g - j))))
    rank = greater + np.arange(1, g - k + 2, dtype=np.float64)
    rr = float(np.sum(p / rank))
    hits = float(np.sum(p[rank <= 10]))
    return rr, hits


def run(history: list[str], future: list[str], *, weights: dict[str, float] | None = None,
        seed: int = 0, extraction: bool = True, cache: Path | None = None, signals: bool = False) -> dict:
    t0 = time.perf_counter()
    if cache is not None:
        hist_recs = cached_records(cache, history)
        has_entities = any(r.entities for r in hist_recs)
    else:
        hist_recs = read_records(history)
        has_entities = False
        if extraction:
            hist_recs, has_entities = extract(hist_recs)
    fut_recs = read_records(future)
    index = AuthorIndex.from_records(hist_recs)
    G = build_graph(hist_recs, authors=index)
    t_build = time.perf_counter()
    queries = _queries(G, fut_recs, index)
    idx = _index(G)
    authors = idx.authors  # sorted author keys; every score array is aligned with them
    pos = idx.pos
    rng = np.random.default_rng(seed)
    rnd = rng.random(len(authors))
    co = idx.co
    prior = np.log1p(idx.n_papers)
    methods = ["paperkg", "adamic_adar", "common_neighbours", "random"]
    if signals:
        methods += [f"signal:{k}" for k in SIGNALS if k != "co"] + ["signal:prior"]
    totals = {m: [0.0, 0.0] for m in methods}
    n_cand = 0
    for a in sorted(queries):
        excluded = [pos[a]] + [pos[c] for c in co.get(a, {})]
        n_cand += len(authors) - len(excluded)
        truth = [pos[t] for t in queries[a]]
        sig = _signals(idx, a)  # author_signals without re-checking the graph per query
        ranked = {"paperkg": combine(sig, idx.n_papers, weights=weights), "adamic_adar": sig["aa"],
                  "common_neighbours": sig["cn"], "random": rnd}
        if signals:
            ranked.update({f"signal:{k}": sig[k] for k in SIGNALS if k != "co"})
            ranked["signal:prior"] = prior
        for name in methods:
            sc = np.array(ranked[name], dtype=np.float64)
            sc[excluded] = -np.inf
            rr, hits = expected_rr_hits(sc, truth)
            totals[name][0] += rr
            totals[name][1] += hits
    nq = len(queries)

    def figures(s: float, h: float) -> dict:
        return {"mrr": round(s / nq, 4) if nq else 0.0, "hits@10": round(h / nq, 4) if nq else 0.0}

    out = {name: figures(*totals[name]) for name in methods[:4]}
    if signals:
        out["signals"] = {name.split(":", 1)[1]: figures(*totals[name]) for name in methods[4:]}
    out.update(queries=nq, candidates=round(n_cand / nq) if nq else 0, history_authors=len(authors),
               history_papers=len(hist_recs), future_papers=len(fut_recs), entities=has_entities,
               build_seconds=round(t_build - t0, 1), seconds=round(time.perf_counter() - t0, 1))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--history", nargs="+", required=True, help="history paper files")
    ap.add_argument("--future", nargs="+", required=True, help="future paper files")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--no-extraction", action="store_true", help="build the graph without entities")
    ap.add_argument("--weights", default=None, help='JSON object overriding kg.related.AUTHOR_WEIGHTS')
    ap.add_argument("--cache", type=Path, default=None,
                    help="extracted records (JSON Lines) to take the history records from, instead of extracting")
    ap.add_argument("--signals", action="store_true", help="also rank by each signal alone")
    args = ap.parse_args(argv)
    res = run(args.history, args.future, weights=json.loads(args.weights) if args.weights else None,
              extraction=not args.no_extraction, cache=args.cache, signals=args.signals)
    if args.json:
        print(json.dumps(res))
        return 0
    print(f"history {' '.join(args.history)} -> future {' '.join(args.future)}")
    print(f"{res['history_papers']} history papers, {res['history_authors']} history authors, "
          f"{res['queries']} queries, {res['candidates']} candidates per query, "
          f"entities: {'yes' if res['entities'] else 'no (extractors.pipeline missing)'}, {res['seconds']} s")
    print(f"{'method':<20}{'MRR':>8}{'Hits@10':>10}")
    for m in ("paperkg", "adamic_adar", "common_neighbours", "random"):
        print(f"{m:<20}{res[m]['mrr']:>8.4f}{res[m]['hits@10']:>10.4f}")
    for m, r in res.get("signals", {}).items():
        print(f"{'  ' + m + ' alone':<20}{r['mrr']:>8.4f}{r['hits@10']:>10.4f}")
    aa = res["adamic_adar"]["mrr"]
    if aa:
        print(f"paperkg / adamic_adar MRR: {res['paperkg']['mrr'] / aa:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
