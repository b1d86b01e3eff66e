"""Build the shipped gazetteer ``extractors/data/gazetteer.json``.

Inputs
------
- ``shared/data/ml-gazetteer/gazetteer.jsonl`` (SciREX + Papers-with-Code sota-extractor names,
  see its SOURCE.md): DATASET and METHOD names with variants, METRIC names (used as a stoplist).
- ``extractors/data/curated.tsv``: our own list of current benchmarks and model families (the
  shared list stops around 2020); lines that name one thing are one entry with a name fixed by
  the lines themselves (:func:`curated_entries`).
- ``extractors/data/stoplist.txt``: generic names that are never an entity on their own.
- ``tests/gold/silver/batchNN.ann``, the silver training batches (every batch present, or the
  ones named): :mod:`extractors.build_silver` counts how often annotators label each name and
  leave it out, adds the names they label as entries (``source`` ``"silver"``), drops the forms
  of existing entries they leave out (``silver_stoplist``) and settles type disagreements; its
  report is ``extractors/data/silver_names.tsv``. ``silver_batches`` in the output lists the
  batches read, so a rebuild from the same batches can be compared with the shipped file.
- ``shared/data/confpapers/jsonl/*.jsonl`` (abstracts, read only for word counts): the
  **common words**, English words that abstracts write in lower case at least 20 times and
  capitalise mid-sentence at most a fifth as often ("features", "parts", "traffic"). A single
  capitalised common word is not a coined name ("our newly constructed Features dataset"); the
  list holds words only, no text.

The shared lists are noisy (SOTA-table model names such as "BERT + AT + KD (ensemble)",
coreference variants such as "CIFAR10" under "CIFAR-100"), so only names that look like names
are kept: at most four words, no parentheses, "+", "/" or "et al.", not a metric, and with an
upper-case letter or digit after the first character (which drops "Ann", "Char", "Advising").
Variants are kept only when they are the name plus a generic word ("Cityscapes dataset") or the
same letters and digits.

Run ``python -m extractors.build_gazetteer [ML_GAZETTEER_DIR]``; it writes ``gazetteer.json`` and
``silver_names.tsv``, deterministically, from whatever silver batches exist (re-run it when new
batches are committed).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Iterator

if TYPE_CHECKING:
    from extractors.build_silver import Thresholds

from extractors.gazetteer import HAND_SOURCES

DATA = Path(__file__).resolve().parent / "data"
DEFAULT_SOURCE = Path(__file__).resolve().parents[2] / "shared" / "data" / "ml-gazetteer"
DEFAULT_ABSTRACTS = Path(__file__).resolve().parents[2] / "shared" / "data" / "confpapers" / "jsonl"
DEFAULT_SILVER = Path(__file__).resolve().parents[1] / "tests" / "gold" / "silver"
_WORD = re.compile(r"(?<![\w.-])([A-Za-z][a-z]+)(?![\w-])")
_SENTENCE_START = re.compile(r"(?:[.!?:]\s*|^\s*)$")


def _abstract_texts(abstracts: Path) -> Iterator[str]:
    """The abstract of every record in the ``*.jsonl`` files of ``abstracts`` ("" when missing)."""
    for path in sorted(abstracts.glob("*.jsonl")):
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                yield json.loads(line).get("abstract") or ""


def common_words(abstracts: Path = DEFAULT_ABSTRACTS, *, min_lower: int = 20, ratio: int = 5) -> list[str]:
    """Words written in lower case at least ``min_lower`` times and capitalised mid-sentence at
    most ``1/ratio`` as often, over every abstract of the ``*.jsonl`` files in ``abstracts``."""
    from collections import Counter

    low: Counter = Counter()
    cap: Counter = Counter()
    for text in _abstract_texts(abstracts):
        for m in _WORD.finditer(text):
            w = m.group(1)
            if w[0].islower():
                low[w] += 1
            elif not _SENTENCE_START.search(text, max(0, m.start() - 2), m.start()):
                cap[w.lower()] += 1
    return sorted(w for w, c in low.items() if c >= min_lower and cap[w] * ratio <= c)

_LOWER_TOKEN = re.compile(r"(?<![\w.-])([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?![\w-])")
_CAMEL_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")


def lower_tokens(abstracts: Path = DEFAULT_ABSTRACTS) -> set[str]:
    """Every all-lower-case token (hyphenated words whole) written in the abstracts of ``abstracts``."""
    seen: set[str] = set()
    for text in _abstract_texts(abstracts):
        seen.update(_LOWER_TOKEN.findall(text))
    return seen


#: coined names whose other casing is an English word or another name: checked by hand over
#: the forms that pass the corpus test ("Cola" is not CoLA, "Gnomes" not GNoME, "Kits" not KiTS)
_CASE_EXACT = frozenset({
    "TuckER", "VisA", "AQuA", "CoCa", "CoLA", "GNoME", "GloVe", "NoPE", "MOReL", "ReBeL", "YaRN",
    "GaLore", "HyDE", "ClimaX", "LiRA", "KiTS", "LiTS", "SParC", "SWaT", "TACoS", "QuIP", "PaLM",
    "ELMo", "MiDaS", "MUStARD", "LinTS", "GLaM", "GAMs", "SINDy", "PaLI", "SeLa", "SLiC", "DoLa",
})


def case_free_forms(entries: list[dict], lower: set[str], metrics: set[str] = frozenset()) -> list[str]:
    """Curated one-word coined names with inner capitals that may match in any casing.

    Authors respell such names ("SimSIAM" for SimSiam, "Alibi" for ALiBi, "HouseHolder"), so a
    form like "SimSiam" is matched case-insensitively when (1) it mixes small letters and an
    inner capital, (2) its lower-case form is never written in lower case in the abstracts (so
    it is no English word: "ComplEx", "ZeRO", "PlaNet", "ReAct" stay exact), (3) no other
    entry has the same key in another casing ("MoNet" / "MONet"), (4) it has at least four
    letters ("FiD" is not the metric "FID", "PoT" not "POT") and (5) it is not a metric and not a
    surname in another casing (``_CASE_EXACT``: "TuckER" is not "Tucker" decomposition).
    """
    owners: dict[str, set[int]] = {}
    for i, e in enumerate(entries):
        for f in (e["name"], *e["aliases"]):
            owners.setdefault(_key(f), set()).add(i)
    out: set[str] = set()
    for e in entries:
        if e["source"] != "curated":  # silver names were not checked by hand against these tests
            continue
        for f in (e["name"], *e["aliases"]):
            if _CAMEL_NAME.fullmatch(f) and re.search(r"[a-z]", f) and re.search(r".[A-Z]", f) \
                    and f.lower() not in lower and len(owners[_key(f)]) == 1 \
                    and sum(c.isalpha() for c in f) >= 4 and f not in _CASE_EXACT and f.lower() not in metrics:
                out.add(f)
    return sorted(out)


_SEP_FORM = re.compile(r"[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+){2,4}")
_SEP_RUN = re.compile(r"(?<![\w-])[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)+(?![\w-])")


def hyphenation_variants(entries: list[dict], abstracts: Path = DEFAULT_ABSTRACTS) -> dict[int, list[str]]:
    """Per entry index, the partly hyphenated spellings of its names that the abstracts use.

    The matcher knows a name as written, all-hyphen and all-space ("Monte Carlo tree search",
    "Monte-Carlo-tree-search"), not the mixed forms authors write ("Monte-Carlo tree search",
    "minimum-Bayes-risk decoding"). For every name or alias of three to five words joined by
    spaces or hyphens, each mixed spelling written in the abstracts (same words; same case, or any
    case for a curated name the matcher reads in any case) becomes an alias. Only spellings seen in the abstracts are
    added, so the list stays short and holds no invented form.
    """
    from extractors.gazetteer import _case_insensitive

    wanted: dict[tuple[str, ...], list[tuple[int, str]]] = {}
    for i, e in enumerate(entries):
        for f in (e["name"], *e["aliases"]):
            if _SEP_FORM.fullmatch(f):
                words = tuple(re.split(r"[ -]", f.lower()))
                wanted.setdefault(words, []).append((i, f))
    if not wanted:
        return {}
    lengths = {len(w) for w in wanted}
    seen: dict[tuple[str, ...], set[str]] = {}
    for text in _abstract_texts(abstracts):
        for m in _SEP_RUN.finditer(text):
            run = m.group(0)
            parts = re.split(r"([ -])", run)
            words, seps = parts[0::2], parts[1::2]
            low = [w.lower() for w in words]
            for n in lengths:
                for k in range(len(words) - n + 1):
                    key = tuple(low[k:k + n])
                    if key in wanted:
                        surface = words[k] + "".join(seps[k + j] + words[k + j + 1] for j in range(n - 1))
                        seen.setdefault(key, set()).add(surface)
    out: dict[int, set[str]] = {}
    for key, surfaces in seen.items():
        for i, form in wanted[key]:
            known = {form, form.replace("-", " "), form.replace(" ", "-")}
            known.update(entries[i]["aliases"])
            known.add(entries[i]["name"])
            # a curated name the matcher takes in any case (extractors.gazetteer) gets its variant in
            # any case, written as the name is; otherwise only a spelling with the name's own case
            # (a benchmark's lower-case spelling is usually the task: "visual-commonsense reasoning")
            any_case = entries[i]["source"] in HAND_SOURCES and entries[i]["type"] == "method" and _case_insensitive(form)
            for sfc in surfaces:
                if " " not in sfc or "-" not in sfc:
                    continue  # all-space and all-hyphen forms are matched already
                if any_case:
                    cand = "".join(sfc[k] if sfc[k] in " -" else form[k] for k in range(len(form)))
                elif _case_shape_words(sfc) == _case_shape_words(form):
                    cand = sfc
                else:
                    continue
                if cand not in known:
                    out.setdefault(i, set()).add(cand)
    return {i: sorted(v) for i, v in out.items()}


def _case_shape_words(form: str) -> tuple[str, ...]:
    return tuple(re.split(r"[ -]", form))


_GENERIC_TAIL = re.compile(
    r"\s+(?:data ?sets?|benchmarks?|corpus|corpora|test sets?|challenge|database|collection|"
    r"models?|networks?|architectures?|family|variants?|methods?|algorithms?|framework|domain|"
    r"environments?|platform|baseline|tasks?)$",
    re.IGNORECASE,
)
_BAD_CHARS = re.compile(r"[()+/,;:\[\]{}*&|<>=#\"]|\bbaseline|\bet al\b|\bsingle\b|\bensemble\b|\d{4}\)", re.IGNORECASE)
_INNER_SIGNAL = re.compile(r".[A-Z0-9]")


def _key(s: str) -> str:
    from extractors.gazetteer import GREEK_NAMES

    return re.sub(r"[^0-9a-z]+", "", s.lower().translate(GREEK_NAMES))


def _read_lines(path: Path) -> list[str]:
    return [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines()
            if ln.strip() and not ln.startswith("#")]


def _looks_like_name(name: str, metrics: set[str], stop: set[str]) -> bool:
    if not 2 <= len(name) <= 40 or _BAD_CHARS.search(name) or not name[0].isalpha():
        return False
    if len(name.split()) > 4 or name.lower() in metrics or name.lower() in stop:
        return False
    if not _INNER_SIGNAL.search(name):
        return False
    words = name.split()
    if len(words) > 1 and not any(_INNER_SIGNAL.search(w) for w in words):
        # "Incremental Learning", "Experimental Results": Title-Case English, not a name
        return False
    # a bare two- or three-letter acronym from one source table is too ambiguous ("MIM", "FDA")
    letters = re.sub(r"[^A-Za-z]", "", name)
    if name.isupper() and len(letters) <= 3 and " " not in name and not any(c.isdigit() for c in name):
        return False
    return True


def _good_variant(variant: str, name: str) -> bool:
    stripped = _GENERIC_TAIL.sub("", variant).strip()
    return _key(stripped) == _key(name) and stripped != name


def _curated_key(name: str) -> str:
    """Same letters, and the same "+"s: "PointNet++" and "CFR+" are variants of their own."""
    return _key(name) + "+" * name.count("+")


def curated_entries(lines: Iterable[str]) -> list[dict]:
    """The entries of the curated list (tab-separated lines), duplicate lines merged.

    Lines of one type are one entry when their names have the same letters ("Neural ODE",
    "neural ODE"; "PointNet++" is not "PointNet"), when one name is the acronym of the other and among its forms ("MLP" and
    "multilayer perceptron"), or when both names are one name with another generic head noun
    ("Lanczos algorithm", "Lanczos method"). The merged entry's name comes from the group's own
    lines by a fixed order: an acronym before its long form (the extractor links an acronym's
    entry to every spelling of the long form, "recurrent networks" to RNN, but not one long
    spelling to another), a lower-case phrase before its Title-Case spelling, then alphabetical,
    case ignored. So neither the order of the lines nor unrelated lines change a name; the
    group's other names join its aliases.

    Examples
    --------
    >>> [e["name"] for e in curated_entries(["method\\tMLP\\tMLPs|multilayer perceptron",
    ...                                       "method\\tmultilayer perceptron\\tMLPs"])]
    ['MLP']
    >>> [e["name"] for e in curated_entries(["method\\tLanczos algorithm\\tLanczos", "method\\tLanczos method\\t"])]
    ['Lanczos algorithm']
    """
    from extractors.abbreviations import best_long_form
    from extractors.gazetteer import entity_key

    rows: list[tuple[str, str, list[str]]] = []
    for ln in lines:
        parts = ln.split("\t")
        rows.append((parts[0], parts[1], [a for a in (parts[2].split("|") if len(parts) > 2 else []) if a]))
    parent = list(range(len(rows)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(i: int, j: int) -> None:
        ri, rj = find(i), find(j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)

    def acronym_of(short: str, long: str) -> bool:  # "MLP" of "multilayer perceptron", not "PaLM" of "PaLM 2"
        core = short[:-1] if short.endswith("s") else short
        return (" " not in short and core.isupper() and len(core) >= 2 and len(long.split()) >= 2
                and not long.lower().startswith(core.lower()) and best_long_form(core, long) == long)

    first: dict[tuple[str, str], int] = {}
    for i, (etype, name, _aliases) in enumerate(rows):
        keys = [(etype, _curated_key(name))]
        head_less = _GENERIC_TAIL.sub("", name).strip()
        if head_less != name:  # only two names that both end in a generic head are one name
            keys.append((etype, "head-less:" + _key(head_less)))
        for k in keys:
            union(i, first.setdefault(k, i))
    by_form: dict[tuple[str, str], list[int]] = {}
    for i, (etype, name, aliases) in enumerate(rows):
        for f in aliases:
            by_form.setdefault((etype, entity_key(f)), []).append(i)
    for i, (etype, name, _aliases) in enumerate(rows):
        for j in by_form.get((etype, entity_key(name)), ()):
            if j != i and (acronym_of(name, rows[j][1]) or acronym_of(rows[j][1], name)):
                union(i, j)

    groups: dict[int, list[int]] = {}
    for i in range(len(rows)):
        groups.setdefault(find(i), []).append(i)
    out = []
    for members in groups.values():
        names = [rows[i][1] for i in members]

        def order(i: int) -> tuple[bool, bool, str, str]:
            name = rows[i][1]
            long = any(acronym_of(other, name) for other in names)
            title = len(name.split()) > 1 and all(w[:1].isupper() for w in name.split() if w[:1].isalpha()) \
                and any(other != name and entity_key(other) == entity_key(name) for other in names)
            return long, title, name.lower(), name

        chosen = rows[min(members, key=order)][1]
        forms = {f for i in members for f in (rows[i][1], *rows[i][2])}
        out.append({"type": rows[members[0]][0], "name": chosen, "aliases": sorted(forms - {chosen}),
                    "source": "curated"})
    return out


def build_with_report(source: Path = DEFAULT_SOURCE, abstracts: Path = DEFAULT_ABSTRACTS, *,
                      silver: Path | None = DEFAULT_SILVER, batches: Iterable[str] | None = None,
                      thresholds: "Thresholds | None" = None) -> tuple[dict, list]:
    """The gazetteer (as :func:`build`) and the silver names counted for it
    (:class:`extractors.build_silver.SilverName`, in report order)."""
    stop = {s.lower() for s in _read_lines(DATA / "stoplist.txt")}
    rows = [json.loads(ln) for ln in (source / "gazetteer.jsonl").read_text(encoding="utf-8").splitlines() if ln.strip()]
    metrics: set[str] = set()
    for r in rows:
        if r["type"] == "METRIC":
            metrics.add(r["name"].lower())
            metrics.update(v.lower() for v in r["variants"])
    metrics.update(m.lower() for m in _read_lines(source / "gazetteer_metric.txt"))
    metrics.update(m.lower() for m in _EXTRA_METRICS)

    entries: dict[tuple[str, str], dict] = {}
    curated_keys: set[str] = set()
    for entry in curated_entries(_read_lines(DATA / "curated.tsv")):
        entries[(entry["type"], _curated_key(entry["name"]))] = entry
        curated_keys.add(_key(entry["name"]))
        curated_keys.update(_key(a) for a in entry["aliases"])

    for r in rows:
        etype = {"DATASET": "benchmark", "METHOD": "method"}.get(r["type"])
        if etype is None:
            continue
        name = r["name"]
        if not _looks_like_name(name, metrics, stop) or _key(name) in curated_keys:
            continue
        aliases = sorted({v for v in r["variants"] if _good_variant(v, name)})
        k = (etype, _key(name))
        if k in entries:
            entries[k]["aliases"] = sorted(set(entries[k]["aliases"]) | set(aliases))
            continue
        entries[k] = {"type": etype, "name": name, "aliases": aliases, "source": "+".join(r["sources"])}

    # a name listed both as method and as benchmark in the shared data: keep the more frequent
    by_key: dict[str, list[tuple[str, str]]] = {}
    for (etype, k) in entries:
        by_key.setdefault(k, []).append((etype, k))
    for k, both in by_key.items():
        if len(both) > 1 and entries[both[0]]["source"] != "curated" and entries[both[1]]["source"] != "curated":
            del entries[("method", k)]

    out_entries = sorted(entries.values(), key=lambda e: (e["type"], e["name"].lower(), e["name"]))
    silver_names: list = []
    silver_stop: list[str] = []
    read_batches: tuple[str, ...] = ()
    if silver is not None:
        from extractors import build_silver

        blocks, texts, read_batches = build_silver.read_silver(silver, batches)

        def is_stop(name: str) -> bool:
            low = name.lower()
            return low in stop or low in metrics or low.rstrip("s") in stop

        silver_names = build_silver.mine(blocks, texts, out_entries, stop=is_stop,
                                         thresholds=thresholds or build_silver.Thresholds())
        common = frozenset(common_words(abstracts)) if abstracts.is_dir() else frozenset()
        out_entries, silver_stop = build_silver.apply(out_entries, silver_names, is_stop, common,
                                                      min_rate=(thresholds or build_silver.Thresholds()).min_rate)
        out_entries.sort(key=lambda e: (e["type"], e["name"].lower(), e["name"]))
    if abstracts.is_dir():
        for i, extra in hyphenation_variants(out_entries, abstracts).items():
            out_entries[i]["aliases"] = sorted(set(out_entries[i]["aliases"]) | set(extra))
    data = {
        "about": "Built by extractors/build_gazetteer.py from shared/data/ml-gazetteer (SciREX, "
                 "Papers with Code sota-extractor), extractors/data/curated.tsv and the silver "
                 "batches tests/gold/silver/batchNN.ann (extractors/build_silver.py).",
        "entries": out_entries,
        "metrics": sorted(metrics),
        "stoplist": sorted(stop),
        "common_words": common_words(abstracts) if abstracts.is_dir() else [],
        "case_free": case_free_forms(out_entries, lower_tokens(abstracts), metrics) if abstracts.is_dir() else [],
        "silver_batches": list(read_batches),
        "silver_stoplist": silver_stop,
    }
    return data, silver_names


def build(source: Path = DEFAULT_SOURCE, abstracts: Path = DEFAULT_ABSTRACTS, *,
          silver: Path | None = DEFAULT_SILVER, batches: Iterable[str] | None = None,
          thresholds: "Thresholds | None" = None) -> dict:
    """The gazetteer as a JSON-ready dict (see :mod:`extractors.gazetteer` for its use).

    ``silver`` is the folder of the silver batches (``None``: none), ``batches`` the batch names
    to read (default: every ``batchNN.ann`` there); see :mod:`extractors.build_silver`.
    """
    return build_with_report(source, abstracts, silver=silver, batches=batches, thresholds=thresholds)[0]


#: Metric names missing from the shared list (also a stoplist for method names).
_EXTRA_METRICS = (
    "accuracy", "top-1 accuracy", "top-5 accuracy", "F1", "F1 score", "F1-score", "macro-F1",
    "micro-F1", "BLEU", "ROUGE", "ROUGE-L", "ROUGE-1", "ROUGE-2", "METEOR", "CIDEr", "SPICE",
    "BERTScore", "perplexity", "PPL", "AUC", "AUROC", "AUPRC", "ROC-AUC", "mAP", "mIoU", "IoU",
    "FID", "IS", "KID", "LPIPS", "PSNR", "SSIM", "pass@1", "pass@k", "EM", "exact match",
    "MSE", "RMSE", "MAE", "NDCG", "MRR", "Recall@K", "Hits@K", "win rate", "ECE", "WER", "CER",
    "precision", "recall", "Elo", "FLOPs",
)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    source = Path(argv[0]) if argv else DEFAULT_SOURCE
    from extractors.build_silver import REPORT_PATH, report_lines

    data, silver_names = build_with_report(source)
    path = DATA / "gazetteer.json"
    path.write_text(json.dumps(data, ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    REPORT_PATH.write_text("\n".join(report_lines(silver_names)) + "\n", encoding="utf-8")
    n = {t: sum(e["type"] == t for e in data["entries"]) for t in ("method", "benchmark")}
    n_silver = sum(e["source"] == "silver" for e in data["entries"])
    print(f"wrote {path}: {n['method']} methods, {n['benchmark']} benchmarks ({n_silver} from "
          f"{len(data['silver_batches'])} silver batches), {len(data['metrics'])} metric names, "
          f"{len(data['stoplist'])} stop names, {len(data['silver_stoplist'])} silver stop forms; "
          f"wrote {REPORT_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
