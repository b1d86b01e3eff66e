"""``kg serve``: a build as a read-only SPARQL 1.1 Protocol endpoint at ``/sparql``.

- ``GET /sparql?query=...``, ``POST`` with ``application/sparql-query`` (the query is the body)
  or ``application/x-www-form-urlencoded`` (``query=...``).
- Results by content negotiation (``Accept``, or a ``format`` parameter): SPARQL JSON, XML,
  CSV and TSV for SELECT and ASK; Turtle, N-Triples and RDF/XML for CONSTRUCT and DESCRIBE.
  ``406`` when nothing acceptable can be produced.
- The RDF dataset: the build's graph is the default graph; a query's ``FROM`` / ``FROM NAMED``
  and the protocol's ``default-graph-uri`` / ``named-graph-uri`` parameters (repeatable; they
  take precedence over the query's, as SPARQL 1.1 Protocol 2.1.4 says) choose other graphs. A
  value that is not an absolute IRI gets ``400`` naming the parameter.
- Read-only and closed: SPARQL Update (an ``update`` parameter, ``application/sparql-update``
  or update text) gets ``403``, so does ``SERVICE``; both are found by parsing
  (:mod:`kg.sparql_safety`). A malformed query gets ``400`` with the parser's message.
- Every query runs in a worker process (``python -c``, talking JSON over its pipes) that has
  the store open read-only. A query running
  longer than ``timeout`` seconds is stopped by killing its worker (a new one replaces it) and
  answered ``503``; results longer than ``max_rows`` rows are cut, and the response says so
  in the ``X-Paperkg-Truncated`` header.
- Binds 127.0.0.1 unless told otherwise.
- A rebuild of the folder being served (``kg build`` renames a new ``OUT/store`` into place)
  is noticed at the next query: each worker that has the previous store open is replaced by
  one on the new store before it answers, so no answer comes from a mix of the two.
- ``memory=True`` (``kg serve --memory``) copies the store into RAM in each worker at start:
  slower to start and one copy per worker, but queries ran 3-10x faster in the benchmark.

The standard library's ``ThreadingHTTPServer`` does the HTTP; see :func:`make_server` for use
from Python (tests start it on a free port).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import queue
import select
import socket
import subprocess
import sys
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from kg.errors import PaperkgError, QueryError
from kg.sparql_safety import ServiceRefusedError, UpdateRefusedError, check_query
from kg.store import GRAPH_FORMATS, RESULT_FORMATS, check_graph_iri, store_dir, store_info

__all__ = ["SparqlServer", "make_server", "serve", "negotiate", "DEFAULT_TIMEOUT", "DEFAULT_MAX_ROWS"]

DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_ROWS = 10000
MAX_BODY = 1_000_000  # bytes of query text accepted in a POST

#: media type -> result format, for SELECT / ASK and for CONSTRUCT / DESCRIBE.
_RESULT_TYPES = {
    "application/sparql-results+json": "json", "application/json": "json",
    "application/sparql-results+xml": "xml", "application/xml": "xml", "text/xml": "xml",
    "text/csv": "csv", "text/tab-separated-values": "tsv",
}
_GRAPH_TYPES = {
    "text/turtle": "ttl", "application/x-turtle": "ttl", "application/n-triples": "nt",
    "text/plain": "nt", "application/rdf+xml": "rdfxml", "application/xml": "rdfxml",
}


def negotiate(accept: str | None, kind: str, fmt_param: str | None = None) -> str | None:
    """The result format for an ``Accept`` header (q-values honoured), or None when none fits.

    Examples
    --------
    >>> negotiate("text/csv;q=0.5, application/sparql-results+xml", "select")
    'xml'
    >>> negotiate("*/*", "construct")
    'ttl'
    >>> negotiate("image/png", "select") is None
    True
    """
    graph = kind in ("construct", "describe")
    table = _GRAPH_TYPES if graph else _RESULT_TYPES
    names = GRAPH_FORMATS if graph else RESULT_FORMATS
    if fmt_param:
        f = fmt_param.lower().strip()
        f = {"turtle": "ttl", "ntriples": "nt", "n-triples": "nt", "rdf": "rdfxml"}.get(f, f)
        if f in names:
            return f
        if f in table:
            return table[f]
    default = "ttl" if graph else "json"
    if not accept:
        return default
    choices: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept.split(",")):
        pieces = [p.strip() for p in part.split(";")]
        mtype = pieces[0].lower()
        q = 1.0
        for p in pieces[1:]:
            if p.startswith("q="):
                try:
                    q = float(p[2:])
                except ValueError:
                    q = 0.0
        if q <= 0:
            continue
        if mtype in table:
            choices.append((q, -i, table[mtype]))
        elif mtype in ("*/*", "application/*", "text/*"):
            choices.append((q - 0.001, -i, default))
    if not choices:
        return None
    return max(choices)[2]


# --------------------------------------------------------------------------- workers

def _worker_main(db: str, memory: bool = False) -> None:
    """Worker process: open the store read-only, answer requests from stdin on stdout.

    With ``memory`` the store is first copied into an in-memory Oxigraph store, which answered
    the example queries several times faster than the on-disk one (bench/bench_rdf.py).

    A request is one JSON line ``{"query", "format", "limit"}``; the answer is one JSON header
    line ``{"status", "length", "truncated", "message"}`` followed by ``length`` bytes of body.
    """
    import json

    import pyoxigraph as ox

    from kg.store import run_query

    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write into the answer stream
    store = ox.Store.read_only(db)
    if memory:
        copy = ox.Store()
        copy.bulk_extend(store.quads_for_pattern(None, None, None, None))
        store = copy
    out.write(b'{"status": "ready"}\n')
    out.flush()
    for line in sys.stdin.buffer:
        req = json.loads(line)
        body = b""
        head: dict[str, Any] = {"status": 200, "truncated": False}
        try:
            res = run_query(store, req["query"], limit=req["limit"], check=False,
                            default_graphs=req.get("default_graphs"), named_graphs=req.get("named_graphs"))
            body = res.serialize(req["format"])
            head["truncated"] = res.truncated
        except QueryError as exc:
            head = {"status": 400, "message": str(exc)}
        except Exception as exc:  # an engine failure: report it and keep serving
            head = {"status": 500, "message": f"{type(exc).__name__}: {exc}"}
        head["length"] = len(body)
        out.write(json.dumps(head).encode("utf-8") + b"\n" + body)
        out.flush()


def _identity(path: str) -> tuple[int, int] | None:
    """Which folder ``path`` is (device, inode), or None when it cannot be read: ``kg build``
    swaps a new ``OUT/store`` in by renaming, so the same path then names another folder."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


