"""Navigation, lifecycle waits, isolation and child targets on real pages."""

from __future__ import annotations

import contextlib

import pytest
import trio

from cdpdriver import NavigationFailed, NavigationTimeout
from tests.support.site import Response


@pytest.mark.parametrize("state", ["load", "domcontentloaded", "networkidle"])
async def test_navigate_waits_for_state(page, site, state):
    url = site.route(f"/nav-{state}", "<title>Nav</title><p>hello</p>")
    result = await page.navigate(url, wait_until=state, timeout=15)
    assert result.frame_id
    assert await page.title() == "Nav"


async def test_networkidle_waits_for_late_requests(page, site):
    site.route("/slow-data", Response("{}", content_type="application/json", delay=0.4))
    url = site.route("/idle", "<script>setTimeout(() => fetch('/slow-data').then(() => document.title = 'done'), 50)</script>")
    await page.navigate(url, wait_until="networkidle", timeout=15)
    assert await page.title() == "done"


async def test_failed_navigation_raises_with_net_error(page):
    with pytest.raises(NavigationFailed) as info:
        await page.navigate("http://127.0.0.1:9/", timeout=10)
    assert "ERR_" in info.value.error_text


async def test_navigation_timeout(page, site):
    url = site.route("/never", Response("<p>late</p>", delay=3))
    with pytest.raises(NavigationTimeout):
        await page.navigate(url, timeout=0.5)


async def test_wait_for_load_state_returns_when_already_loaded(page, site):
    await page.navigate(site.route("/loaded", "<p>x</p>"))
    with trio.fail_after(30):
        await page.wait_for_load_state("load")


async def test_contexts_are_isolated(browser, site):
    url = site.route("/cookie", "<p>c</p>")
    async with browser.context() as a, browser.context() as b:
        pa, pb = await a.new_page(), await b.new_page()
        await pa.navigate(url)
        await pb.navigate(url)
        await pa.evaluate("document.cookie = 'who=a'")
        assert await pa.evaluate("document.cookie") == "who=a"
        assert await pb.evaluate("document.cookie") == ""


async def test_isolated_world_is_hidden_from_page_scripts(page, site):
    await page.navigate(site.route("/world", "<script>window.secret = 1; Array.prototype.map = null;</script>"))
    world = await page.isolated_world()
    assert await page.evaluate("typeof window.secret", context_id=world) == "undefined"
    assert await page.evaluate("[1,2].map(x => x * 2)", context_id=world) == [2, 4]
    assert await page.evaluate("window.secret") == 1


async def test_cross_site_iframe_is_auto_attached_and_resumed(page, site):
    inner = site.cross_site_url("/inner")
    site.route("/inner", "<title>inner</title><p>inside</p>")
    outer = site.route("/outer", f"<iframe src='{inner}'></iframe>")
    await page.navigate(outer, wait_until="load")
    with trio.fail_after(30):
        while not any(c.type == "iframe" for c in page.children.values()):
            await trio.sleep(0.02)
    child = next(c for c in page.children.values() if c.type == "iframe")
    reply = await child.session.send("Runtime.evaluate", {"expression": "document.title", "returnByValue": True})
    assert reply["result"]["value"] == "inner"


async def test_set_content_and_reload(page, site):
    await page.navigate(site.route("/reload", "<title>R</title><script>document.title += Date.now() % 2 >= 0 ? '!' : ''</script>"))
    await page.reload()
    assert await page.title() == "R!"
    await page.set_content("<title>fresh</title>")
    assert await page.title() == "fresh"


async def test_renderer_crash_fails_pending_commands_with_target_crashed(browser):
    from cdpdriver import TargetCrashed

    async with browser.context() as ctx:
        page = await ctx.new_page()
        await page.session.send("Inspector.enable")
        failures: list[BaseException] = []

        async def hang() -> None:
            try:
                await page.evaluate("new Promise(() => {})", timeout=20)
            except TargetCrashed as exc:
                failures.append(exc)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(hang)
            await trio.sleep(0.1)
            with trio.move_on_after(2), contextlib.suppress(TargetCrashed):
                await page.session.send("Page.crash", timeout=2)  # the crash fails this one too
            with trio.fail_after(30):
                while not failures:
                    await trio.sleep(0.01)
        assert isinstance(failures[0], TargetCrashed)
        with pytest.raises(TargetCrashed):
            await page.evaluate("1")
        await page.close()
