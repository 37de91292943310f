"""The connect-level half of ``--block-private-networks``: a SOCKS5 proxy on loopback.

The request-level guard (:mod:`audit.netguard`) resolves a URL's host and refuses private
addresses before Chromium sends the request; Chromium then resolves the name again itself.
A DNS answer that changes in between (DNS rebinding), or a name that Chromium resolves in
ways the service cannot see, would slip through. So guarded browser contexts send every
connection through this proxy (``Target.createBrowserContext(proxyServer=…,
proxyBypassList="<-loopback>")``; the bypass rule removes Chromium's implicit "loopback
never goes through a proxy"). With SOCKS5, Chromium hands the proxy the *name*; the proxy
resolves it once, judges every address it got, and connects to exactly the address it
judged: the decision is made on the address actually connected to.

One proxy serves one browser for the browser's lifetime (:func:`egress_proxy`), so spare
pages can be prepared in guarded contexts ahead of an audit.
"""

from __future__ import annotations

import logging
import struct
import weakref
from collections import deque
from dataclasses import dataclass, field

import trio

from cdpdriver import Browser

from .addresses import IPAddress, blocked_reason, is_local_name, parse_address, resolve_host

log = logging.getLogger(__name__)

HANDSHAKE_TIMEOUT = 10.0
CONNECT_TIMEOUT = 15.0
RESOLVE_TIMEOUT = 5.0
RELAY_CHUNK = 65536
#: Chromium's proxy bypass rule that sends loopback through the proxy too.
BYPASS_NOTHING = "<-loopback>"
#: How many refusals are kept for diagnostics (oldest dropped first).
REFUSALS_KEPT = 256

_SOCKS = 5
_NO_AUTH = 0
_NO_ACCEPTABLE_METHOD = 0xFF
_CONNECT = 1
_IPV4, _DOMAIN, _IPV6 = 1, 3, 4
_OK, _FAILURE, _NOT_ALLOWED, _HOST_UNREACHABLE, _REFUSED = 0, 1, 2, 4, 5
_COMMAND_NOT_SUPPORTED, _ADDRESS_NOT_SUPPORTED = 7, 8


@dataclass(frozen=True)
class Refusal:
    host: str
    port: int
    reason: str


class SocksError(Exception):
    """The client spoke something other than the SOCKS5 CONNECT this proxy serves."""

    def __init__(self, reply: int, message: str) -> None:
        super().__init__(message)
        self.reply = reply


