"""Score method and benchmark extraction against gold data; print a table (or ``--json``).

Gold sets
---------
1. ``tests/gold/{dev,test,test2,test3,test4,test5,test6,test7}.jsonl``: the project's hand-annotated abstracts (see
   ``tests/gold/README.md``). Entity level, per paper: a predicted entity matches a gold entity
   of the same type when ``kg.text.match_key`` of any of its names, aliases or abstract mention
   texts equals that of any gold name, alias or mention text (one-to-one, greedy). Role is
   scored as part of the label for the per-role rows. Only predicted entities with a mention in
   the abstract count (the gold never annotates titles). Mention level: exact
   ``(start, end, type)`` and overlap.
2. ``shared/data/dataset-mentions/<split>.jsonl``: sentence-level dataset names; a predicted
   benchmark mention matches a gold span it overlaps (one-to-one).
3. ``shared/data/scierc/<split>.json``: recall of Method and Material spans by any predicted
   method/benchmark mention overlapping them (a diagnostic: SciERC's notion is broader).

Usage::

    python bench/eval_extraction.py                 # dev gold + dataset-mentions train + scierc dev
    python bench/eval_extraction.py --split all     # every development split (all reported)
    python bench/eval_extraction.py --split held-out  # the held-out pair (HELD_OUT), datasets test, scierc test
    python bench/eval_extraction.py --split test6+test7  # splits joined with '+' are scored as one set
    python bench/eval_extraction.py --json
    python bench/eval_extraction.py --split held-out --only gold --json --per-abstract > NEW.json
    python bench/eval_extraction.py --compare OLD.json NEW.json   # the change, paired bootstrap
    python bench/eval_extraction.py --split all --in-corpus   # extract the whole source files, then score
    python bench/eval_extraction.py --errors --split all   # false positives / negatives (not on a held-out split)
    python bench/eval_extraction.py --only datasets --datasets-split test   # dataset-mentions test alone
    python bench/eval_extraction.py --eyeball 50    # proposed names on 50 random unlabeled abstracts
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from kg.records import Record, Source, make_record  # noqa: E402
from kg.text import match_key  # noqa: E402

SHARED = REPO.parent / "shared" / "data"
TYPES = ("method", "benchmark")
#: Splits that were reported and are now development data; ``all`` scores them together.
DEV_SPLITS = ("dev", "test", "test2", "test3", "test4", "test5", "test6", "test7", "test8", "test9", "test10",
              "test11", "test12", "test13", "test14", "test15", "test16", "test17", "test18", "test19", "test20",
              "test21", "ood3", "ood4", "ood5", "ood6")
#: The held-out splits not yet reported: scored as figures, never listed error by error;
#: ``held-out`` scores them together. test6+test7 were held out first (reported at 1.7.0),
#: then test8+test9 (reported at 1.8.0), test10+test11 (1.9.0), test12+test13 (1.10.0),
#: test14+test15 (1.11.0, the first pair drawn after the silver batches by ``sample.choose_late``)
#: test16+test17 (1.12.0, appended to ``choose_late`` in the ninth session) and test18+test19
#: (1.13.0, appended in the tenth). test20 (appended in the eleventh session, 40 + 40) was reported
#: at 1.14.0. test21 (35 + 35, appended in the twelfth session) took all the ICML 2023 abstracts
#: the in-domain pool had left; it was held out with the third out-of-domain split ood3, and both
#: were reported at 1.15.0 and became development data (ood3 is the first development split of
#: other venues). With the in-domain pool used up, the held-out split is out of domain from now on:
#: ood4 (30 each of the four other venues, drawn by ``sample.choose_ood_late`` after ood3 at the
#: start of the thirteenth session), reported at 1.16.0 and development data from the sixteenth
#: session; then ood5 (30 each, drawn after ood4 at the start of the sixteenth session), reported
#: at 1.17.0 and development data from the seventeenth session; then ood6 (30 each, drawn after
#: ood5 and the later other-venue silver batches at the start of the seventeenth session),
#: reported at 1.18.0 and development data from the eighteenth session; then ood7 (30 each, drawn
#: after ood6 at the start of the eighteenth session and annotated blind by three more annotators).
HELD_OUT: tuple[str, ...] = ("ood7",)
#: A pair drawn for after HELD_OUT (``tests/gold/README.md``): not scored at all until HELD_OUT
#: has been reported and these become HELD_OUT, so no figure on them can steer a round. Empty
#: until the next draw (which must avoid the silver batches too).
NEXT_HELD_OUT: tuple[str, ...] = ()
#: Out-of-domain held-out splits (other venues and years than the splits above and the silver
#: training batches, see ``tests/gold/sample.py``): scored as figures, never listed error by error
#: (ood1 was first reported at 1.9.0; ood2 was drawn in the eleventh session by
#: ``sample.choose_ood_late``). They stay unopened as fixed references across rounds.
OUT_OF_DOMAIN = ("ood1", "ood2")
#: Every split this script scores.
SPLITS = (*DEV_SPLITS, *HELD_OUT, *OUT_OF_DOMAIN)


def _prf(tp: int, fp: int, fn: int) -> dict[str, float | int]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {"tp": tp, "fp": fp, "fn": fn, "precision": round(p, 4), "recall": round(r, 4), "f1": round(f, 4)}


# ----------------------------------------------------------------------------- project gold
def _load_gold(split: str) -> list[dict[str, Any]]:
    if split == "all":
        return [g for s in DEV_SPLITS for g in _load_gold(s)]
    if split == "held-out":
        return [g for s in HELD_OUT for g in _load_gold(s)]
    if "+" in split:
        return [g for s in split.split("+") for g in _load_gold(s)]
    path = REPO / "tests" / "gold" / f"{split}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _load_records(gold: list[dict[str, Any]], *, whole_files: bool = False) -> list[Record]:
    """The gold abstracts' records, in gold order; with ``whole_files`` every record of their
    source files with an abstract (gold ones included), in file order."""
    wanted: dict[str, set[str]] = defaultdict(set)
    for g in gold:
        wanted[g["source"]].add(g["id"])
    found: dict[str, Record] = {}
    for source, ids in wanted.items():
        path = SHARED / "confpapers" / "jsonl" / source
        with open(path, encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                d = json.loads(line)
                if d["id"] in ids or (whole_files and d.get("abstract")):
                    rec = make_record(source=Source(str(path), n, "confpapers"), title=d.get("title"),
                                      abstract=d.get("abstract"), authors=d.get("authors") or ())
                    found[d["id"]] = replace(rec, id=d["id"])
    if whole_files:
        return list(found.values())
    return [found[g["id"]] for g in gold]


def _keys(names: Iterable[str]) -> set[str]:
    return {k for k in (match_key(n) for n in names) if k}


def _pred_entities(rec: Record) -> list[dict[str, Any]]:
    out = []
    for e in rec.entities:
        if e.type.value not in TYPES:
            continue
        mentions = [m for m in e.mentions if m.field == "abstract"]
        if not mentions:
            continue
        out.append({"type": e.type.value, "role": e.role.value if e.role else "used", "name": e.name,
                    "keys": _keys([e.name, *e.aliases, *(m.text for m in mentions)]),
                    "mentions": [(m.start, m.end, m.text) for m in mentions]})
    return out


def _match(gold: list[dict], pred: list[dict], *, with_role: bool) -> tuple[list, list, list]:
    used: set[int] = set()
    tp, fn = [], []
    for g in gold:
        gk = _keys([g["name"], *g.get("aliases", ()), *(m["text"] for m in g["mentions"])])
        hit = None
        for j, p in enumerate(pred):
            if j in used or p["type"] != g["type"] or (with_role and p["role"] != g["role"]):
                continue
            if gk & p["keys"]:
                hit = j
                break
        if hit is None:
            fn.append(g)
        else:
            used.add(hit)
            tp.append((g, pred[hit]))
    fp = [p for j, p in enumerate(pred) if j not in used]
    return tp, fp, fn


def bootstrap_interval(per_abstract: list[tuple[int, int, int]], *, n: int = 2000,
                       seed: str = "bootstrap") -> dict[str, list[float]]:
    """95% percentile intervals of micro precision, recall and F1 over abstracts resampled with
    replacement (the nonparametric bootstrap, Efron & Tibshirani 1993, ch. 13).

    ``per_abstract`` holds one ``(tp, fp, fn)`` per abstract; the abstract is the unit that was
    sampled, so it is the unit that is resampled.
    """
    import random

    rng = random.Random(seed)
    k = len(per_abstract)
    stats: dict[str, list[float]] = {"precision": [], "recall": [], "f1": []}
    for _ in range(n):
        tp = fp = fn = 0
        for _j in range(k):
            a, b, c = per_abstract[rng.randrange(k)]
            tp, fp, fn = tp + a, fp + b, fn + c
        r = _prf(tp, fp, fn)
        for key in stats:
            stats[key].append(float(r[key]))
    out = {}
    for key, values in stats.items():
        values.sort()
        out[key] = [round(values[int(0.025 * (n - 1))], 3), round(values[int(0.975 * (n - 1))], 3)]
    return out


def paired_bootstrap(old: dict[str, Any], new: dict[str, Any], *, n: int = 2000,
                     seed: str = "paired") -> dict[str, dict[str, float]]:
    """The change from ``old`` to ``new`` on the same abstracts, with 95% percentile intervals
    from the paired bootstrap: each resample draws abstracts with replacement and scores *both*
    extractors on the same draw, so the abstracts both get right or wrong cancel out (Efron &
    Tibshirani 1993, ch. 13; Koehn 2004 uses the same design for comparing MT systems).

    ``old`` and ``new`` are the ``per_abstract`` blocks ``score_gold(..., per_abstract=True)``
    writes (``--per-abstract``): the abstract ids and one ``(tp, fp, fn)`` per abstract for
    method+benchmark (``all``) and for proposed names (``proposed``). Returns, for each, the change
    of precision, recall and F1 (new - old), its interval, and the share of resamples in which
    the change is above zero.
    """
    import random

    if old["ids"] != new["ids"]:
        raise ValueError("the two scores are not of the same abstracts in the same order")
    k = len(old["ids"])
    out: dict[str, dict[str, float]] = {}
    for block in ("all", "proposed"):
        a, b = old[block], new[block]
        rng = random.Random(seed)
        deltas: dict[str, list[float]] = {"precision": [], "recall": [], "f1": []}
        for _ in range(n):
            sa, sb = [0, 0, 0], [0, 0, 0]
            for _j in range(k):
                i = rng.randrange(k)
                for m in range(3):
                    sa[m] += a[i][m]
                    sb[m] += b[i][m]
            ra, rb = _prf(*sa), _prf(*sb)
            for key in deltas:
                deltas[key].append(float(rb[key]) - float(ra[key]))
        point_a = _prf(*map(sum, zip(*a))) if a else _prf(0, 0, 0)
        point_b = _prf(*map(sum, zip(*b))) if b else _prf(0, 0, 0)
        for key, values in deltas.items():
            values.sort()
            out[f"{block}/{key}"] = {
                "delta": round(float(point_b[key]) - float(point_a[key]), 4),
                "low": round(values[int(0.025 * (n - 1))], 4),
                "high": round(values[int(0.975 * (n - 1))], 4),
                "above_zero": round(sum(v > 0 for v in values) / n, 3),
            }
    return out


def score_gold(split: str, *, errors: bool = False, n_process: int = 1, in_corpus: bool = False,
               bootstrap: int = 0, per_abstract: bool = False) -> dict[str, Any]:
    """Score ``split``. By default only its abstracts are extracted and consolidated; with
    ``in_corpus`` the whole source files are (about 4,100 abstracts for ICLR 2024 + ICML 2023),
    as ``kg build`` would on that corpus, so corpus consolidation (acronyms defined in other
    abstracts, types by majority) takes part; the gold abstracts are then scored. With
    ``bootstrap`` > 0, 95% intervals of the method+benchmark and proposed-name figures are added
    (:func:`bootstrap_interval` with that many resamples). With ``per_abstract``, the counts of
    every abstract (no names) are kept for :func:`paired_bootstrap`."""
    from extractors.pipeline import extract_records

    gold = _load_gold(split)
    if in_corpus:
        extracted = extract_records(_load_records(gold, whole_files=True), n_process=n_process)
        by_id = {r.id: r for r in extracted}
        out_records = [by_id[g["id"]] for g in gold]
    else:
        out_records = extract_records(_load_records(gold), n_process=n_process)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    mention_counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    error_lines: list[str] = []
    per_abstract_counts: list[tuple[int, int, int]] = []
    per_abstract_proposed: list[tuple[int, int, int]] = []
    for g, rec in zip(gold, out_records):
        pred = _pred_entities(rec)
        gents = g["entities"]
        # type level (role ignored) and per type
        tp, fp, fn = _match(gents, pred, with_role=False)
        per_abstract_counts.append((len(tp), len(fp), len(fn)))
        for label, items in (("tp", tp), ("fp", fp), ("fn", fn)):
            for it in items:
                t = (it[0] if label == "tp" else it)["type"]
                idx = ("tp", "fp", "fn").index(label)
                counts[t][idx] += 1
                counts["all"][idx] += 1
        if errors:
            for p in fp:
                error_lines.append(f"FP {g['id']} {p['type']}/{p['role']} {p['name']!r} {[m[2] for m in p['mentions']][:3]}")
            for x in fn:
                error_lines.append(f"FN {g['id']} {x['type']}/{x['role']} {x['name']!r} {x.get('aliases')}")
        # type + role
        tp_r, fp_r, fn_r = _match(gents, pred, with_role=True)
        per_abstract_proposed.append((sum(1 for x, _p in tp_r if x["role"] == "proposed"),
                                      sum(1 for x in fp_r if x["role"] == "proposed"),
                                      sum(1 for x in fn_r if x["role"] == "proposed")))
        for label, items in (("tp", tp_r), ("fp", fp_r), ("fn", fn_r)):
            idx = ("tp", "fp", "fn").index(label)
            for it in items:
                x = it[0] if label == "tp" else it
                counts[f"{x['type']}/{x['role']}"][idx] += 1
                counts["all+role"][idx] += 1
        if errors:
            for gx, px in tp:
                if gx["role"] != px["role"]:
                    error_lines.append(f"ROLE {g['id']} {gx['name']!r} gold={gx['role']} pred={px['role']}")
        # mentions
        gm = {(m["start"], m["end"], e["type"]) for e in gents for m in e["mentions"]}
        pm = {(s, e_, p["type"]) for p in pred for s, e_, _t in p["mentions"]}
        exact = len(gm & pm)
        mention_counts["exact"][0] += exact
        mention_counts["exact"][1] += len(pm) - exact
        mention_counts["exact"][2] += len(gm) - exact
        matched_p: set = set()
        ov = 0
        for gs, ge, gt in sorted(gm):
            for q in sorted(pm):
                if q not in matched_p and q[2] == gt and q[0] < ge and gs < q[1]:
                    matched_p.add(q)
                    ov += 1
                    break
        mention_counts["overlap"][0] += ov
        mention_counts["overlap"][1] += len(pm) - len(matched_p)
        mention_counts["overlap"][2] += len(gm) - ov
    rows = {k: _prf(*v) for k, v in sorted(counts.items())}
    result = {"split": split, "abstracts": len(gold), "in_corpus": in_corpus, "entity": rows,
              "mention": {k: _prf(*v) for k, v in mention_counts.items()}}
    # recall of proposed names (same type, role proposed)
    prop = rows.get("method/proposed", _prf(0, 0, 0)), rows.get("benchmark/proposed", _prf(0, 0, 0))
    tp = sum(r["tp"] for r in prop)
    fn = sum(r["fn"] for r in prop)
    fp = sum(r["fp"] for r in prop)
    result["proposed"] = _prf(tp, fp, fn)
    if bootstrap:
        result["ci95"] = {"resamples": bootstrap, "all": bootstrap_interval(per_abstract_counts, n=bootstrap),
                          "proposed": bootstrap_interval(per_abstract_proposed, n=bootstrap)}
    if per_abstract:
        result["per_abstract"] = {"ids": [g["id"] for g in gold], "all": per_abstract_counts,
                                  "proposed": per_abstract_proposed}
    if errors:
        result["errors"] = error_lines
    return result


# ----------------------------------------------------------------------------- dataset-mentions
def score_dataset_mentions(split: str, *, errors: bool = False) -> dict[str, Any]:
    from extractors.pipeline import extract_raw

    path = SHARED / "dataset-mentions" / f"{split}.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    records = [Record(id=f"dm:{r['id']}", title=None, abstract=r["text"]) for r in rows]
    tp = fp = fn = 0
    err: list[str] = []
    for r, raw in zip(rows, extract_raw(records)):
        gold = [(s, e) for s, e, _l in r["entities"]]
        pred = sorted({(m.start, m.end) for ent in raw.entities if ent.type.value == "benchmark"
                       for m in ent.mentions if m.field == "abstract"})
        used: set[int] = set()
        for gs, ge in gold:
            hit = next((j for j, (ps, pe) in enumerate(pred) if j not in used and ps < ge and gs < pe), None)
            if hit is None:
                fn += 1
                if errors:
                    err.append(f"FN {r['text'][gs:ge]!r} in {r['text'][:100]!r}")
            else:
                used.add(hit)
                tp += 1
        fp += len(pred) - len(used)
        if errors:
            for j, (ps, pe) in enumerate(pred):
                if j not in used:
                    err.append(f"FP {r['text'][ps:pe]!r} in {r['text'][:100]!r}")
    out: dict[str, Any] = {"split": split, "sentences": len(rows), "dataset": _prf(tp, fp, fn)}
    if errors:
        out["errors"] = err
    return out


# ----------------------------------------------------------------------------- scierc
def score_scierc(split: str) -> dict[str, Any]:
    from extractors.pipeline import extract_raw

    path = SHARED / "scierc" / f"{split}.json"
    docs = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    records, golds = [], []
    for d in docs:
        tokens = [t for sent in d["sentences"] for t in sent]
        starts, pos = [], 0
        for t in tokens:
            starts.append(pos)
            pos += len(t) + 1
        text = " ".join(tokens)
        spans = [(starts[s], starts[e] + len(tokens[e]), lab) for sent in d["ner"] for s, e, lab in sent
                 if lab in ("Method", "Material")]
        records.append(Record(id=d["doc_key"], title=None, abstract=text))
        golds.append(spans)
    hit = defaultdict(int)
    total = defaultdict(int)
    n_pred = 0
    for spans, raw in zip(golds, extract_raw(records)):
        pred = [(m.start, m.end) for ent in raw.entities if ent.type.value in TYPES for m in ent.mentions]
        n_pred += len(pred)
        for s, e, lab in spans:
            total[lab] += 1
            if any(ps < e and s < pe for ps, pe in pred):
                hit[lab] += 1
    return {"split": split, "abstracts": len(docs), "predicted_mentions": n_pred,
            "recall": {lab: round(hit[lab] / total[lab], 4) if total[lab] else 0.0 for lab in sorted(total)},
            "gold": dict(total)}


# ----------------------------------------------------------------------------- eyeball
def gold_split_ids(data: Path = SHARED) -> set[str]:
    """The ids of every gold split ``tests/gold/sample.py`` draws: ``choose`` (dev ... test13),
    ``choose_late`` (test14 ...), ``choose_ood`` (ood1) and ``choose_ood_late`` (ood2, ood3). Until the
    eleventh session ``--eyeball`` left out ``choose``'s ids only, so its pool held the late and
    out-of-domain splits."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("gold_sample", REPO / "tests" / "gold" / "sample.py")
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    rows = [*mod.choose(data), *mod.choose_late(data), *mod.choose_ood(data), *mod.choose_ood_late(data)]
    return {rec_id for _split, _source, rec_id in rows}


