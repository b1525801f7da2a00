"""Small web sites on 127.0.0.1 for the fetcher and crawler tests.

A site is a dict of path → ``Page`` (or a hook that builds one from the request), served
from a thread. It logs every request (path, headers, start and end time) and counts how
many requests it is serving at once, so tests can assert what was (never) requested, the
conditional headers sent, the politeness gaps and the per-host concurrency.
"""

from __future__ import annotations

import datetime
import ssl
import tempfile
import threading
import time
from pathlib import Path
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from knowledge.crawl import CrawledPage, CrawlProgress
from tests.support.loopback import LoopbackServer


@dataclass(frozen=True)
class Page:
    body: bytes | str = b""
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=lambda: {"Content-Type": "text/html; charset=utf-8"})

    def encoded(self) -> bytes:
        return self.body.encode() if isinstance(self.body, str) else self.body


@dataclass(frozen=True)
class Hit:
    path: str
    headers: Mapping[str, str]
    started: float
    finished: float


Hook = Callable[["Hit", int], Page]  # (the request so far, how many times this path was hit) → page


def html(body: str, title: str = "Page", *, head: str = "") -> Page:
    return Page(f"<!doctype html><html><head><title>{title}</title>{head}</head><body>{body}</body></html>")


def links(*hrefs: str, title: str = "Page") -> Page:
    return html("".join(f'<p><a href="{href}">{href}</a></p>' for href in hrefs), title)


class Site(LoopbackServer):
    """``with Site({...}) as site:`` serves the pages at ``site.base_url``; ``delay_s``
    holds every response that long (so concurrent requests overlap visibly)."""

    def __init__(
        self, pages: Mapping[str, Page | Hook], *, delay_s: float = 0.0, tls: ssl.SSLContext | None = None
    ) -> None:
        self.pages: dict[str, Page | Hook] = dict(pages)
        self.delay_s = delay_s
        self.hits: list[Hit] = []
        self.active = 0
        self.max_active = 0
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {}
        self._serve(_handler_for(self), "test-site")
        self._tls = tls
        if tls is not None:
            self._server.socket = tls.wrap_socket(self._server.socket, server_side=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self._server.server_address[1]}"

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        scheme = "https" if self._tls is not None else "http"
        return f"{scheme}://{host}:{self.port}{path}"

    def paths(self) -> list[str]:
        """Requested paths in the order the requests arrived."""
        with self._lock:
            return [hit.path for hit in sorted(self.hits, key=lambda hit: hit.started)]

    def hits_for(self, path: str) -> list[Hit]:
        with self._lock:
            return sorted((hit for hit in self.hits if hit.path == path), key=lambda hit: hit.started)

    def _respond(self, path: str, headers: Mapping[str, str]) -> Page:
        with self._lock:
            self.active += 1
            self.max_active = max(self.max_active, self.active)
            count = self._counts[path] = self._counts.get(path, 0) + 1
        entry = self.pages.get(path) or self.pages.get(path.split("?")[0])
        if entry is None:
            return Page("not found", 404, {"Content-Type": "text/plain"})
        if isinstance(entry, Page):
            return entry
        return entry(Hit(path, headers, time.monotonic(), 0.0), count)

    def _finish(self, path: str, headers: Mapping[str, str], started: float) -> None:
        with self._lock:
            self.active -= 1
            self.hits.append(Hit(path, headers, started, time.monotonic()))


def _handler_for(site: Site) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            started = time.monotonic()
            headers = {name.lower(): value for name, value in self.headers.items()}
            try:
                page = site._respond(self.path, headers)
                if site.delay_s:
                    time.sleep(site.delay_s)
                body = page.encoded()
                self.send_response(page.status)
                sent = {name.lower() for name in page.headers}
                for name, value in page.headers.items():
                    self.send_header(name, value)
                if "content-length" not in sent:
                    self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except ConnectionError:
                pass  # the client stopped reading (a refused body); nothing to answer
            finally:
                site._finish(self.path, headers, started)

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - base signature
            return

    return Handler


def self_signed(name: str) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    """A server context with a fresh self-signed certificate for ``name`` (not for any IP),
    and a client context that trusts exactly that certificate."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_pem = cert.public_bytes(serialization.Encoding.PEM)
    key_pem = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    with tempfile.TemporaryDirectory() as folder:
        cert_file, key_file = Path(folder, "cert.pem"), Path(folder, "key.pem")
        cert_file.write_bytes(cert_pem)
        key_file.write_bytes(key_pem)
        server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        server.load_cert_chain(cert_file, key_file)
    client = ssl.create_default_context(cadata=cert_pem.decode())
    return server, client


class Recorder:
    """on_page / on_progress callbacks that keep what the crawler handed over."""

    def __init__(self) -> None:
        self.pages: list[CrawledPage] = []
        self.progress: list[CrawlProgress] = []

    @property
    def urls(self) -> list[str]:
        return [page.url for page in self.pages]

    async def on_page(self, page: CrawledPage) -> None:
        self.pages.append(page)

    async def on_progress(self, progress: CrawlProgress) -> None:
        self.progress.append(progress)
