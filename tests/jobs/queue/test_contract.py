"""The page queue's contract (``jobs.queue.base``), the same for both backends."""

from __future__ import annotations

import pytest
import trio

from jobs.queue import PageTask, QueueClosed, QueueFull, open_queue

from .conftest import LEASE_MS

LEASE_S = LEASE_MS / 1000


def task(n: int, run_id: str = "run1") -> PageTask:
    url = f"http://site.test/p{n}"
    return PageTask(run_id=run_id, url=url, url_key=url, depth=n % 3, attempt=0)


async def test_enqueue_receive_ack(queue):
    [entry_id] = await queue.enqueue([task(1)])
    [delivery] = await queue.receive("a", count=5)
    assert (delivery.entry_id, delivery.task, delivery.times_delivered, delivery.consumer) == (
        entry_id,
        task(1),
        1,
        "a",
    )
    assert (await queue.length(), await queue.pending_count()) == (1, 1)
    assert await queue.ack(delivery) == 1
    assert await queue.ack(delivery) == 0
    assert await queue.touch(delivery) is False
    assert (await queue.length(), await queue.pending_count()) == (0, 0)
    assert await queue.receive("a") == []


async def test_batches_keep_their_order(queue):
    ids = await queue.enqueue(task(n) for n in range(5))
    assert len(set(ids)) == 5
    first = await queue.receive("a", count=3)
    rest = await queue.receive("a", count=10)
    assert [d.entry_id for d in first + rest] == ids
    assert [d.task for d in first + rest] == [task(n) for n in range(5)]
    assert await queue.enqueue([]) == []
    assert await queue.ack(*first, *rest) == 5
    assert await queue.length() == 0


async def test_concurrent_consumers_never_share_a_leased_entry(queue):
    ids = await queue.enqueue(task(n) for n in range(20))
    received: dict[str, list[str]] = {}

    async def consume(name: str) -> None:
        received[name] = []
        while batch := await queue.receive(name, count=3):
            received[name] += [d.entry_id for d in batch]

    async with trio.open_nursery() as nursery:
        for name in ("a", "b", "c", "d"):
            nursery.start_soon(consume, name)
    every = [entry_id for got in received.values() for entry_id in got]
    assert sorted(every) == sorted(ids)
    assert await queue.pending_count() == 20


async def test_unacknowledged_entry_is_reclaimed_after_the_lease(queue):
    await queue.enqueue([task(1)])
    [held] = await queue.receive("a")
    await trio.sleep(LEASE_S * 1.5)
    [taken] = await queue.reclaim("b")
    assert (taken.entry_id, taken.task, taken.times_delivered, taken.consumer) == (
        held.entry_id,
        held.task,
        2,
        "b",
    )
    assert await queue.touch(held) is False  # "a" lost it
    assert await queue.touch(taken) is True
    assert await queue.ack(taken) == 1
    assert await queue.reclaim("b", min_idle_ms=0) == []


async def test_a_delivery_inside_its_lease_is_not_reclaimed(queue_target):
    """By default ``reclaim`` waits for the queue's lease. The lease here is a minute, so the
    outcome does not depend on how fast this machine runs the two calls."""
    url, prefix = queue_target
    patient = open_queue(url, prefix, lease_ms=60_000)
    try:
        await patient.enqueue([task(1)])
        [held] = await patient.receive("a")
        assert await patient.reclaim("b") == []
        assert await patient.reclaim("b", min_idle_ms=30_000) == []
        assert await patient.touch(held) is True  # still "a"'s
    finally:
        await patient.close()


#: How long a received delivery sits before one of the pair is touched.
PAUSE_S = 0.3