@dataclass
class EgressProxy:
    """A SOCKS5 CONNECT proxy that connects only to globally reachable addresses.

    ``allow`` holds ``(host, port)`` pairs let through unchecked; the service never sets it,
    tests use it to audit pages served on 127.0.0.1.
    """

    allow: set[tuple[str, int]] = field(default_factory=set)
    refused: deque[Refusal] = field(default_factory=lambda: deque(maxlen=REFUSALS_KEPT))
    port: int = 0

    @property
    def proxy_server(self) -> str:
        """The value for ``proxyServer``; valid once :meth:`serve` has started."""
        if not self.port:
            raise RuntimeError("the egress proxy is not serving yet")
        return f"socks5://127.0.0.1:{self.port}"

    async def serve(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Listen on an ephemeral loopback port until cancelled; connections die with it."""
        listeners = await trio.open_tcp_listeners(0, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        async with trio.open_nursery() as nursery:
            nursery.start_soon(trio.serve_listeners, self._handle, listeners)
            task_status.started()

    async def _handle(self, client: trio.SocketStream) -> None:
        async with client:
            try:
                with trio.fail_after(HANDSHAKE_TIMEOUT):
                    host, port = await self._read_request(client)
                upstream = await self._open(host, port)
            except SocksError as exc:
                log.debug("egress proxy refused a connection: %s", exc)
                await _reply(client, exc.reply)
                return
            except (trio.TooSlowError, trio.BrokenResourceError, trio.ClosedResourceError):
                return
            except Exception:  # a page must never take the browser's nursery down with it
                log.exception("egress proxy: unexpected failure on one connection")
                await _reply(client, _FAILURE)
                return
            async with upstream:
                await _reply(client, _OK)
                await _relay(client, upstream)

    async def _read_request(self, client: trio.SocketStream) -> tuple[str, int]:
        """The greeting and the CONNECT request; the host as the client named it."""
        reader = _Reader(client)
        version, count = await reader.exactly(2)
        if version != _SOCKS:
            raise SocksError(_FAILURE, f"not SOCKS5 (version byte {version})")
        methods = await reader.exactly(count)
        if _NO_AUTH not in methods:
            await client.send_all(bytes([_SOCKS, _NO_ACCEPTABLE_METHOD]))
            raise SocksError(_FAILURE, "the client offers no unauthenticated method")
        await client.send_all(bytes([_SOCKS, _NO_AUTH]))
        version, command, _, kind = await reader.exactly(4)
        if command != _CONNECT:
            raise SocksError(_COMMAND_NOT_SUPPORTED, f"SOCKS command {command} is not served")
        if kind == _IPV4:
            host = str(parse_address(".".join(str(b) for b in await reader.exactly(4))))
        elif kind == _IPV6:
            raw = await reader.exactly(16)
            host = str(parse_address(":".join(raw[i : i + 2].hex() for i in range(0, 16, 2))))
        elif kind == _DOMAIN:
            (length,) = await reader.exactly(1)
            try:  # Chromium sends names already in their ASCII (punycode) form
                host = (await reader.exactly(length)).decode("ascii")
            except UnicodeDecodeError:
                raise SocksError(_ADDRESS_NOT_SUPPORTED, "a host name that is not ASCII") from None
        else:
            raise SocksError(_ADDRESS_NOT_SUPPORTED, f"SOCKS address type {kind} is not served")
        (port,) = struct.unpack("!H", await reader.exactly(2))
        return host, port

    async def _open(self, host: str, port: int) -> trio.SocketStream:
        """Connect to ``host`` only if every address it names is globally reachable."""
        if (host, port) in self.allow:
            addresses = await self._resolve(host, port)
        else:
            addresses = await self._judge(host, port)
        for address in addresses:
            with trio.move_on_after(CONNECT_TIMEOUT):
                try:
                    return await trio.open_tcp_stream(str(address), port)
                except OSError:
                    continue
        raise SocksError(_REFUSED, f"could not connect to {host}:{port}")

    async def _judge(self, host: str, port: int) -> list[IPAddress]:
        if is_local_name(host):
            self._refuse(host, port, "a localhost name")
        addresses = await self._resolve(host, port)
        for address in addresses:
            why = blocked_reason(address)
            if why is not None:
                self._refuse(host, port, f"{address} is {why}")
        return addresses

    async def _resolve(self, host: str, port: int) -> list[IPAddress]:
        addresses: list[IPAddress] = []
        with trio.move_on_after(RESOLVE_TIMEOUT):
            try:
                addresses = await resolve_host(host, port)
            except OSError:
                pass
        if not addresses:
            raise SocksError(_HOST_UNREACHABLE, f"{host} does not resolve")
        return addresses

    def _refuse(self, host: str, port: int, reason: str) -> None:
        self.refused.append(Refusal(host, port, reason))
        log.info("refused a connection to a private network: %s:%d (%s)", host, port, reason)
        raise SocksError(_NOT_ALLOWED, f"{host}:{port} refused: {reason}")


class _Reader:
    """Exact-length reads over a stream that may deliver bytes in any split."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self._stream = stream
        self._buffer = bytearray()

    async def exactly(self, count: int) -> bytes:
        while len(self._buffer) < count:
            chunk = await self._stream.receive_some(RELAY_CHUNK)
            if not chunk:
                raise SocksError(_FAILURE, "the client closed during the handshake")
            self._buffer += chunk
        taken, self._buffer = bytes(self._buffer[:count]), self._buffer[count:]
        return taken


async def _reply(client: trio.SocketStream, code: int) -> None:
    """A SOCKS5 reply; the bound address is not meaningful to Chromium, so it is zeros."""
    try:
        await client.send_all(bytes([_SOCKS, code, 0, _IPV4, 0, 0, 0, 0, 0, 0]))
    except (trio.BrokenResourceError, trio.ClosedResourceError):
        pass


async def _relay(a: trio.SocketStream, b: trio.SocketStream) -> None:
    """Copy both ways until both sides have finished sending; either side's error ends both."""

    async def pump(source: trio.SocketStream, sink: trio.SocketStream) -> None:
        try:
            while chunk := await source.receive_some(RELAY_CHUNK):
                await sink.send_all(chunk)
            await sink.send_eof()
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            nursery.cancel_scope.cancel()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(pump, a, b)
        nursery.start_soon(pump, b, a)


_PROXIES: weakref.WeakKeyDictionary[Browser, EgressProxy] = weakref.WeakKeyDictionary()
_STARTING: weakref.WeakKeyDictionary[Browser, trio.Event] = weakref.WeakKeyDictionary()


async def egress_proxy(browser: Browser) -> EgressProxy:
    """The proxy guarding ``browser``'s contexts, started in the browser's nursery on first use
    (so it lives exactly as long as the browser)."""
    proxy = _PROXIES.get(browser)
    if proxy is not None:
        return proxy
    starting = _STARTING.get(browser)
    if starting is not None:
        await starting.wait()
        return await egress_proxy(browser)
    _STARTING[browser] = starting = trio.Event()
    try:
        proxy = EgressProxy()
        await browser.start_service(proxy.serve)
        _PROXIES[browser] = proxy
        return proxy
    finally:
        del _STARTING[browser]
        starting.set()
