"""What only the Redis stream does: other processes, the server's own state, URLs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap

import pytest
import trio

from jobs.queue import (
    MemoryQueue,
    PageTask,
    QueueUnavailable,
    RedisStreamQueue,
    open_queue,
    redact_url,
)
from tests.support.ports import free_port

from .conftest import LEASE_MS

# A worker that takes three pages and then hangs until it is killed.
DOOMED_WORKER = textwrap.dedent(
    """
    import sys, trio
    from jobs.queue import open_queue

    async def main():
        queue = open_queue(sys.argv[1], sys.argv[2], lease_ms=int(sys.argv[3]))
        held = await queue.receive("doomed", count=3, block_ms=10_000)
        print(" ".join(d.entry_id for d in held), flush=True)
        await trio.sleep_forever()

    trio.run(main)
    """
)


def task(n: int) -> PageTask:
    return PageTask(
        run_id="r", url=f"http://site.test/{n}", url_key=f"http://site.test/{n}", depth=1
    )


@pytest.fixture
async def queue(redis_server, redis_prefix):
    opened = RedisStreamQueue(redis_server.url, redis_prefix, lease_ms=LEASE_MS)
    yield opened
    await opened.close()


async def read_line(stream: trio.abc.ReceiveStream) -> str:
    data = b""
    while not data.endswith(b"\n"):
        chunk = await stream.receive_some(4096)
        if not chunk:
            break
        data += chunk
    return data.decode()


async def test_entries_of_a_sigkilled_worker_are_taken_over(queue, redis_server, redis_prefix):
    ids = await queue.enqueue(task(n) for n in range(4))
    worker = await trio.lowlevel.open_process(
        [sys.executable, "-c", DOOMED_WORKER, redis_server.url, redis_prefix, str(LEASE_MS)],
        stdout=subprocess.PIPE,
    )
    try:
        with trio.fail_after(20):
            held = (await read_line(worker.stdout)).split()
        assert held == ids[:3]
    finally:
        os.kill(worker.pid, signal.SIGKILL)
        await worker.wait()
    assert worker.returncode == -signal.SIGKILL

    [untouched] = await queue.receive("survivor")
    assert untouched.entry_id == ids[3]
    assert await queue.ack(untouched) == 1  # else it too goes idle and is reclaimed below
    taken = []
    with trio.fail_after(30):
        while len(taken) < 3:
            taken += await queue.reclaim("survivor")
            await trio.sleep(LEASE_MS / 4000)
    assert [d.entry_id for d in taken] == held
    assert [d.task for d in taken] == [task(n) for n in range(3)]
    assert {d.times_delivered for d in taken} == {2}
    assert await queue.ack(*taken) == 3
    assert await queue.length() == 0


async def test_acknowledged_entries_leave_the_stream(queue, redis_server):
    await queue.enqueue(task(n) for n in range(3))
    deliveries = await queue.receive("a", count=3)
    await queue.ack(*deliveries)
    client = redis_server.client()
    try:
        assert client.xlen(queue.stream) == 0
        assert client.xpending(queue.stream, queue.group)["pending"] == 0
    finally:
        client.close()


async def test_an_entry_that_is_not_a_task_is_dropped(queue, redis_server):
    client = redis_server.client()
    try:
        await queue.length()  # creates the group
        client.xadd(queue.stream, {"something": "else"})
        await queue.enqueue([task(1)])
        assert [d.task for d in await queue.receive("a", count=5)] == [task(1)]
        assert client.xlen(queue.stream) == 1
    finally:
        client.close()


async def test_a_deleted_stream_is_recreated_with_its_group(queue, redis_server):
    await queue.enqueue([task(1)])
    client = redis_server.client()
    try:
        client.delete(queue.stream)
    finally:
        client.close()
    await queue.enqueue([task(2)])
    assert [d.task for d in await queue.receive("a")] == [task(2)]


async def test_two_clients_share_one_stream(redis_server, redis_prefix):
    producer = open_queue(redis_server.url, redis_prefix)
    consumer = open_queue(redis_server.unix_url, redis_prefix)
    try:
        await producer.enqueue([task(1)])
        [delivery] = await consumer.receive("w1", block_ms=1000)
        assert delivery.task == task(1)
        assert await producer.pending_count() == 1
    finally:
        await producer.close()
        await consumer.close()


async def test_an_unreachable_server_is_reported_promptly():
    queue = open_queue(f"redis://:hunter2@127.0.0.1:{free_port()}/0", "p")
    started = trio.current_time()
    with pytest.raises(QueueUnavailable) as raised:
        await queue.enqueue([task(1)])
    assert trio.current_time() - started < 10  # refused at once; the bound only catches endless retries
    assert "hunter2" not in str(raised.value)
    await queue.close()


def test_open_queue_chooses_by_url():
    assert isinstance(open_queue(None, "p"), MemoryQueue)
    for url in ("redis://h:1/0", "rediss://h:1/0", "unix:///tmp/r.sock"):
        assert isinstance(open_queue(url, "p"), RedisStreamQueue)
    with pytest.raises(ValueError, match="redis://"):
        open_queue("amqp://user:pw@h/", "p")


def test_the_password_never_shows():
    url = "redis://worker:s3cret@redis.internal:6379/0"
    assert "s3cret" not in repr(open_queue(url, "p"))
    assert redact_url(url) == "redis://worker:***@redis.internal:6379/0"
    assert "s3cret" not in redact_url("unix:///run/redis.sock?db=0&password=s3cret")
    assert redact_url("redis://h:6379/0") == "redis://h:6379/0"
