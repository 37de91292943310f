"""A stopping HTTP server ends its clients' standing GET streams at once (``a11y.mcp_http``):
such a stream never ends by itself, so without this every stop with a client connected
waited out the whole grace. Requests other than GET are left to finish."""

from __future__ import annotations

from typing import Any

import trio
import trio.testing

from a11y.mcp_http import StandingStreams

HANG_GUARD = 30


def _request(method: str) -> dict[str, Any]:
    return {"type": "http", "method": method, "path": "/mcp", "headers": []}


async def _nothing() -> dict[str, Any]:
    await trio.sleep_forever()
    raise AssertionError("unreachable")


async def _sent(message: Any) -> None:
    pass


async def test_end_cuts_the_open_get_streams_and_leaves_other_requests():
    answered: list[str] = []
    post_may_answer = trio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["method"] == "GET":  # a standing stream: lasts as long as its client
            await trio.sleep_forever()
        await post_may_answer.wait()
        answered.append(scope["method"])

    streams = StandingStreams(app)
    ended: list[str] = []

    async def serve(method: str) -> None:
        await streams(_request(method), _nothing, _sent)
        ended.append(method)

    with trio.fail_after(HANG_GUARD):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(serve, "GET")
            nursery.start_soon(serve, "POST")
            await trio.testing.wait_all_tasks_blocked()
            streams.end()
            await trio.testing.wait_all_tasks_blocked()
            assert ended == ["GET"]  # the stream is over; the POST still runs
            post_may_answer.set()
        assert ended == ["GET", "POST"] and answered == ["POST"]


async def test_a_get_opened_after_the_end_ends_at_once():
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await trio.sleep_forever()

    streams = StandingStreams(app)
    streams.end()
    with trio.fail_after(HANG_GUARD):
        await streams(_request("GET"), _nothing, _sent)
