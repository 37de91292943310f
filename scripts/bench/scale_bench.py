"""Scale benchmark (issue 12): a generated site crawled through the jobs API, on the embedded
default and on Redis + PostgreSQL with 1, 2 and 3 worker processes.

    .venv/bin/python scripts/bench/scale_bench.py                    # 300 pages, every set-up
    .venv/bin/python scripts/bench/scale_bench.py --pages 60 --workers 1,2
    .venv/bin/python scripts/bench/scale_bench.py --flat-memory      # 5,000 pages, service RSS

Everything runs as it is deployed: ``python -m a11y serve`` and ``python -m a11y worker``
subprocesses (each with a browser of its own) on free ports, a real ``redis-server`` and a
real PostgreSQL started like the test fixtures (``tests/support``: temporary directories,
``initdb``/``pg_ctl`` as the ``postgres`` user when root, stopped by PID). The site is static
files under a temporary directory served by a child process (``audit_fixtures.served``):
small pages with a few findings each, page n linking to pages 10n+1 … 10n+10, so a crawl of
depth 4 finds up to 11,111 pages.

Figures per set-up: pages/s (pages done over the run's start to finish), p50 page latency
(the stored ``duration_ms`` of every page), the peak RSS (``VmHWM``) of the service and of
each worker process (Python only, not its browser), the growth of the store per page, and
with Redis + PostgreSQL the CPU time of each server's process tree per page; then the pages/s of 2 workers over 1, and the time
from a SIGKILL of a worker holding started pages to those pages being completed by another
(at least the queue's lease, 30 s, since a silent delivery is only reclaimed once it is that
idle). ``--flat-memory`` crawls a 5,000-page site (``--pages`` to change) on the embedded
default and prints the service's RSS every 500 pages. The load average is printed at the
start and the end: on a shared 2-core machine every figure is bounded by CPU, and the ratio
of 2 workers to 1 says how much. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "src"), str(ROOT), str(Path(__file__).resolve().parent)]

import audit_fixtures  # noqa: E402
import redis  # noqa: E402
from proc_cpu import descendants, tree_cpu  # noqa: E402

from jobs.queue import RedisStreamQueue  # noqa: E402
from jobs.store import MAX_LIMIT, Store, open_store  # noqa: E402
from tests.support.ports import free_port  # noqa: E402
from tests.support.postgres import PostgresServer  # noqa: E402
from tests.support.redis_server import RedisServer  # noqa: E402

PIXEL = audit_fixtures.PIXEL
FANOUT = 10
FINISHED = {"completed", "failed", "cancelled"}
POLL_SECONDS = 0.25
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "src")}


# --------------------------------------------------------------------------- the site


def write_site(root: Path, pages: int) -> None:
    """``pages`` small pages under ``/s/``, each with three findings (an image without
    alternative text, an empty link, an unnamed button), linked as a tree of fan-out 10."""
    for n in range(pages):
        children = range(FANOUT * n + 1, min(FANOUT * n + FANOUT + 1, pages))
        links = "".join(f'<li><a href="/s/{c}.html">Page {c}</a></li>' for c in children)
        html = (
            f'<!doctype html><html lang="en"><head><title>Page {n}</title></head><body>'
            f'<header><a href="/s/0.html">Home</a></header><main><h1>Page {n}</h1>'
            f'<p>Text of page {n}.</p><img src="{PIXEL}"><a href="/s/0.html"></a>'
            f"<button></button><ul>{links}</ul></main></body></html>"
        )
        target = root / "s" / f"{n}.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html, encoding="utf-8")


def crawl_body(base: str, pages: int) -> dict[str, Any]:
    return {"url": f"{base}/s/0.html", "crawl": {"enabled": True, "depth": 5, "maxPages": pages}}


# --------------------------------------------------------------------------- processes


def proc_status(pid: int, field: str) -> int:
    """A ``/proc/<pid>/status`` figure in bytes (``VmRSS``, ``VmHWM``); 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


@dataclass
class A11y:
    """One ``python -m a11y`` subprocess, its output in a log file."""

    role: str
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""

    def stop(self) -> None:
        """SIGTERM (SIGKILL after 30 s), then any browser it left behind, by PID."""
        tree = descendants(self.pid)
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        kill_left(tree[1:])


def kill_left(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def start_a11y(role: str, argv: list[str], logs: Path) -> A11y:
    log = logs / f"{role}.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "a11y", *argv], cwd=ROOT, env=ENV,
            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
        )
    return A11y(role, process, log)


