"""``kg push``: load a build into an external SPARQL server (SPARQL 1.1 Graph Store HTTP Protocol).

The build's triples (its named graph in the embedded store, see :mod:`kg.store`) are sent as
N-Triples to ``ENDPOINT?graph=IRI``: the first batch with ``PUT``, which replaces whatever the
graph held, the following ones with ``POST``, which adds to it. Batches keep each request
small enough for servers with request-size limits. Any refusal (an HTTP error status) or an
unreachable server is a :class:`PushError` naming the endpoint, the status and the server's
message.

Tested against a real Oxigraph server (``oxigraph serve``), whose Graph Store endpoint is
``http://HOST:PORT/store``; Fuseki's is ``http://HOST:PORT/DATASET/data``, GraphDB's
``http://HOST:PORT/repositories/REPO/rdf-graphs/service``.
"""

from __future__ import annotations

import base64
import os
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator
from urllib.parse import urlencode, urlsplit

from kg.errors import PaperkgError
from kg.workspace import Workspace

__all__ = ["PushError", "PushResult", "push", "DEFAULT_BATCH"]

#: Triples per request.
DEFAULT_BATCH = 200_000


class PushError(PaperkgError):
    """The external server refused the data or could not be reached."""


@dataclass(frozen=True)
class PushResult:
    endpoint: str
    graph: str
    triples: int
    batches: int
    seconds: float


def _is_iri(text: str) -> bool:
    """An absolute IRI as a graph name: a scheme, then no space, quote, angle bracket or brace
    (checked here so that a typo fails before the store is dumped, not at the server's 400)."""
    scheme, sep, rest = text.partition(":")
    return bool(sep and rest and scheme[:1].isalpha()
                and all(c.isalnum() or c in "+-." for c in scheme)
                and not any(c.isspace() or c in '<>"{}|\\^`' for c in text))


def _graph_url(endpoint: str, graph: str) -> str:
    sep = "&" if urlsplit(endpoint).query else "?"
    return f"{endpoint}{sep}{urlencode({'graph': graph})}"


def _send(method: str, url: str, body: bytes, *, endpoint: str, timeout: float,
          auth: str | None) -> None:
    req = urllib.request.Request(url, data=body, method=method,
                                 headers={"Content-Type": "application/n-triples",
                                          "Content-Length": str(len(body))})
    if auth:
        req.add_header("Authorization", "Basic " + base64.b64encode(auth.encode("utf-8")).decode("ascii"))
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            resp.read()
    except urllib.error.HTTPError as exc:
        detail = " ".join(exc.read(500).decode("utf-8", errors="replace").split())
        raise PushError(f"{endpoint}: the server refused the {method} with HTTP {exc.code} {exc.reason}"
                        + (f": {detail}" if detail else "")) from None
    except urllib.error.URLError as exc:
        raise PushError(f"{endpoint}: cannot reach the server ({exc.reason})") from None
    except (TimeoutError, ConnectionError) as exc:
        raise PushError(f"{endpoint}: the server did not answer ({exc})") from None


def _batches(path: Path, size: int) -> Iterator[tuple[bytes, int]]:
    buf: list[bytes] = []
    with open(path, "rb") as fh:
        for line in fh:
            if not line.strip():
                continue
            buf.append(line)
            if len(buf) >= size:
                yield b"".join(buf), len(buf)
                buf = []
    if buf:
        yield b"".join(buf), len(buf)


def push(ws: Workspace | str | Path, endpoint: str, *, graph: str | None = None,
         batch_size: int = DEFAULT_BATCH, timeout: float = 300.0, auth: str | None = None) -> PushResult:
    """Replace the named graph ``graph`` on a Graph Store endpoint with the build's triples.

    Parameters
    ----------
    ws
        The build folder (its ``store/`` is read).
    endpoint
        Graph Store Protocol URL of the server, e.g. ``http://127.0.0.1:7878/store``.
    graph
        Named graph to replace; default: the build's own graph IRI.
    batch_size
        Triples per request; the first request replaces the graph, the others add to it.
    auth
        ``user:password`` for HTTP Basic authentication, if the server wants it.

    Raises
    ------
    PushError
        When the server answers with an error status or cannot be reached.
    """
    import pyoxigraph as ox

    from kg.store import open_store, store_info

    if not urlsplit(endpoint).scheme in ("http", "https") or not urlsplit(endpoint).netloc:
        raise PushError(f"bad endpoint {endpoint!r}: expected an http(s) URL such as http://127.0.0.1:7878/store")
    if batch_size < 1:
        raise PushError(f"bad batch size {batch_size}: expected a positive number of triples")
    if auth is not None and ":" not in auth:
        raise PushError("bad credentials: expected USER:PASSWORD (HTTP Basic), got no ':'")
    if graph is not None and not _is_iri(graph):
        raise PushError(f"bad graph IRI {graph!r}: expected an absolute IRI such as "
                        f"https://example.org/graph/papers or urn:x-paperkg:papers, without spaces")
    info = store_info(ws)
    target = graph or info["graph"]
    t0 = time.perf_counter()
    store = open_store(ws)
    fd, tmp = tempfile.mkstemp(suffix=".nt", prefix="paperkg-push-")
    os.close(fd)
    try:
        store.dump(tmp, format=ox.RdfFormat.N_TRIPLES, from_graph=ox.NamedNode(info["graph"]))
        url = _graph_url(endpoint, target)
        n = batches = 0
        for body, count in _batches(Path(tmp), batch_size):
            _send("PUT" if batches == 0 else "POST", url, body, endpoint=endpoint, timeout=timeout, auth=auth)
            n += count
            batches += 1
        if batches == 0:  # an empty build still replaces the graph
            _send("PUT", url, b"", endpoint=endpoint, timeout=timeout, auth=auth)
            batches = 1
    finally:
        os.unlink(tmp)
    return PushResult(endpoint, target, n, batches, round(time.perf_counter() - t0, 3))
