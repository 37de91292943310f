"""POST /audit end to end: real HTTP, real Chromium, real pages from the test site."""

from __future__ import annotations

import logging
import os
import signal

import trio

import a11y.service.handlers
from a11y.service import ServiceConfig, create_app
from tests.service.conftest import CLEAN, VIOLATIONS, assert_error, client_for, service_for
from tests.support.site import refused_url


async def _wait_entered(gate) -> None:
    assert await trio.to_thread.run_sync(gate.entered.wait, 20), "the page was never requested"


async def test_audit_of_a_page_with_known_violations(client, site, caplog):
    url = site.route("/service/violations", VIOLATIONS)
    caplog.set_level(logging.INFO, logger="a11y.server")
    response = await client.post("/audit", json={"url": url, "level": "aa", "version": "2.1"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["url"] == url
    assert (body["wcagVersion"], body["wcagLevel"]) == ("2.1", "AA")
    assert body["conformant"] is False
    assert 0 <= body["score"] < 100
    stats = body["stats"]
    assert stats["totalPages"] == 1
    assert stats["totalFindings"] == len(body["findings"])
    assert stats["totalFindings"] == sum(stats[k] for k in ("critical", "serious", "moderate", "minor"))
    rules = {f["ruleId"] for f in body["findings"]}
    assert {"image-alt", "html-has-lang", "document-title", "link-name", "label",
            "color-contrast"} <= rules, rules
    ids = [f["id"] for f in body["findings"]]
    assert len(set(ids)) == len(ids) and all(i.startswith("f") for i in ids)
    image = next(f for f in body["findings"] if f["ruleId"] == "image-alt")
    assert image["element"] == "img" and image["impact"] == "critical" and image["level"] == "A"
    assert image["successCriteria"] == ["1.1.1"]
    assert image["html"].startswith("<img") and image["selector"]
    assert image["help"].startswith("https://")
    contrast = next(f for f in body["findings"] if f["ruleId"] == "color-contrast")
    assert contrast["successCriteria"] == ["1.4.3"] and contrast["level"] == "AA"
    # One log line for the audit, with what an operator needs.
    lines = [r.getMessage() for r in caplog.records if r.name == "a11y.server" and "audit " in r.getMessage()]
    assert len(lines) == 1, lines
    assert url in lines[0] and "status=200" in lines[0] and "pages=1" in lines[0]
    assert f"findings={stats['totalFindings']}" in lines[0] and "duration_ms=" in lines[0]


async def test_audit_of_a_clean_page_is_conformant(client, site):
    url = site.route("/service/clean", CLEAN)
    response = await client.post("/audit", json={"url": url})
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["wcagVersion"], body["wcagLevel"]) == ("2.2", "AA")
    assert body["conformant"] is True and body["score"] == 100
    assert body["findings"] == [] and body["stats"]["totalFindings"] == 0


async def test_connection_refused_is_navigation_failed(client):
    url = refused_url()
    error = assert_error(await client.post("/audit", json={"url": url}), 500, "navigation_failed")
    assert "ERR_CONNECTION_REFUSED" in error["message"] + str(error["details"])


async def test_http_error_status(client, site):
    url = site.url("/service/no-such-page")
    error = assert_error(await client.post("/audit", json={"url": url}), 500, "http_error")
    assert "404" in error["message"]


async def test_never_finishing_page_times_out(chromium, site, gate):
    held = gate()
    url = site.route("/service/never", held)
    async with service_for(chromium, navigation_timeout=1.0) as svc, client_for(svc) as client:
        # The audited page is closed in the background, so the answer does not wait for it.
        with trio.fail_after(20):
            response = await client.post("/audit", json={"url": url})
    assert_error(response, 500, "timeout")


async def test_whole_audit_timeout(chromium, site, gate):
    held = gate()
    url = site.route("/service/never-whole", held)
    async with service_for(chromium, navigation_timeout=30.0, audit_timeout=1.0) as svc, \
            client_for(svc) as client:
        with trio.fail_after(20):
            response = await client.post("/audit", json={"url": url})
    assert_error(response, 500, "timeout")


async def test_overloaded_when_the_queue_is_full(chromium, site, gate):
    held = gate(body=CLEAN)
    slow = site.route("/service/slow-overload", held)
    fast = site.route("/service/fast-overload", CLEAN)
    async with service_for(chromium, concurrency=1, queue_size=0) as svc, client_for(svc) as client:
        first: dict = {}
        async with trio.open_nursery() as nursery:

            async def hold() -> None:
                first["response"] = await client.post("/audit", json={"url": slow})

            nursery.start_soon(hold)
            await _wait_entered(held)
            refused = await client.post("/audit", json={"url": fast})
            error = assert_error(refused, 503, "overloaded")
            assert int(refused.headers["Retry-After"]) >= 1
            assert error["message"]
            held.release()
        assert first["response"].status_code == 200
        # The slot is free again.
        assert (await client.post("/audit", json={"url": fast})).status_code == 200


async def test_queued_audit_waits_then_runs(chromium, site, gate):
    held = gate(body=CLEAN)
    slow = site.route("/service/slow-queue", held)
    fast = site.route("/service/fast-queue", CLEAN)
    async with service_for(chromium, concurrency=1, queue_size=1) as svc, client_for(svc) as client:
        results: dict[str, int] = {}
        async with trio.open_nursery() as nursery:

            async def post(name: str, url: str) -> None:
                results[name] = (await client.post("/audit", json={"url": url})).status_code

            nursery.start_soon(post, "running", slow)
            await _wait_entered(held)
            nursery.start_soon(post, "queued", fast)
            with trio.fail_after(10):
                while svc.service.gate.admitted < 2:
                    await trio.sleep(0.01)
            assert_error(await client.post("/audit", json={"url": fast}), 503, "overloaded")
            held.release()
        assert results == {"running": 200, "queued": 200}


async def test_browser_killed_mid_audit_then_relaunched(site, gate):
    """The service's own browser (not the shared one) dies during an audit: that audit is a
    500 browser_crashed, and the next one runs on a relaunched browser."""
    held = gate(body=CLEAN)
    slow = site.route("/service/slow-crash", held)
    fast = site.route("/service/after-crash", CLEAN)
    async with service_for(None) as svc, client_for(svc) as client:
        browser = await svc.supervisor.wait_ready(30)
        first: dict = {}
        async with trio.open_nursery() as nursery:

            async def hold() -> None:
                first["response"] = await client.post("/audit", json={"url": slow})

            nursery.start_soon(hold)
            await _wait_entered(held)
            os.killpg(browser.pid, signal.SIGKILL)
        error = assert_error(first["response"], 500, "browser_crashed")
        assert error["message"]
        held.release()
        response = await client.post("/audit", json={"url": fast})
        assert response.status_code == 200, response.text
        assert response.json()["conformant"] is True
        assert svc.supervisor.launches == 2
        health = await client.get("/health")
        assert health.status_code == 200 and health.json()["browser"]["connected"] is True


async def test_unexpected_engine_error_is_a_clean_500(client, site, monkeypatch, caplog):
    async def broken(*args, **kwargs):
        raise RuntimeError("internal detail that must not leak")

    monkeypatch.setattr(a11y.service.handlers, "run_audit", broken)
    caplog.set_level(logging.INFO, logger="a11y.server")
    url = site.route("/service/unexpected", CLEAN)
    response = await client.post("/audit", json={"url": url})
    error = assert_error(response, 500, "audit_failed")
    assert "RuntimeError" in error["message"]
    assert "must not leak" not in response.text
    assert any("must not leak" in (r.exc_text or "") or r.exc_info for r in caplog.records
               if r.name == "a11y.server")


async def test_unexpected_error_on_any_route_uses_the_error_body():
    app = create_app(ServiceConfig(port=0, browser_url="ws://127.0.0.1:9/unused"))

    @app.get("/boom")
    async def boom():
        raise ValueError("kaboom")

    response = await app.test_client().get("/boom")
    assert response.status_code == 500
    body = await response.get_json()
    assert body["error"]["code"] == "internal_error"
    assert "kaboom" not in str(body)


def test_local_llm_provider_needs_no_key():
    assert a11y.service.handlers.llm_missing_setting("ollama", {}) is None
    assert a11y.service.handlers.llm_missing_setting("openai-compatible", {}) is not None
    assert a11y.service.handlers.llm_missing_setting(
        "openai-compatible", {"A11Y_LLM_BASE_URL": "http://127.0.0.1:8000"}) is None


async def test_client_disconnect_frees_the_slot(chromium, site, gate, caplog):
    held = gate(body=CLEAN)
    slow = site.route("/service/slow-disconnect", held)
    fast = site.route("/service/fast-disconnect", CLEAN)
    caplog.set_level(logging.INFO, logger="a11y.server")
    async with service_for(chromium, concurrency=1, queue_size=0) as svc:
        async with client_for(svc) as impatient, trio.open_nursery() as nursery:
            nursery.start_soon(lambda: impatient.post("/audit", json={"url": slow}))
            await _wait_entered(held)
            nursery.cancel_scope.cancel()
        with trio.fail_after(10):  # the server sees the closed connection and cancels
            while svc.service.gate.admitted:
                await trio.sleep(0.01)
        async with client_for(svc) as client:
            assert (await client.post("/audit", json={"url": fast})).status_code == 200
    assert any("status=cancelled" in r.getMessage() for r in caplog.records)


async def test_concurrency_bounds_pages_across_crawls(chromium, site):
    """Two crawls at once on a --concurrency 2 service: never more than two pages open."""
    import threading
    import time

    from tests.support.site import Response

    lock = threading.Lock()
    state = {"open": 0, "most": 0}

    def slow_page(request):
        with lock:
            state["open"] += 1
            state["most"] = max(state["most"], state["open"])
        time.sleep(0.3)
        with lock:
            state["open"] -= 1
        crawl, _, number = request.path.rpartition("/")
        links = "".join(f'<a href="{crawl}/{n}">page {n}</a>' for n in range(1, 4)) if number == "0" else ""
        return Response(f"<!doctype html><html lang=en><title>p{number}</title><main>{links}</main>")

    for crawl in ("a", "b"):
        for n in range(4):
            site.route(f"/limit/{crawl}/{n}", slow_page)
    async with service_for(chromium, concurrency=2) as svc, client_for(svc) as client:
        bodies = []

        async def crawl(name: str) -> None:
            response = await client.post("/audit", json={
                "url": site.url(f"/limit/{name}/0"), "crawl": {"enabled": True, "depth": 1, "maxPages": 4}})
            assert response.status_code == 200, response.text
            bodies.append(response.json())

        async with trio.open_nursery() as nursery:
            nursery.start_soon(crawl, "a")
            nursery.start_soon(crawl, "b")
    assert sorted(b["stats"]["totalPages"] for b in bodies) == [4, 4]
    assert state["most"] <= 2, state


def test_a_driver_navigation_error_names_the_net_error_like_the_engine():
    from types import SimpleNamespace

    from audit.failures import classify
    from cdpdriver import NavigationFailed

    failure = classify(NavigationFailed("http://x.test/", "net::ERR_NAME_NOT_RESOLVED"),
                       SimpleNamespace(is_connected=True))
    code, details = failure.code, failure.details
    assert (code, details) == ("navigation_failed", [{"url": "http://x.test/", "netError": "net::ERR_NAME_NOT_RESOLVED"}])
