"""Readiness by pending work, and the pages the engine keeps warm between audits: spare tabs
and finishers are reused or replaced, never leaked, and never change what an audit finds."""

from __future__ import annotations

from dataclasses import replace

import trio

from audit import tab_setup
from audit.axe import FinisherPool, finisher_pool
from audit.engine import EngineLimits, run_audit
from audit.readiness import install_tracker, settle
from audit.spares import spare_pages, warm_up
from audit.tab_setup import new_audit_page, set_up
from tests.audit.support import make_request
from tests.support.site import Response

FAST = EngineLimits(navigation_timeout=15, audit_timeout=60)
LATE_IMAGE = "<img id=late src=pixel.png>"
# A clean frame, so the page goes through runPartial and a pooled finisher.
FRAME = "<iframe title=clean srcdoc='<html lang=en><title>c</title><p>ok</p>'></iframe>"


async def _contexts(browser) -> set[str]:
    reply = await browser.session.send("Target.getBrowserContexts", timeout=10)
    return set(reply.get("browserContextIds", []))


async def _idle(browser, spares_expected: int) -> None:
    """Wait until the background clean-up and refill settled (bounded)."""
    spares = spare_pages(browser)
    with trio.fail_after(20):
        while spares._scheduled or spares.closing or len(spares._ready) < spares_expected:
            await trio.sleep(0.05)


async def test_content_after_a_timer_and_a_fetch_is_audited(browser, site):
    # load -> 300 ms timer -> fetch (answered after 300 ms) -> render: no fixed quiet window
    # of the old kind would span all of it, the pending-work tracker follows the chain.
    site.route("/warm/data.json", Response('{"alt": ""}', content_type="application/json", delay=0.3))
    url = site.route(
        "/warm/chain.html",
        "<!doctype html><html lang=en><title>chain</title><main><h1>Chain</h1></main><script>"
        "addEventListener('load', () => setTimeout(() => fetch('data.json').then(r => r.json())"
        f".then(() => document.querySelector('main').insertAdjacentHTML('beforeend', '{LATE_IMAGE}')),"
        " 300));</script>",
    )
    result = await run_audit(browser, make_request(url), FAST)
    assert [(f.rule_id, f.selector) for f in result.findings] == [("image-alt", "#late")]


async def test_a_page_made_for_audits_has_the_tab_set_up_before_its_first_document(browser, site, monkeypatch):
    url = site.route("/warm/set-up.html", "<!doctype html><html lang=en><title>s</title><p>set up</p>")
    context = await browser.create_context()
    page = await new_audit_page(browser, context)
    try:
        await page.navigate(url, wait_until="load")
        tracker = "typeof globalThis[Symbol.for('a11y.readiness')]"
        assert await page.evaluate(tracker) == "function", "the tracker ran in the first document"
        assert await page.evaluate("document.hasFocus()") is True
        assert page._last_network_activity > 0, "its requests were counted from the first one"

        async def sent_again(*_: object) -> None:
            raise AssertionError("a page made for audits was set up again")

        monkeypatch.setattr(tab_setup, "install_tracker", sent_again)
        await set_up(page)
        assert await settle(page, cap=5)
    finally:
        await page.close()
        await browser.dispose_context(context)


async def _settle_script_page(page, site, name: str, script: str, cap: float, **quiet: float) -> bool:
    """Load a page running ``script`` the way the engine does and report what settle says."""
    url = site.route(f"/warm/{name}.html",
                     f"<!doctype html><html lang=en><title>{name}</title><p id=t>0</p><script>{script}</script>")
    await install_tracker(page)
    await page.navigate(url, wait_until="load")
    return await settle(page, cap=cap, **quiet)


async def test_a_self_rearming_poller_does_not_hold_the_audit(browser, page, site):
    poller = "let n = 0; function poll() { n++; setTimeout(poll, 100); } poll();"
    assert await _settle_script_page(page, site, "poller", poller, 5.0) is True  # not counted as work
    assert await page.evaluate("n") > 0  # and it really was polling


async def test_a_page_that_keeps_mutating_is_audited_at_the_cap(browser, page, site):
    # A 0.3 s quiet window, so a loaded machine starving the 10 ms ticker cannot fake a pause.
    ticker = "setInterval(() => { document.getElementById('t').textContent = Date.now(); }, 10);"
    assert await _settle_script_page(page, site, "busy", ticker, 1.5, quiet=0.3) is False


async def test_settle_without_a_tracker_installs_one(browser, page, site):
    url = site.route("/warm/plain.html", "<!doctype html><html lang=en><title>plain</title><p>x</p>")
    await page.navigate(url, wait_until="load")
    assert await settle(page, cap=5.0) is True
    assert await page.evaluate("typeof globalThis[Symbol.for('a11y.readiness')]") == "function"


