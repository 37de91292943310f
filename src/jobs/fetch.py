"""Small bounded HTTP GETs for the crawl's own reads (robots.txt, sitemaps).

Bounded in every way a hostile or broken site could stretch them: total time, body size,
redirect hops. With private networks blocked, every hop's host must resolve only to
globally reachable addresses (the rules of :mod:`audit.addresses`, the browser's guard's
own), checked before connecting; a name that re-resolves to another address between the
check and the connection is the residual risk, as for any resolve-then-connect client.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urljoin, urlsplit

import httpx
import trio

from audit.addresses import blocked_reason, is_local_name, resolve_host
from audit.meta import TOOL_NAME, package_version

MAX_REDIRECTS = 5
DEFAULT_TIMEOUT = 10.0


class FetchFailed(Exception):
    """The resource could not be read (network, guard, size or time); the message says why."""


@dataclass(frozen=True)
class Fetched:
    url: str
    status: int
    body: bytes
    content_type: str
    location: str | None = None
    """Where a redirect points (no body is read then)."""


def user_agent() -> str:
    return f"{TOOL_NAME}/{package_version()} (accessibility audit)"


async def fetch(
    url: str, *, max_bytes: int, block_private: bool, timeout: float = DEFAULT_TIMEOUT
) -> Fetched:
    """GET ``url`` following up to ``MAX_REDIRECTS`` redirects; any status is returned (the
    caller decides what a 404 means). ``FetchFailed`` when the body exceeds ``max_bytes``."""
    try:
        with trio.fail_after(timeout):
            async with httpx.AsyncClient(
                follow_redirects=False, headers={"User-Agent": user_agent()}, timeout=timeout
            ) as client:
                for _ in range(MAX_REDIRECTS + 1):
                    if block_private:
                        await _check_host(url)
                    fetched = await _get(client, url, max_bytes)
                    if fetched.location is None:
                        return fetched
                    url = urljoin(url, fetched.location)
                raise FetchFailed(f"more than {MAX_REDIRECTS} redirects from {url}")
    except trio.TooSlowError as exc:
        raise FetchFailed(f"{url} did not answer within {timeout:g} s") from exc
    except httpx.HTTPError as exc:
        raise FetchFailed(f"cannot read {url}: {exc}") from exc


_REDIRECTS = frozenset({301, 302, 303, 307, 308})


async def _get(client: httpx.AsyncClient, url: str, max_bytes: int) -> Fetched:
    async with client.stream("GET", url) as response:
        if response.status_code in _REDIRECTS and "location" in response.headers:
            return Fetched(url, response.status_code, b"", "", response.headers["location"])
        body = bytearray()
        async for chunk in response.aiter_bytes():
            body += chunk
            if len(body) > max_bytes:
                raise FetchFailed(f"{url} is larger than {max_bytes} bytes")
        return Fetched(url, response.status_code, bytes(body), response.headers.get("content-type", ""))


async def _check_host(url: str) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise FetchFailed(f"not an http(s) URL: {url}")
    host = parts.hostname
    if is_local_name(host):
        raise FetchFailed(f"{host} is a loopback name; private networks are blocked")
    try:
        addresses = await resolve_host(host, parts.port or (443 if parts.scheme == "https" else 80))
    except OSError as exc:
        raise FetchFailed(f"{host} does not resolve: {exc}") from exc
    for address in addresses:
        reason = blocked_reason(address)
        if reason is not None:
            raise FetchFailed(f"{host} resolves to {address} ({reason}); private networks are blocked")
