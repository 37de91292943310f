"""The audit benchmark's pages, written to a directory and served by a separate process.

Kinds: ``small`` (~40 elements), ``medium`` (~1,500), ``large`` (~8,000) and ``site``, a
20-page linked site (``/site/0.html`` links to the 19 others; each links home and to the
next). A section of ~25 elements mixes headings, links, a list, an image, a form and a table,
with a violation in every 10th. The server is ``python -m http.server`` in a child process,
so its CPU never counts as the auditing process's own.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

PIXEL = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="
SITE_PAGES = 20
KINDS = ("small", "medium", "large")


def _block(i: int) -> str:
    alt = "" if i % 10 == 0 else f' alt="figure {i}"'
    return (
        f'<section aria-labelledby="h{i}"><h2 id="h{i}">Section {i}</h2>'
        f'<p>Paragraph {i} with <a href="#s{i}">a link</a> and <strong>strong</strong> '
        f"<em>emphasis</em>.</p>"
        f"<ul><li>one {i}</li><li>two {i}</li><li>three {i}</li></ul>"
        f'<img src="{PIXEL}" width="1" height="1"{alt}>'
        f'<form><label for="f{i}">Field {i}</label><input id="f{i}" type="text">'
        f'<button type="button">Go {i}</button></form>'
        f"<table><caption>T{i}</caption><tr><th scope=col>a</th><th scope=col>b</th></tr>"
        f"<tr><td>1</td><td>2</td></tr></table></section>"
    )


def _document(title: str, blocks: int, extra: str = "") -> str:
    body = "".join(_block(i) for i in range(blocks))
    return (
        f'<!doctype html><html lang="en"><head><title>{title}</title></head>'
        f'<body><header><nav><a href="/site/0.html">Home</a></nav></header><main><h1>{title}</h1>'
        f"{body}{extra}</main><footer><p>footer</p></footer></body></html>"
    )


def pages() -> dict[str, str]:
    """Path -> HTML of every fixture."""
    out = {
        "/small.html": _document("Small", 1, f'<img src="{PIXEL}"><p style="color:#bbb">low</p>'),
        "/medium.html": _document("Medium", 62),
        "/large.html": _document("Large", 334),
    }
    links = "".join(f'<p><a href="/site/{n}.html">Page {n}</a></p>' for n in range(1, SITE_PAGES))
    out["/site/0.html"] = _document("Site home", 1, links)
    for n in range(1, SITE_PAGES):
        following = n % (SITE_PAGES - 1) + 1
        nav = f'<p><a href="/site/0.html">Home</a> <a href="/site/{following}.html">Next</a></p>'
        out[f"/site/{n}.html"] = _document(f"Site page {n}", 2, nav)
    return out


def write(root: Path) -> None:
    for path, html in pages().items():
        target = root / path.lstrip("/")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html, encoding="utf-8")


@contextmanager
def served(root: Path) -> Iterator[str]:
    """The base URL of ``root`` served on 127.0.0.1 by a child process, for the block."""
    server = subprocess.Popen(
        [sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", str(root)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        port = re.search(r"port (\d+)", line)
        if port is None:
            raise RuntimeError(f"the fixture server did not start: {line!r}")
        yield f"http://127.0.0.1:{port.group(1)}"
    finally:
        server.terminate()
        server.wait(10)


def url_of(base: str, kind: str) -> str:
    return f"{base}/{kind}.html"


def site_urls(base: str) -> list[str]:
    return [f"{base}/site/{n}.html" for n in range(SITE_PAGES)]
