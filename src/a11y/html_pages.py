"""HTML strings served as pages, so the pytest plugin can audit markup a test wrote.

An audit loads a page over http(s) (``AuditRequest.url``), so each string is served by a
small server on 127.0.0.1, under a path the caller names (the plugin uses the test's id).
A baseline matches findings by fingerprint, and a fingerprint includes the page's URL,
port and all, which changes with every run of a server on a free port. So a browser the
plugin launches maps one fixed host name, :data:`HOST`, to the server
(``--host-resolver-rules``, see :meth:`HtmlPages.browser_flag`), and the pages are addressed
by that name: the same test gets the same URL in every run. A browser the plugin did not
launch cannot be told about the name; it gets the 127.0.0.1 address instead.
"""

from __future__ import annotations

import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

#: The name pages are addressed by in a browser launched with :meth:`HtmlPages.browser_flag`
#: (``.test`` is reserved for testing: it never resolves on a real network).
HOST = "a11y-pytest.test"

_UNSAFE_IN_PATH = re.compile(r"[^A-Za-z0-9._~-]+")


class HtmlPages:
    """A loopback server of registered HTML strings; ``stop()`` ends it."""

    def __init__(self) -> None:
        pages: dict[str, bytes] = {}
        self._pages = pages

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:  # no access log on the test's output
                pass

            def do_GET(self) -> None:  # the name http.server dispatches GET to
                body = pages.get(self.path.partition("?")[0])
                status = 200 if body is not None else 404
                payload = body if body is not None else b"<!doctype html><title>Not found</title>"
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    self.send_header("Content-Length", str(len(payload)))
                    self.send_header("Cache-Control", "no-store")
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self.port: int = self._server.server_address[1]
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="a11y-html-pages", daemon=True
        )
        self._thread.start()

    def browser_flag(self) -> str:
        """The Chromium flag that sends requests for :data:`HOST` to this server."""
        return f"--host-resolver-rules=MAP {HOST} 127.0.0.1:{self.port}"

    def add(self, html: str, name: str, *, mapped: bool) -> str:
        """Serve ``html`` under a path made of ``name``; its URL by :data:`HOST` when the
        browser maps that name (``mapped``), else by 127.0.0.1."""
        path = "/" + (_UNSAFE_IN_PATH.sub("-", name).strip("-") or "page")
        self._pages[path] = html.encode("utf-8")
        return f"http://{HOST}{path}" if mapped else f"http://127.0.0.1:{self.port}{path}"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()
