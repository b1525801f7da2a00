"""Which failures are worth another attempt, and how long to wait before it.

Retries belong to the gateway alone (the SDK's own retry is switched off), so every
attempt is counted, logged and bounded by one policy."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Literal

import httpx2
from google.genai import errors as genai_errors

_transport: list[type[BaseException]] = [httpx2.TransportError, TimeoutError]
try:
    import httpx

    _transport.append(httpx.TransportError)
except ImportError:  # httpx is an optional backend of google-genai
    pass
try:
    import aiohttp  # type: ignore[import-not-found, unused-ignore]

    _transport.append(aiohttp.ClientError)
except ImportError:  # aiohttp is an optional backend of google-genai
    pass
TRANSPORT_ERRORS: tuple[type[BaseException], ...] = tuple(_transport)
"""Timeouts and connection failures of whichever HTTP backend the SDK picked."""

RETRYABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})
_RETRY_DELAY = re.compile(r"^\s*(\d+(?:\.\d+)?)s\s*$")


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    max_retries: int = 3
    backoff_base_s: float = 0.5
    backoff_cap_s: float = 8.0
    retry_after_cap_s: float = 10.0
    deadline_s: float = 60.0
    """No retry starts after this much time has gone by since the call began."""


@dataclass(frozen=True, slots=True)
class AttemptFailure:
    retryable: bool
    reason: Literal["http_status", "timeout", "connection", "bad_response"]
    status_code: int | None = None
    retry_after_s: float | None = None


def backoff_delay(retry_number: int, policy: RetryPolicy, rng: random.Random) -> float:
    """Full-jitter exponential backoff for the ``retry_number``-th retry (1-based)."""
    ceiling = min(policy.backoff_cap_s, policy.backoff_base_s * 2 ** (retry_number - 1))
    return rng.uniform(0.0, ceiling)


def next_delay(
    retry_number: int, failure: AttemptFailure, policy: RetryPolicy, rng: random.Random
) -> float:
    """The wait before the next attempt: the server's Retry-After when it gave one
    (capped), else the jittered backoff."""
    if failure.retry_after_s is not None:
        return min(max(failure.retry_after_s, 0.0), policy.retry_after_cap_s)
    return backoff_delay(retry_number, policy, rng)


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - (now or datetime.now(UTC))).total_seconds(), 0.0)


def _retry_info_delay(details: Any) -> float | None:
    """``retryDelay`` of a ``google.rpc.RetryInfo`` in a Google error body."""
    if not isinstance(details, dict):
        return None
    error = details.get("error", details)
    items = error.get("details") if isinstance(error, dict) else None
    for item in items if isinstance(items, list) else ():
        if isinstance(item, dict) and str(item.get("@type", "")).endswith("RetryInfo"):
            match = _RETRY_DELAY.match(str(item.get("retryDelay", "")))
            if match:
                return float(match.group(1))
    return None


def _error_retry_after(error: genai_errors.APIError) -> float | None:
    headers = getattr(error.response, "headers", None)
    header = headers.get("retry-after") if headers is not None else None
    from_header = parse_retry_after(header)
    return from_header if from_header is not None else _retry_info_delay(error.details)


def classify(exc: BaseException) -> AttemptFailure:
    """How one failed attempt (one of ``ATTEMPT_FAILURES``) should be treated."""
    if isinstance(exc, genai_errors.APIError):
        code = exc.code if isinstance(exc.code, int) else None
        retryable = code is not None and (code in RETRYABLE_STATUS or 500 <= code < 600)
        return AttemptFailure(
            retryable=retryable,
            reason="http_status",
            status_code=code,
            retry_after_s=_error_retry_after(exc) if retryable else None,
        )
    if isinstance(exc, TRANSPORT_ERRORS):
        timeout = isinstance(exc, TimeoutError) or "Timeout" in type(exc).__name__
        return AttemptFailure(retryable=True, reason="timeout" if timeout else "connection")
    # UnknownApiResponseError / JSONDecodeError: a 200 whose body is not JSON.
    return AttemptFailure(retryable=True, reason="bad_response")


ATTEMPT_FAILURES: tuple[type[BaseException], ...] = (
    genai_errors.APIError,
    genai_errors.UnknownApiResponseError,
    json.JSONDecodeError,
    *TRANSPORT_ERRORS,
)
"""Everything one SDK call may raise that ``classify`` understands."""