async def test_repeated_audits_reuse_the_finisher_and_leak_no_context(browser, site):
    url = site.route("/warm/img.html", f"<!doctype html><html lang=en><title>img</title><img src=pixel.png>{FRAME}")
    before = await _contexts(browser)
    first = await run_audit(browser, make_request(url), FAST)
    pool = finisher_pool(browser)
    finisher = pool._idle[0]
    for _ in range(3):
        again = await run_audit(browser, make_request(url), FAST)
        assert [f.rule_id for f in again.findings] == [f.rule_id for f in first.findings] == ["image-alt"]
    assert pool._idle == [finisher]  # the same warm page merged every audit
    await _idle(browser, spares_expected=1)
    extra = await _contexts(browser) - before
    # What stays: the finishers' context and the one spare waiting for the next audit.
    assert len(extra) == 2
    assert pool._context_id in extra
    assert {s.context_id for s in spare_pages(browser)._ready} == extra - {pool._context_id}


async def test_an_axe_run_prepares_the_next_requests_tab_beside_it(browser, site):
    """With ``prepare_ahead`` the next request's tab is being made (or is made) when an audit
    ends, in a context no audit used; it is warmed once the browser is idle. Without, the spare
    waits for idle time."""
    url = site.route("/warm/ahead.html", "<!doctype html><html lang=en><title>a</title><img src=pixel.png>")
    spares = spare_pages(browser)
    warm_up(browser)
    for ahead in (False, True):
        await _idle(browser, spares_expected=1)
        before = await _contexts(browser)
        result = await run_audit(browser, make_request(url), replace(FAST, prepare_ahead=ahead))
        assert [f.rule_id for f in result.findings] == ["image-alt"]
        assert bool(spares._filling or spares._ready) is ahead
    await _idle(browser, spares_expected=1)
    [spare] = spares._ready
    assert spare.context_id not in before and spare.warming


async def test_a_failed_audit_releases_its_page(browser, site):
    url = site.route("/warm/missing.html", Response("gone", status=404))
    before = await _contexts(browser)
    try:
        await run_audit(browser, make_request(url), FAST)
    except Exception as exc:  # noqa: BLE001 - the code is asserted below
        assert getattr(exc, "code", None) == "http_error"
    else:
        raise AssertionError("a 404 start page must fail the audit")
    await _idle(browser, spares_expected=1)
    extra = await _contexts(browser) - before
    # The audited page's own context is gone; the spare for the next audit stays. (No frame was
    # reached, so no finisher was made either.)
    assert extra == {s.context_id for s in spare_pages(browser)._ready}
    assert finisher_pool(browser)._context_id is None


async def test_a_dead_finisher_or_spare_is_replaced(browser, site):
    url = site.route("/warm/btn.html", f"<!doctype html><html lang=en><title>b</title><button></button>{FRAME}")
    warm_up(browser)
    await run_audit(browser, make_request(url), FAST)
    await _idle(browser, spares_expected=1)
    await finisher_pool(browser)._idle[0].page.close()  # e.g. its renderer crashed
    await spare_pages(browser)._ready[0].page.close()
    result = await run_audit(browser, make_request(url), FAST)
    assert [f.rule_id for f in result.findings] == ["button-name"]


async def test_concurrent_audits_share_at_most_the_pool_size_of_finishers(browser, site):
    url = site.route("/warm/c.html", f"<!doctype html><html lang=en><title>c</title><img src=pixel.png>{FRAME}")
    results = []

    async def one() -> None:
        results.append(await run_audit(browser, make_request(url), FAST))

    async with trio.open_nursery() as nursery:
        for _ in range(4):
            nursery.start_soon(one)
    assert [len(r.findings) for r in results] == [1, 1, 1, 1]
    pool = finisher_pool(browser)
    assert 1 <= len(pool._idle) <= pool.size


async def test_a_prewarm_while_every_finisher_is_leased_adds_none(browser):
    """Audits with frames ask for a finisher ahead of time; when every finisher is leased, that
    must not make one more than the pool's size (each is a page with axe loaded)."""
    pool = FinisherPool(browser, size=2)
    try:
        async with pool.lease() as first, pool.lease() as second:
            assert first is not second
            await pool.prewarm()  # what an audit with frames starts while both are out
        assert len(pool._idle) == 2
        await pool.prewarm()  # two idle: nothing to do
        assert len(pool._idle) == 2
    finally:
        for finisher in pool._idle:
            await finisher.page.close()
        if pool._context_id is not None:
            await browser.dispose_context(pool._context_id)


async def test_frameless_pages_finish_in_place_with_the_same_findings_as_the_merge(browser, site):
    """A page without frames skips runPartial/finishRun; add a clean frame and the partial
    protocol runs instead: the page's own findings must be the same either way."""
    body = ("<main><h1>Same</h1><img src=pixel.png><input id=q><button></button>"
            "<p style='color:#bbb;background:#fff'>faint</p></main>")
    alone = site.route("/warm/alone.html", f"<!doctype html><html lang=en><title>a</title>{body}")
    framed = site.route("/warm/framed.html", f"<!doctype html><html lang=en><title>f</title>{body}{FRAME}")
    results = [await run_audit(browser, make_request(url), FAST) for url in (alone, framed)]
    found = [sorted((f.rule_id, f.selector, f.impact, tuple(f.success_criteria)) for f in r.findings)
             for r in results]
    assert found[0] == found[1]
    assert finisher_pool(browser)._idle  # the framed page really was merged by a finisher
    assert {rule for rule, *_ in found[0]} >= {"image-alt", "label", "button-name", "color-contrast"}
