"""Every way the start page can fail maps to one AuditFailed code."""

from __future__ import annotations

import os
import signal
import threading

import pytest
import trio

from audit.engine import EngineLimits, run_audit
from audit.failures import AuditFailed
from cdpdriver import launch
from tests.audit.support import make_request
from tests.support.site import Request, Response, refused_url

#: Also part of the fault suite (issue #17): ``pytest -m faults`` runs it with tests/faults.
pytestmark = pytest.mark.faults


async def test_connection_refused_is_navigation_failed(browser):
    url = refused_url()
    with pytest.raises(AuditFailed) as info:
        await run_audit(browser, make_request(url), EngineLimits(navigation_timeout=10))
    failure = info.value
    assert failure.code == "navigation_failed"
    assert "net::ERR_CONNECTION_REFUSED" in failure.message
    assert failure.details == [{"url": url, "netError": "net::ERR_CONNECTION_REFUSED"}]


async def test_page_that_never_finishes_loading_is_timeout(browser, site):
    site.route("/audit/stalled.png", Response(b"", content_type="image/png", delay=3))
    url = site.route("/audit/stalled.html", "<title>stalled</title><img alt='' src='/audit/stalled.png'>")
    with trio.fail_after(10), pytest.raises(AuditFailed) as info:
        await run_audit(browser, make_request(url), EngineLimits(navigation_timeout=0.8))
    assert info.value.code == "timeout"
    assert url in info.value.message


async def test_whole_audit_deadline_is_timeout(browser, site):
    # The page loads at once, then keeps its main thread busy for 3 s: no machine, however
    # fast, audits it within the 0.3 s deadline.
    url = site.route("/audit/busy.html", "<!doctype html><html lang=en><title>busy</title><main><h1>Busy</h1>"
                     "</main><script>addEventListener('load', () => setTimeout(() => {"
                     " const end = Date.now() + 3000; while (Date.now() < end) {} }, 0));</script>")
    with pytest.raises(AuditFailed) as info:
        await run_audit(browser, make_request(url), EngineLimits(audit_timeout=0.3))
    assert info.value.code == "timeout"


@pytest.mark.parametrize(
    ("status", "body"),
    [(404, "<title>Not here</title>"), (404, ""), (500, "")],  # empty: Chromium fails the load
)
async def test_error_status_on_start_page_is_http_error(browser, site, status, body):
    url = site.route(f"/audit/status-{status}-{len(body)}", Response(body, status=status))
    with pytest.raises(AuditFailed) as info:
        await run_audit(browser, make_request(url))
    assert info.value.code == "http_error"
    assert str(status) in info.value.message
    assert info.value.details == [{"url": url, "status": status}]


async def test_non_html_start_page_is_audit_failed(browser, site):
    url = site.route("/audit/start.pdf", Response(b"%PDF-1.4\n%%EOF", content_type="application/pdf"))
    with pytest.raises(AuditFailed) as info:
        await run_audit(browser, make_request(url))
    assert info.value.code == "audit_failed"
    assert "not an HTML page" in info.value.message


async def test_browser_killed_mid_audit_is_browser_crashed(site):
    requested = threading.Event()

    def slow_image(request: Request) -> Response:
        requested.set()
        return Response(b"", content_type="image/png", delay=2)

    site.route("/audit/kill.png", slow_image)
    url = site.route("/audit/kill.html", "<title>kill</title><img alt='' src='/audit/kill.png'>")
    async with launch() as own:
        pid = own.pid
        assert pid is not None

        async def kill_when_loading() -> None:
            while not requested.is_set():
                await trio.sleep(0.01)
            os.kill(pid, signal.SIGKILL)

        failure: AuditFailed | None = None
        with trio.fail_after(20):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(kill_when_loading)
                try:
                    await run_audit(own, make_request(url))
                except AuditFailed as exc:
                    failure = exc
    assert failure is not None and failure.code == "browser_crashed"
