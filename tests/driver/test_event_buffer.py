"""The bounded buffer behind every event subscription, without a browser: it never blocks
the writer, drops (and counts) the oldest when full, and ends like a trio channel."""

from __future__ import annotations

import math

import pytest
import trio

from cdpdriver.event_buffer import DEFAULT_BOUND, EventBuffer


def test_default_bound_is_finite_and_large():
    assert DEFAULT_BOUND == 10_000
    assert EventBuffer().bound == DEFAULT_BOUND


def test_full_buffer_drops_the_oldest_and_counts():
    buffer = EventBuffer[int](3)
    for n in range(10):
        assert buffer.put(n) is True  # never blocks, never refuses while open
    assert buffer.dropped == 7
    assert len(buffer) == 3
    assert [buffer.get_nowait() for _ in range(3)] == [7, 8, 9]
    with pytest.raises(trio.WouldBlock):
        buffer.get_nowait()


def test_first_drop_is_logged_once_at_debug(caplog):
    buffer = EventBuffer[int](2, label="subscription to Runtime.consoleAPICalled")
    with caplog.at_level("DEBUG", logger="cdpdriver.event_buffer"):
        for n in range(6):
            buffer.put(n)
    messages = [r.getMessage() for r in caplog.records if r.name == "cdpdriver.event_buffer"]
    assert len(messages) == 1
    assert "Runtime.consoleAPICalled" in messages[0] and "dropping the oldest" in messages[0]
    assert buffer.dropped == 4


def test_closing_ends_the_stream_after_what_is_queued():
    buffer = EventBuffer[str](5)
    buffer.put("a")
    buffer.put("b")
    buffer.close()
    buffer.close()  # twice is fine
    assert buffer.put("late") is False
    assert buffer.get_nowait() == "a"
    assert buffer.get_nowait() == "b"
    with pytest.raises(trio.EndOfChannel):
        buffer.get_nowait()


def test_unbounded_on_request_and_bad_bounds_refused():
    buffer = EventBuffer[int](math.inf)
    for n in range(50_000):
        buffer.put(n)
    assert len(buffer) == 50_000 and buffer.dropped == 0
    for bad in (0, -1, 2.5):
        with pytest.raises(ValueError):
            EventBuffer(bad)


async def test_get_waits_for_the_next_item_and_for_the_end():
    buffer = EventBuffer[int](4)
    got: list[int] = []

    async def reader() -> None:
        while True:
            try:
                got.append(await buffer.get())
            except trio.EndOfChannel:
                return

    with trio.fail_after(30):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(reader)
            await trio.sleep(0.01)  # the reader is parked on an empty buffer
            for n in range(3):
                buffer.put(n)
                await trio.sleep(0)
            buffer.close()
    assert got == [0, 1, 2]


async def test_a_cancelled_get_loses_nothing():
    buffer = EventBuffer[int](4)
    with trio.move_on_after(0.01):
        await buffer.get()  # nothing arrives: cancelled while parked
    buffer.put(1)
    with trio.CancelScope() as scope:
        scope.cancel()
        with pytest.raises(trio.Cancelled):
            await buffer.get()  # cancelled before taking the ready item
    assert await buffer.get() == 1


async def test_a_reader_that_keeps_up_loses_nothing_past_the_bound():
    buffer = EventBuffer[int](8)
    got: list[int] = []

    async def writer() -> None:
        for n in range(1000):
            buffer.put(n)
            await trio.sleep(0)
        buffer.close()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(writer)
        while True:
            try:
                got.append(await buffer.get())
            except trio.EndOfChannel:
                break
    assert got == list(range(1000)) and buffer.dropped == 0
