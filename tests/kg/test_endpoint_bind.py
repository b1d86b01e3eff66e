"""``kg serve``: a port in use or an unknown host is one line, exit status 1, no worker left
running. Found by QA: both were an OSError traceback, and the query workers had already been
started when the bind failed. Also: PUT, DELETE and PATCH are a plain 405 with Allow."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from kg.cli import main
from kg.endpoint import make_server
from kg.errors import PaperkgError


@pytest.fixture(scope="module")
def out(one_quad_build: Path) -> Path:
    return one_quad_build


@pytest.fixture()
def busy_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(1)
    yield s.getsockname()[1]
    s.close()


def test_port_in_use_is_one_line(out: Path, busy_port: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", str(out), "--port", str(busy_port), "--quiet"]) == 1
    err = capsys.readouterr().err.strip()
    assert err == (f"kg: error: cannot serve on 127.0.0.1:{busy_port}: the port is in use; "
                   f"pick another --port (0 picks a free one)")


def test_no_worker_is_started_when_the_bind_fails(out: Path, busy_port: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import kg.endpoint as endpoint

    started: list[object] = []
    monkeypatch.setattr(endpoint, "_Worker", lambda *a, **k: started.append(a))
    with pytest.raises(PaperkgError, match="the port is in use"):
        make_server(out, port=busy_port, workers=2)
    assert started == []


def test_unknown_host_is_one_line(out: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", str(out), "--host", "no-such-host.invalid", "--port", "0", "--quiet"]) == 1
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err == ("kg: error: cannot serve on no-such-host.invalid:0: unknown host 'no-such-host.invalid' "
                   "(--host takes an address such as 127.0.0.1)")


def test_free_port_still_serves(out: Path) -> None:
    server = make_server(out, port=0, workers=1)
    try:
        assert server.url.startswith("http://127.0.0.1:")
    finally:
        server.server_close()


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH"])
def test_write_methods_are_405_with_allow(out: Path, method: str) -> None:
    # found by QA: PUT and DELETE got http.server's 501 HTML page ("Unsupported method")
    import http.client
    import threading

    server = make_server(out, port=0, workers=1)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
        conn.request(method, "/sparql?graph=default", body=b"<a:b> <a:c> <a:d> .",
                     headers={"Content-Type": "application/n-triples"})
        r = conn.getresponse()
        assert r.status == 405 and r.getheader("Allow") == "GET, POST, HEAD, OPTIONS"
        assert r.read().startswith(b"read-only endpoint")
        conn.close()
        conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
        conn.request("GET", "/sparql?query=ASK%7B%3Ca%3Ab%3E%20%3Fp%20%3Fo%7D",
                     headers={"Accept": "text/csv"})
        assert conn.getresponse().read().strip().splitlines()[-1] == b"false"  # nothing was written
    finally:
        server.shutdown()
        server.server_close()
