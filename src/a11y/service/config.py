"""The service's configuration: one object, independent of argparse, from which the engine's
limits and the browser connection are derived."""

from __future__ import annotations

import argparse
import logging
import os
from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field

import trio

from audit.engine import EngineLimits
from cdpdriver import Browser, LaunchOptions
from cdpdriver.supervisor import BrowserFactory
from jobs.models import JOB_MAX_PAGES_MAX
from jobs.queue import MIN_LEASE_MS

from ..login_runner import run_login_steps
from ..startup import open_browser_at

#: Every module of the service logs here: operators filter on this name (one line per audit).
log = logging.getLogger("a11y.server")

#: Settings named like their ``a11y serve`` option (``--max-pages`` is ``max_pages``).
_SAME_AS_OPTIONS = (
    "host", "port", "concurrency", "max_pages", "queue_size", "block_private_networks",
    "navigation_timeout", "audit_timeout", "browser_url", "data_dir", "database", "queue",
    "queue_prefix", "workers", "max_job_pages", "lease_ms",
)


@dataclass
class ServiceConfig:
    """Everything the service needs, independent of argparse so tests can build it directly.

    ``browser_url`` attaches to a running browser (the shared test Chromium) instead of
    launching one; ``browser_factory`` overrides both (e.g. a factory that always fails, to
    test the unhealthy path). ``port`` 0 binds a free port; the bound URL is reported by
    ``serve_app``/``running_service``.
    """

    host: str = "127.0.0.1"
    port: int = 8080
    concurrency: int = 4
    max_pages: int = 500
    queue_size: int = 16
    token: str | None = None
    block_private_networks: bool = False
    navigation_timeout: float = 30.0
    audit_timeout: float = 300.0
    browser_url: str | None = None
    browser_factory: BrowserFactory | None = None
    launch_options: LaunchOptions | None = None
    #: How long an audit waits for the browser to be (re)started before giving up with 503.
    browser_wait_timeout: float = 30.0
    #: How long /health waits for a browser that is starting (not one that failed to start).
    health_wait_timeout: float = 5.0
    #: Extra time the outer guard gives the engine to honour its own audit timeout.
    audit_timeout_grace: float = 5.0
    #: Seconds in-flight requests get to finish at shutdown before they are cancelled.
    graceful_timeout: float = 3.0
    max_relaunch_backoff: float = 30.0
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    #: Where runs are stored: this directory (SQLite ``a11y.db`` inside, created) unless
    #: ``database`` names a database URL. None, the default of a config built in code, keeps
    #: the runs in a temporary directory for the service's lifetime; ``a11y serve`` passes
    #: its ``--data-dir`` (default ``./a11y-data/``).
    data_dir: str | None = None
    database: str | None = None
    #: A Redis URL shared with ``a11y worker`` processes; None runs jobs in process.
    queue: str | None = None
    #: Key prefix of the queue's stream: a service and its workers must agree on it.
    queue_prefix: str = "a11y"
    #: How long a page taken from the queue may go silent before it is taken over; None is
    #: the queue's default (``--lease-ms``).
    lease_ms: int | None = None
    #: Pages of jobs this service audits at once with its own browser; None follows the
    #: rule of ``job_workers``.
    workers: int | None = None
    max_job_pages: int = JOB_MAX_PAGES_MAX
    #: Seconds of silence after which an event stream sends a comment line.
    sse_heartbeat: float = 15.0

    def __post_init__(self) -> None:
        problems = []
        if self.concurrency < 1:
            problems.append("--concurrency must be at least 1")
        if self.queue_size < 0:
            problems.append("--queue-size must be 0 or more")
        if self.max_pages < 1:
            problems.append("--max-pages must be at least 1")
        if self.navigation_timeout <= 0 or self.audit_timeout <= 0:
            problems.append("timeouts must be positive")
        if not 0 <= self.port <= 65535:
            problems.append("--port must be 0..65535")
        if self.workers is not None and self.workers < 0:
            problems.append("--workers must be 0 or more")
        if self.lease_ms is not None and self.lease_ms < MIN_LEASE_MS:
            problems.append(f"--lease-ms must be at least {MIN_LEASE_MS}")
        if not 1 <= self.max_job_pages <= JOB_MAX_PAGES_MAX:
            problems.append(f"--max-job-pages must be 1..{JOB_MAX_PAGES_MAX}")
        if problems:
            raise ValueError("; ".join(problems))

    @classmethod
    def from_args(cls, args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> ServiceConfig:
        """Build from ``a11y serve`` arguments; ``A11Y_API_TOKEN`` is the token when
        ``--token`` is not given (so the secret need not appear in ``ps`` output)."""
        env = os.environ if environ is None else environ
        return cls(
            token=args.token or env.get("A11Y_API_TOKEN") or None,
            environ=env,
            **{name: getattr(args, name) for name in _SAME_AS_OPTIONS},
        )

    @property
    def job_workers(self) -> int:
        """Pages of jobs audited at once by this service: ``workers`` when given; otherwise
        ``concurrency`` without a queue (the service's own browser runs every page, as for
        ``/audit``) and none with a queue (the ``a11y worker`` processes run them; the
        service only validates, enqueues and serves results)."""
        if self.workers is not None:
            return self.workers
        return 0 if self.queue else self.concurrency

    def engine_limits(self, page_limiter: trio.CapacityLimiter | None = None) -> EngineLimits:
        """The engine's limits; ``page_limiter`` (one per service) bounds the pages open at
        once across all audits, ``concurrency`` those of one crawl."""
        return EngineLimits(
            navigation_timeout=self.navigation_timeout,
            audit_timeout=self.audit_timeout,
            concurrency=self.concurrency,
            block_private_networks=self.block_private_networks,
            page_limiter=page_limiter,
            login_runner=run_login_steps,
        )

    def open_browser(self) -> AbstractAsyncContextManager[Browser]:
        """A fresh browser connection: the factory, an attach to ``browser_url``, or a launch."""
        if self.browser_factory is not None:
            return self.browser_factory()
        return open_browser_at(self.browser_url, self.launch_options)

