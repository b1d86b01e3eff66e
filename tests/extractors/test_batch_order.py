"""Running the pipeline one component at a time over a batch (``_process_batch``) annotates
each document as ``nlp.pipe`` does, and the collector bookkeeping after a batch
(``_age_young_objects``) leaves the caller's garbage collector as it was.

No timings here (``bench/bench_extract.py`` measures them).
"""

from __future__ import annotations

import gc
import json
from pathlib import Path

from extractors.abbreviations import DEFS_KEY
from extractors.entities import CANDIDATES_KEY, INFO_KEY
from extractors.pipeline import _join, _process_batch, extract_raw
from kg.records import Record

TEXTS = [
    "FlexiNet: Merging Adapters\n\nWe propose FlexiNet, a novel framework that merges LoRA adapters. "
    "We evaluate on ImageNet and CIFAR-10 and compare with Adam (Smith et al., 2020).",
    "",
    "Federated learning (FL) benefits; FL clients agree on zeroth-order Hessian estimation.",
    "Only a title",
    "$x^2$ \\textbf{Bold} **Uni**fied <b>html</b> (unbalanced",
]


def _annotations(doc) -> str:
    """Everything a component leaves on a Doc, as text: tokens, span groups, the plain data."""
    spans = {k: [(s.start, s.end, s.label_, s.kb_id_, s.id_) for s in g] for k, g in sorted(doc.spans.items())}
    plain = {k: doc.user_data.get(k) for k in (DEFS_KEY, CANDIDATES_KEY, INFO_KEY)}
    return json.dumps([[t.text for t in doc], spans, plain], sort_keys=True, default=str)


def test_batch_is_what_pipe_gives(nlp) -> None:
    one_by_one = [_annotations(d) for d in nlp.pipe(TEXTS, batch_size=2)]
    batched = [_annotations(d) for d in _process_batch(nlp, TEXTS, 2)]
    assert batched == one_by_one
    assert len(batched) == len(TEXTS)


def test_batch_is_what_pipe_gives_on_real_abstracts(nlp, shared_data: Path) -> None:
    path = shared_data / "confpapers" / "jsonl" / "iclr2024.jsonl"
    texts = []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            if n >= 150:
                break
            d = json.loads(line)
            texts.append(_join(Record(id=f"c:{n}", title=d.get("title"), abstract=d.get("abstract")))[0])
    assert [_annotations(d) for d in _process_batch(nlp, texts, 64)] == \
        [_annotations(d) for d in nlp.pipe(texts, batch_size=64)]


def test_collector_state_is_kept(nlp) -> None:
    records = [Record(id=f"r{i}", title="FlexiNet: Merging Adapters", abstract=TEXTS[0]) for i in range(5)]
    assert gc.isenabled()
    list(extract_raw(records, nlp=nlp, batch_size=2))
    assert gc.isenabled() and gc.get_freeze_count() == 0
    gc.disable()
    try:
        list(extract_raw(records, nlp=nlp, batch_size=2))
        assert not gc.isenabled()  # a caller's paused collector stays paused
    finally:
        gc.enable()


def test_objects_the_caller_froze_stay_frozen(nlp) -> None:
    records = [Record(id=f"r{i}", title="FlexiNet", abstract=TEXTS[0]) for i in range(3)]
    gc.collect()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert frozen > 0
        list(extract_raw(records, nlp=nlp, batch_size=2))
        assert gc.get_freeze_count() >= frozen
    finally:
        gc.unfreeze()


def test_garbage_cycles_made_meanwhile_are_still_collected(nlp) -> None:
    records = [Record(id=f"r{i}", title="FlexiNet", abstract=TEXTS[0]) for i in range(4)]
    gc.collect()
    cycle: list = []
    cycle.append(cycle)
    del cycle  # young garbage when the batch ends: moved to the oldest generation, not lost
    list(extract_raw(records, nlp=nlp, batch_size=2))
    assert gc.collect() >= 1
