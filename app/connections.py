"""Connections that cannot hold a worker's sockets: a deadline for the request head.

uvicorn closes a keep-alive connection that stays idle between requests, but nothing closes
one that connects and never sends a whole request head — silent clients and slowloris
senders (a header byte every few seconds) kept their sockets for ever, and a few hundred of
them locked every other client out of a worker. :class:`HeadDeadlineProtocol` is uvicorn's
httptools protocol with one rule added: from the moment a connection opens, or a new request
on it begins, its head (request line and headers) must be complete within
``header_timeout`` seconds, or the connection is closed. Bodies are bounded elsewhere (the
body-size limit), idle keep-alive connections by uvicorn's ``timeout_keep_alive``, and the
number of connections a worker serves by ``limit_concurrency`` (503 past it).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol


class HeadDeadlineProtocol(HttpToolsProtocol):
    header_timeout: float = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._head_deadline is None:
            self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._head_deadline = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def send_400_response(self, msg: str) -> None:
        """A request the HTTP parser refused (a malformed or over-long request line or
        header) is answered in the API's one error shape, not as plain text."""
        body = json.dumps({"error": {"code": "BAD_REQUEST", "message": f"Malformed HTTP request: {msg}", "details": {}}}).encode()
        head = [STATUS_LINE[400]]
        for name, value in self.server_state.default_headers:
            head.extend([name, b": ", value, b"\r\n"])
        head.extend([
            b"content-type: application/json\r\n",
            b"content-length: " + str(len(body)).encode("ascii") + b"\r\n",
            b"connection: close\r\n\r\n",
            body,
        ])  # fmt: skip
        self.transport.write(b"".join(head))
        self.transport.close()

    def _too_slow(self) -> None:
        self._head_deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def head_deadline_protocol(header_timeout: float) -> type[HeadDeadlineProtocol]:
    """The protocol class with its deadline (uvicorn builds one protocol per connection)."""
    return type("HeadDeadlineProtocol", (HeadDeadlineProtocol,), {"header_timeout": header_timeout})
