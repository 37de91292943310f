"""A worker process for the distributed tests: ``python -m tests.jobs.system.worker_process
DATABASE QUEUE PREFIX BROWSER_WS LEASE_MS CONCURRENCY CONSUMER [NAVIGATION_S]`` runs
``run_worker`` on the session's Chromium until killed (``NAVIGATION_S``: the navigation
timeout, else ``LIMITS``')."""

from __future__ import annotations

import logging
import sys
from dataclasses import replace

import trio

from cdpdriver import connect
from jobs.worker import run_worker
from tests.jobs.system.support import LIMITS


def main(database: str, queue: str, prefix: str, ws_url: str, lease_ms: str, concurrency: str, consumer: str,
         navigation_s: str | None = None) -> None:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)
    limits = LIMITS if navigation_s is None else replace(LIMITS, navigation_timeout=float(navigation_s))
    trio.run(lambda: run_worker(
        database, queue, lambda: connect(ws_url), int(concurrency),
        limits=limits, prefix=prefix, lease_ms=int(lease_ms), consumer=consumer,
    ))


if __name__ == "__main__":
    main(*sys.argv[1:])
