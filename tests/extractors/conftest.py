"""Fixtures for the extractor tests: one default pipeline per session, a helper that runs it,
and the entity tests' shared views of its result (``found_in``, ``names_in``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.records import Record
from kg.text import normalize_text


@pytest.fixture(scope="session")
def nlp():
    from extractors.pipeline import make_nlp

    return make_nlp()


def hand_model(path: Path, part: str, weights: dict[str, dict[str, float]], threshold: float,
               *, drop: tuple[str, ...] = ()) -> str:
    """Write the shipped learned model with its own thresholds off and a hand-built ``part``
    (``"extend"`` or ``"phrase"``) decision model of class -> feature -> weight; return its path.
    ``drop`` removes other decision models from the copy."""
    import json

    from extractors import learned as L

    fixed = {"extend": L.EXT_FIXED_FEATURES, "phrase": L.PHRASE_FIXED_FEATURES}[part]
    decision = {"extend": L.EXTEND, "phrase": L.PHRASE}[part]
    feats = list(fixed) + sorted({f for w in weights.values() for f in w} - set(fixed))
    data = L.load_model().to_data()
    data["thresholds"] = {}
    for key in drop:
        data.pop(key, None)
    data[part] = {"features": feats, "classes": list(L.CLASSES),
                  "weights": [[weights.get(c, {}).get(f, 0.0) for f in feats] for c in L.CLASSES],
                  "thresholds": {decision: threshold}, "meta": {}}
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def record(abstract: str | None, title: str | None = None, rid: str = "t:1") -> Record:
    """A record as readers make them: text normalised (``kg.text.normalize_text``)."""
    return Record(id=rid, title=normalize_text(title), abstract=normalize_text(abstract))


@pytest.fixture(scope="session")
def hand_model_file():
    """The :func:`hand_model` helper, for test modules (the tests folder is not a package)."""
    return hand_model


@pytest.fixture(scope="session")
def rec():
    """The :func:`record` helper, for test modules (the tests folder is not a package)."""
    return record


@pytest.fixture(scope="session")
def extract(nlp):
    """``extract(abstract, title=None)`` -> {(type, name): entity} after consolidation of that one record."""
    from extractors.pipeline import consolidate, extract_raw

    def run(abstract: str | None, title: str | None = None):
        recs = [record(abstract, title)]
        out = consolidate(recs, list(extract_raw(recs, nlp=nlp)))[0]
        return [e for e in out.entities if e.type.value != "concept"]

    return run


def _default_title(request) -> str | None:
    """The title a test module gives its invented abstracts (its ``TITLE``), else none."""
    return getattr(request.module, "TITLE", None)


@pytest.fixture()
def found_in(extract, request):
    """``found_in(text, title=TITLE)`` -> the set of ``(type, role, name)`` of the methods and
    benchmarks ``extract`` finds; ``title`` defaults to the test module's ``TITLE`` (none
    when the module has no such constant)."""
    default = _default_title(request)

    def run(text: str, title: str | None = default) -> set[tuple[str, str, str]]:
        return {(e.type.value, e.role.value, e.name) for e in extract(text, title)}

    return run


@pytest.fixture()
def names_in(extract, request):
    """``names_in(text, title=TITLE)`` -> the set of names of the methods and benchmarks
    ``extract`` finds; ``title`` defaults as for :func:`found_in`."""
    default = _default_title(request)

    def run(text: str, title: str | None = default) -> set[str]:
        return {e.name for e in extract(text, title)}

    return run


@pytest.fixture(scope="session")
def nlp_with():
    """``nlp_with(model, **config)``: a default pipeline whose ``paperkg_learned`` reads ``model``
    (a JSON path, or None for the shipped one) with ``config``."""
    from extractors.pipeline import make_nlp

    def build(model: str | None, **config):
        nlp = make_nlp()
        nlp.replace_pipe("paperkg_learned", "paperkg_learned", config={"model": model, **config})
        return nlp

    return build


@pytest.fixture(scope="module")
def rules_nlp():
    """The default pipeline without ``paperkg_learned``: the rules' view of a text."""
    from extractors.pipeline import make_nlp

    nlp = make_nlp()
    nlp.remove_pipe("paperkg_learned")
    return nlp


@pytest.fixture(scope="module")
def train():
    """``bench/train_learned.py`` as a module (it is a script, not part of the package)."""
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "bench" / "train_learned.py"
    spec = importlib.util.spec_from_file_location("train_learned", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def corpus_marks(rec, nlp):
    """``run(definers, target)``: the texts of the mentions the corpus step (rule ``corpus``) marks in
    ``target`` when it is extracted together with the abstracts ``definers``."""
    from extractors.pipeline import extract_records

    def run(definers, target: str) -> list[str]:
        recs = [rec(t, rid=f"d{i}") for i, t in enumerate(definers)] + [rec(target, rid="t")]
        out = extract_records(recs, nlp=nlp)
        return [m.text for e in out[-1].entities if e.type.value != "concept" for m in e.mentions
                if m.rule == "corpus"]
    return run
