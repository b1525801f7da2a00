"""Every row of the address table: what a fetch may connect to, and what it may not."""

from __future__ import annotations

import ipaddress

import pytest

from knowledge.fetch.addresses import REFUSED_V4, REFUSED_V6, refusal_reason, vet_address

REFUSED = [
    # IPv4, one or more per refused block (first, inside, last where it matters)
    ("0.0.0.0", "unspecified"),
    ("0.1.2.3", "this network"),
    ("10.0.0.1", "private 10/8"),
    ("10.255.255.255", "private 10/8 end"),
    ("100.64.0.1", "CGNAT"),
    ("100.127.255.254", "CGNAT end"),
    ("127.0.0.1", "loopback"),
    ("127.8.9.10", "loopback /8"),
    ("169.254.169.254", "cloud metadata"),
    ("169.254.0.1", "link-local"),
    ("172.16.0.1", "private 172.16/12"),
    ("172.31.255.255", "private 172.16/12 end"),
    ("192.0.0.9", "IETF assignments (is_global says True)"),
    ("192.0.0.170", "NAT64 discovery"),
    ("192.0.2.1", "TEST-NET-1"),
    ("192.88.99.1", "6to4 relay"),
    ("192.168.1.1", "private 192.168/16"),
    ("198.18.0.1", "benchmarking"),
    ("198.19.255.255", "benchmarking end"),
    ("198.51.100.7", "TEST-NET-2"),
    ("203.0.113.9", "TEST-NET-3"),
    ("224.0.0.1", "multicast"),
    ("239.255.255.250", "multicast SSDP"),
    ("240.0.0.1", "reserved"),
    ("255.255.255.255", "broadcast"),
    # IPv6 native
    ("::", "unspecified"),
    ("::1", "loopback"),
    ("fe80::1", "link-local"),
    ("febf::1", "link-local end"),
    ("fec0::1", "site-local"),
    ("fc00::1", "ULA fc00"),
    ("fd12:3456::1", "ULA fd"),
    ("ff02::1", "multicast"),
    ("ff0e::1", "global-scope multicast"),
    ("100::1", "discard-only"),
    ("2001:db8::1", "documentation"),
    ("3fff::1", "documentation 3fff::/20"),
    ("2001:2::1", "benchmarking"),
    ("2001:10::1", "ORCHID"),
    ("2001:20::1", "ORCHIDv2"),
    ("4000::1", "outside 2000::/3"),
    ("5f00::1", "SRv6 SIDs, outside 2000::/3"),
    # IPv6 forms wrapping an IPv4 address
    ("::ffff:127.0.0.1", "IPv4-mapped loopback"),
    ("::ffff:10.0.0.1", "IPv4-mapped private"),
    ("::ffff:169.254.169.254", "IPv4-mapped metadata"),
    ("::127.0.0.1", "IPv4-compatible loopback"),
    ("::10.1.2.3", "IPv4-compatible private"),
    ("::0.0.0.2", "IPv4-compatible this-network"),
    ("64:ff9b::127.0.0.1", "NAT64 loopback"),
    ("64:ff9b::a9fe:a9fe", "NAT64 metadata"),
    ("64:ff9b::c0a8:101", "NAT64 192.168.1.1"),
    ("64:ff9b:1::8.8.8.8", "local-use NAT64 (refused whole)"),
    ("2002:7f00:1::1", "6to4 of 127.0.0.1"),
    ("2002:a00:1::", "6to4 of 10.0.0.1"),
    ("2002:a9fe:a9fe::1", "6to4 of metadata"),
    ("2001:0:4136:e378:8000:63bf:f5ff:fffe", "Teredo, client 10.0.0.1"),
    ("2001:0:7f00:1:0:0:f7f7:f7f7", "Teredo, server 127.0.0.1"),
    ("fe80::1%eth0", "scoped link-local"),
]

ALLOWED = [
    ("8.8.8.8", "public IPv4"),
    ("1.1.1.1", "public IPv4"),
    ("93.184.215.14", "public IPv4"),
    ("100.63.255.255", "just below CGNAT"),
    ("100.128.0.0", "just above CGNAT"),
    ("172.15.255.255", "just below 172.16/12"),
    ("172.32.0.0", "just above 172.16/12"),
    ("192.169.0.1", "just above 192.168/16"),
    ("223.255.255.254", "just below multicast"),
    ("2606:4700:4700::1111", "public IPv6"),
    ("2a00:1450:4001::200e", "public IPv6"),
    ("::ffff:8.8.8.8", "IPv4-mapped public"),
    ("::8.8.8.8", "IPv4-compatible public"),
    ("64:ff9b::808:808", "NAT64 of 8.8.8.8"),
    ("2002:808:808::1", "6to4 of 8.8.8.8"),
    ("2001:0:808:808:0:0:f7f7:f7f7", "Teredo, server 8.8.8.8 client 8.8.8.8"),
]


@pytest.mark.parametrize(("text", "why"), REFUSED)
def test_refused(text: str, why: str) -> None:
    ip = ipaddress.ip_address(text)
    assert vet_address(ip) is False, why
    assert refusal_reason(ip)


@pytest.mark.parametrize(("text", "why"), ALLOWED)
def test_allowed(text: str, why: str) -> None:
    ip = ipaddress.ip_address(text)
    assert vet_address(ip) is True, f"{why}: {refusal_reason(ip)}"


def test_every_refused_block_has_a_row() -> None:
    """No table row is untested: each refused network contains some refused test address."""
    addresses = [ipaddress.ip_address(text) for text, _ in REFUSED]
    for network, reason in (*REFUSED_V4, *REFUSED_V6):
        assert any(ip.version == network.version and ip in network for ip in addresses), reason


def test_python_is_global_would_have_let_these_through() -> None:
    """Why the table is explicit: the stdlib calls these global on 3.11."""
    for text in ("64:ff9b::a9fe:a9fe", "2002:a00:1::", "192.0.0.9"):
        ip = ipaddress.ip_address(text)
        if ip.is_global:
            assert not vet_address(ip)
