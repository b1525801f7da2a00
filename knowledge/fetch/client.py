"""Fetching a URL a tenant supplied without letting it reach inside the network (SSRF).

Each hop (the URL, then every redirect) is vetted the same way:

1. the scheme is http or https;
2. the host is resolved ONCE and every address it resolves to must be globally routable
   (``vet_address``), unless the host or that address is in ``allow_private_hosts``;
3. the connection goes to the vetted address itself: the request URL's host is replaced
   by the IP, the original ``Host`` header is sent, and for https the ``sni_hostname``
   request extension makes httpcore send the real name in SNI and verify the certificate
   against it (``httpcore/_async/connection.py`` passes it as ``server_hostname`` to
   ``start_tls``). httpx never resolves the name again, so a DNS answer that changes
   between the check and the connection (DNS rebinding) cannot redirect it.

Keep-alive is off: httpcore pools connections by (scheme, IP, port), so a TLS connection
opened for one name could otherwise be reused for another name on the same IP without
its certificate being checked for that name.

Bodies are read raw and decoded here (``decode.py``) so the byte cap applies to the
decoded size, and a gzip bomb stops at the cap instead of filling memory.
"""

from __future__ import annotations

import asyncio
import email.utils
import ipaddress
import socket
import time
import zlib
from datetime import UTC
from collections.abc import Awaitable, Callable, Sequence
from typing import Final

import httpx
import structlog
from ada_url import URL

from knowledge.fetch.addresses import IPAddress, refusal_reason
from knowledge.fetch.decode import SUPPORTED_ENCODINGS, BoundedDecoder, TooLarge
from knowledge.fetch.types import FetchFailed, FetchPolicy, FetchRefused, FetchResult

log = structlog.get_logger(__name__)

Resolver = Callable[[str, int], Awaitable[Sequence[str]]]

_REDIRECTS: Final = frozenset({301, 302, 303, 307, 308})
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}
_NO_KEEPALIVE: Final = httpx.Limits(max_keepalive_connections=0)  # see the module docstring


async def system_resolver(host: str, port: int) -> list[str]:
    """The addresses the operating system resolves ``host`` to (one lookup)."""
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


class _Target:
    """One hop, parsed by the WHATWG parser the browser uses (so ``0x7f000001`` is
    ``127.0.0.1``, as it would be to a browser)."""

    def __init__(self, url: str, base: str | None = None) -> None:
        try:
            parsed = URL(url, base=base) if base else URL(url)
        except ValueError:
            raise _Refusal(f"unparseable URL {url!r}") from None
        self.scheme = parsed.protocol.rstrip(":")
        if self.scheme not in _DEFAULT_PORTS:
            raise _Refusal(f"scheme {self.scheme!r}")
        self.href = parsed.href
        self.hostname = parsed.hostname.rstrip(".")  # "[::1]" for IPv6 literals
        if not self.hostname:
            raise _Refusal("no host")
        self.host_header = parsed.host  # host[:port] as the browser sends it
        self.port = int(parsed.port) if parsed.port else _DEFAULT_PORTS[self.scheme]

    @property
    def bare_host(self) -> str:
        return self.hostname.strip("[]")


class _Refusal(Exception):
    """Internal: why a hop was refused (logged, never shown)."""


