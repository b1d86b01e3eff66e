"""The silver miner (``extractors/build_silver.py``): counts, thresholds, the silver stoplist,
type conflicts and determinism on hand-written annotation files and abstracts, and the shipped
gazetteer built from the silver batches.

Every abstract here is written for this test; none is copied from a real one.
"""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

import pytest

from extractors import build_silver as bs
from extractors.build_silver import Thresholds, apply, mine, parse_batch, report_lines
from extractors.gazetteer import GAZETTEER_PATH, Gazetteer, entity_key
from kg.errors import InputError

REPO = Path(__file__).resolve().parents[2]

TEXTS = {
    "t:1": "We train FlowNet-X with gradient flow on the Zebra-7 benchmark and compare with Adam.",
    "t:2": "Our method beats FlowNet-X on Zebra-7. We use Adam and beam search.",
    "t:3": "A study of Adam in practice; FlowNet-X appears in related work, and so does Llama 2-Chat.",
    "t:4": "We run beam search and gradient flow. Llama 2 models are weak here; Adam helps.",
    "t:5": "Gradient flow is analysed; Zebra-7 is a dataset of zebras. Adam is used.",
}

ANN = """\
# hand-written silver batch for the tests
@ t:1
M U FlowNet-X
M U gradient flow
B U Zebra-7
@ t:2
M U FlowNet-X
B U Zebra-7
M U beam search
@ t:3
M U Llama 2-Chat
- Adam is only named here: left out on purpose, as is FlowNet-X
@ t:4
M U gradient flow
M P Llama 2
@ t:5
M U gradient flow
M U Zebra-7
"""

ENTRIES = [  # the gazetteer from the other sources, in its order
    {"type": "method", "name": "Adam", "aliases": [], "source": "curated"},
    {"type": "method", "name": "beam search", "aliases": [], "source": "curated"},
    {"type": "benchmark", "name": "Zebra-7", "aliases": ["Zebra7"], "source": "curated"},
]


@pytest.fixture()
def batch(tmp_path: Path) -> Path:
    path = tmp_path / "batch01.ann"
    path.write_text(ANN, encoding="utf-8")
    return path


def _by_name(names):
    return {sn.name: sn for sn in names}


def _mine(batch: Path, **th):
    # FlowNet-X is labelled in 2 of its 3 abstracts: a rate of 0.6 lets it in (the shipped 0.67 not)
    return mine(parse_batch(batch), TEXTS, ENTRIES, thresholds=Thresholds(**{"min_rate": 0.6, **th}))


def test_counts(batch: Path) -> None:
    got = _by_name(_mine(batch))
    # labelled in t:1, t:2; occurs unlabelled in t:3
    assert (got["FlowNet-X"].labelled, got["FlowNet-X"].unlabelled) == (2, 1)
    # a lower-case form matches in any case ("Gradient flow" in t:5) and is labelled in t:1, t:4, t:5
    assert (got["gradient flow"].labelled, got["gradient flow"].unlabelled) == (3, 0)
    # an existing entry: labelled nowhere, left out in all five abstracts
    assert (got["Adam"].labelled, got["Adam"].unlabelled) == (0, 5)
    assert got["Adam"].gazetteer == "curated" and got["Adam"].entries == (0,)
    # "Llama 2" inside the labelled "Llama 2-Chat" (t:3) is not a decision to leave it out
    assert (got["Llama 2"].labelled, got["Llama 2"].unlabelled, got["Llama 2"].proposed) == (1, 0, 1)
    # the silver group joins the existing entry: types counted per abstract
    z = got["Zebra-7"]
    assert (z.labelled, z.unlabelled, z.types["benchmark"], z.types["method"]) == (3, 0, 2, 1)
    # beam search: labelled in t:2, occurs unlabelled in t:4
    assert (got["beam search"].labelled, got["beam search"].unlabelled) == (1, 1)


def test_find_form_is_the_gold_matching() -> None:
    spec = importlib.util.spec_from_file_location("gold_build_for_test", REPO / "tests" / "gold" / "build.py")
    gold = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gold)
    text = "GANs and a GAN, gans; Gradient flows, gradient-flow, sub-GAN, GAN-based and GANes."
    for form in ("GAN", "gan", "gradient flow", "gradient-flow", "GAN-based", "flows"):
        assert bs.find_form(text, form) == gold._find(text, form), form


