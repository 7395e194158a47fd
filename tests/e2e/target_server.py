"""A loopback HTTP target for Kairos jobs: records every request and answers what it is told.

One server (a `ThreadingHTTPServer` on 127.0.0.1, port 0) serves every path. Tests use a path of
their own (`target.path("ping")` gives a unique one) so requests of different tests never mix.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit
import uuid


@dataclass
class Recorded:
    method: str
    path: str  # path without the query
    query: str
    headers: dict  # lower-case name -> value (the last one if repeated)
    raw_headers: list  # [(name, value)] as received
    body: bytes
    at: float  # time.time() when the request had arrived (before any delay)

    def header(self, name: str):
        return self.headers.get(name.lower())


@dataclass
class _Script:
    statuses: list  # consumed one per request; the last one repeats
    body: bytes = b""
    delay: float = 0.0
    served: int = 0


class Target:
    def __init__(self):
        self._lock = threading.Lock()
        self._cond = threading.Condition(self._lock)
        self._requests: list[Recorded] = []
        self._scripts: dict[str, _Script] = {}
        target = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # keep pytest output clean
                pass

            def _handle(self):
                body = b""
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    chunks = []
                    while True:
                        line = self.rfile.readline().strip()
                        size = int(line.split(b";")[0], 16)
                        if size == 0:
                            while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                                pass
                            break
                        chunks.append(self.rfile.read(size))
                        self.rfile.readline()
                    body = b"".join(chunks)
                else:
                    length = int(self.headers.get("Content-Length") or 0)
                    if length:
                        body = self.rfile.read(length)
                parts = urlsplit(self.path)
                rec = Recorded(
                    method=self.command,
                    path=parts.path,
                    query=parts.query,
                    headers={k.lower(): v for k, v in self.headers.items()},
                    raw_headers=list(self.headers.items()),
                    body=body,
                    at=time.time(),
                )
                status, reply, delay = target._answer(parts.path)
                with target._cond:  # recorded on arrival, before any delay
                    target._requests.append(rec)
                    target._cond.notify_all()
                if delay:
                    time.sleep(delay)
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(reply)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = _handle

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    # -- configuration -------------------------------------------------------------------------

    def path(self, label: str = "t") -> str:
        """A fresh path no other test uses."""
        return f"/{label}/{uuid.uuid4().hex[:12]}"

    def url(self, path: str) -> str:
        return self.base + path

    def respond(self, path: str, *statuses: int, body: bytes = b"", delay: float = 0.0):
        """Answer requests to `path` with these statuses in turn; the last one repeats.
        Unconfigured paths answer 200 "ok"."""
        with self._lock:
            self._scripts[path] = _Script(list(statuses) or [200], body, delay)

    def _answer(self, path: str):
        with self._lock:
            script = self._scripts.get(path)
            if script is None:
                return 200, b"ok", 0.0
            i = min(script.served, len(script.statuses) - 1)
            script.served += 1
            return script.statuses[i], script.body, script.delay

    # -- observation ---------------------------------------------------------------------------

    def requests(self, path: str | None = None) -> list[Recorded]:
        with self._lock:
            return [r for r in self._requests if path is None or r.path == path]

    def wait_for(self, path: str, count: int = 1, timeout: float = 10.0) -> list[Recorded]:
        """Block until `path` has seen at least `count` requests; return them all."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                got = [r for r in self._requests if r.path == path]
                if len(got) >= count:
                    return got
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"target {path}: expected {count} request(s) within {timeout}s, "
                        f"got {len(got)}; all paths seen: {sorted({r.path for r in self._requests})}"
                    )
                self._cond.wait(min(left, 0.05))

    def close(self):
        self._server.shutdown()
        self._server.server_close()


if __name__ == "__main__":  # manual use: python target_server.py
    t = Target()
    print(f"target listening on {t.base}", flush=True)
    seen = 0
    try:
        while True:
            time.sleep(0.2)
            for r in t.requests()[seen:]:
                print(r.method, r.path, r.headers, r.body[:200], flush=True)
                seen += 1
    except KeyboardInterrupt:
        t.close()
