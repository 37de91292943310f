"""Refuse requests to private networks: the start page and every subrequest of a page.

With ``--block-private-networks`` the service must not become a proxy into the network it
runs in. Every request of the audited page (documents, subresources, fetch/XHR, iframes,
including out-of-process iframes, which have their own CDP session) is paused with the Fetch
domain; its host is resolved here and the request fails with ``BlockedByClient`` when any
address it resolves to is loopback, private, link-local, unspecified, multicast or reserved.

Limit: Chromium resolves the name again when it continues the request, so a DNS server that
answers differently the second time (DNS rebinding) can still slip through. Pair the flag
with network-level egress rules where that matters.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import trio

from cdpdriver import CDPError, Page, Session
from cdpdriver.page import ChildTarget
from cdpdriver.protocol import fetch, network

log = logging.getLogger(__name__)

RESOLVE_TIMEOUT = 5.0
BLOCK_REASON = network.ErrorReason.BLOCKED_BY_CLIENT
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def is_private_address(address: IPAddress) -> bool:
    """True for addresses an audit must never reach (IPv4-mapped IPv6 is unwrapped)."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return (
        address.is_loopback
        or address.is_private
        or address.is_link_local
        or address.is_unspecified
        or address.is_multicast
        or address.is_reserved
    )


async def resolve_host(host: str, port: int) -> list[IPAddress]:
    """Every address ``host`` resolves to; an IP literal resolves to itself."""
    literal = host.strip("[]")
    try:
        return [ipaddress.ip_address(literal)]
    except ValueError:
        pass
    infos = await trio.socket.getaddrinfo(literal, port, type=socket.SOCK_STREAM)
    found: list[IPAddress] = []
    for *_, sockaddr in infos:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if address not in found:
            found.append(address)
    return found


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
                await session.execute(fetch.continue_request(fetch.RequestId(request_id)))
                return
            verdict.resource_type = str(params.get("resourceType", ""))
            self.blocked.append(verdict)
            log.info("blocked request to a private network: %s (%s)", url, ", ".join(verdict.addresses))
            await session.execute(fetch.fail_request(fetch.RequestId(request_id), BLOCK_REASON))
        except CDPError as exc:  # the request or its target went away meanwhile
            log.debug("could not answer paused request %s: %s", url, exc)

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
        addresses = await self._resolve(parts.hostname, port)
        if addresses is None:
            return None  # unresolvable: Chromium fails it with its own net error
        bad = [a for a in addresses if is_private_address(a)]
        if not bad:
            return None
        return BlockedRequest(url=url, host=parts.hostname, addresses=[str(a) for a in bad])

    async def _resolve(self, host: str, port: int) -> list[IPAddress] | None:
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
        f"{blocked.url} was blocked: {blocked.host} resolves to a private or local "
        f"network address ({', '.join(blocked.addresses)})"
    )
