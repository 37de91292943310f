"""A worker process for the distributed tests: ``python -m tests.jobs.system.worker_process
DATABASE QUEUE PREFIX BROWSER_WS LEASE_MS CONCURRENCY CONSUMER`` runs ``run_worker`` on the
session's Chromium until killed."""

from __future__ import annotations

import logging
import sys

import trio

from cdpdriver import connect
from jobs.worker import run_worker
from tests.jobs.system.support import LIMITS


def main(database: str, queue: str, prefix: str, ws_url: str, lease_ms: str, concurrency: str, consumer: str) -> None:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    trio.run(lambda: run_worker(
        database, queue, lambda: connect(ws_url), int(concurrency),
        limits=LIMITS, prefix=prefix, lease_ms=int(lease_ms), consumer=consumer,
    ))


if __name__ == "__main__":
    main(*sys.argv[1:])
