"""Pages served on loopback for a benchmark: one small threaded HTTP server whose answer to a
GET is whatever ``respond`` makes of the path and query, in a daemon thread. Shared by the
benches that drive a browser at a page of their own (cdp_bench, mcp_bench, mcp_peers)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

Respond = Callable[[str], bytes]


def serve(respond: Respond) -> tuple[ThreadingHTTPServer, str]:
    """(server, its base URL ``http://127.0.0.1:PORT``); stop it with ``server.shutdown()``.
    ``respond`` gets the request's path with its query and returns the HTML."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802
            body = respond(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the browser moved on before the page was sent

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"
