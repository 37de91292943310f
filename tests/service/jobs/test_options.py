"""Server-Sent Events framing, and the options of ``serve`` and ``worker`` as they reach
the service's configuration."""

from __future__ import annotations

import pytest

from a11y.cli import build_parser
from a11y.service import ServiceConfig
from a11y.service.sse import comment, event
from a11y.worker import _problems
from jobs.queue import DEFAULT_LEASE_MS, MIN_LEASE_MS
from tests.service.conftest import service_for


def test_an_event_is_three_fields_and_a_blank_line_whatever_its_data():
    framed = event(42, "page.done", {"url": "http://x.test/\n\ndata: forged", "score": 1.5})
    text = framed.decode()
    assert text.endswith("\n\n") and text.count("\n") == 4
    assert text.splitlines()[:2] == ["id: 42", "event: page.done"]
    assert text.splitlines()[2] == 'data: {"url":"http://x.test/\\n\\ndata: forged","score":1.5}'
    assert comment("heartbeat") == b": heartbeat\n\n"
    with pytest.raises(ValueError):
        event(1, "page.done\ndata: {}", {})
    with pytest.raises(ValueError):
        comment("two\nlines")


def test_serve_options_for_the_store_the_queue_and_the_workers():
    parse = build_parser().parse_args
    config = ServiceConfig.from_args(parse(["serve"]), {})
    assert (config.data_dir, config.database, config.queue, config.browser_url) == (
        "./a11y-data/", None, None, None)
    assert config.job_workers == config.concurrency == 4  # no queue: the service audits the pages

    config = ServiceConfig.from_args(parse([
        "serve", "--queue", "redis://q.test:6379/0", "--database", "postgresql+psycopg://db.test/a11y",
        "--queue-prefix", "site", "--browser-url", "http://127.0.0.1:9222", "--max-job-pages", "900",
    ]), {})
    assert (config.queue, config.database, config.queue_prefix, config.browser_url, config.max_job_pages) == (
        "redis://q.test:6379/0", "postgresql+psycopg://db.test/a11y", "site", "http://127.0.0.1:9222", 900)
    assert config.job_workers == 0  # with a queue the workers audit the pages...
    config = ServiceConfig.from_args(parse(["serve", "--queue", "redis://q.test/0", "--workers", "2"]), {})
    assert config.job_workers == 2  # ...unless the service is asked to help
    for bad in (["--workers", "-1"], ["--max-job-pages", "0"], ["--max-job-pages", "100001"]):
        with pytest.raises(ValueError):
            ServiceConfig.from_args(parse(["serve", *bad]), {})


def test_worker_options():
    args = build_parser().parse_args([
        "worker", "--queue", "redis://q.test/0", "--database", "postgresql+psycopg://db.test/a11y",
        "--browser-url", "ws://127.0.0.1:9222/devtools/browser/x", "--concurrency", "3",
    ])
    assert (args.queue, args.database, args.browser_url, args.concurrency, args.queue_prefix) == (
        "redis://q.test/0", "postgresql+psycopg://db.test/a11y",
        "ws://127.0.0.1:9222/devtools/browser/x", 3, "a11y")
    assert args.handler == "a11y.worker:run"


def test_the_lease_is_an_option_of_serve_and_worker():
    parse = build_parser().parse_args
    assert ServiceConfig.from_args(parse(["serve"]), {}).lease_ms is None  # the queue's default
    assert ServiceConfig.from_args(parse(["serve", "--lease-ms", "5000"]), {}).lease_ms == 5000
    with pytest.raises(ValueError, match="--lease-ms must be at least 1000"):
        ServiceConfig.from_args(parse(["serve", "--lease-ms", "999"]), {})
    worker = parse(["worker", "--queue", "redis://q.test/0", "--database", "sqlite:///x", "--lease-ms", "999"])
    assert _problems(worker) == ["--lease-ms must be at least 1000"]
    worker = parse(["worker", "--queue", "redis://q.test/0", "--database", "sqlite:///x", "--lease-ms", "4000"])
    assert (worker.lease_ms, _problems(worker)) == (4000, [])
    # The help states the queue's own figures.
    help_text = " ".join(build_parser()._subparsers._group_actions[0].choices["serve"].format_help().split())
    assert f"default {DEFAULT_LEASE_MS}, at least {MIN_LEASE_MS}" in help_text


async def test_serve_hands_the_lease_to_its_queue(chromium):
    async with service_for(chromium, lease_ms=2500) as svc:
        assert svc.service.jobs.queue.lease_ms == 2500
