"""The ``Idempotency-Key`` header at the edge: its syntax and the request's fingerprint."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Final

import orjson

from agent.errors import StepwiseError

HEADER: Final = "Idempotency-Key"
REPLAYED_HEADER: Final = "Idempotent-Replayed"
MAX_KEY_LENGTH: Final = 255
# Printable ASCII (space to tilde), 1-255 characters; a Structured Field string ("…", as the
# IETF draft writes it) is accepted too and means the text between the quotes.
KEY_PATTERN: Final = r"^[\x20-\x7E]{1,255}$"
_KEY: Final = re.compile(KEY_PATTERN)
HEADER_DESCRIPTION: Final = (
    "A key the client makes for one request (a UUID v4 is ideal) and sends again, unchanged, "
    "when it re-sends that request because the answer was lost. The same key with the same body "
    "within 24 h gets the stored answer back (header `Idempotent-Replayed: true`) and no new "
    "task or step; with another body it is a 422 IDEMPOTENCY_KEY_REUSED; while the first request "
    "is still being answered it is a 409 IDEMPOTENCY_KEY_IN_FLIGHT with Retry-After. Keys are "
    "scoped to the API key's tenant and user. 1-255 printable ASCII characters (a quoted "
    'Structured Field string, "…", is accepted); anything else is a 400 IDEMPOTENCY_KEY_INVALID.'
)


class IdempotencyKeyInvalid(StepwiseError):
    status_code = 400
    code = "IDEMPOTENCY_KEY_INVALID"


def parse_key(header: str | None) -> str | None:
    """The key of an ``Idempotency-Key`` header (None when absent), or IdempotencyKeyInvalid."""
    if header is None:
        return None
    value = header[1:-1] if len(header) >= 2 and header.startswith('"') and header.endswith('"') else header
    if not _KEY.match(value) or not value.strip():
        raise IdempotencyKeyInvalid(
            f"{HEADER} must be 1-{MAX_KEY_LENGTH} printable ASCII characters (not only spaces)",
            details={"header": HEADER, "maxLength": MAX_KEY_LENGTH},
        )
    return value


def fingerprint(method: str, path: str, body: Any) -> str:
    """SHA-256 hex of the method, the path and the JSON body with its keys sorted (the same
    request sent with its fields in another order has the same fingerprint)."""
    try:
        canonical = orjson.dumps(body, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # what orjson refuses (integers beyond 64 bits)
        canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")
    digest = hashlib.sha256(f"{method.upper()} {path}\n".encode())
    digest.update(canonical)
    return digest.hexdigest()
