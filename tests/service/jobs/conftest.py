"""Helpers for the jobs API tests: generated sites on the session's test server, and a
Server-Sent Events reader over httpx (the stream as a client sees it, no parser of ours),
which holds every event's data to the OpenAPI document's schema of its type."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import trio

from a11y.service.events_schema import EVENTS
from tests.support.site import Response, Site

PIXEL = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="


def tree_site(site: Site, name: str, pages: int, *, handler: Any = None) -> str:
    """``pages`` pages under ``/<name>/``: page n links to 2n+1 and 2n+2 (a binary tree, so
    60 pages are 6 levels: depths 0 to 5). Every third page has findings (an image without
    alternative text, an empty link), the others are clean. ``handler(n, body)`` may wrap a
    page's response (to hold or count it). Returns the start URL."""
    for n in range(pages):
        links = "".join(
            f'<li><a href="/{name}/{child}">page {child}</a></li>'
            for child in (2 * n + 1, 2 * n + 2) if child < pages
        )
        broken = f'<img src="{PIXEL}"><a href="/{name}/0"></a>' if n % 3 == 0 else ""
        body = (f"<!doctype html><html lang=en><title>{name} {n}</title>"
                f"<main><h1>Page {n}</h1>{broken}<ul>{links}</ul></main></html>")
        site.route(f"/{name}/{n}", handler(n, body) if handler else Response(body))
    return site.url(f"/{name}/0")


def crawl_body(url: str, pages: int, *, interaction: bool = False, **more: Any) -> dict[str, Any]:
    """A crawl job's body, without the interaction phase unless a test is about it (it costs
    time on every page, its outcome may depend on the machine's load through its time budget,
    and these tests are about jobs)."""
    return {"url": url, "crawl": {"enabled": True, "depth": 5, "maxPages": pages, **more},
            "checks": {"interaction": interaction}}


@dataclass
class SseEvent:
    id: int
    type: str
    data: dict[str, Any]


@dataclass
class SseStream:
    events: list[SseEvent]
    comments: list[str]


async def read_events(
    client: httpx.AsyncClient,
    run_id: str,
    *,
    last_id: int | None = None,
    stop_after: int | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 240,
) -> SseStream:
    """Follow ``/audits/{id}/events`` until the server ends the stream, or until
    ``stop_after`` events have arrived (then the client hangs up)."""
    sent = dict(headers or {})
    if last_id is not None:
        sent["Last-Event-ID"] = str(last_id)
    stream = SseStream([], [])
    with trio.fail_after(timeout):
        async with client.stream("GET", f"/audits/{run_id}/events", headers=sent) as response:
            assert response.status_code == 200, await response.aread()
            assert response.headers["content-type"].startswith("text/event-stream")
            async for item in sse_items(response):
                if isinstance(item, str):
                    stream.comments.append(item)
                    continue
                stream.events.append(item)
                if stop_after is not None and len(stream.events) >= stop_after:
                    break
    return stream


async def sse_items(response: httpx.Response) -> AsyncIterator[SseEvent | str]:
    """Events (and comment lines, as text) of an event stream, by the standard's rules."""
    fields: dict[str, str] = {}
    async for line in response.aiter_lines():
        if not line:
            if "data" in fields:
                event = SseEvent(int(fields["id"]), fields.get("event", "message"),
                                 json.loads(fields["data"]))
                # Every event read in a test is also held to what the OpenAPI document says
                # its data is (x-events), so the document and the writers cannot drift apart.
                EVENTS[event.type].model_validate(event.data)
                yield event
            fields = {}
        elif line.startswith(":"):
            yield line[1:].strip()
        else:
            name, _, value = line.partition(":")
            fields[name] = value[1:] if value.startswith(" ") else value


async def wait_for_status(client: httpx.AsyncClient, run_id: str, statuses: set[str],
                          timeout: float = 60) -> dict[str, Any]:
    with trio.fail_after(timeout):
        while True:
            body = (await client.get(f"/audits/{run_id}")).json()
            if body["status"] in statuses:
                return body
            await trio.sleep(0.05)


def comparable(result: dict[str, Any]) -> dict[str, Any]:
    """A result without what differs between two audits of the same pages (time taken)."""
    return {key: value for key, value in result.items() if key not in ("durationMs", "findingsPage")}
