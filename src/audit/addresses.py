"""Which network addresses an audit may reach when private networks are blocked.

The table is IANA's IPv4 and IPv6 special-purpose address registries (RFC 6890 and its
updates), reduced to one question: is the range *globally reachable*? Everything that is
not (loopback, private, shared/CGN, link-local, documentation, benchmarking, reserved,
unique-local, site-local, discard, multicast, broadcast, …) is refused. It is written out
here rather than taken from :mod:`ipaddress`'s ``is_private``/``is_global`` because those
changed meaning between Python patch releases and miss ranges (100.64.0.0/10 is neither).

IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64's well-known
prefix, 6to4, Teredo) are judged by the IPv4 address inside them as well: a 6to4 address
of a private IPv4 reaches that private host through a relay.

Names: ``localhost``, ``*.localhost`` and their fully qualified spellings (``localhost.``)
are loopback without asking DNS — Chromium answers them itself (RFC 6761) — and a name that
does not resolve is refused too, since the browser's resolver may still find an address the
service's cannot.
"""

from __future__ import annotations

import ipaddress
import socket

import trio

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

#: IPv4 ranges that are not globally reachable (IANA IPv4 Special-Purpose Address Registry,
#: plus multicast, which that registry leaves to its own).
BLOCKED_IPV4: tuple[tuple[str, str], ...] = (
    ("0.0.0.0/8", "this network"),
    ("10.0.0.0/8", "private use"),
    ("100.64.0.0/10", "shared address space (carrier-grade NAT)"),
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link local"),
    ("172.16.0.0/12", "private use"),
    ("192.0.0.0/24", "IETF protocol assignments"),
    ("192.0.2.0/24", "documentation (TEST-NET-1)"),
    ("192.88.99.0/24", "deprecated 6to4 relay anycast"),
    ("192.168.0.0/16", "private use"),
    ("198.18.0.0/15", "benchmarking"),
    ("198.51.100.0/24", "documentation (TEST-NET-2)"),
    ("203.0.113.0/24", "documentation (TEST-NET-3)"),
    ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved"),
    ("255.255.255.255/32", "limited broadcast"),
)

#: IPv6 ranges that are not globally reachable (IANA IPv6 Special-Purpose Address Registry,
#: plus multicast). IPv4-mapped, NAT64 (64:ff9b::/96), 6to4 and Teredo addresses are judged
#: by the IPv4 address they carry (:func:`embedded_ipv4`) instead.
BLOCKED_IPV6: tuple[tuple[str, str], ...] = (
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("::/96", "IPv4-compatible (deprecated)"),
    ("64:ff9b:1::/48", "local-use IPv4/IPv6 translation"),
    ("100::/64", "discard-only"),
    ("100:0:0:1::/64", "dummy prefix"),
    ("2001:2::/48", "benchmarking"),
    ("2001:10::/28", "deprecated ORCHID"),
    ("2001:db8::/32", "documentation"),
    ("3fff::/20", "documentation"),
    ("5f00::/16", "segment routing SIDs"),
    ("fc00::/7", "unique local"),
    ("fe80::/10", "link local"),
    ("fec0::/10", "site local (deprecated)"),
    ("ff00::/8", "multicast"),
)

_V4 = tuple((ipaddress.IPv4Network(net), why) for net, why in BLOCKED_IPV4)
_V6 = tuple((ipaddress.IPv6Network(net), why) for net, why in BLOCKED_IPV6)
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries and reaches, if it has one."""
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address.sixtofour is not None:
        return address.sixtofour
    if address.teredo is not None:
        return address.teredo[1]  # the client, which the relay forwards to
    if address in _NAT64:
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    return None


def blocked_reason(address: IPAddress) -> str | None:
    """Why ``address`` must not be reached, or None when it is globally reachable."""
    if isinstance(address, ipaddress.IPv6Address):
        inner = embedded_ipv4(address)
        if inner is not None:
            why = blocked_reason(inner)
            return None if why is None else f"{why}, embedded in {address}"
        table: tuple = _V6
    else:
        table = _V4
    return next((why for network, why in table if address in network), None)


def is_private_address(address: IPAddress) -> bool:
    """True for every address an audit must never reach."""
    return blocked_reason(address) is not None


def is_local_name(host: str) -> bool:
    """``localhost`` and ``*.localhost``, with or without the root dot: loopback by name."""
    name = host.lower().rstrip(".")
    return name == "localhost" or name.endswith(".localhost")


def parse_address(host: str) -> IPAddress | None:
    """``host`` as an IP literal (brackets and an IPv6 zone dropped), else None."""
    literal = host.strip("[]").split("%", 1)[0]
    try:
        return ipaddress.ip_address(literal)
    except ValueError:
        return None


async def resolve_host(host: str, port: int) -> list[IPAddress]:
    """Every address ``host`` resolves to, in resolver order; an IP literal is itself.

    Raises OSError when the name does not resolve.
    """
    literal = parse_address(host)
    if literal is not None:
        return [literal]
    infos = await trio.socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    found: list[IPAddress] = []
    for *_, sockaddr in infos:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0])
        if address not in found:
            found.append(address)
    return found