def eyeball(n: int, *, seed: str = "eyeball") -> list[dict[str, Any]]:
    """Proposed names on ``n`` random unlabeled abstracts, for a person to judge.

    The abstracts come from every ``confpapers`` file with abstracts, leaving out every id of every
    gold split (:func:`gold_split_ids`), so reading them reveals nothing held out. Each item:
    title, and per proposed name its type, rules and context.
    """
    import random

    from extractors.pipeline import extract_records
    from kg.text import normalize_text

    gold_ids = gold_split_ids()
    pool = []
    for path in sorted((SHARED / "confpapers" / "jsonl").glob("*.jsonl")):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                d = json.loads(line)
                if d.get("abstract") and d.get("id") not in gold_ids:
                    pool.append(d)
    pick = random.Random(seed).sample(pool, min(n, len(pool)))
    records = [Record(id=d["id"], title=d.get("title"), abstract=normalize_text(d["abstract"])) for d in pick]
    out = []
    for r in extract_records(records):
        names = []
        for e in r.entities:
            if e.type.value in TYPES and e.role is not None and e.role.value == "proposed":
                m = e.mentions[0]
                text = (r.abstract if m.field == "abstract" else r.title) or ""
                names.append({"type": e.type.value, "name": e.name, "rules": sorted({x.rule for x in e.mentions}),
                              "context": text[max(0, m.start - 70):m.end + 50].replace("\n", " ")})
        out.append({"id": r.id, "title": r.title, "proposed": names})
    return out


