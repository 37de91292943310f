"""The request-level half of ``--block-private-networks``: refuse and record private requests.

With ``--block-private-networks`` the service must not become a proxy into the network it
runs in. Every request of the audited page (documents, redirects, subresources, fetch/XHR,
iframes, including out-of-process iframes, which have their own CDP session) is paused with
the Fetch domain; its host is judged here and the request fails with ``BlockedByClient`` when
it is a localhost name, does not resolve, or resolves to any address that is not globally
reachable (:mod:`audit.addresses`). A redirect is a new paused request, so every hop is judged.

This layer gives the audit its clear error ("the start page was blocked: …") and the record of
what was refused. It is not the last word: Chromium resolves the name again when it connects,
so the guarded contexts also connect only through :mod:`audit.egress`, which judges the
address it actually connects to (DNS rebinding between the two looks is refused there).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import trio

from cdpdriver import CDPError, Page, Session
from cdpdriver.page import ChildTarget
from cdpdriver.protocol import fetch, network

from .addresses import IPAddress, blocked_reason, is_local_name, resolve_host
from .urls import without_credentials

log = logging.getLogger(__name__)

RESOLVE_TIMEOUT = 5.0
BLOCK_REASON = network.ErrorReason.BLOCKED_BY_CLIENT
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


@dataclass
class BlockedRequest:
    url: str
    host: str
    addresses: list[str]
    resource_type: str = ""


@dataclass
class NetGuard:
    """Pauses every request of one page and its child targets; fails the private ones.

    ``allow`` lists exact URLs let through unchecked. The service never sets it; tests use
    it to load a page from 127.0.0.1 and prove that the page's subrequests are refused.
    """

    allow: frozenset[str] = frozenset()
    blocked: list[BlockedRequest] = field(default_factory=list)
    #: ``(url, headers) -> headers`` for a request let through: the headers to send instead
    #: (the audit's own, :mod:`audit.auth`), or None to send it unchanged.
    add_headers: Callable[[str, dict[str, str]], list[fetch.HeaderEntry] | None] | None = None
    _cache: dict[tuple[str, int], list[IPAddress] | None] = field(default_factory=dict)
    _nursery: trio.Nursery | None = None

    async def attach(self, page: Page, nursery: trio.Nursery) -> None:
        """Intercept ``page`` from its next request on; children are intercepted before they run.

        ``nursery`` hosts the request handlers; it must outlive the page's use.
        """
        self._nursery = nursery
        page.child_hooks.append(self._guard_child)
        await self._enable(page.session)

    def blocked_document(self) -> BlockedRequest | None:
        """The first refused document request (a page or frame navigation), if any."""
        return next((b for b in self.blocked if b.resource_type == "Document"), None)

    async def _guard_child(self, child: ChildTarget) -> None:
        # Workers and other child kinds may not support Fetch; _enable tolerates that.
        await self._enable(child.session)

    async def _enable(self, session: Session) -> None:
        assert self._nursery is not None, "attach() first"
        events = session.listen(["Fetch.requestPaused"], raw=True)
        self._nursery.start_soon(self._serve, session, events)
        try:
            await session.execute(fetch.enable(patterns=[fetch.RequestPattern(url_pattern="*")]))
        except CDPError:
            events.close()
            raise

    async def _serve(self, session: Session, events: Any) -> None:
        with events:
            async with trio.open_nursery() as nursery:
                async for event in events:
                    nursery.start_soon(self._decide, session, event.params)

    async def _decide(self, session: Session, params: dict[str, Any]) -> None:
        request_id = params.get("requestId", "")
        url = str((params.get("request") or {}).get("url", ""))
        try:
            verdict = await self._verdict(url)
            if verdict is None:
                sent = (params.get("request") or {}).get("headers") or {}
                headers = self.add_headers(url, sent) if self.add_headers is not None else None
                await session.execute(fetch.continue_request(fetch.RequestId(request_id), headers=headers))
                return
            verdict.resource_type = str(params.get("resourceType", ""))
            self.blocked.append(verdict)
            log.info(
                "blocked request to a private network: %s (%s)",
                without_credentials(url), ", ".join(verdict.addresses),
            )
            await session.execute(fetch.fail_request(fetch.RequestId(request_id), BLOCK_REASON))
        except CDPError as exc:  # the request or its target went away meanwhile
            log.debug("could not answer paused request %s: %s", without_credentials(url), exc)

    async def _verdict(self, url: str) -> BlockedRequest | None:
        """None to let ``url`` through, else why it is refused."""
        if url in self.allow:
            return None
        parts = urlsplit(url)
        if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
            return None  # data:, blob: and the like never leave the browser
        try:
            port = parts.port or _DEFAULT_PORTS[parts.scheme]
        except ValueError:
            return None
        host = parts.hostname
        if is_local_name(host):
            return BlockedRequest(url=url, host=host, addresses=["localhost"])
        addresses = await self._resolve(host, port)
        if addresses is None:
            return BlockedRequest(url=url, host=host, addresses=["unresolvable"])
        bad = [a for a in addresses if blocked_reason(a) is not None]
        if not bad:
            return None
        return BlockedRequest(url=url, host=host, addresses=[str(a) for a in bad])

    async def _resolve(self, host: str, port: int) -> list[IPAddress] | None:
        """The addresses of ``host``; None when it does not resolve in time."""
        key = (host, port)
        if key not in self._cache:
            addresses: list[IPAddress] | None = None
            with trio.move_on_after(RESOLVE_TIMEOUT):
                try:
                    addresses = await resolve_host(host, port)
                except OSError:
                    addresses = None
            self._cache[key] = addresses
        return self._cache[key]


def describe_block(blocked: BlockedRequest) -> str:
    return (
        f"{blocked.url} was blocked: {blocked.host} is not a public address "
        f"({', '.join(blocked.addresses)})"
    )