@contextmanager
def service(argv: list[str], logs: Path, role: str = "service") -> Iterator[tuple[A11y, httpx.Client]]:
    """``a11y serve`` on a free port, healthy, and a client of it, for the block."""
    port = free_port()
    served = start_a11y(role, ["serve", "--port", str(port), *argv], logs)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            deadline = time.monotonic() + 120
            while True:
                if served.process.poll() is not None:
                    raise RuntimeError(f"{role} exited:\n{served.tail()}")
                try:
                    if client.get("/health").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{role} not healthy in 120 s:\n{served.tail()}")
                time.sleep(0.2)
            yield served, client
    finally:
        served.stop()


# --------------------------------------------------------------------------- one crawl


def submit(client: httpx.Client, body: dict[str, Any]) -> str:
    accepted = client.post("/audits", json=body)
    if accepted.status_code != 202:
        raise RuntimeError(f"POST /audits: {accepted.status_code} {accepted.text}")
    return accepted.json()["id"]


def follow(client: httpx.Client, run_id: str, timeout: float,
           each: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """The run once finished, polled (``each`` sees every look at it)."""
    deadline = time.monotonic() + timeout
    while True:
        view = client.get(f"/audits/{run_id}", params={"limit": 1}).json()
        if each is not None:
            each(view)
        if view["status"] in FINISHED:
            return view
        if time.monotonic() > deadline:
            raise RuntimeError(f"run {run_id} not finished in {timeout:g} s: {view['progress']}")
        time.sleep(POLL_SECONDS)


def pages_per_second(view: dict[str, Any]) -> float:
    started = datetime.fromisoformat(view["startedAt"])
    finished = datetime.fromisoformat(view["finishedAt"])
    return view["progress"]["pagesDone"] / max((finished - started).total_seconds(), 1e-9)


def p50_latency_ms(store: Store, run_id: str) -> float:
    """The median of the stored page durations of the run."""
    durations: list[int] = []
    offset = 0
    while window := store.pages(run_id, offset=offset, limit=MAX_LIMIT):
        durations.extend(page.duration_ms for page in window if page.duration_ms is not None)
        offset += len(window)
    return statistics.median(durations) if durations else float("nan")


def database_bytes(target: str | Path) -> int:
    """The size of the store: the SQLite files of a data directory, or the PostgreSQL
    database of a URL."""
    if isinstance(target, Path):
        return sum(path.stat().st_size for path in target.glob("a11y.db*"))
    engine = create_engine(target)
    try:
        with engine.connect() as conn:
            return int(conn.execute(text("SELECT pg_database_size(current_database())")).scalar_one())
    finally:
        engine.dispose()


@dataclass
class Figures:
    label: str
    pages: int
    status: str
    pages_per_s: float
    p50_ms: float
    service_rss: int
    worker_rss: list[int]
    store_bytes_per_page: float
    redis_cpu_ms: float | None = None
    postgres_cpu_ms: float | None = None


def crawl(label: str, client: httpx.Client, body: dict[str, Any], store: Store, database: str | Path,
          served: A11y, workers: list[A11y], servers: dict[str, int] | None = None) -> Figures:
    """One crawl measured: its rate, latency, the processes' peak RSS, the growth of the
    store per page and, given the PIDs of the Redis and PostgreSQL servers, their CPU per
    page."""
    size_before = database_bytes(database)
    before = {name: tree_cpu(pid) for name, pid in (servers or {}).items()}
    run_id = submit(client, body)
    view = follow(client, run_id, timeout=max(600.0, 3.0 * body["crawl"]["maxPages"]))
    done = max(view["progress"]["pagesDone"], 1)
    per_page = {name: (tree_cpu(pid) - before[name]) * 1000 / done for name, pid in (servers or {}).items()}
    return Figures(
        label, view["progress"]["pagesDone"], view["status"], pages_per_second(view),
        p50_latency_ms(store, run_id), proc_status(served.pid, "VmHWM"),
        [proc_status(worker.pid, "VmHWM") for worker in workers],
        (database_bytes(database) - size_before) / done, per_page.get("redis"), per_page.get("postgres"),
    )


# --------------------------------------------------------------------------- set-ups


def embedded(base: str, args: argparse.Namespace, work: Path) -> Figures:
    data = work / "embedded"
    argv = ["--data-dir", str(data), "--concurrency", str(args.concurrency), "--max-job-pages", "100000"]
    with service(argv, work) as (served, client), open_store(data) as store:
        return crawl("embedded (SQLite, in-process queue)", client, crawl_body(base, args.pages),
                     store, data, served, [])


@contextmanager
def distributed_servers(work: Path) -> Iterator[tuple[RedisServer, PostgresServer]]:
    with ExitStack() as stack:
        redis_server = stack.enter_context(RedisServer())
        postgres = PostgresServer().start()
        stack.callback(postgres.stop)
        yield redis_server, postgres


def holders(client: redis.Redis, queue: RedisStreamQueue) -> list[str]:
    """The consumers holding pending deliveries."""
    try:
        summary = client.xpending(queue.stream, queue.group)
    except redis.ResponseError:  # no group yet
        return []
    return [consumer["name"] for consumer in summary.get("consumers") or []]


def distributed(base: str, args: argparse.Namespace, work: Path, redis_server: RedisServer,
                postgres: PostgresServer, count: int, takeover: list[str]) -> Figures:
    database = postgres.url(postgres.create_database())
    prefix = f"bench{count}w{os.getpid()}"
    shared = ["--queue", redis_server.url, "--database", database, "--queue-prefix", prefix]
    queue = RedisStreamQueue(redis_server.url, prefix)
    redis_client = redis_server.client()
    with ExitStack() as stack:
        served, client = stack.enter_context(service([*shared, "--max-job-pages", "100000"], work))
        store = stack.enter_context(open_store(database))
        workers = []
        for n in range(count):
            worker = start_a11y(f"worker{count}-{n}", ["worker", *shared, "--concurrency", str(args.concurrency)], work)
            stack.callback(worker.stop)
            workers.append(worker)
        deadline = time.monotonic() + 180
        while not all("browser ready" in worker.tail() for worker in workers):
            if time.monotonic() > deadline or any(w.process.poll() is not None for w in workers):
                raise RuntimeError("workers did not start:\n" + "\n".join(w.tail() for w in workers))
            time.sleep(0.2)
        label = f"Redis + PostgreSQL, {count} worker{'s' if count > 1 else ''}"
        servers = {"redis": redis_server.process.pid, "postgres": postgres.pid}
        figures = crawl(label, client, crawl_body(base, args.pages), store, database, served, workers, servers)
        if count == 2 and args.takeover:
            takeover.extend(measure_takeover(base, args, client, store, redis_client, queue, workers[0]))
    redis_client.close()
    return figures


def held_pages(redis_client: redis.Redis, queue: RedisStreamQueue, store: Store, run_id: str,
               consumer: str) -> list[str]:
    """The keys of the pages ``consumer`` holds and has started (their rows are running)."""
    held = []
    for pending in redis_client.xpending_range(queue.stream, queue.group, "-", "+", 100, consumer):
        entry = pending["message_id"]
        for _id, fields in redis_client.xrange(queue.stream, entry, entry):
            if fields.get("run_id") == run_id and store.get_page(run_id, fields["url_key"]).status == "running":
                held.append(fields["url_key"])
    return held


def measure_takeover(base: str, args: argparse.Namespace, client: httpx.Client, store: Store,
                     redis_client: redis.Redis, queue: RedisStreamQueue, victim: A11y) -> list[str]:
    """SIGKILL ``victim`` while it holds started pages of a fresh run; the seconds until
    every one of them is completed by the other worker."""
    run_id = submit(client, crawl_body(base, args.pages))
    deadline = time.monotonic() + 180
    held: list[str] = []
    while not held:
        names = [name for name in holders(redis_client, queue) if f"-{victim.pid}-" in name]
        held = held_pages(redis_client, queue, store, run_id, names[0]) if names else []
        if time.monotonic() > deadline:
            return ["takeover: the victim never held a started page"]
        time.sleep(0.05)
    tree = descendants(victim.pid)
    victim.process.send_signal(signal.SIGKILL)
    killed_at = time.monotonic()
    victim.process.wait(10)
    kill_left(tree[1:])
    while any(store.get_page(run_id, key).status in ("queued", "running") for key in held):
        if time.monotonic() - killed_at > 300:
            return [f"takeover: {len(held)} page(s) still not done 300 s after the SIGKILL"]
        time.sleep(0.1)
    seconds = time.monotonic() - killed_at
    client.delete(f"/audits/{run_id}")
    return [f"takeover: {len(held)} started page(s) of a SIGKILLed worker completed by the other "
            f"{seconds:.1f} s after the kill (queue lease 30 s)"]


def flat_memory(base: str, args: argparse.Namespace, work: Path) -> list[tuple[int, int]]:
    """(pages done, service RSS) every ``--rss-every`` pages of a crawl on the embedded default."""
    data = work / "flat"
    argv = ["--data-dir", str(data), "--concurrency", str(args.concurrency), "--max-job-pages", "100000"]
    samples: list[tuple[int, int]] = []
    with service(argv, work, role="flat-service") as (served, client):
        samples.append((0, proc_status(served.pid, "VmRSS")))

        def sample(view: dict[str, Any]) -> None:
            done = view["progress"]["pagesDone"]
            if done >= samples[-1][0] + args.rss_every or (view["status"] in FINISHED and done > samples[-1][0]):
                samples.append((done, proc_status(served.pid, "VmRSS")))

        view = follow(client, submit(client, crawl_body(base, args.pages)), timeout=20.0 * args.pages, each=sample)
        print(f"flat memory: run {view['status']}, {view['progress']['pagesDone']} pages, "
              f"{pages_per_second(view):.2f} pages/s")
    return samples


# --------------------------------------------------------------------------- report


def mb(value: int) -> str:
    return f"{value / 2**20:.0f}"


def print_header() -> None:
    print(f"{'set-up':<38} {'pages':>5} {'pages/s':>8} {'p50 ms':>7} {'svc MB':>7} "
          f"{'workers MB':>12} {'store KB/p':>10} {'redis ms/p':>10} {'pg ms/p':>8}", flush=True)


def print_row(row: Figures) -> None:
    workers = "/".join(mb(rss) for rss in row.worker_rss) or "-"
    redis_ms = "-" if row.redis_cpu_ms is None else f"{row.redis_cpu_ms:.2f}"
    pg_ms = "-" if row.postgres_cpu_ms is None else f"{row.postgres_cpu_ms:.2f}"
    status = "" if row.status == "completed" else f"  ({row.status})"
    print(f"{row.label:<38} {row.pages:>5} {row.pages_per_s:>8.2f} {row.p50_ms:>7.0f} "
          f"{mb(row.service_rss):>7} {workers:>12} {row.store_bytes_per_page / 1024:>10.1f} "
          f"{redis_ms:>10} {pg_ms:>8}{status}", flush=True)


def print_ratio(rows: list[Figures]) -> None:
    rates = {len(row.worker_rss): row.pages_per_s for row in rows if row.worker_rss}
    if 1 in rates and 2 in rates:
        print(f"pages/s of 2 workers over 1: {rates[2] / rates[1]:.2f} "
              "(bounded by CPU: every worker's browser shares the same cores)")


def load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=None, help="site size (default 300; 5000 with --flat-memory)")
    parser.add_argument("--workers", default="1,2,3", help="worker counts for Redis + PostgreSQL")
    parser.add_argument("--concurrency", type=int, default=2, help="pages at a time per process")
    parser.add_argument("--no-embedded", dest="embedded", action="store_false")
    parser.add_argument("--no-distributed", dest="distributed", action="store_false")
    parser.add_argument("--no-takeover", dest="takeover", action="store_false",
                        help="skip the SIGKILL takeover (run with 2 workers)")
    parser.add_argument("--flat-memory", action="store_true", help="only the service's RSS over a long crawl")
    parser.add_argument("--rss-every", type=int, default=500, help="pages between two RSS samples")
    args = parser.parse_args()
    args.pages = args.pages or (5000 if args.flat_memory else 300)
    counts = [int(n) for n in args.workers.split(",") if n.strip()]
    print(f"load average at start: {load()} ({os.cpu_count()} cores); {args.pages} pages, "
          f"{args.concurrency} page(s) at a time per process")
    with tempfile.TemporaryDirectory(prefix="a11y-scale-") as tmp:
        work = Path(tmp)
        write_site(work / "site", args.pages)
        with audit_fixtures.served(work / "site") as base:
            if args.flat_memory:
                for done, rss in flat_memory(base, args, work):
                    print(f"  after {done:>6} pages: service RSS {mb(rss)} MB")
            else:
                rows: list[Figures] = []
                notes: list[str] = []
                print_header()
                if args.embedded:
                    rows.append(embedded(base, args, work))
                    print_row(rows[-1])
                if args.distributed and counts:
                    with distributed_servers(work) as (redis_server, postgres):
                        for count in counts:
                            rows.append(distributed(base, args, work, redis_server, postgres, count, notes))
                            print_row(rows[-1])
                print_ratio(rows)
                for note in notes:
                    print(note)
    print(f"load average at end: {load()}")


if __name__ == "__main__":
    main()