def test_thresholds_new_entries(batch: Path) -> None:
    got = _by_name(_mine(batch))
    # coined name used in one abstract or more: an entry
    assert got["FlowNet-X"].decision == bs.NEW
    # a common-noun name needs MIN_COMMON (3) labelled abstracts: "gradient flow" has 3
    assert got["gradient flow"].decision == bs.NEW
    # proposed in one abstract only, never used: below MIN_LABELLED
    assert got["Llama 2"].decision == bs.BELOW
    got = _by_name(_mine(batch, min_common=4))
    assert got["gradient flow"].decision == bs.BELOW
    # label rate 2/3 falls below a rate of 0.7
    got = _by_name(_mine(batch, min_rate=0.7))
    assert got["FlowNet-X"].decision == bs.BELOW
    got = _by_name(_mine(batch, min_labelled=1))
    assert got["Llama 2"].decision == bs.NEW


def test_stoplisting_and_apply(batch: Path) -> None:
    names = _mine(batch)
    got = _by_name(names)
    assert got["Adam"].decision == bs.STOP  # 0 of 5 labelled (>= 4 seen, >= 75% left out)
    assert got["beam search"].decision == bs.KNOWN  # 1 of 2 left out: too few to stop
    entries, stop = apply([dict(e) for e in ENTRIES], names, lambda f: f.lower() == "llama 2", min_rate=0.6)
    assert stop == ["adam"]
    assert [e["name"] for e in entries if e["source"] == "curated"] == ["beam search", "Zebra-7"]
    silver = {e["name"]: e for e in entries if e["source"] == "silver"}
    assert set(silver) == {"FlowNet-X", "gradient flow", "Llama 2-Chat"}
    assert silver["FlowNet-X"]["type"] == "method"
    gaz = Gazetteer.from_data({"entries": entries, "stoplist": ["LLM"], "silver_stoplist": stop})
    assert gaz.is_stop("Adam") and gaz.is_stop("LLM") and gaz.lookup("Adam") is None
    assert gaz.lookup("FlowNet-X").source == "silver"
    # a silver name is matched by its case shape, like a curated one
    assert gaz.lookup("FLOWNET-X") is None and gaz.lookup("Gradient flow") is not None
    # thresholds higher than the evidence: nothing stopped
    assert _by_name(_mine(batch, stop_min_seen=6))["Adam"].decision != bs.STOP


def test_type_conflicts(tmp_path: Path) -> None:
    ann = tmp_path / "batch02.ann"
    ann.write_text("@ t:1\nM U Zebra-7\n@ t:2\nM U Zebra-7\n@ t:5\nB U Zebra-7\n", encoding="utf-8")
    names = _by_name(mine(parse_batch(ann), TEXTS, ENTRIES))
    # 2 of 3 abstracts say method: below TYPE_RATE (0.75) and MIN_LABELLED (3), the curated type stays
    assert names["Zebra-7"].decision == bs.TYPE_KEPT and names["Zebra-7"].type == "benchmark"
    names = mine(parse_batch(ann), TEXTS, ENTRIES, thresholds=Thresholds(type_rate=0.6, min_labelled=2))
    z = _by_name(names)["Zebra-7"]
    assert z.decision == bs.RETYPE and z.type == "method"
    entries, _stop = apply([dict(e) for e in ENTRIES], names, lambda f: False)
    assert [e["type"] for e in entries if e["name"] == "Zebra-7"] == ["method"]


def test_stop_names_and_bad_forms_never_become_entries(tmp_path: Path) -> None:
    texts = {"a:1": "We use BP and Spring and LLM and HiPPO here.", "a:2": "BP, Spring, LLM and HiPPO again."}
    ann = tmp_path / "batch01.ann"
    ann.write_text("".join(f"@ {i}\nM U BP\nB U Spring\nM U LLM\nM U HiPPO\n" for i in texts), encoding="utf-8")
    names = mine(parse_batch(ann), texts, [], stop=lambda n: n.lower() == "llm")
    assert _by_name(names)["LLM"].decision == bs.STOPWORD
    entries, _ = apply([], names, lambda f: f.lower() == "llm", {"spring"})
    assert [e["name"] for e in entries] == ["HiPPO"]  # "BP" is a bare acronym, "Spring" a word


