"""Benchmark corpora made from real records: the confpapers JSON Lines, resampled to any size.

A resampled record keeps a real record's title, authors and abstract, but gets a new id, a
shuffled author list and a rotated sentence order, so it is a distinct paper to the merger
(a fixed share, ``dup_rate``, is instead an exact copy of an earlier output record, to keep the
merging path busy). Written to ``bench/out/`` (git-ignored); real text never enters the repository.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data"
CONF = SHARED / "confpapers" / "jsonl"
OUT = REPO / "bench" / "out"
_SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def conf_files(*, with_abstracts: bool = True) -> list[Path]:
    files = sorted(CONF.glob("*.jsonl"))
    return [f for f in files if not with_abstracts or "titles_only" not in f.name]


def load_conf(files: list[Path] | None = None) -> list[dict]:
    out = []
    for f in files or conf_files():
        with open(f, encoding="utf-8") as fh:
            out.extend(json.loads(line) for line in fh if line.strip())
    return out


def resample(n: int, *, seed: int = 0, dup_rate: float = 0.02) -> Path:
    """Write (or reuse) ``bench/out/resampled_<n>.jsonl`` and return its path."""
    path = OUT / f"resampled_{n}_s{seed}.jsonl"
    if path.exists():
        return path
    OUT.mkdir(parents=True, exist_ok=True)
    base = load_conf()
    rng = random.Random(seed)
    written: list[str] = []
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        for i in range(n):
            if written and rng.random() < dup_rate:
                line = rng.choice(written)
            else:
                src = rng.choice(base)
                authors = list(src.get("authors") or [])
                rng.shuffle(authors)
                sents = _SENT.split(src.get("abstract") or "")
                k = rng.randrange(len(sents)) if sents else 0
                rec = {"id": f"bench:{i}", "title": src.get("title"), "authors": authors,
                       "abstract": " ".join(sents[k:] + sents[:k]) or None,
                       "area": src.get("area"), "venue": src.get("venue"), "year": src.get("year")}
                line = json.dumps(rec, ensure_ascii=False)
                if len(written) < 5000:
                    written.append(line)
            fh.write(line + "\n")
    tmp.replace(path)
    return path


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("n", type=int)
    ap.add_argument("--seed", type=int, default=0)
    print(resample(ap.parse_args().n, seed=ap.parse_args().seed))
