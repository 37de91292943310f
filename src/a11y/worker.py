"""``a11y worker``: audit the pages of jobs from a shared queue, on any machine.

A worker needs the service's queue (``--queue redis://…``) and database (``--database
postgresql+psycopg://…``); it has its own browser (``--browser-url`` to use a running
Chrome instead), relaunched when it dies, and audits ``--concurrency`` pages at a time
(``jobs.worker.run_worker``) until SIGINT or SIGTERM. Pages in flight at that moment are
left unacknowledged and taken over by the other workers once their lease runs out.

Exit status: 0 after a signal, 2 for a bad option or a queue or database that cannot be
used, said in one line on stderr (never a traceback: an operator reads it, not a debugger).
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys

import trio

from audit.engine import EngineLimits
from cdpdriver import single_exception
from jobs.queue import MIN_LEASE_MS
from jobs.worker import run_worker

from .login_runner import run_login_steps
from .startup import SETUP_ERRORS, StartupFailed, check_queue, one_line, open_browser_at

PROG = "a11y worker"
log = logging.getLogger("a11y.worker")


def _problems(args: argparse.Namespace) -> list[str]:
    problems = []
    if not args.queue:
        problems.append("--queue is required (the service's Redis, e.g. redis://HOST:6379/0)")
    if not args.database:
        problems.append("--database is required (the service's, e.g. postgresql+psycopg://…)")
    if args.concurrency < 1:
        problems.append("--concurrency must be at least 1")
    if args.navigation_timeout <= 0:
        problems.append("--navigation-timeout must be positive")
    if args.lease_ms is not None and args.lease_ms < MIN_LEASE_MS:
        problems.append(f"--lease-ms must be at least {MIN_LEASE_MS}")
    return problems


async def _work_until_signalled(args: argparse.Namespace) -> None:
    await check_queue(args.queue, args.queue_prefix)
    limits = EngineLimits(
        navigation_timeout=args.navigation_timeout,
        concurrency=args.concurrency,
        block_private_networks=args.block_private_networks,
        login_runner=run_login_steps,
    )
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:

            async def work() -> None:
                await run_worker(
                    args.database, args.queue, lambda: open_browser_at(args.browser_url),
                    args.concurrency, limits=limits, prefix=args.queue_prefix, lease_ms=args.lease_ms,
                )

            nursery.start_soon(work)
            async for signum in signals:
                log.info("received %s; stopping", signal.Signals(signum).name)
                nursery.cancel_scope.cancel()
                return


def run(args: argparse.Namespace) -> int:
    """Entry point of ``a11y worker``: returns the process exit code."""
    if problems := _problems(args):
        sys.stderr.write(f"{PROG}: {'; '.join(problems)}\n")
        return 2
    if not getattr(args, "verbose", False):
        logging.getLogger("audit").setLevel(logging.WARNING)
    try:
        with single_exception():
            trio.run(_work_until_signalled, args)
    except KeyboardInterrupt:
        pass
    except (StartupFailed, *SETUP_ERRORS) as exc:
        sys.stderr.write(f"{PROG}: {one_line(str(exc))}\n")
        return 2
    return 0
