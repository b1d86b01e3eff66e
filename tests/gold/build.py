"""Turn the hand-written annotation files into the gold JSONL with character offsets.

The labels are decided by a person reading each abstract (see ``GUIDELINES.md``); this
script only does the clerical part: it finds every occurrence of each surface form the
annotator wrote down in ``normalize_text(abstract)`` and records the offsets.

Annotation file format (``annotations/<split>.ann``), one block per abstract::

    @ iclr2024:34f9a343f945196b66f807e0eb6249fd
    M P FLEET-MERGE
    B P FLEET-TOOLS
    B U Meta-World
    M U Low-Rank Adaptation | LoRA
    M U Transformer | transformer ; skip=2
    - a free-text note

``M``/``B`` = method/benchmark, ``P``/``U`` = proposed/used, then the canonical name and,
after ``|``, the aliases separated by ``|`` (``\\|`` is a bar inside a form, as in an acronym
written ``IC$\\|$TC``). The name and every alias are surface forms
searched in the abstract: case-sensitively unless the form is all lower case, at word
boundaries, with a plural ``s``/``es`` absorbed into the span. Where two matches overlap
the longer wins (``Llama 2-Chat`` beats ``Llama 2``). ``; skip=2,3`` drops the 2nd and 3rd
match of that entity (counted after overlap resolution) where a surface form occurs in a
sense that is not the entity. The block's source file is taken from the id prefix.

Usage: ``python tests/gold/build.py dev`` writes ``dev.jsonl``; ``--show`` prints each
abstract with the mentions in brackets for checking.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from kg.text import normalize_text

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[2] / "shared" / "data" / "confpapers" / "jsonl"
TYPES = {"M": "method", "B": "benchmark"}
ROLES = {"P": "proposed", "U": "used"}


def load_abstracts(source: str) -> dict[str, str]:
    """``id -> normalize_text(abstract)`` for one source file."""
    out = {}
    with (DATA / source).open(encoding="utf-8") as fh:
        for line in fh:
            rec = json.loads(line)
            out[rec["id"]] = normalize_text(rec.get("abstract")) or ""
    return out


def source_of(rec_id: str) -> str:
    return rec_id.split(":", 1)[0] + ".jsonl"


def parse_ann(path: Path) -> list[dict]:
    """The blocks of an annotation file (``extractors.build_silver.parse_batch`` reads the format
    for the gold and the silver batches alike); a line it cannot read stops with its file and line."""
    from extractors.build_silver import parse_batch
    from kg.errors import InputError

    try:
        return parse_batch(Path(path))
    except InputError as err:
        sys.exit(str(err))


def _find(text: str, form: str) -> list[tuple[int, int]]:
    flags = re.IGNORECASE if form == form.lower() else 0
    pat = re.compile(r"(?<!\w)" + re.escape(form) + r"(?:e?s)?(?!\w)", flags)
    return [(m.start(), m.end()) for m in pat.finditer(text)]


def build_block(block: dict, text: str, warn) -> dict:
    cands = []  # (start, end, entity index)
    for k, ent in enumerate(block["entities"]):
        for form in [ent["name"], *ent["aliases"]]:
            hits = _find(text, form)
            if not hits:
                warn(f"line {ent['lineno']}: {form!r} not found")
            cands += [(s, e, k) for s, e in hits]
    # Longest span first; drop any candidate overlapping an already kept one.
    kept: list[tuple[int, int, int]] = []
    for s, e, k in sorted(set(cands), key=lambda c: (-(c[1] - c[0]), c[0])):
        if all(e <= ks or s >= ke for ks, ke, _ in kept):
            kept.append((s, e, k))
    entities = []
    for k, ent in enumerate(block["entities"]):
        spans = sorted((s, e) for s, e, kk in kept if kk == k)
        spans = [sp for n, sp in enumerate(spans, 1) if n not in ent["skip"]]
        if not spans:
            warn(f"line {ent['lineno']}: {ent['name']!r} has no mention left")
            continue
        entities.append({
            "type": ent["type"], "name": ent["name"], "role": ent["role"],
            "aliases": ent["aliases"],
            "mentions": [{"start": s, "end": e, "text": text[s:e]} for s, e in spans],
        })
    entities.sort(key=lambda en: en["mentions"][0]["start"])
    out = {"id": block["id"], "source": source_of(block["id"]), "entities": entities}
    if block["notes"]:
        out["notes"] = " ".join(block["notes"])
    return out


def show(text: str, rec: dict) -> str:
    marks = sorted(
        ((m["start"], m["end"], en["type"][0].upper() + en["role"][0].upper())
         for en in rec["entities"] for m in en["mentions"]), reverse=True)
    for s, e, tag in marks:
        text = f"{text[:s]}[{text[s:e]}]{tag}{text[e:]}"
    return text


def build_split(split: str, *, show_marks: bool = False) -> tuple[list[str], int]:
    """JSON lines for one split built from ``annotations/<split>.ann``, and the warning count."""
    blocks = parse_ann(HERE / "annotations" / f"{split}.ann")
    texts: dict[str, dict[str, str]] = {}
    lines, problems = [], 0
    for block in blocks:
        src = source_of(block["id"])
        texts.setdefault(src, load_abstracts(src))
        text = texts[src][block["id"]]

        def warn(msg: str, _id: str = block["id"]) -> None:
            nonlocal problems
            problems += 1
            print(f"WARNING {_id}: {msg}", file=sys.stderr)

        rec = build_block(block, text, warn)
        lines.append(json.dumps(rec, ensure_ascii=False))
        if show_marks:
            print(f"\n@ {rec['id']}\n{show(text, rec)}")
    return lines, problems


def main() -> None:
    parser = argparse.ArgumentParser(description="build gold JSONL from annotations")
    # every split with an annotation file, so a new split needs no edit here
    splits = sorted(p.stem for p in (HERE / "annotations").glob("*.ann"))
    parser.add_argument("split", choices=splits)
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    lines, problems = build_split(args.split, show_marks=args.show)
    (HERE / f"{args.split}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{args.split}: {len(lines)} abstracts, {problems} warnings", file=sys.stderr)


if __name__ == "__main__":
    main()