# ----------------------------------------------------------------------------- output
def _table(result: dict[str, Any]) -> str:
    lines = []
    g = result["gold"]
    where = ", extracted within its whole source files" if g.get("in_corpus") else ""
    lines.append(f"Project gold ({g['split']}, {g['abstracts']} abstracts{where}), entity level per paper")
    lines.append(f"  {'label':<22}{'P':>7}{'R':>7}{'F1':>7}{'tp':>6}{'fp':>6}{'fn':>6}")
    order = ["all", "method", "benchmark", "all+role", "method/proposed", "method/used",
             "benchmark/proposed", "benchmark/used"]
    for k in order:
        r = g["entity"].get(k)
        if r:
            name = {"all": "method+benchmark", "all+role": "type+role (micro)"}.get(k, k)
            lines.append(f"  {name:<22}{r['precision']:>7.3f}{r['recall']:>7.3f}{r['f1']:>7.3f}{r['tp']:>6}{r['fp']:>6}{r['fn']:>6}")
    r = g["proposed"]
    lines.append(f"  {'proposed names':<22}{r['precision']:>7.3f}{r['recall']:>7.3f}{r['f1']:>7.3f}{r['tp']:>6}{r['fp']:>6}{r['fn']:>6}")
    if "ci95" in g:
        ci = g["ci95"]
        for label, key in (("method+benchmark", "all"), ("proposed names", "proposed")):
            c = ci[key]
            lines.append(f"  95% interval, {label} ({ci['resamples']} bootstrap resamples of the abstracts): "
                         f"P {c['precision'][0]:.3f}-{c['precision'][1]:.3f}, R {c['recall'][0]:.3f}-"
                         f"{c['recall'][1]:.3f}, F1 {c['f1'][0]:.3f}-{c['f1'][1]:.3f}")
    for k, r in g["mention"].items():
        lines.append(f"  {'mentions ' + k:<22}{r['precision']:>7.3f}{r['recall']:>7.3f}{r['f1']:>7.3f}{r['tp']:>6}{r['fp']:>6}{r['fn']:>6}")
    d = result["dataset_mentions"]
    r = d["dataset"]
    lines.append(f"dataset-mentions ({d['split']}, {d['sentences']} sentences), overlap match")
    lines.append(f"  {'dataset':<22}{r['precision']:>7.3f}{r['recall']:>7.3f}{r['f1']:>7.3f}{r['tp']:>6}{r['fp']:>6}{r['fn']:>6}")
    s = result["scierc"]
    rec = ", ".join(f"{k} {v:.3f} (of {s['gold'][k]})" for k, v in s["recall"].items())
    lines.append(f"SciERC ({s['split']}, {s['abstracts']} abstracts) recall diagnostic: {rec}")
    return "\n".join(lines)


