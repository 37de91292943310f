"""Serving: the supervisor and hypercorn in one nursery (see the package docstring), in
process for tests and benchmarks (:func:`running_service`) or as ``a11y serve`` (:func:`run`)."""

from __future__ import annotations

import argparse
import contextlib
import logging
import signal
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import trio
from hypercorn.config import Config as HypercornConfig
from quart_trio import QuartTrio

from audit.meta import package_version
from cdpdriver import single_exception
from jobs.blocking import in_thread
from jobs.store.tokens import tokens_exist
from jobs.system import Jobs

from ..startup import SETUP_ERRORS, StartupFailed, check_queue
from .app import create_app
from .capacity import Capacity, usable_cpus
from .config import ServiceConfig, log
from .handlers import Service
from .receive_pump import ReceivePump
from .supervisor import BrowserSupervisor


@dataclass
class RunningService:
    """What ``serve_app`` reports once listening: where, and the objects behind it."""

    url: str
    urls: list[str]
    app: QuartTrio
    service: Service
    shutdown: trio.Event

    @property
    def supervisor(self) -> BrowserSupervisor:
        return self.service.supervisor


def hypercorn_config(config: ServiceConfig) -> HypercornConfig:
    """Hypercorn settings: the bind address, no access log (the audit handler logs one line
    per audit instead), errors through logging to stderr, and the shutdown grace period."""
    hc = HypercornConfig()
    host = f"[{config.host}]" if ":" in config.host and not config.host.startswith("[") else config.host
    hc.bind = [f"{host}:{config.port}"]
    hc.accesslog = None  # one line per audit is logged by the handler instead
    hc.errorlog = logging.getLogger("hypercorn.error")
    hc.graceful_timeout = config.graceful_timeout
    # Longer than clients keep idle connections (httpx 5 s, Node 4-5 s, Go 90 s), so a client
    # closes first: at Hypercorn's default of 5 s the two race and a request sent as the
    # server closes is lost, which a busy machine makes likely (see a11y.mcp_http.KEEP_ALIVE_S).
    hc.keep_alive_timeout = 120.0
    return hc


async def serve_app(
    config: ServiceConfig,
    *,
    shutdown: trio.Event | None = None,
    task_status: trio.TaskStatus[RunningService] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Run the supervisor and the HTTP server until ``shutdown`` is set (or cancelled).

    Use with ``nursery.start(serve_app, config)``: it returns a ``RunningService`` once the
    socket is bound (the browser may still be starting; /audit and /health wait for it).
    """
    from hypercorn.trio import serve

    app = create_app(config)
    service: Service = app.extensions["a11y"]
    if shutdown is not None:
        service.stopping = shutdown
    stop = service.stopping
    http_done = trio.Event()
    async with trio.open_nursery() as nursery:
        try:
            async with open_jobs(config, service) as jobs:  # first: a bad store stops us cheaply
                service.jobs = jobs
                # Before the first request: whether auth is on must not wait for, or depend
                # on, a store that may be down by then (see auth._tokens_seen).
                service.tokens_seen = await in_thread(tokens_exist, jobs.store)
                nursery.start_soon(service.supervisor.run)

                async def http(task_status: trio.TaskStatus[list[str]]) -> None:
                    try:
                        await serve(ReceivePump(app), hypercorn_config(config), shutdown_trigger=stop.wait,
                                    task_status=task_status)
                    finally:
                        http_done.set()

                urls: list[str] = await nursery.start(http)
                log.info("a11y %s listening on %s", package_version(), ", ".join(urls))
                if warning := Capacity(config.concurrency, usable_cpus()).warning:
                    log.warning("%s", warning)
                task_status.started(RunningService(urls[0], list(urls), app, service, stop))
                await http_done.wait()  # hypercorn returns after its graceful period
        finally:
            service.jobs = None
            service.supervisor.request_stop()  # the browser goes last, on every exit path


@asynccontextmanager
async def open_jobs(config: ServiceConfig, service: Service) -> AsyncIterator[Jobs]:
    """The jobs system of the service: the store at ``--database`` / ``--data-dir`` (a
    temporary directory for a config built in code without either), the queue, and
    ``job_workers`` pages at a time audited with the service's own browser, sharing the
    ``--concurrency`` page limit with ``POST /audit``. A store or queue that cannot be
    opened is :class:`StartupFailed`; a failure once running is not."""
    with contextlib.ExitStack() as scratch:
        target = config.database or config.data_dir
        if target is None:
            target = scratch.enter_context(tempfile.TemporaryDirectory(prefix="a11y-runs-"))
        await check_queue(config.queue, config.queue_prefix)
        workers = config.job_workers
        started = False
        try:
            with single_exception():
                async with Jobs.open(
                    database=target, queue=config.queue, prefix=config.queue_prefix,
                    limits=config.engine_limits(service.gate.pages),
                    browsers=service.supervisor if workers else None, workers=workers,
                    lease_ms=config.lease_ms,
                ) as jobs:
                    started = True
                    yield jobs
        except SETUP_ERRORS as exc:
            if started:
                raise
            raise StartupFailed(f"the run store cannot be used: {exc}") from exc


@asynccontextmanager
async def running_service(config: ServiceConfig) -> AsyncIterator[RunningService]:
    """The whole service in-process for the body of the block (tests, benchmarks)::

        async with running_service(ServiceConfig(port=0, browser_url=ws)) as svc:
            httpx.AsyncClient(base_url=svc.url)...
    """
    async with trio.open_nursery() as nursery:
        running: RunningService = await nursery.start(serve_app, config)
        try:
            yield running
        finally:
            running.shutdown.set()


async def _serve_until_signalled(config: ServiceConfig) -> None:
    shutdown = trio.Event()
    with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        async with trio.open_nursery() as nursery:

            async def watch() -> None:
                async for signum in signals:
                    log.info("received %s; shutting down", signal.Signals(signum).name)
                    shutdown.set()
                    return

            nursery.start_soon(watch)
            await serve_app(config, shutdown=shutdown)
            nursery.cancel_scope.cancel()


def run(args: argparse.Namespace) -> int:
    """Entry point of ``a11y serve``: returns the process exit code."""
    if not getattr(args, "verbose", False):
        # The engine logs its own summary per audit; the handler's line is the one we keep.
        logging.getLogger("audit").setLevel(logging.WARNING)
    try:
        config = ServiceConfig.from_args(args)
    except ValueError as exc:
        log.error("invalid options: %s", exc)
        return 2
    try:
        with single_exception():
            trio.run(_serve_until_signalled, config)
    except KeyboardInterrupt:
        pass
    except StartupFailed as exc:
        log.error("cannot start: %s", exc)
        return 2
    except OSError as exc:
        log.error("cannot serve on %s:%s: %s", config.host, config.port, exc)
        return 1
    return 0