class SafeFetcher:
    """GETs http(s) URLs on public addresses, one hop at a time, with caps. Create once,
    share across a crawl, ``aclose`` at the end."""

    def __init__(
        self,
        policy: FetchPolicy,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        resolver: Resolver | None = None,
    ) -> None:
        self._policy = policy
        self._resolver = resolver or system_resolver
        self._allowed = frozenset(name.strip("[]").lower() for name in policy.allow_private_hosts)
        self._client = httpx.AsyncClient(
            transport=transport or httpx.AsyncHTTPTransport(limits=_NO_KEEPALIVE),
            follow_redirects=False,
            trust_env=False,
            timeout=policy.timeout_s,
        )

    @property
    def policy(self) -> FetchPolicy:
        return self._policy

    async def aclose(self) -> None:
        await self._client.aclose()

    async def fetch(
        self,
        url: str,
        *,
        etag: str | None = None,
        last_modified: str | None = None,
        max_bytes: int | None = None,
    ) -> FetchResult:
        """GET ``url`` following redirects (each re-vetted). 2xx → the body; 304 to a
        conditional request → ``status=304, body=b""``. Raises ``FetchRefused`` or
        ``FetchFailed``. The whole fetch, redirects included, has ``timeout_s``."""
        cap = self._policy.max_bytes if max_bytes is None else max_bytes
        try:
            async with asyncio.timeout(self._policy.timeout_s):
                return await self._follow(url, etag, last_modified, cap)
        except TimeoutError:
            raise FetchFailed(f"timed out after {self._policy.timeout_s:g}s") from None
        except _Refusal as refusal:
            log.debug("knowledge.fetch.refused", url=url, reason=str(refusal))
            raise FetchRefused() from None
        except httpx.InvalidURL as error:  # ada accepted it, httpx does not: not fetchable
            log.debug("knowledge.fetch.refused", url=url, reason=f"httpx: {error}")
            raise FetchRefused() from None
        except httpx.HTTPError as error:
            raise FetchFailed(f"network error: {type(error).__name__}") from None

    async def _follow(
        self, url: str, etag: str | None, last_modified: str | None, cap: int
    ) -> FetchResult:
        target = _Target(url)
        conditional = {"If-None-Match": etag} if etag else {}
        if last_modified:
            conditional["If-Modified-Since"] = last_modified
        for _hop in range(self._policy.max_redirects + 1):
            ip = await self._vetted_address(target)
            response = await self._client.send(self._request(target, ip, conditional), stream=True)
            try:
                location = response.headers.get("location")
                if response.status_code in _REDIRECTS and location:
                    target = _Target(location, base=target.href)
                    conditional = {}  # validators belong to the URL they were given for
                    continue
                return await self._result(target, response, cap)
            finally:
                await response.aclose()
        raise FetchFailed(f"more than {self._policy.max_redirects} redirects")

    async def _vetted_address(self, target: _Target) -> IPAddress:
        """The one address to connect to: every resolved address must pass."""
        host = target.bare_host
        try:
            literal: IPAddress | None = ipaddress.ip_address(host)
        except ValueError:
            literal = None
        if literal is not None:
            addresses: list[IPAddress] = [literal]
        else:
            try:
                answers = await self._resolver(host, target.port)
            except OSError as error:
                raise FetchFailed(f"could not resolve {host!r}") from error
            addresses = [ipaddress.ip_address(answer.split("%")[0]) for answer in answers]
        if not addresses:
            raise FetchFailed(f"could not resolve {host!r}")
        host_allowed = host.lower() in self._allowed
        for address in addresses:
            reason = refusal_reason(address)
            if reason is not None and not host_allowed and str(address) not in self._allowed:
                raise _Refusal(f"{host} resolves to {address}: {reason}")
        return addresses[0]

    def _request(
        self, target: _Target, ip: IPAddress, conditional: dict[str, str]
    ) -> httpx.Request:
        headers = {
            "Host": target.host_header,
            "User-Agent": self._policy.user_agent,
            "Accept-Encoding": "gzip, deflate",
            **conditional,
        }
        extensions = {"sni_hostname": target.bare_host} if target.scheme == "https" else {}
        # Credentials written in a URL are never sent (httpx would turn them into Basic auth).
        url = httpx.URL(target.href).copy_with(host=str(ip), userinfo=b"")
        return self._client.build_request("GET", url, headers=headers, extensions=extensions)

    async def _result(self, target: _Target, response: httpx.Response, cap: int) -> FetchResult:
        status = response.status_code
        etag = response.headers.get("etag")
        last_modified = response.headers.get("last-modified")
        if status == 304:
            return FetchResult(target.href, 304, _media_type(response), b"", etag, last_modified)
        if not 200 <= status < 300:
            retry_after = parse_retry_after(response.headers.get("retry-after"))
            raise FetchFailed(f"HTTP {status}", status=status, retry_after=retry_after)
        body = await _read_capped(response, cap)
        return FetchResult(target.href, status, _media_type(response), body, etag, last_modified)


async def _read_capped(response: httpx.Response, cap: int) -> bytes:
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > cap:
        raise FetchFailed(f"body over {cap} bytes", status=response.status_code)
    encoding = response.headers.get("content-encoding", "").strip().lower()
    if encoding not in SUPPORTED_ENCODINGS:
        raise FetchFailed(f"unsupported content-encoding {encoding!r}", status=response.status_code)
    decoder = BoundedDecoder(encoding, cap)
    parts: list[bytes] = []
    try:
        async for chunk in response.aiter_raw():
            parts.append(decoder.feed(chunk))
        parts.append(decoder.flush())
    except TooLarge:
        raise FetchFailed(f"body over {cap} bytes", status=response.status_code) from None
    except zlib.error as error:
        raise FetchFailed(f"undecodable body: {error}", status=response.status_code) from None
    return b"".join(parts)


def _media_type(response: httpx.Response) -> str | None:
    value = response.headers.get("content-type", "").split(";")[0].strip().lower()
    return value or None


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: delta-seconds or an HTTP date."""
    if not value:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)
