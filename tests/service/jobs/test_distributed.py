"""The jobs API on Redis + PostgreSQL: one service that only validates, enqueues and serves
results, and two ``python -m a11y worker`` processes that audit the pages; then the one-line
errors of ``worker`` and ``serve`` when the queue or the database cannot be used."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import trio

from a11y.cli import main as cli_main
from tests.service.conftest import client_for, service_for
from tests.service.jobs.conftest import crawl_body, read_events, tree_site
from tests.support.ports import free_port
from tests.support.postgres import postgres_server, postgres_url  # noqa: F401
from tests.support.redis_server import redis_prefix, redis_server  # noqa: F401

ROOT = Path(__file__).resolve().parents[3]
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
PAGES = 16


def _a11y(*argv: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "a11y", *argv], cwd=ROOT, env=ENV, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs,
    )


def _one_line_errors(cases: list[tuple[list[str], tuple[str, ...]]]) -> list[str]:
    """Run ``a11y`` once per case, all at once: each exits 2 with nothing on stdout and one
    line on stderr holding every expected word, no traceback. Returns the lines."""
    procs = [_a11y(*argv) for argv, _ in cases]
    lines = []
    for proc, (argv, expected) in zip(procs, cases, strict=True):
        out, err = proc.communicate(timeout=90)
        assert proc.returncode == 2, (argv, proc.returncode, err)
        assert out == ""
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, (argv, err)
        for word in expected:
            assert word in err, (argv, word, err)
        lines.append(err.strip())
    return lines


async def test_service_and_two_workers_on_redis_and_postgres(
        chromium, site, redis_server, redis_prefix, postgres_url):  # noqa: F811
    start = tree_site(site, "jobs-dist", PAGES)
    shared = ["--queue", redis_server.url, "--database", postgres_url, "--queue-prefix", redis_prefix]
    async with service_for(chromium, queue=redis_server.url, database=postgres_url,
                           queue_prefix=redis_prefix) as svc:
        assert svc.service.config.job_workers == 0  # with a queue the service audits nothing
        workers = [
            _a11y("worker", *shared, "--browser-url", chromium.ws_url, "--concurrency", "2")
            for _ in range(2)
        ]
        try:
            async with client_for(svc) as client:
                accepted = await client.post("/audits", json={**crawl_body(start, PAGES), "screenshots": False})
                assert accepted.status_code == 202, accepted.text
                run_id = accepted.json()["id"]
                events = await read_events(client, run_id)
                assert events.events[-1].type == "run.done", events.events[-3:]
                assert events.events[-1].data["status"] == "completed"
                done = [e.data["url"] for e in events.events if e.type == "page.done"]
                assert sorted(done) == sorted(set(done)) and len(done) == PAGES
                result = (await client.get(f"/audits/{run_id}")).json()["result"]
                urls = [page["url"] for page in result["pages"]]
                assert len(urls) == len(set(urls)) == PAGES
                assert set(urls) == {site.url(f"/jobs-dist/{n}") for n in range(PAGES)}
                assert result["stats"]["totalPages"] == PAGES
                located = [(f["pageUrl"], f["ruleId"], f["selector"]) for f in result["findings"]]
                assert len(located) == len(set(located)), "a page's findings were stored twice"
                assert {site.url(f"/jobs-dist/{n}") for n in range(0, PAGES, 3)} <= {
                    f["pageUrl"] for f in result["findings"] if f["ruleId"] == "image-alt"}
        finally:
            for worker in workers:
                worker.send_signal(signal.SIGTERM)
            for worker in workers:
                with trio.fail_after(30):
                    while worker.poll() is None:
                        await trio.sleep(0.05)
        for worker in workers:
            err = worker.stderr.read()
            assert worker.returncode == 0, err
            assert "Traceback" not in err


def test_worker_and_serve_refuse_an_unusable_queue_or_database_in_one_line(
        redis_server, redis_prefix, capsys, caplog):  # noqa: F811
    closed = f"redis://:hunter2@127.0.0.1:{free_port()}/0"
    no_db = f"postgresql+psycopg://postgres:hunter2@127.0.0.1:{free_port()}/none"
    with tempfile.TemporaryDirectory() as data:
        # As real processes: what an operator sees on the terminal.
        lines = _one_line_errors([
            (["worker", "--queue", closed, "--database", data], ("a11y worker:", "queue", "refused")),
            (["serve", "--port", "0", "--database", no_db], ("cannot start", "store")),
        ])
        # The other cases in process (each process costs seconds of imports on this machine).
        live = ["--queue", redis_server.url, "--queue-prefix", redis_prefix]
        for argv, expected in [
            (["worker"], ("a11y worker:", "--queue is required", "--database is required")),
            (["worker", "--queue", "http://127.0.0.1/", "--database", data], ("a11y worker:", "redis://")),
            (["worker", *live, "--database", no_db], ("a11y worker:", "store")),
        ]:
            assert cli_main(argv) == 2
            err = capsys.readouterr().err
            assert len(err.strip().splitlines()) == 1, err
            assert all(word in err for word in expected), (expected, err)
            lines.append(err)
        caplog.set_level(logging.ERROR, logger="a11y.server")
        assert cli_main(["serve", "--port", "0", "--queue", closed, "--data-dir", data]) == 2
        [record] = [r for r in caplog.records if r.name == "a11y.server"]
        assert "cannot start" in record.getMessage() and "refused" in record.getMessage()
        lines.append(record.getMessage())
    assert not any("hunter2" in line for line in lines), lines
