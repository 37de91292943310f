"""Commands, timeouts, events and robustness of the connection against real Chromium."""

from __future__ import annotations

import base64
import json

import pytest
import trio

from cdpdriver import CommandTimeout, JavaScriptError, ProtocolError
from cdpdriver.protocol import util


async def test_fifty_concurrent_evaluates_across_five_pages(browser):
    async with browser.context() as ctx:
        pages = [await ctx.new_page() for _ in range(5)]
        results: dict[tuple[int, int], object] = {}

        async def one(p: int, i: int) -> None:
            results[(p, i)] = await pages[p].evaluate(f"{p} * 100 + {i}")

        async with trio.open_nursery() as nursery:
            for p in range(5):
                for i in range(10):
                    nursery.start_soon(one, p, i)
        assert results == {(p, i): p * 100 + i for p in range(5) for i in range(10)}
        for p in pages:
            await p.close()


async def test_command_timeout_then_late_reply_is_ignored(page):
    with pytest.raises(CommandTimeout) as info:
        await page.evaluate("new Promise(r => setTimeout(() => r(1), 700))", timeout=0.2)
    assert info.value.method == "Runtime.evaluate"
    await trio.sleep(0.8)  # the late reply arrives now and must be dropped quietly
    assert await page.evaluate("2 + 2") == 4


async def test_page_exception_is_typed_with_location(page):
    with pytest.raises(JavaScriptError) as info:
        await page.evaluate("\n\n  (function boom() { throw new TypeError('bad thing'); })()")
    err = info.value
    assert "TypeError: bad thing" in err.message
    assert err.line == 2
    assert err.stack and "boom" in err.stack


async def test_rejected_promise_is_a_javascript_error(page):
    with pytest.raises(JavaScriptError, match="nope"):
        await page.evaluate("Promise.reject(new Error('nope'))")


async def test_protocol_error_names_the_method(browser):
    with pytest.raises(ProtocolError) as info:
        await browser.session.send("Target.closeTarget", {"targetId": "does-not-exist"})
    assert info.value.method == "Target.closeTarget"


async def test_unknown_method_is_a_protocol_error(browser):
    with pytest.raises(ProtocolError):
        await browser.session.send("Nope.notAMethod")


async def test_unknown_event_unknown_session_and_garbage_do_not_kill_reader(page):
    conn = page.session.connection
    with page.session.listen() as events:
        conn._dispatch(json.dumps({"method": "Future.somethingNew", "params": {"x": 1},
                                   "sessionId": page.session.session_id}))
        conn._dispatch(json.dumps({"method": "Page.loadEventFired", "params": {"timestamp": 1},
                                   "sessionId": "no-such-session"}))
        conn._dispatch(b"{not json")
        conn._dispatch(json.dumps([1, 2, 3]))
        conn._dispatch(json.dumps({"id": 999999999, "result": {}}))
        conn._dispatch(json.dumps({"method": "Page.lifecycleEvent", "params": "not-an-object",
                                   "sessionId": page.session.session_id}))
        event = events.receive_nowait()
        assert isinstance(event, util.UnknownEvent)
        assert event.method == "Future.somethingNew"
    assert await page.evaluate("1 + 1") == 2


async def test_typed_events_arrive_for_subscribers(page, site):
    url = site.route("/typed-events", "<title>t</title><script>console.log('hi', 3)</script>")
    await page.session.send("Runtime.enable")
    with page.session.listen("Runtime.consoleAPICalled") as events:
        await page.navigate(url)
        with trio.fail_after(30):
            event = await events.receive()
    assert event.type == "log"
    assert [a.value for a in event.args] == ["hi", 3]


async def test_message_over_ten_mebibytes(page):
    """A noisy 2400x2400 PNG is well over 10 MiB base64: the socket must carry it."""
    await page.session.send("Emulation.setDeviceMetricsOverride",
                            {"width": 2400, "height": 2400, "deviceScaleFactor": 1, "mobile": False})
    await page.set_content("<canvas id=c width=2400 height=2400></canvas>")
    await page.evaluate("""(() => {
        const c = document.getElementById('c'), g = c.getContext('2d');
        const img = g.createImageData(2400, 2400);
        for (let i = 0; i < img.data.length; i++) img.data[i] = Math.random() * 256;
        for (let i = 3; i < img.data.length; i += 4) img.data[i] = 255;
        g.putImageData(img, 0, 0);
    })()""")
    reply = await page.session.send("Page.captureScreenshot", {"format": "png"}, timeout=60)
    assert len(reply["data"]) > 10 * 1024 * 1024
    png = base64.b64decode(reply["data"])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


async def test_flooding_page_overflows_a_small_buffer_by_dropping_the_oldest(page):
    """A page logging far past a subscription's bound: the reader never stalls, the newest
    events are kept, the rest are counted as dropped; a default subscription keeps them all."""
    await page.session.send("Runtime.enable")
    with (
        page.session.listen("Runtime.consoleAPICalled", buffer=50) as small,
        page.session.listen("Runtime.consoleAPICalled") as default,
    ):
        await page.evaluate("for (let i = 0; i < 2000; i++) console.log('line', i)")
        # The reader stayed responsive throughout: a command after the flood is answered.
        assert await page.evaluate("1 + 1") == 2
        kept, everything = _queued(small), _queued(default)
    assert small.dropped == 2000 - 50
    assert [event.args[1].value for event in kept] == list(range(1950, 2000))
    assert default.dropped == 0
    assert [event.args[1].value for event in everything] == list(range(2000))


def _queued(events) -> list:
    """The events waiting in a subscription, taken without waiting."""
    taken = []
    while True:
        try:
            taken.append(events.receive_nowait())
        except trio.WouldBlock:
            return taken
