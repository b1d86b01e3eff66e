"""Benchmark corpora made from real records: the confpapers JSON Lines, resampled to any size.

A resampled record is built from two real records A and B: the first half of A's abstract
sentences followed by the second half of B's, A's title words followed by B's last words, A's
authors shuffled, and a new id. That keeps real vocabulary, lengths and author names while
making every record a distinct paper to the merger. A fixed share (``dup_rate``) is instead an
exact copy of an earlier output record, so the merge path is exercised too. Written to ``bench/out/`` (git-ignored); real text never enters the repository.
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
    path = OUT / f"mixed_{n}_s{seed}.jsonl"
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
                a, b = rng.choice(base), rng.choice(base)
                authors = list(a.get("authors") or [])
                rng.shuffle(authors)
                sa, sb = _SENT.split(a.get("abstract") or ""), _SENT.split(b.get("abstract") or "")
                abstract = " ".join(sa[: (len(sa) + 1) // 2] + sb[len(sb) // 2:]).strip()
                ta, tb = (a.get("title") or "").split(), (b.get("title") or "").split()
                title = " ".join(ta[: max(1, len(ta) // 2)] + tb[len(tb) // 2:]) or None
                rec = {"id": f"bench:{i}", "title": title, "authors": authors,
                       "abstract": abstract or None,
                       "area": a.get("area"), "venue": a.get("venue"), "year": a.get("year")}
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