class _Worker:
    """One worker process (``python -c`` running :func:`_worker_main`) and its pipes."""

    def __init__(self, db: str, memory: bool = False) -> None:
        self.store = _identity(str(Path(db).parent))  # the store folder this worker has open
        code = f"from kg.endpoint import _worker_main; _worker_main({db!r}, {memory!r})"
        env = dict(os.environ)
        root = str(Path(__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        self.proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env)
        assert self.proc.stdout is not None and self.proc.stdin is not None
        self.stdin, self.stdout = self.proc.stdin, self.proc.stdout
        ready, _, _ = select.select([self.stdout], [], [], 3600 if memory else 60)
        if not ready or b"ready" not in self.stdout.readline():
            self.kill()
            raise QueryError(f"cannot open the store {db} in a worker process")

    def ask(self, sparql: str, fmt: str, limit: int, timeout: float,
            dataset: dict[str, list[str] | None] | None = None) -> tuple[dict[str, Any], bytes] | None:
        """Send one query; None when no answer came within ``timeout`` seconds."""
        req = {"query": sparql, "format": fmt, "limit": limit, **(dataset or {})}
        self.stdin.write(json.dumps(req).encode("utf-8") + b"\n")
        self.stdin.flush()
        ready, _, _ = select.select([self.stdout], [], [], timeout)
        if not ready:
            return None
        line = self.stdout.readline()
        if not line:
            raise EOFError("worker exited")
        head = json.loads(line)
        return head, self.stdout.read(head["length"]) if head["length"] else b""

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(5)
        for fh in (self.stdin, self.stdout):
            try:
                fh.close()
            except OSError:
                pass

    def stop(self) -> None:
        try:
            self.stdin.close()
            self.proc.wait(2)
        except (OSError, subprocess.TimeoutExpired):
            pass
        if self.proc.poll() is None:
            self.kill()


class SparqlServer(ThreadingHTTPServer):
    """The endpoint: an HTTP server with a pool of query workers (state: the pool)."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], ws: str | Path, *, timeout: float = DEFAULT_TIMEOUT,
                 max_rows: int = DEFAULT_MAX_ROWS, workers: int = 2, quiet: bool = True,
                 memory: bool = False) -> None:
        self.info = store_info(ws)
        self.memory = memory
        self.db = str(store_dir(ws) / "db")
        self.query_timeout = float(timeout)
        self.max_rows = int(max_rows)
        self.quiet = quiet
        self._pool: queue.Queue[_Worker] = queue.Queue()
        try:
            super().__init__(address, _Handler)  # bound first: no worker is started for nothing
        except OSError as exc:
            raise PaperkgError(_bind_error(address, exc)) from None
        for _ in range(max(1, workers)):
            self._pool.put(_Worker(self.db, memory))

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/sparql"

    def run(self, sparql: str, fmt: str,
            dataset: dict[str, list[str] | None] | None = None) -> tuple[int, bytes, bool]:
        """Run a checked query on a free worker: (status, body, truncated). ``dataset`` holds
        ``default_graphs`` and ``named_graphs`` (IRIs, or None when the request gave none)."""
        try:
            worker = self._pool.get(timeout=self.query_timeout)
        except queue.Empty:
            return 503, b"all query workers are busy; try again later\n", False
        current = _identity(str(Path(self.db).parent))
        if current is not None and worker.store != current:
            # a rebuild swapped a new store in: answer from it, never from a mix of the two
            try:
                fresh = _Worker(self.db, self.memory)
            except BaseException:
                self._pool.put(worker)
                raise
            worker.stop()
            worker = fresh
            with contextlib.suppress(PaperkgError, OSError, ValueError):
                self.info = store_info(Path(self.db).parent)
        try:
            reply = worker.ask(sparql, fmt, self.max_rows, self.query_timeout, dataset)
            if reply is None:
                worker.kill()
                worker = _Worker(self.db, self.memory)
                return 503, f"query stopped: it ran longer than the {self.query_timeout:g} s timeout\n".encode(), False
        except (EOFError, OSError, ValueError):
            worker.kill()
            worker = _Worker(self.db, self.memory)
            return 500, b"the query worker died; it has been restarted\n", False
        finally:
            self._pool.put(worker)
        head, body = reply
        if head["status"] == 200:
            return 200, body, bool(head.get("truncated"))
        return int(head["status"]), (head.get("message", "") + "\n").encode("utf-8"), False

    def server_close(self) -> None:
        super().server_close()
        while True:
            try:
                self._pool.get_nowait().stop()
            except queue.Empty:
                break


class _Handler(BaseHTTPRequestHandler):
    server: SparqlServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (stdlib signature)
        if not self.server.quiet:
            sys.stderr.write("%s - %s\n" % (self.address_string(), format % args))

    def _send(self, status: int, body: bytes, ctype: str = "text/plain; charset=utf-8",
              headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Access-Control-Allow-Origin", "*")
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _read_only(self) -> None:
        # Graph Store Protocol writes are refused like SPARQL Update, with the methods that work;
        # the body is not read, so the connection cannot serve another request
        self.close_connection = True
        self._send(405, b"read-only endpoint: PUT, DELETE and PATCH are not allowed; "
                        b"query with GET or POST at /sparql\n",
                   headers={"Allow": "GET, POST, HEAD, OPTIONS"})

    do_PUT = do_DELETE = do_PATCH = _read_only

    def do_OPTIONS(self) -> None:
        self.send_response(204)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
        self.send_header("Access-Control-Allow-Headers", "Content-Type, Accept")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        params = parse_qs(url.query, keep_blank_values=True)
        if url.path in ("/", ""):
            body = (f"paperkg SPARQL endpoint (read-only)\nquery it at {self.server.url}\n"
                    f"graph: {self.server.info.get('graph')}  quads: {self.server.info.get('quads')}\n")
            return self._send(200, body.encode("utf-8"))
        if url.path != "/sparql":
            return self._send(404, b"not found; the endpoint is /sparql\n")
        self._answer(params)

    def do_POST(self) -> None:
        url = urlsplit(self.path)
        if url.path != "/sparql":
            return self._send(404, b"not found; the endpoint is /sparql\n")
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            return self._send(413, f"query too long (over {MAX_BODY} bytes)\n".encode())
        raw = self.rfile.read(length) if length else b""
        ctype = (self.headers.get("Content-Type") or "").split(";")[0].strip().lower()
        params = parse_qs(url.query, keep_blank_values=True)
        if ctype == "application/sparql-update":
            return self._send(403, b"SPARQL Update is not allowed: this service is read-only\n")
        if ctype == "application/sparql-query":
            params["query"] = [raw.decode("utf-8", errors="replace")]
        elif ctype in ("application/x-www-form-urlencoded", ""):
            for k, v in parse_qs(raw.decode("utf-8", errors="replace"), keep_blank_values=True).items():
                params.setdefault(k, []).extend(v)
        else:
            return self._send(415, f"unsupported Content-Type {ctype!r}; use application/sparql-query "
                                   f"or application/x-www-form-urlencoded\n".encode())
        self._answer(params)

    def _answer(self, params: dict[str, list[str]]) -> None:
        if "update" in params:
            return self._send(403, b"SPARQL Update is not allowed: this service is read-only\n")
        queries = params.get("query") or []
        if len(queries) != 1 or not queries[0].strip():
            return self._send(400, b"expected exactly one 'query' parameter\n")
        sparql = queries[0]
        dataset: dict[str, list[str] | None] = {}
        for param, key in (("default-graph-uri", "default_graphs"), ("named-graph-uri", "named_graphs")):
            values = params.get(param)
            try:
                dataset[key] = [check_graph_iri(v.strip(), param) for v in values] if values is not None else None
            except QueryError as exc:
                return self._send(400, f"{exc}\n".encode("utf-8"))
        try:
            kind = check_query(sparql)
        except (UpdateRefusedError, ServiceRefusedError) as exc:
            return self._send(403, f"{exc}\n".encode("utf-8"))
        except QueryError as exc:
            return self._send(400, f"{exc}\n".encode("utf-8"))
        fmt_param = (params.get("format") or params.get("output") or [None])[0]
        fmt = negotiate(self.headers.get("Accept"), kind, fmt_param)
        if fmt is None:
            offered = ", ".join((GRAPH_FORMATS if kind in ("construct", "describe") else RESULT_FORMATS).values())
            return self._send(406, f"cannot answer with {self.headers.get('Accept')!r}; offered: {offered}\n".encode())
        try:
            status, body, truncated = self.server.run(sparql, fmt, dataset)
        except Exception:  # keep the server up; the traceback goes to stderr
            traceback.print_exc()
            return self._send(500, b"internal error\n")
        if status != 200:
            return self._send(status, body)
        ctype = (GRAPH_FORMATS if kind in ("construct", "describe") else RESULT_FORMATS)[fmt]
        headers = {"X-Paperkg-Truncated": "true" if truncated else "false",
                   "X-Paperkg-Max-Rows": str(self.server.max_rows)}
        self._send(200, body, f"{ctype}; charset=utf-8", headers)

    do_HEAD = do_GET


def _bind_error(address: tuple[str, int], exc: OSError) -> str:
    """One line for a host/port the endpoint cannot listen on."""
    host, port = address[:2]
    where = f"{host}:{port}"
    if isinstance(exc, socket.gaierror):
        return f"cannot serve on {where}: unknown host {host!r} (--host takes an address such as 127.0.0.1)"
    if exc.errno == errno.EADDRINUSE:
        return f"cannot serve on {where}: the port is in use; pick another --port (0 picks a free one)"
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"cannot serve on {where}: {host} is not an address of this machine"
    if exc.errno == errno.EACCES:
        return f"cannot serve on {where}: permission denied (ports below 1024 need privileges)"
    return f"cannot serve on {where}: {exc.strerror or exc}"


def make_server(ws: str | Path, *, host: str = "127.0.0.1", port: int = 0,
                timeout: float = DEFAULT_TIMEOUT, max_rows: int = DEFAULT_MAX_ROWS, workers: int = 2,
                quiet: bool = True, memory: bool = False) -> SparqlServer:
    """A ready server for the build (or store folder) ``ws``; port 0 picks a free port.

    Call ``serve_forever()`` (in a thread, for tests) and ``shutdown()`` / ``server_close()``.
    """
    return SparqlServer((host, port), ws, timeout=timeout, max_rows=max_rows, workers=workers, quiet=quiet,
                        memory=memory)


def serve(ws: str | Path, *, host: str = "127.0.0.1", port: int = 8890, timeout: float = DEFAULT_TIMEOUT,
          max_rows: int = DEFAULT_MAX_ROWS, workers: int = 2, quiet: bool = False,
          memory: bool = False, log: Any = print) -> None:
    """Serve until interrupted (Ctrl-C)."""
    server = make_server(ws, host=host, port=port, timeout=timeout, max_rows=max_rows, workers=workers,
                         quiet=quiet, memory=memory)
    log(f"serving {ws} ({server.info.get('quads'):,} quads) at {server.url}  (Ctrl-C to stop)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
