"""The dashboard: a web page at ``/`` for people, on the same API as everyone else.

``GET /`` is a server-rendered shell and ``GET /static/<name>`` its files (a style sheet,
one script, and the HTML report's style and script, all shipped in the package; no build
step, nothing from another site). Neither needs the token: they hold no data. Everything
the page shows comes from the API, called by ``static/js/dashboard.js`` with the token when
the service has one (asked once, kept in the tab's ``sessionStorage``, sent as
``Authorization: Bearer``): what the token may do (``GET /auth/self``: the form that starts
an audit is shown from scope ``submit`` on, the baseline button for ``admin`` only; the
shell has both hidden until the answer), the runs (``GET /audits``: only those the token
may see, the API filters them), their live progress (the event
stream, read with ``fetch`` because ``EventSource`` cannot send the token), the form that
starts one (``POST /audits``), the diff against the site's baseline and the button that sets
it (``/audits/{id}/diff``, ``PUT /sites/{site}/baseline``), and a run's report:
``GET /dashboard/audits/{id}/report``, the HTML report as a fragment (with the site's trend)
whose screenshots the script fetches from ``/audits/{id}/artifacts/{name}``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import resources

from quart import Response
from quart_trio import QuartTrio

from audit.meta import package_version
from audit.reports.html import render_html_fragment, report_css, report_script
from cdpdriver.scripts import load_script

from .evidence import baseline_changes, report_evidence, whole_result
from .handlers import Service
from .jobs_api import _answer, _jobs

#: The page's own policy: its files only, images also from blobs (fetched screenshots).
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; "
    "connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
)
_SHELL_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
_CSS = "text/css; charset=utf-8"
_JS = "text/javascript; charset=utf-8"


def _static_text(name: str) -> str:
    return resources.files("a11y.service.static").joinpath(name).read_text(encoding="utf-8")


#: The files of ``/static/``: name -> (content type, source). Nothing else is served there.
STATIC_FILES: dict[str, tuple[str, Callable[[], str]]] = {
    "dashboard.css": (_CSS, lambda: _static_text("dashboard.css")),
    "dashboard.js": (_JS, lambda: load_script("a11y.service.static", "dashboard")),
    "report.css": (_CSS, report_css),
    "report.js": (_JS, report_script),
}


def register_dashboard_routes(app: QuartTrio, service: Service) -> None:
    """Add ``/``, ``/static/<name>`` and the report fragment to ``app``."""

    @app.get("/")
    async def dashboard() -> Response:
        return Response(shell(), status=200, content_type="text/html; charset=utf-8",
                        headers=_SHELL_HEADERS)

    @app.get("/static/<name>")
    async def static_file(name: str) -> Response:
        if name not in STATIC_FILES:
            return Response("Not found", status=404, content_type="text/plain; charset=utf-8")
        content_type, source = STATIC_FILES[name]
        return Response(source(), status=200, content_type=content_type, headers={
            "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff",
        })

    async def report_fragment(run_id: str) -> Response:
        return await _answer(service, run_id, None, _report_fragment)

    app.add_url_rule("/dashboard/audits/<run_id>/report", "dashboard_report", report_fragment,
                     methods=["GET"])


async def _report_fragment(service: Service, run_id: str, _: None) -> Response:
    """The run's report for the dashboard: its screenshots by name, the trend up to it.
    ``conflict`` until it completed, like the report itself."""
    jobs = _jobs(service)
    result = await whole_result(jobs, run_id)
    screenshots, history = await report_evidence(jobs, run_id, inline=False)
    changes = await baseline_changes(jobs, run_id, result)
    text = render_html_fragment(result, screenshots, history, heading=3, prefix="run-", run_id=run_id,
                                changes=changes)
    return Response(text, status=200, content_type="text/html; charset=utf-8",
                    headers={"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"})


@cache
def shell() -> str:
    """The page before any data: landmarks, the forms, the empty runs table and the run
    view, which the script fills."""
    return _SHELL.replace("{version}", package_version())


_SHELL = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>a11y dashboard</title>
<link rel="stylesheet" href="/static/report.css">
<link rel="stylesheet" href="/static/dashboard.css">
<script src="/static/report.js" defer></script>
<script src="/static/dashboard.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to the dashboard</a>
<header class="top">
<h1>a11y dashboard</h1>
<p class="muted">WCAG audits of web pages, version {version}.</p>
</header>
<main id="main" tabindex="-1">
<noscript><p>The dashboard needs JavaScript; the API (<a href="/openapi.json">/openapi.json</a>)
does not.</p></noscript>

<section id="token-panel" class="panel" aria-labelledby="token-h" hidden>
<h2 id="token-h">API token</h2>
<form id="token-form">
<p>This service asks for its API token. It is kept in this browser tab only.</p>
<p><label for="token">Token</label>
<input id="token" name="token" type="password" autocomplete="off" required></p>
<p><button type="submit">Use the token</button></p>
<p id="token-status" role="status"></p>
</form>
</section>

<section id="start-panel" class="panel" aria-labelledby="start-h" hidden>
<h2 id="start-h">Start an audit</h2>
<form id="start-form">
<p><label for="start-url">Address of the page</label>
<input id="start-url" name="url" type="url" required placeholder="https://example.org/"
 autocomplete="url"></p>
<div class="row">
<p><label for="start-level">WCAG level</label>
<select id="start-level" name="level"><option>A</option><option selected>AA</option><option>AAA</option></select></p>
<p><input id="start-crawl" name="crawl" type="checkbox">
<label for="start-crawl">Also audit the pages it links to</label></p>
<p><label for="start-depth">Link depth</label>
<input id="start-depth" name="depth" type="number" min="0" max="5" value="2" inputmode="numeric"></p>
<p><label for="start-max">Pages at most</label>
<input id="start-max" name="maxPages" type="number" min="1" value="50" inputmode="numeric"></p>
</div>
<p><button type="submit">Start the audit</button></p>
<p id="start-status" role="status"></p>
</form>
</section>

<section class="panel" aria-labelledby="runs-h">
<h2 id="runs-h">Runs</h2>
<p><button id="runs-refresh" type="button">Refresh the list</button></p>
<p id="runs-status" role="status">Loading the runs…</p>
<div class="table-wrap">
<table id="runs">
<caption>The latest runs, newest first</caption>
<thead><tr><th scope="col">Started</th><th scope="col">Address</th><th scope="col">Status</th>
<th scope="col">Progress</th><th scope="col">Findings</th><th scope="col">Details</th></tr></thead>
<tbody></tbody>
</table>
</div>
</section>

<section id="run" class="panel" aria-labelledby="run-h" tabindex="-1" hidden>
<h2 id="run-h">Run</h2>
<dl id="run-facts" class="facts"></dl>
<p id="run-status" role="status"></p>
<section aria-labelledby="diff-h">
<h3 id="diff-h">Compared with the site's baseline</h3>
<p id="baseline-controls" hidden><button id="set-baseline" type="button">Make this run the site's baseline</button></p>
<div id="diff" aria-live="polite"></div>
</section>
<div id="run-report"></div>
</section>
</main>
</body>
</html>
"""
