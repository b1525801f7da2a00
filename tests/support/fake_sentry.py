"""A local fake of Sentry's ingest endpoint, for SDK contract tests.

The real ``sentry-sdk``, initialised with ``fake.dsn``, posts envelopes to
``/api/<project>/envelope/`` (gzip- or brotli-compressed). The fake decodes each envelope
into its items and keeps the error events::

    with FakeSentry() as fake:
        init_sentry(settings_with(dsn=fake.dsn))
        ...
        sentry_sdk.flush()
        fake.events[0]["exception"]["values"][0]["type"]
"""

from __future__ import annotations

from tests.support.loopback import LoopbackServer

import gzip
import json
import re
import threading
import time
import zlib
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

_ENVELOPE_PATH = re.compile(r"^/api/(?P<project>[^/]+)/envelope/?$")


@dataclass(frozen=True)
class EnvelopeItem:
    headers: dict[str, Any]
    payload: bytes

    @property
    def type(self) -> str:
        return str(self.headers.get("type", ""))

    def json(self) -> Any:
        return json.loads(self.payload)


@dataclass(frozen=True)
class Envelope:
    project: str
    headers: dict[str, Any]
    items: list[EnvelopeItem]


def parse_envelope(project: str, body: bytes) -> Envelope:
    """Sentry's envelope format: a JSON header line, then items, each a JSON header line
    and a payload (``length`` bytes when given, else up to the next newline)."""
    header_line, _, rest = body.partition(b"\n")
    items: list[EnvelopeItem] = []
    while rest.strip():
        item_header_line, _, rest = rest.partition(b"\n")
        item_headers = json.loads(item_header_line)
        length = item_headers.get("length")
        if length is None:
            payload, _, rest = rest.partition(b"\n")
        else:
            payload, rest = rest[:length], rest[length:]
            rest = rest[1:] if rest.startswith(b"\n") else rest
        items.append(EnvelopeItem(item_headers, payload))
    return Envelope(project, json.loads(header_line), items)


def _decompress(body: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding == "deflate":
        return zlib.decompress(body)
    if encoding == "br":
        import brotli  # only when the SDK found brotli installed

        return bytes(brotli.decompress(body))
    return body


@dataclass
class _State:
    envelopes: list[Envelope] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class FakeSentry(LoopbackServer):
    def __init__(self, project: str = "1") -> None:
        self.project = project
        self._state = _State()
        self._serve(self._handler_class(), "fake-sentry")

    @property
    def dsn(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://publickey@{host!s}:{port}/{self.project}"

    @property
    def envelopes(self) -> list[Envelope]:
        with self._state.lock:
            return list(self._state.envelopes)

    @property
    def paths(self) -> list[str]:
        with self._state.lock:
            return list(self._state.paths)

    @property
    def events(self) -> list[dict[str, Any]]:
        """Error events (envelope items of type ``event``), decoded."""
        return [item.json() for env in self.envelopes for item in env.items if item.type == "event"]

    def wait_for_events(self, count: int, timeout_s: float = 5.0) -> list[dict[str, Any]]:
        deadline = time.monotonic() + timeout_s
        while len(self.events) < count:
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"fake Sentry: {len(self.events)} events after {timeout_s}s, wanted {count}"
                )
            time.sleep(0.01)
        return self.events

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        state = self._state

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return None

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                body = _decompress(raw, (self.headers.get("Content-Encoding") or "").lower())
                with state.lock:
                    state.paths.append(self.path)
                match = _ENVELOPE_PATH.match(self.path.split("?", 1)[0])
                if match is None:
                    self._reply(404, b"{}")
                    return
                envelope = parse_envelope(match.group("project"), body)
                with state.lock:
                    state.envelopes.append(envelope)
                self._reply(200, b"{}")

            def _reply(self, status: int, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        return Handler
