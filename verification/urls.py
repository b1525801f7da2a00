"""URLs read the way the browser reads them.

Stepwise checks where a tab is and where a ``navigate`` would take it. Python's ``urlsplit``
follows RFC 3986, browsers follow the WHATWG URL standard, and the two disagree on hostile
input: ``http://evil.com\\@app.example/`` is ``app.example`` to ``urlsplit`` and ``evil.com``
to Chrome. Every URL Stepwise reads or emits is parsed here with ada (``ada-url``, a
WHATWG-conformant parser), so a check sees the host the browser will go to.

Only web pages count: ``http`` or ``https`` with a host. ``file:``, ``javascript:``,
``data:``, ``about:`` and host-less URLs are no page Stepwise reads or opens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ada_url import URL

WEB_SCHEMES: Final = frozenset({"http", "https"})
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}


@dataclass(frozen=True)
class WebUrl:
    """An http(s) URL as the browser has it: ``href`` serialised, ``host`` lower-case
    without a trailing dot, ``port`` the one the browser connects to (default filled in)."""

    href: str
    scheme: str
    host: str
    port: int

    @property
    def origin(self) -> tuple[str, str, int]:
        return self.scheme, self.host, self.port


def web_url(text: str, base: str | None = None) -> WebUrl | None:
    """``text`` (resolved against ``base`` when it is relative) as a web URL, or ``None``
    when the browser would not read it as an http(s) URL with a host."""
    try:
        parsed = URL(text.strip(), base=base) if base else URL(text.strip())
    except ValueError:
        return None
    scheme = parsed.protocol.rstrip(":").lower()
    host = parsed.hostname.rstrip(".").lower()
    if scheme not in WEB_SCHEMES or not host:
        return None
    port = int(parsed.port) if parsed.port else _DEFAULT_PORTS[scheme]
    return WebUrl(href=parsed.href, scheme=scheme, host=host, port=port)


def same_origin_or_upgrade(target: WebUrl, page: WebUrl) -> bool:
    """May a tab on ``page`` be sent to ``target`` (whose site is already allowed)? Only on
    the same scheme and port — or from http to https on default ports — so an allowed host
    never opens another service on another port of it (``http://app.example:6379/``)."""
    if target.scheme == page.scheme:
        return target.port == page.port
    upgrade = page.scheme == "http" and target.scheme == "https"
    return upgrade and page.port == _DEFAULT_PORTS["http"] and target.port == _DEFAULT_PORTS["https"]
