"""The connect-level half of the origin rules: a SOCKS5 proxy for the guarded browser contexts.

``Fetch`` interception (:mod:`.requests`) never sees a WebSocket handshake, and a browser
may open connections no request event names. So every browser context of a guarded server
is created with this proxy (``Target.createBrowserContext(proxyServer=…,
proxyBypassList="<-loopback>")``; the bypass rule removes Chromium's "loopback never goes
through a proxy"): Chromium hands it the host *name* and port of every connection (page,
frames, dedicated, shared and service workers, WebSockets), and it connects only when the
rules allow some origin (http or https) on that host and port, to the addresses it resolved
itself. A refused connection fails in the page like a network error
(``ERR_SOCKS_CONNECTION_FAILED``, a WebSocket's ``error`` then ``close``).

It is the SOCKS5 server of the audit's private-network guard (:mod:`audit.egress`) with
another judge.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass, field

from audit.addresses import IPAddress
from audit.egress import EgressProxy, Refusal, SocksError

from .policy import GuardConfig

log = logging.getLogger(__name__)

_NOT_ALLOWED = 2  # SOCKS5 reply: connection not allowed by ruleset
REFUSALS_KEPT = 256


@dataclass
class OriginProxy(EgressProxy):
    """A SOCKS5 CONNECT proxy that connects only where the origin rules allow."""

    rules: GuardConfig = field(default_factory=GuardConfig)
    refused: deque[Refusal] = field(default_factory=lambda: deque(maxlen=REFUSALS_KEPT))
    refusals: int = 0  # ever, so a caller can tell whether one came since it looked

    async def _judge(self, host: str, port: int) -> list[IPAddress]:
        if not self.rules.connect_allowed(host, port):
            self.refused.append(Refusal(host, port, "origin rules"))
            self.refusals += 1
            log.info("refused a connection by the origin rules: %s:%d", host, port)
            raise SocksError(_NOT_ALLOWED, f"{host}:{port} is refused by the origin rules")
        return await self._resolve(host, port)
