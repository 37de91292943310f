"""A local HTTP server for tests: static fixture files plus routes a test registers.

It listens on 127.0.0.1 on a random port. The same server is reachable as
``localhost:<port>``, which Chromium treats as another site, so a page on
127.0.0.1 embedding a ``localhost`` iframe gets an out-of-process iframe.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


@dataclass
class Response:
    body: bytes | str = b""
    status: int = 200
    content_type: str = "text/html; charset=utf-8"
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


Handler = Callable[["Request"], Response]


@dataclass
class Request:
    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: bytes


class Site:
    def __init__(self) -> None:
        self.routes: dict[str, Response | Handler] = {}
        self.log: list[Request] = []
        site = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def _serve(self) -> None:
                path, _, query = self.path.partition("?")
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                request = Request(self.command, path, query, dict(self.headers), body)
                site.log.append(request)
                response = site.resolve(request)
                if response.delay:
                    time.sleep(response.delay)
                payload = response.body.encode() if isinstance(response.body, str) else response.body
                try:
                    self.send_response(response.status)
                    self.send_header("Content-Type", response.content_type)
                    self.send_header("Content-Length", str(len(payload)))
                    self.send_header("Cache-Control", "no-store")
                    for key, value in response.headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    if self.command != "HEAD":
                        self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = _serve

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> Site:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def url(self, path: str = "/", host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def cross_site_url(self, path: str = "/") -> str:
        return self.url(path, host="localhost")

    def route(self, path: str, response: Response | Handler | str) -> str:
        """Register ``path`` and return its 127.0.0.1 URL."""
        self.routes[path] = Response(response) if isinstance(response, str) else response
        return self.url(path)

    def resolve(self, request: Request) -> Response:
        target = self.routes.get(request.path)
        if target is not None:
            return target(request) if callable(target) else target
        file = (FIXTURES / request.path.lstrip("/")).resolve()
        if FIXTURES in file.parents and file.is_file():
            kind = {
                ".html": "text/html; charset=utf-8",
                ".js": "application/javascript",
                ".css": "text/css",
                ".png": "image/png",
                ".json": "application/json",
                ".pdf": "application/pdf",
            }.get(file.suffix, "application/octet-stream")
            return Response(file.read_bytes(), content_type=kind)
        return Response("<!doctype html><title>Not found</title><h1>Not found</h1>", status=404)


def refused_url() -> str:
    """A loopback URL where nothing listens (a safe port, unlike the well-known ones)."""
    from tests.support.ports import free_port

    return f"http://127.0.0.1:{free_port()}/"
