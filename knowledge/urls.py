"""One spelling per page, and the site a page belongs to.

The crawler de-duplicates pages and the knowledge base keys documents by URL, so two
spellings of one page must become one string. URLs are parsed with ada (``ada-url``, the
WHATWG parser the browser uses, as in ``verification/urls.py``), which already lower-cases
the host, converts IDNs to punycode, reads ``0x7f000001`` and ``2130706433`` as
``127.0.0.1``, drops the default port and resolves dot segments. On top of it,
``canonical_url`` applies these rules:

1. only ``http`` and ``https`` URLs with a host; anything else is ``None``;
2. the host loses a trailing dot (``example.com.`` is ``example.com``);
3. the fragment is dropped (it never reaches the server);
4. tracking parameters are dropped: every ``utm_*`` and the names in ``_TRACKING_PARAMS``;
5. the remaining query parameters are sorted by name, then value (stable for repeats),
   and re-encoded with ``%20`` for spaces; an empty query disappears (``/a?`` is ``/a``);
6. in the path, percent-escapes are upper-cased and escapes of unreserved characters
   (letters, digits, ``-._~``) are decoded (``%7e`` is ``~``); the empty path is ``/``.

A trailing slash is kept: ``/docs`` and ``/docs/`` may be different pages.

``registrable_domain`` is the eTLD+1 from the Public Suffix List bundled with
``publicsuffixlist`` (offline, never downloaded at run time). Private suffixes count, so
``a.github.io`` and ``b.github.io`` are different sites.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from typing import Final
from urllib.parse import parse_qsl, quote, urlencode

from ada_url import URL
from publicsuffixlist import PublicSuffixList

_WEB_SCHEMES: Final = frozenset({"http", "https"})
_TRACKING_PARAMS: Final = frozenset(
    {
        "gclid", "gclsrc", "dclid", "gbraid", "wbraid", "fbclid", "msclkid", "yclid",
        "twclid", "ttclid", "li_fat_id", "igshid", "mc_cid", "mc_eid", "_ga", "_gl",
        "_hsenc", "_hsmi", "mkt_tok", "oly_anon_id", "oly_enc_id", "vero_id", "vero_conv",
        "__s", "s_cid", "ref_src", "srsltid",
    }
)
_ESCAPE: Final = re.compile(r"%([0-9A-Fa-f]{2})")
_UNRESERVED: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_LOCAL_NAMES: Final = frozenset({"localhost", "localhost.localdomain"})


def canonical_url(url: str, base: str | None = None) -> str | None:
    """The canonical spelling of ``url`` (resolved against ``base`` when relative), or
    ``None`` when it is not an http(s) URL with a host. The rules are in the module doc."""
    parsed = _parse(url, base)
    if parsed is None:
        return None
    host = parsed.hostname.rstrip(".")
    if not host:
        return None
    port = f":{parsed.port}" if parsed.port else ""
    path = _normalise_escapes(parsed.pathname) or "/"
    query = _canonical_query(parsed.search)
    scheme = parsed.protocol.rstrip(":")
    return f"{scheme}://{host}{port}{path}{'?' + query if query else ''}"


def registrable_domain(url_or_host: str) -> str | None:
    """The site ``url_or_host`` belongs to: eTLD+1 (``docs.example.co.uk`` →
    ``example.co.uk``); an IP address is itself; a single-label name (``localhost``,
    ``intranet``) is itself; a bare public suffix (``co.uk``) is ``None``."""
    text = url_or_host.strip()
    parsed = _parse(text if "://" in text else f"http://{text}", None)
    if parsed is None:
        return None
    host = parsed.hostname.rstrip(".")
    if not host:
        return None
    if host.startswith("["):
        return host
    try:
        ipaddress.IPv4Address(host)
    except ValueError:
        pass
    else:
        return host
    if host in _LOCAL_NAMES or "." not in host:
        return host
    return _suffix_list().privatesuffix(host)


def _parse(url: str, base: str | None) -> URL | None:
    try:
        parsed = URL(url.strip(), base=base) if base else URL(url.strip())
    except ValueError:
        return None
    if parsed.protocol.rstrip(":") not in _WEB_SCHEMES:
        return None
    return parsed


def _canonical_query(search: str) -> str:
    pairs = [
        (name, value)
        for name, value in parse_qsl(search.lstrip("?"), keep_blank_values=True)
        if not _is_tracking(name)
    ]
    pairs.sort()
    return urlencode(pairs, quote_via=quote, safe="-._~")


def _is_tracking(name: str) -> bool:
    lowered = name.lower()
    return lowered.startswith("utm_") or lowered in _TRACKING_PARAMS


def _normalise_escapes(path: str) -> str:
    def fix(match: re.Match[str]) -> str:
        char = chr(int(match.group(1), 16))
        return char if char in _UNRESERVED else f"%{match.group(1).upper()}"

    return _ESCAPE.sub(fix, path)


@functools.cache
def _suffix_list() -> PublicSuffixList:
    """The bundled list, read once (a few ms) on first use."""
    return PublicSuffixList()
