"""``kg push`` checks its graph IRI and credentials before dumping the store. Found by QA:
``--graph "not an iri"`` dumped the whole build and then failed on the server's HTTP 400, and
``--auth nocolon`` was sent as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.push import PushError, push
from kg.store import build_store

NQ = ('<https://w3id.org/paperkg/id/paper/a> <http://purl.org/dc/terms/title> "A" '
      '<https://w3id.org/paperkg/id/graph/qa> .\n')
UNREACHABLE = "http://127.0.0.1:9/store"  # the discard port: nothing listens there


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("push")
    (d / "in.nq").write_text(NQ, encoding="utf-8")
    build_store(d / "in.nq", d / "out")
    return d / "out"


@pytest.mark.parametrize("graph", ["not an iri", "relative/path", "http://x/<y>", ":nothing", "1abc:x"])
def test_bad_graph_iri_is_refused_before_the_server(out: Path, graph: str) -> None:
    with pytest.raises(PushError, match=r"^bad graph IRI .*expected an absolute IRI"):
        push(out, UNREACHABLE, graph=graph)


@pytest.mark.parametrize("graph", ["urn:x-paperkg:papers", "https://example.org/g/1", "tag:a.org,2024:g"])
def test_good_graph_iri_goes_on_to_the_server(out: Path, graph: str) -> None:
    with pytest.raises(PushError, match="cannot reach the server"):
        push(out, UNREACHABLE, graph=graph)


def test_credentials_need_a_colon(out: Path) -> None:
    with pytest.raises(PushError, match=r"^bad credentials: expected USER:PASSWORD"):
        push(out, UNREACHABLE, auth="nocolon")
    with pytest.raises(PushError, match="cannot reach the server"):
        push(out, UNREACHABLE, auth="user:pass:word")
