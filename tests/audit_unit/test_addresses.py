"""The special-purpose address table: one case inside every blocked range, and public neighbours."""

from __future__ import annotations

import ipaddress

import pytest

from audit.addresses import (
    BLOCKED_IPV4,
    BLOCKED_IPV6,
    blocked_reason,
    embedded_ipv4,
    is_local_name,
    is_private_address,
    parse_address,
    resolve_host,
)

#: Also part of the fault suite (issue #17): ``pytest -m faults`` runs it with tests/faults.
pytestmark = pytest.mark.faults


def _inside(network: str) -> list[str]:
    """The first, last and a middle address of ``network``."""
    net = ipaddress.ip_network(network)
    return [str(net[0]), str(net[-1]), str(net[net.num_addresses // 2])]


@pytest.mark.parametrize(("network", "why"), BLOCKED_IPV4 + BLOCKED_IPV6)
def test_every_special_purpose_range_is_blocked(network, why):
    for address in _inside(network):
        reason = blocked_reason(ipaddress.ip_address(address))
        assert reason is not None, f"{address} in {network} ({why}) must be blocked"


@pytest.mark.parametrize(
    "address",
    [
        "100.64.0.1", "100.100.100.200",  # carrier-grade NAT; a cloud metadata address
        "192.0.0.8", "192.0.0.170",  # IETF protocol assignments
        "169.254.169.254", "0.0.0.0", "255.255.255.255", "240.0.0.1", "224.0.0.251",
        "2002:7f00:1::1",  # 6to4 around 127.0.0.1
        "2002:0a00:0001::1",  # 6to4 around 10.0.0.1
        "64:ff9b::7f00:1",  # NAT64 well-known prefix around 127.0.0.1
        "64:ff9b::a9fe:a9fe",  # NAT64 around the link-local metadata address
        "::ffff:127.0.0.1", "::ffff:192.168.0.1", "::127.0.0.1",
        "2001:0:4136:e378:8000:63bf:80ff:fffe",  # Teredo whose client is 127.0.0.1
        "fec0::1", "fc00::1", "fd12:3456::1", "fe80::1", "ff02::1", "::1", "::",
        "2001:db8::1", "3fff::1", "100::1", "5f00::1",
    ],
)
def test_known_private_spellings(address):
    assert is_private_address(ipaddress.ip_address(address))


@pytest.mark.parametrize(
    "address",
    [
        "93.184.215.14", "8.8.8.8", "1.1.1.1", "100.63.255.255", "100.128.0.0", "192.0.1.1",
        "172.32.0.1", "2606:2800:21f:cb07:6820:80da:af6b:8b2c", "2001:4860:4860::8888",
        "::ffff:8.8.8.8", "2002:0808:0808::1", "64:ff9b::808:808",
    ],
)
def test_public_addresses_pass(address):
    assert blocked_reason(ipaddress.ip_address(address)) is None


def test_embedded_ipv4_forms():
    assert embedded_ipv4(ipaddress.IPv6Address("2002:c0a8:0101::")) == ipaddress.IPv4Address("192.168.1.1")
    assert embedded_ipv4(ipaddress.IPv6Address("64:ff9b::c0a8:101")) == ipaddress.IPv4Address("192.168.1.1")
    assert embedded_ipv4(ipaddress.IPv6Address("2606:4700::1")) is None
    assert "embedded" in blocked_reason(ipaddress.IPv6Address("2002:c0a8:0101::"))


@pytest.mark.parametrize(
    ("host", "local"),
    [("localhost", True), ("LOCALHOST.", True), ("a.b.localhost", True), ("x.localhost.", True),
     ("localhost.example", False), ("notlocalhost", False), ("example.org", False)],
)
def test_localhost_names(host, local):
    assert is_local_name(host) is local


def test_parse_address_literals():
    assert parse_address("[::1]") == ipaddress.ip_address("::1")
    assert parse_address("fe80::1%eth0") == ipaddress.ip_address("fe80::1")
    assert parse_address("example.org") is None


async def test_resolve_host_literals_and_localhost():
    assert await resolve_host("[::1]", 80) == [ipaddress.ip_address("::1")]
    assert await resolve_host("10.0.0.1", 80) == [ipaddress.ip_address("10.0.0.1")]
    assert all(is_private_address(a) for a in await resolve_host("localhost", 80))
    with pytest.raises(OSError):
        await resolve_host("no-such-host.invalid", 80)
