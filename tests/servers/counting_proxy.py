"""A counting HTTP proxy on loopback: forwards every request to a real server and records it.

Put it between the client and a real OpenAI-compatible server to count what the client really
sends (the journal only holds the answers that arrived):

    with CountingProxy("http://127.0.0.1:8000") as proxy:     # upstream: scheme, host, port
        ... run the client against proxy.url (http://127.0.0.1:<port>/v1) ...
        proxy.count("/v1/chat/completions"), proxy.statuses()

Run it as a process (for a hand-started server):
    python -m tests.servers.counting_proxy --upstream http://127.0.0.1:8000 --port 0
    # prints "PORT <n>" when ready and one line per request: "<status> <method> <path>"
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import http.server
import sys
import threading
import urllib.parse
from dataclasses import dataclass
from typing import Any

HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-connection"}


@dataclass(slots=True)
class Forwarded:
    method: str
    path: str
    status: int  # the upstream's status, or 502 when the upstream could not be reached
    body: bytes


class CountingProxy:
    def __init__(self, upstream: str, host: str = "127.0.0.1", port: int = 0, echo: bool = False) -> None:
        parsed = urllib.parse.urlsplit(upstream)
        if parsed.hostname not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("the counting proxy only forwards to a loopback server")
        self.upstream_host = parsed.hostname
        self.upstream_port = parsed.port or 80
        self.requests: list[Forwarded] = []
        self.echo = echo
        self._lock = threading.Lock()
        self._server = http.server.ThreadingHTTPServer((host, port), self._handler_class())
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def count(self, path_suffix: str = "/chat/completions") -> int:
        with self._lock:
            return sum(1 for r in self.requests if r.path.endswith(path_suffix))

    def statuses(self, path_suffix: str = "/chat/completions") -> list[int]:
        with self._lock:
            return [r.status for r in self.requests if r.path.endswith(path_suffix)]

    def _record(self, forwarded: Forwarded) -> None:
        with self._lock:
            self.requests.append(forwarded)
        if self.echo:
            print(f"{forwarded.status} {forwarded.method} {forwarded.path}", flush=True)

    def _handler_class(self) -> type[http.server.BaseHTTPRequestHandler]:
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def _forward(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
                upstream = http.client.HTTPConnection(proxy.upstream_host, proxy.upstream_port, timeout=3600)
                try:
                    upstream.request(self.command, self.path, body=body, headers=headers)
                    answer = upstream.getresponse()
                    payload = answer.read()
                    status, reply_headers = answer.status, answer.getheaders()
                except OSError as exc:
                    status, payload = 502, f'{{"error": {{"message": "proxy: {exc}"}}}}'.encode()
                    reply_headers = [("content-type", "application/json")]
                finally:
                    upstream.close()
                proxy._record(Forwarded(self.command, self.path, status, body))
                self.send_response(status)
                for name, value in reply_headers:
                    if name.lower() not in HOP_BY_HOP and name.lower() != "content-length":
                        self.send_header(name, value)
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = _forward
            do_POST = _forward

        return Handler

    def start(self) -> CountingProxy:
        self._thread = threading.Thread(target=self._server.serve_forever, name="counting-proxy", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        if self._thread is not None:
            self._thread.join(10)

    def __enter__(self) -> CountingProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Count the requests sent to a loopback server.")
    parser.add_argument("--upstream", required=True, help="e.g. http://127.0.0.1:8000")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    proxy = CountingProxy(args.upstream, port=args.port, echo=True)
    print(f"PORT {proxy.port}", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        proxy._server.serve_forever()


if __name__ == "__main__":
    main(sys.argv[1:])
