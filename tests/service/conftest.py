"""Fixtures for the HTTP service: the real service in-process on a free port, attached to the
session's shared Chromium (so no test pays for a browser launch unless it needs its own)."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from a11y.service import RunningService, ServiceConfig, running_service
from tests.support.site import Request, Response

PIXEL = "data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw=="

VIOLATIONS = f"""<!doctype html>
<html><head></head><body>
<img src="{PIXEL}">
<a href="/somewhere"></a>
<input type="text" id="q">
<p style="color:#bbb;background:#fff">low contrast text</p>
</body></html>"""

CLEAN = """<!doctype html>
<html lang="en"><head><title>Clean page</title></head>
<body><main><h1>Hello</h1><p>Readable text.</p></main></body></html>"""


@asynccontextmanager
async def service_for(chromium: Any | None, **overrides: Any) -> AsyncIterator[RunningService]:
    """The service on 127.0.0.1:0; attached to ``chromium`` unless it is None (then it
    launches and supervises its own browser)."""
    settings: dict[str, Any] = {
        "port": 0,
        "navigation_timeout": 10.0,
        "audit_timeout": 60.0,
        "graceful_timeout": 0.5,
        "browser_wait_timeout": 30.0,
    }
    if chromium is not None:
        settings["browser_url"] = chromium.ws_url
    settings.update(overrides)
    async with running_service(ServiceConfig(**settings)) as svc:
        yield svc


@asynccontextmanager
async def client_for(svc: RunningService, **kwargs: Any) -> AsyncIterator[httpx.AsyncClient]:
    # verify=False: plain local HTTP, and it skips loading a CA bundle (~0.15 s) per client.
    async with httpx.AsyncClient(base_url=svc.url, timeout=60.0, verify=False, **kwargs) as client:
        yield client


@pytest.fixture
async def service(chromium) -> AsyncIterator[RunningService]:
    async with service_for(chromium) as svc:
        yield svc


@pytest.fixture
async def client(service) -> AsyncIterator[httpx.AsyncClient]:
    async with client_for(service) as c:
        yield c


def assert_error(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The response is ``status`` with exactly the error body shape and ``code``."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) == {"code", "message", "details"}, body
    assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert "Traceback" not in response.text
    return body["error"]


class Gate:
    """A route whose response is held until ``release()`` (or ``limit`` seconds), for
    "slow page" tests without sleeping in the test itself."""

    def __init__(self, body: str = "<!doctype html><html lang=en><title>slow</title><p>slow</p>",
                 limit: float = 30.0) -> None:
        self.body = body
        self.limit = limit
        self.entered = threading.Event()
        self._release = threading.Event()

    def __call__(self, request: Request) -> Response:
        self.entered.set()
        self._release.wait(self.limit)
        return Response(self.body)

    def release(self) -> None:
        self._release.set()


@pytest.fixture
def gate() -> Any:
    gates: list[Gate] = []

    def make(**kwargs: Any) -> Gate:
        g = Gate(**kwargs)
        gates.append(g)
        return g

    yield make
    for g in gates:
        g.release()
