"""``kg push`` checks its graph IRI and credentials before dumping the store. Found by QA:
``--graph "not an iri"`` dumped the whole build and then failed on the server's HTTP 400, and
``--auth nocolon`` was sent as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from kg.push import PushError, push

UNREACHABLE = "http://127.0.0.1:9/store"  # the discard port: nothing listens there


@pytest.fixture(scope="module")
def out(one_quad_build: Path) -> Path:
    return one_quad_build


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