def test_deterministic(batch: Path) -> None:
    blocks = parse_batch(batch)
    first = report_lines(mine(blocks, TEXTS, ENTRIES))
    shuffled = list(blocks)
    random.Random(7).shuffle(shuffled)
    assert report_lines(mine(shuffled, TEXTS, ENTRIES)) == first
    assert first[0].split("\t")[:5] == ["type", "name", "aliases", "labelled", "unlabelled"]
    # the report holds names and counts, never a sentence of an abstract
    assert not any(t[:30] in "\n".join(first) for t in TEXTS.values())


@pytest.mark.parametrize("content, line, what", [
    ("M U X\n", 1, "before the first"),
    ("@ t:1\nQ U X\n", 2, "cannot parse"),
    ("@ t:1\nM U X ; skip=a\n", 2, "unknown option"),
])
def test_bad_annotation_lines(tmp_path: Path, content: str, line: int, what: str) -> None:
    path = tmp_path / "batch09.ann"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=what) as err:
        parse_batch(path)
    assert str(err.value).startswith(f"{path}:{line}: ")


def test_an_escaped_bar_is_part_of_a_form(tmp_path: Path) -> None:
    path = tmp_path / "batch09.ann"
    path.write_text("@ t:1\nM P Image Contrastive Text Clustering | IC$\\|$TC | ICTC ; skip=2\n", encoding="utf-8")
    (ent,) = parse_batch(path)[0]["entities"]
    assert (ent["name"], ent["aliases"], ent["skip"]) == ("Image Contrastive Text Clustering", ["IC$|$TC", "ICTC"], {2})


def test_batches_named_and_missing(tmp_path: Path, batch: Path) -> None:
    (tmp_path / "batch01.ann.orig").write_text("x", encoding="utf-8")
    assert bs.batch_paths(tmp_path) == [batch]
    with pytest.raises(InputError, match="batch07"):
        bs.batch_paths(tmp_path, ["batch07"])


# ----------------------------------------------------------------------------- the shipped data
def test_shipped_gazetteer_holds_the_silver_decisions() -> None:
    data = json.loads(GAZETTEER_PATH.read_text(encoding="utf-8"))
    assert data["silver_batches"], "the shipped gazetteer was built from silver batches"
    rows = [ln.split("\t") for ln in bs.REPORT_PATH.read_text(encoding="utf-8").splitlines()]
    header, rows = rows[0], rows[1:]
    assert tuple(header) == bs.REPORT_COLUMNS
    col = {c: i for i, c in enumerate(header)}
    silver = {entity_key(e["name"]) for e in data["entries"] if e["source"] == "silver"}
    new = [r for r in rows if r[col["decision"]] == bs.NEW]
    assert silver and len(silver) <= len(new)
    assert silver <= {entity_key(f) for r in new for f in (r[col["name"]], *r[col["aliases"]].split("|")) if f}
    stopped = [r for r in rows if r[col["decision"]] == bs.STOP]
    for r in stopped:
        forms = {f.lower() for f in (r[col["name"]], *r[col["aliases"]].split("|")) if f}
        assert forms & set(data["silver_stoplist"])
        labelled, unlabelled = int(r[col["labelled"]]), int(r[col["unlabelled"]])
        assert labelled + unlabelled >= bs.STOP_MIN_SEEN and unlabelled >= bs.STOP_RATE * (labelled + unlabelled)


def test_shipped_files_are_what_the_script_makes(shared_data: Path) -> None:
    from extractors.build_gazetteer import build_with_report

    shipped = json.loads(GAZETTEER_PATH.read_text(encoding="utf-8"))
    data, names = build_with_report(shared_data / "ml-gazetteer", batches=shipped["silver_batches"])
    assert data == shipped
    assert "\n".join(report_lines(names)) + "\n" == bs.REPORT_PATH.read_text(encoding="utf-8")


def test_a_short_acronym_does_not_join_two_names(tmp_path: Path) -> None:
    texts = {"b:1": "Training with backpropagation (BP) is slow.",
             "b:2": "Bongard Problems (BPs) test visual reasoning; BPs are hard."}
    ann = tmp_path / "batch01.ann"
    ann.write_text("@ b:1\nM U backpropagation | BP\n@ b:2\nB U Bongard Problems | BPs\n", encoding="utf-8")
    got = _by_name(mine(parse_batch(ann), texts, []))
    assert set(got) == {"backpropagation", "Bongard Problems"}
    assert (got["backpropagation"].labelled, got["backpropagation"].unlabelled) == (1, 0)
    assert (got["Bongard Problems"].labelled, got["Bongard Problems"].types["benchmark"]) == (1, 1)