async def test_touch_keeps_a_slow_delivery_from_being_reclaimed(queue):
    """A touch restarts a delivery's idle time.

    Two deliveries are received together; after a pause one of them is touched, and a reclaim
    asks for deliveries idle at least as long as the time since they were received (measured,
    not guessed). The untouched one always qualifies. The touched one could qualify only if
    the reclaim call itself took longer than the pause; such an attempt cannot decide and is
    made again, so the outcome does not depend on the machine's load."""
    for attempt in range(5):
        await queue.enqueue([task(2 * attempt), task(2 * attempt + 1)])
        touched, untouched = await queue.receive("a", count=2)
        received_at = trio.current_time()
        await trio.sleep(PAUSE_S)
        for _ in range(3):  # heartbeats are repeatable
            assert await queue.touch(touched) is True
        asked_at = trio.current_time()
        min_idle_ms = max(0, int((asked_at - received_at) * 1000) - 2)  # whole ms, a clock tick spare
        taken = await queue.reclaim("b", min_idle_ms=min_idle_ms)
        decided = trio.current_time() - asked_at < PAUSE_S
        if decided or touched.entry_id not in {d.entry_id for d in taken}:
            break
        await queue.ack(*taken)  # the call stalled for longer than the pause: try again
    else:
        pytest.fail("every reclaim call stalled for longer than the pause")
    assert [d.entry_id for d in taken] == [untouched.entry_id]
    assert taken[0].times_delivered == 2
    assert await queue.ack(*taken) == 1
    [kept] = await queue.reclaim("c", min_idle_ms=0)
    assert kept.entry_id == touched.entry_id
    assert kept.times_delivered == 2  # touches are not deliveries


async def test_delivery_count_grows_at_every_redelivery(queue):
    await queue.enqueue([task(1)])
    [delivery] = await queue.receive("a")
    counts = [delivery.times_delivered]
    for consumer in ("b", "a", "b"):
        [delivery] = await queue.reclaim(consumer, min_idle_ms=0)
        counts.append(delivery.times_delivered)
        assert delivery.consumer == consumer
    assert counts == [1, 2, 3, 4]


async def test_reclaim_takes_oldest_entries_first_up_to_count(queue):
    ids = await queue.enqueue(task(n) for n in range(4))
    await queue.receive("a", count=4)
    await trio.sleep(LEASE_S * 1.2)
    first = await queue.reclaim("b", count=3)
    second = await queue.reclaim("c", min_idle_ms=LEASE_MS)
    assert [d.entry_id for d in first] == ids[:3]
    assert [d.entry_id for d in second] == ids[3:]


async def test_blocked_receive_wakes_when_a_task_arrives(queue):
    async with trio.open_nursery() as nursery:
        got = []

        async def wait() -> None:
            got.extend(await queue.receive("a", block_ms=None))

        nursery.start_soon(wait)
        await trio.sleep(0.2)
        await queue.enqueue([task(7)])
        with trio.fail_after(30):
            while not got:
                await trio.sleep(0.01)
    assert [d.task for d in got] == [task(7)]


async def test_receive_waits_for_block_ms_then_returns_nothing(queue):
    started = trio.current_time()
    assert await queue.receive("a", block_ms=300) == []
    # Bounded from above only against a hang: a stalled machine may wake the call late.
    assert 0.29 <= trio.current_time() - started < 10


async def test_cancelling_a_blocked_receive_is_prompt(queue):
    started = trio.current_time()
    with trio.move_on_after(0.2) as scope:
        await queue.receive("a", block_ms=None)
    assert scope.cancelled_caught
    assert trio.current_time() - started < 10  # a receive that ignored cancellation never returns


async def test_closed_queue_refuses_work(queue):
    await queue.close()
    with pytest.raises(QueueClosed):
        await queue.enqueue([task(1)])
    with pytest.raises(QueueClosed):
        await queue.receive("a")
    await queue.close()  # idempotent


async def test_maxlen_is_back_pressure_not_loss(queue_target):
    url, prefix = queue_target
    bounded = open_queue(url, prefix, lease_ms=LEASE_MS, maxlen=3)
    try:
        await bounded.enqueue([task(1), task(2)])
        with pytest.raises(QueueFull):
            await bounded.enqueue([task(3), task(4)])
        assert await bounded.length() == 2
        [delivery] = await bounded.receive("a")
        await bounded.ack(delivery)
        await bounded.enqueue([task(3), task(4)])
        assert await bounded.length() == 3
    finally:
        await bounded.close()


async def test_close_releases_a_blocked_receive(queue):
    outcome = []

    async def wait() -> None:
        try:
            await queue.receive("a", block_ms=None)
        except QueueClosed:
            outcome.append(trio.current_time())

    async with trio.open_nursery() as nursery:
        nursery.start_soon(wait)
        await trio.sleep(0.2)
        closed_at = trio.current_time()
        await queue.close()
    assert len(outcome) == 1 and outcome[0] - closed_at < 10  # an unreleased receive never returns
