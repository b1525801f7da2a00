"""Request bodies as JSON: fast, and safe for text a browser cut in half.

The extension sends page text that JavaScript may have cut between the two halves of an
emoji: ``JSON.stringify`` then writes a lone surrogate escape (``"\\ud83d"``), which is valid
JSON but not valid Unicode. Python's ``json`` accepts it and yields a string that cannot be
encoded as UTF-8 — every later write (SQLite, MongoDB, the JSON response) would fail on it.
Bodies are decoded with orjson (several times faster on a 200 KB page); orjson refuses lone
surrogates, and only then does the standard library decode the body and replace each lone
surrogate with U+FFFD, the replacement character. Invalid JSON still raises
``json.JSONDecodeError``, which FastAPI answers with our 400 ``INVALID_JSON``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Coroutine
from typing import Any, Final

import orjson
from fastapi import HTTPException, Request, Response
from fastapi.routing import APIRoute

_LONE_SURROGATE: Final = re.compile("[\ud800-\udfff]")
REPLACEMENT: Final = "\ufffd"
_WITH_BODY: Final = frozenset({"POST", "PUT", "PATCH"})


def decode_json(body: bytes) -> Any:
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError:
        pass
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError as exc:  # not UTF-8 at all: the same 400 as any other invalid JSON
        raise json.JSONDecodeError(f"the body is not UTF-8 text ({exc.reason})", "", 0) from exc
    return _valid_text(json.loads(text))  # raises json.JSONDecodeError if not JSON at all


def _valid_text(value: Any) -> Any:
    if isinstance(value, str):
        return _LONE_SURROGATE.sub(REPLACEMENT, value)
    if isinstance(value, list):
        return [_valid_text(item) for item in value]
    if isinstance(value, dict):
        return {_valid_text(key): _valid_text(item) for key, item in value.items()}
    return value


class JsonRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = decode_json(await self.body())
        return self._json


def is_json_media_type(content_type: str) -> bool:
    """``application/json`` or a ``+json`` type, whatever the parameters (``; charset=utf-8``)."""
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


class JsonRoute(APIRoute):
    """A route whose JSON body is read by :func:`decode_json`; a body sent as anything but
    JSON (a form, text) is a 415 before it is read. ``check_raw`` (set by a subclass) sees
    the decoded body before the request model validates it — where a size limit must hold
    before validation spends time and memory on every node."""

    check_raw: Callable[[Request, Any], None] | None = None

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handle = super().get_route_handler()

        async def handler(request: Request) -> Response:
            content_type = request.headers.get("content-type")
            if request.method in _WITH_BODY and content_type and not is_json_media_type(content_type):
                raise HTTPException(415, f"Send the body as application/json, not {content_type.split(';')[0]!r}")
            json_request = JsonRequest(request.scope, request.receive)
            if self.check_raw is not None and request.method in _WITH_BODY:
                try:
                    data = await json_request.json()
                except (json.JSONDecodeError, UnicodeDecodeError):
                    data = None  # left for FastAPI to answer with its 400
                if data is not None:
                    type(self).check_raw(request, data)
            return await handle(json_request)

        return handler