def _split_arg(value: str) -> str:
    waiting = [p for p in value.split("+") if p in NEXT_HELD_OUT]
    if waiting:
        raise argparse.ArgumentTypeError(
            f"{waiting[0]} waits, unscored, until the held-out pair ({'+'.join(HELD_OUT)}) is reported")
    if value == "held-out" and not HELD_OUT:
        raise argparse.ArgumentTypeError(
            "no held-out pair is waiting: the last one was reported and is development data now; "
            "draw and annotate the next pair first (tests/gold/README.md)")
    if value in ("all", "held-out") or all(p in SPLITS for p in value.split("+")):
        return value
    raise argparse.ArgumentTypeError(f"unknown split {value!r} (one of {', '.join(SPLITS)}, all, held-out)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", type=_split_arg, default="dev", metavar="SPLIT",
                    help="gold split: one of " + ", ".join(SPLITS) + ", or several joined with '+' "
                         "(scored as one set); 'all' = every development split; 'held-out' = "
                         + ("+".join(HELD_OUT) or "the next pair, none drawn yet") + ", not yet reported: scored as a figure only (no "
                         "--errors), and it also scores dataset-mentions test and SciERC test")
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--in-corpus", action="store_true",
                    help="extract and consolidate the gold's whole source files (as kg build would), "
                         "then score the gold abstracts")
    ap.add_argument("-j", "--n-process", type=int, default=1, help="extraction processes")
    ap.add_argument("--errors", action="store_true", help="list errors (refused on the held-out split)")
    ap.add_argument("--only", choices=("gold", "datasets", "scierc"), help="score one set only")
    ap.add_argument("--datasets-split", choices=("train", "test"),
                    help="dataset-mentions split, whatever --split is (e.g. '--only datasets "
                         "--datasets-split test' scores it without reading the held-out gold)")
    ap.add_argument("--eyeball", type=int, metavar="N",
                    help="print proposed names on N random unlabeled abstracts (no gold split) and exit")
    ap.add_argument("--seed", default="eyeball", help="random seed of --eyeball")
    ap.add_argument("--bootstrap", type=int, default=2000, metavar="N",
                    help="bootstrap resamples of the abstracts for 95%% intervals of the gold figures (0: none)")
    ap.add_argument("--per-abstract", action="store_true",
                    help="keep every abstract's counts (no names) in the JSON, for --compare")
    ap.add_argument("--compare", nargs=2, metavar=("OLD.json", "NEW.json"),
                    help="the change between two --json --per-abstract scores of the same split, "
                         "with paired bootstrap intervals, and exit")
    args = ap.parse_args(argv)
    if args.compare:
        old, new = (json.loads(Path(f).read_text(encoding="utf-8"))["gold"]["per_abstract"] for f in args.compare)
        change = paired_bootstrap(old, new, n=args.bootstrap or 2000)
        if args.json:
            print(json.dumps(change, indent=2))
        else:
            print(f"change on {len(old['ids'])} abstracts ({args.bootstrap or 2000} paired resamples):")
            for key, c in change.items():
                print(f"  {key:20s} {c['delta']:+.4f}  95% [{c['low']:+.4f}, {c['high']:+.4f}]  "
                      f"above zero in {c['above_zero']:.1%} of resamples")
        return 0
    if args.eyeball:
        items = eyeball(args.eyeball, seed=args.seed)
        if args.json:
            print(json.dumps(items, indent=2, ensure_ascii=False))
        else:
            for it in items:
                print(f"## {it['title']}")
                for x in it["proposed"]:
                    print(f"   {x['type']} {x['name']!r} {x['rules']} :: {x['context']}")
            print(f"{sum(len(it['proposed']) for it in items)} proposed names in {len(items)} abstracts")
        return 0
    held_out = args.split == "held-out" or any(p in HELD_OUT + OUT_OF_DOMAIN for p in args.split.split("+"))
    if args.errors and held_out:
        ap.error(f"--errors is for development splits only: the {args.split} split is held out")
    ds_split = args.datasets_split or ("test" if held_out else "train")
    if args.errors and ds_split == "test":
        ap.error("--errors is for development splits only: dataset-mentions test is held out")
    sc_split = "test" if held_out else "dev"
    result: dict[str, Any] = {}
    if args.only in (None, "gold"):
        result["gold"] = score_gold(args.split, errors=args.errors, n_process=args.n_process,
                                    in_corpus=args.in_corpus, bootstrap=args.bootstrap,
                                    per_abstract=args.per_abstract)
    if args.only in (None, "datasets"):
        result["dataset_mentions"] = score_dataset_mentions(ds_split, errors=args.errors)
    if args.only in (None, "scierc"):
        result["scierc"] = score_scierc(sc_split)
    from extractors import EXTRACTOR_VERSION
    result["extractor_version"] = EXTRACTOR_VERSION
    if args.json:
        print(json.dumps(result, indent=2))
    elif args.only is None:
        print(_table(result))
    else:
        print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
