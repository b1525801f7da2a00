from __future__ import annotations

import random
from datetime import UTC, datetime

import httpx2
import pytest
from google.genai import errors as genai_errors

from agent.llm.retry import (
    AttemptFailure,
    RetryPolicy,
    backoff_delay,
    classify,
    next_delay,
    parse_retry_after,
)


def _api_error(code: int, *, headers: dict[str, str] | None = None, details: object = None):
    response = httpx2.Response(code, headers=headers or {})
    body = {"error": {"code": code, "message": "m", "status": "S", "details": details or []}}
    if 400 <= code < 500:
        return genai_errors.ClientError(code, body, response)
    return genai_errors.ServerError(code, body, response)


def test_full_jitter_stays_under_the_capped_exponential() -> None:
    policy = RetryPolicy(backoff_base_s=0.5, backoff_cap_s=3.0)
    rng = random.Random(7)
    for retry, ceiling in [(1, 0.5), (2, 1.0), (3, 2.0), (4, 3.0), (10, 3.0)]:
        delays = [backoff_delay(retry, policy, rng) for _ in range(200)]
        assert all(0.0 <= d <= ceiling for d in delays)
        assert max(delays) > ceiling * 0.8  # really spread over the whole window


def test_retry_after_wins_over_backoff_and_is_capped() -> None:
    policy = RetryPolicy(retry_after_cap_s=2.0)
    rng = random.Random(1)
    assert next_delay(1, AttemptFailure(True, "http_status", 429, 1.5), policy, rng) == 1.5
    assert next_delay(1, AttemptFailure(True, "http_status", 429, 60.0), policy, rng) == 2.0


def test_parse_retry_after() -> None:
    now = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after(" 0.25 ") == 0.25
    assert parse_retry_after("Thu, 01 Jan 2026 12:00:05 GMT", now=now) == 5.0
    assert parse_retry_after("Thu, 01 Jan 2026 11:00:00 GMT", now=now) == 0.0
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None


@pytest.mark.parametrize("code", [408, 429, 500, 502, 503, 504, 599])
def test_transient_statuses_are_retryable(code: int) -> None:
    failure = classify(_api_error(code))
    assert failure.retryable and failure.status_code == code


@pytest.mark.parametrize("code", [400, 401, 403, 404, 409, 422])
def test_client_errors_are_final(code: int) -> None:
    failure = classify(_api_error(code))
    assert not failure.retryable and failure.status_code == code


def test_retry_after_header_and_google_retry_info() -> None:
    assert classify(_api_error(429, headers={"Retry-After": "4"})).retry_after_s == 4.0
    info = [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "7s"}]
    assert classify(_api_error(429, details=info)).retry_after_s == 7.0
    assert classify(_api_error(503)).retry_after_s is None


def test_transport_errors_are_retryable() -> None:
    request = httpx2.Request("POST", "http://127.0.0.1/")
    assert classify(httpx2.ReadTimeout("t", request=request)).reason == "timeout"
    assert classify(TimeoutError()).reason == "timeout"
    assert classify(httpx2.ConnectError("c", request=request)).reason == "connection"
    assert classify(genai_errors.UnknownApiResponseError("x")).reason == "bad_response"
