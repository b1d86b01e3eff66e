"""Inter-annotator agreement: score a second, independent annotation of a gold split against it.

The second annotator reads the same abstracts blind (without the first annotation, the
extractor or its output) and writes an ``.ann`` file in the format of ``tests/gold/build.py``.
This script turns it into entities with offsets the same way and scores it with
``eval_extraction``'s entity matcher, as if it were the extractor: the F1 of one person against
another is the ceiling an extractor can be expected to reach against either of them.

Usage::

    python bench/agreement.py tests/gold/agreement/test4_second.ann --split test4 [--json]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from eval_extraction import _keys, _load_gold, _match, _prf  # noqa: E402


def _build_module():
    spec = importlib.util.spec_from_file_location("gold_build", REPO / "tests" / "gold" / "build.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def second_entities(ann: Path) -> dict[str, list[dict[str, Any]]]:
    """``id -> entities`` of the second annotation, in the form ``_match`` compares."""
    build = _build_module()
    texts: dict[str, dict[str, str]] = {}
    out: dict[str, list[dict[str, Any]]] = {}
    for block in build.parse_ann(ann):
        source = build.source_of(block["id"])
        if source not in texts:
            texts[source] = build.load_abstracts(source)
        rec = build.build_block(block, texts[source][block["id"]], lambda msg: None)
        out[block["id"]] = [
            {"type": e["type"], "role": e["role"], "name": e["name"],
             "keys": _keys([e["name"], *e.get("aliases", ()), *(m["text"] for m in e["mentions"])]),
             "mentions": [(m["start"], m["end"], m["text"]) for m in e["mentions"]]}
            for e in rec["entities"]]
    return out


def agreement(ann: Path, split: str) -> dict[str, Any]:
    """Entity-level P/R/F1 of the second annotation against ``split``, by type and role."""
    gold = _load_gold(split)
    second = second_entities(ann)
    missing = [g["id"] for g in gold if g["id"] not in second]
    if missing:
        raise SystemExit(f"{ann}: {len(missing)} abstracts of {split} are not annotated (first: {missing[0]})")
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for g in gold:
        pred = second[g["id"]]
        for with_role, suffix in ((False, ""), (True, "+role")):
            tp, fp, fn = _match(g["entities"], pred, with_role=with_role)
            for i, items in enumerate((tp, fp, fn)):
                for it in items:
                    x = it[0] if i == 0 else it
                    key = x["type"] if not with_role else f"{x['type']}/{x['role']}"
                    counts[key][i] += 1
                    counts["all" + suffix][i] += 1
    # proposed names: same type and role proposed (as eval_extraction's "proposed" row)
    counts["proposed"] = [a + b for a, b in zip(counts["method/proposed"], counts["benchmark/proposed"])]
    return {"split": split, "second": str(ann), "abstracts": len(gold),
            "entity": {k: _prf(*v) for k, v in sorted(counts.items())}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ann", type=Path, help="the second annotation (.ann)")
    ap.add_argument("--split", required=True, help="the gold split it re-annotates")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    result = agreement(args.ann, args.split)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"second annotation {args.ann} against {args.split} ({result['abstracts']} abstracts)")
    for k, v in result["entity"].items():
        print(f"  {k:<22} P {v['precision']:.3f}  R {v['recall']:.3f}  F1 {v['f1']:.3f}  (tp {v['tp']}, fp {v['fp']}, fn {v['fn']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
