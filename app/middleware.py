"""ASGI middleware: request context for logs, and the body-size limit on streamed bytes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from collections.abc import Mapping
from typing import Final

import structlog
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from observability import end_request_context, start_request_context

log = structlog.get_logger(__name__)

# How much of a refused body is still read so that its sender gets the 413 (see _drain).
DRAIN_BYTES: Final = 64 * 1024 * 1024
DRAIN_SECONDS: Final = 15.0


class BodyTooLarge(StarletteHTTPException):
    """Raised from ``receive`` when the streamed body passes the limit. It is an HTTP
    exception so that FastAPI's body parsing re-raises it untouched."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"Request body exceeds {limit} bytes")
        self.details = {"limit": "max_body_bytes", "value": limit}


class RequestContextMiddleware:
    """Binds a request id (from ``X-Request-ID`` or new) to every log line of the request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        request_id = headers.get(b"x-request-id", b"").decode("latin-1")[:64] or uuid.uuid4().hex
        start_request_context(request_id)
        started = time.perf_counter()
        status_holder: dict[str, int] = {}

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                status_holder["status"] = message["status"]
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            log.info(
                "http.request",
                method=scope.get("method"),
                path=scope.get("path"),
                status=status_holder.get("status"),
                duration_ms=round((time.perf_counter() - started) * 1000, 2),
            )
            end_request_context()


class BodySizeLimitMiddleware:
    """Counts the bytes actually received (never trusting Content-Length) and answers 413
    as soon as the limit is passed, before the body reaches validation."""

    def __init__(self, app: ASGIApp, max_body_bytes: int, path_limits: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.path_limits = dict(path_limits or {})  # routes that take more (an upload)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        received = 0
        response_started = False
        limit = self.path_limits.get(scope.get("path", ""), self.max_body_bytes)

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    if message.get("more_body", False):
                        await _drain(receive)
                    raise BodyTooLarge(limit)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal response_started
            if message["type"] == "http.response.start":
                response_started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except BodyTooLarge:
            if response_started:
                raise
            await _send_json(
                send,
                413,
                {
                    "error": {
                        "code": "PAYLOAD_TOO_LARGE",
                        "message": f"Request body exceeds {limit} bytes",
                        "details": {"limit": "max_body_bytes", "value": limit},
                    }
                },
                close=True,
            )


async def _drain(receive: Receive) -> None:
    """Read and drop the rest of a refused body, within bounds, before answering. A client
    that sends its whole body without waiting (a browser's fetch, urllib) reads the 413 only
    if the server does not close on unread bytes: the kernel then answers with a reset, and
    the client sees a dropped connection instead of the JSON error."""
    drained = 0
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(DRAIN_SECONDS):
            while drained <= DRAIN_BYTES:
                message = await receive()
                if message["type"] != "http.request":
                    return
                drained += len(message.get("body", b""))
                if not message.get("more_body", False):
                    return


async def _send_json(send: Send, status: int, body: dict[str, object], *, close: bool = False) -> None:
    payload = json.dumps(body).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})
