"""Batch send: commands written back to back, replies awaited together, failures kept apart."""

from __future__ import annotations

import pytest
import trio

from cdpdriver import CommandTimeout, ProtocolError, TargetClosed
from cdpdriver.protocol import runtime


async def test_batch_writes_every_command_before_awaiting_a_reply(page):
    # The first command can only finish once the third has run: awaited one at a time they
    # would deadlock, pipelined they all finish, in order, each with its own outcome.
    with trio.fail_after(10):
        async with page.session.batch(timeout=5) as batch:
            waiting = batch.send("Runtime.evaluate", {
                "expression": "new Promise((resolve) => { window.release = resolve; })",
                "awaitPromise": True, "returnByValue": True})
            broken = batch.send("Nope.notAMethod")
            release = batch.execute(runtime.evaluate(expression="window.release(41 + 1); 'released'",
                                                     return_by_value=True))
            assert len(batch) == 3
    assert waiting.result()["result"]["value"] == 42
    assert release.result().result.value == "released"  # decoded by the typed builder
    assert isinstance(broken.error, ProtocolError) and broken.error.method == "Nope.notAMethod"
    with pytest.raises(ProtocolError):
        broken.result()
    assert waiting.error is None and release.error is None


async def test_a_slow_command_times_out_alone(page):
    batch = page.session.batch(timeout=0.3)
    never = batch.send("Runtime.evaluate", {"expression": "new Promise(() => {})", "awaitPromise": True})
    quick = batch.send("Runtime.evaluate", {"expression": "6 * 7", "returnByValue": True})
    replies = await batch.run()
    assert replies == [never, quick]
    assert isinstance(never.error, CommandTimeout) and never.error.method == "Runtime.evaluate"
    assert quick.result()["result"]["value"] == 42
    with pytest.raises(RuntimeError, match="already run"):
        batch.send("Runtime.evaluate", {"expression": "1"})
    assert await page.evaluate("1 + 1") == 2  # the late reply was dropped quietly


async def test_a_closed_session_fails_every_command_at_once_and_a_raising_body_sends_nothing(browser, page):
    with pytest.raises(ValueError):
        async with page.session.batch() as batch:
            unsent = batch.send("Runtime.evaluate", {"expression": "window.sent = true"})
            raise ValueError("changed my mind")
    with pytest.raises(RuntimeError, match="not run"):
        unsent.result()
    assert await page.evaluate("window.sent === undefined") is True

    async with browser.context() as ctx:
        doomed = await ctx.new_page()
        # The connection marks the session dead when the browser reports its detach; wait
        # for that event rather than for a guessed moment.
        with browser.session.listen("Target.detachedFromTarget", raw=True) as detached:
            await doomed.close()
            with trio.fail_after(30):
                async for event in detached:
                    if event.params.get("sessionId") == doomed.session.session_id:
                        break
        with trio.fail_after(30):
            async with doomed.session.batch() as batch:
                first = batch.send("Runtime.enable")
                second = batch.send("Page.enable")
    assert isinstance(first.error, TargetClosed) and isinstance(second.error, TargetClosed)
