"""Which site a URL belongs to: the registrable domain ("eTLD+1") of its host.

Used for Tavily's ``include_domains`` (results restricted to the page's site) and for the
``navigate`` allow-list of action validation. No public-suffix download is needed: a
host's site is its last two labels, or its last three when the last two are a public
suffix — a two-letter country code under a generic second level (``co.uk``, ``com.au``,
``ac.jp``, ``gov.in`` …) or a shared hosting suffix (``github.io``, ``vercel.app`` …).
IP addresses and single-label hosts (``localhost``) are their own site.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Final

from verification import web_url

_GENERIC_SECOND_LEVEL: Final[frozenset[str]] = frozenset(
    {
        "co",
        "com",
        "net",
        "org",
        "gov",
        "edu",
        "ac",
        "or",
        "ne",
        "go",
        "gob",
        "nic",
        "mil",
        "ltd",
        "plc",
        "sch",
        "nhs",
    }
)
_SHARED_HOSTING: Final[frozenset[str]] = frozenset(
    {
        "github.io",
        "gitlab.io",
        "herokuapp.com",
        "vercel.app",
        "netlify.app",
        "pages.dev",
        "workers.dev",
        "appspot.com",
        "web.app",
        "firebaseapp.com",
        "blogspot.com",
        "azurewebsites.net",
        "cloudfront.net",
        "onrender.com",
        "fly.dev",
        "ngrok.io",
        "ngrok-free.app",
        "myshopify.com",
        "wordpress.com",
    }
)


def host_of(url: str) -> str | None:
    """Lower-case host of an absolute http(s) URL, without port or trailing dot, as the
    browser reads the URL (WHATWG); else ``None``."""
    parsed = web_url(url)
    return parsed.host if parsed is not None else None


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def registrable_domain(url_or_host: str) -> str | None:
    """``https://app.clinic.example.co.uk/x`` → ``example.co.uk``; ``None`` without a host."""
    text = url_or_host.strip()
    host = host_of(text) if "://" in text else text.rstrip(".").lower()
    if not host or any(c in host for c in "/ @"):
        return None
    if _is_ip(host):
        return host
    labels = [label for label in host.split(".") if label]
    if len(labels) <= 2:
        return ".".join(labels)
    last_two = ".".join(labels[-2:])
    public_two = last_two in _SHARED_HOSTING or (
        len(labels[-1]) == 2 and labels[-2] in _GENERIC_SECOND_LEVEL
    )
    return ".".join(labels[-3:]) if public_two else last_two


def site_name(domain: str) -> str:
    """The human name of a site: ``example.co.uk`` → ``example``."""
    registrable = registrable_domain(domain) or domain
    if _is_ip(registrable):
        return registrable
    return registrable.split(".")[0]


def host_allowed(host: str, allowed_domains: Iterable[str]) -> bool:
    """``host`` is one of ``allowed_domains`` or a subdomain of one (``a.example.com`` under
    ``example.com``); comparison is case-insensitive."""
    host = host.rstrip(".").lower()
    for domain in allowed_domains:
        wanted = domain.strip().rstrip(".").lower()
        if wanted and (host == wanted or host.endswith("." + wanted)):
            return True
    return False


def allowed_domains_for(url: str) -> tuple[str, ...]:
    """The navigate allow-list of a task started on ``url``: its registrable site."""
    domain = registrable_domain(url)
    return (domain,) if domain else ()
