"""A minimal HTTP/1.1 keep-alive client for load generation.

httpx costs ~2 ms of CPU per request on this class of machine — on a two-core box that is a
sizeable share of the CPU the server under test needs. This client writes pre-encoded
requests on a raw asyncio stream and reads ``Content-Length`` responses: ~0.1 ms per request.
It speaks only what the bench needs (one POST/GET at a time per connection, no chunked
bodies, no redirects), and fails loudly on anything else.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from urllib.parse import urlsplit


class LoadClientError(RuntimeError):
    """The server answered something this client does not read (or an error status)."""


@dataclass(frozen=True)
class Response:
    status: int
    body: bytes


class Connection:
    """One keep-alive connection; requests on it are sequential."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str
    ) -> None:
        self._reader = reader
        self._writer = writer
        self._host = host.encode()

    @classmethod
    async def open(cls, base_url: str) -> Connection:
        parts = urlsplit(base_url)
        if parts.scheme != "http" or parts.hostname is None or parts.port is None:
            raise LoadClientError(f"expected http://host:port, got {base_url!r}")
        reader, writer = await asyncio.open_connection(parts.hostname, parts.port)
        return cls(reader, writer, f"{parts.hostname}:{parts.port}")

    def head(self, method: str, path: str, headers: dict[str, str]) -> bytes:
        """The request line and headers, encoded once and reused for every request."""
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: {self._host.decode()}",
            *(f"{k}: {v}" for k, v in headers.items()),
        ]
        return ("\r\n".join(lines) + "\r\n").encode()

    async def send(self, head: bytes, body: bytes = b"") -> Response:
        self._writer.write(head + b"Content-Length: %d\r\n\r\n" % len(body) + body)
        raw_head = await self._reader.readuntil(b"\r\n\r\n")
        status_line, _, header_block = raw_head.partition(b"\r\n")
        try:
            status = int(status_line.split(b" ", 2)[1])
        except (IndexError, ValueError) as exc:
            raise LoadClientError(f"not an HTTP response: {status_line!r}") from exc
        length = None
        for line in header_block.split(b"\r\n"):
            name, _, value = line.partition(b":")
            lowered = name.strip().lower()
            if lowered == b"content-length":
                length = int(value)
            elif lowered == b"transfer-encoding":
                raise LoadClientError("chunked responses are not supported by the load client")
        if length is None:
            raise LoadClientError("response without Content-Length")
        return Response(status, await self._reader.readexactly(length))

    async def close(self) -> None:
        self._writer.close()
        try:
            await self._writer.wait_closed()
        except ConnectionError:
            pass
