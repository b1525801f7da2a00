"""Which IP addresses a fetch may connect to: globally routable unicast only.

A URL a tenant gives the crawler must not reach the machine Stepwise runs on, its private
network or a cloud metadata service (169.254.169.254). Python 3.11's ``is_global`` is not
enough: it calls 192.0.0.9, the 6to4 and Teredo ranges and NAT64 addresses global although
they carry (or route to) an IPv4 address that may be private, and it knows nothing of
3fff::/20. So the refused ranges are written out below, and the IPv6 forms that embed an
IPv4 address are unwrapped and the embedded address vetted by the IPv4 table.

IPv6 is allow-listed: only 2000::/3 (global unicast) is ever routable; inside it the
special-purpose blocks are refused. Everything outside it (::/8 … 1fff::, 4000::/3 …,
fc00::/7, fe80::/10, fec0::/10, ff00::/8) is reserved, local or multicast.
"""

from __future__ import annotations

import ipaddress
from typing import Final

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

_V4 = ipaddress.IPv4Network
_V6 = ipaddress.IPv6Network

REFUSED_V4: Final[tuple[tuple[ipaddress.IPv4Network, str], ...]] = (
    (_V4("0.0.0.0/8"), "this network / unspecified"),
    (_V4("10.0.0.0/8"), "private"),
    (_V4("100.64.0.0/10"), "carrier-grade NAT"),
    (_V4("127.0.0.0/8"), "loopback"),
    (_V4("169.254.0.0/16"), "link-local (cloud metadata)"),
    (_V4("172.16.0.0/12"), "private"),
    (_V4("192.0.0.0/24"), "IETF protocol assignments"),
    (_V4("192.0.2.0/24"), "documentation TEST-NET-1"),
    (_V4("192.88.99.0/24"), "6to4 relay anycast"),
    (_V4("192.168.0.0/16"), "private"),
    (_V4("198.18.0.0/15"), "benchmarking"),
    (_V4("198.51.100.0/24"), "documentation TEST-NET-2"),
    (_V4("203.0.113.0/24"), "documentation TEST-NET-3"),
    (_V4("224.0.0.0/4"), "multicast"),
    (_V4("240.0.0.0/4"), "reserved and broadcast"),
)

GLOBAL_UNICAST_V6: Final = _V6("2000::/3")

REFUSED_V6: Final[tuple[tuple[ipaddress.IPv6Network, str], ...]] = (
    (_V6("2001:db8::/32"), "documentation"),
    (_V6("2001::/23"), "IETF protocol assignments (ORCHID, benchmarking …)"),
    (_V6("3fff::/20"), "documentation"),
)

# Forms whose low 32 bits (or, for 6to4, bits 16-47) are an IPv4 address.
_MAPPED: Final = _V6("::ffff:0:0/96")
_COMPATIBLE: Final = _V6("::/96")
_NAT64: Final = _V6("64:ff9b::/96")
_NAT64_LOCAL: Final = _V6("64:ff9b:1::/48")
_SIX_TO_FOUR: Final = _V6("2002::/16")
_TEREDO: Final = _V6("2001::/32")


def vet_address(ip: IPAddress) -> bool:
    """Is ``ip`` a globally routable unicast address a fetch may connect to?"""
    return refusal_reason(ip) is None


def refusal_reason(ip: IPAddress) -> str | None:
    """Why ``ip`` is refused (for the debug log), or ``None`` when it is allowed."""
    if isinstance(ip, ipaddress.IPv4Address):
        return _v4_reason(ip)
    return _v6_reason(ip)


def _v4_reason(ip: ipaddress.IPv4Address) -> str | None:
    for network, reason in REFUSED_V4:
        if ip in network:
            return reason
    return None


def _v6_reason(ip: ipaddress.IPv6Address) -> str | None:
    embedded = _embedded_v4(ip)
    if embedded is not None:
        label, addresses = embedded
        for address in addresses:
            reason = _v4_reason(address)
            if reason is not None:
                return f"{label} of {address} ({reason})"
        return None
    if ip in _NAT64_LOCAL:
        return "local-use NAT64"
    if ip not in GLOBAL_UNICAST_V6:
        return "not IPv6 global unicast (loopback, ULA, link-local, multicast, reserved …)"
    for network, reason in REFUSED_V6:
        if ip in network:
            return reason
    return None


def _embedded_v4(ip: ipaddress.IPv6Address) -> tuple[str, tuple[ipaddress.IPv4Address, ...]] | None:
    """The IPv4 address(es) an IPv6 address stands for, when it is one of the wrapping forms."""
    low32 = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip in _MAPPED:
        return "IPv4-mapped", (low32,)
    if ip in _COMPATIBLE:
        # ::/128 and ::1 are not wrappers: they are unspecified and loopback.
        if int(ip) <= 1:
            return None
        return "IPv4-compatible", (low32,)
    if ip in _NAT64:
        return "NAT64", (low32,)
    if ip in _SIX_TO_FOUR:
        return "6to4", (ipaddress.IPv4Address((int(ip) >> 80) & 0xFFFFFFFF),)
    if ip in _TEREDO:
        server = ipaddress.IPv4Address((int(ip) >> 64) & 0xFFFFFFFF)
        client = ipaddress.IPv4Address(~int(ip) & 0xFFFFFFFF)
        return "Teredo", (server, client)
    return None
