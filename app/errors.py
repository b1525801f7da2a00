"""One error shape for every non-2xx answer: ``{"error": {"code", "message", "details"}}``."""

from __future__ import annotations

from typing import Any

import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from agent.errors import StepwiseError
from app.error_codes import AUTHENTICATED, ERROR_CODES, JSON_BODY, example_body
from storage import StoreUnavailable, TaskConflict

log = structlog.get_logger(__name__)


class ErrorBody(BaseModel):
    code: str = Field(
        description="Stable machine-readable code; branch on it, not on `message`. "
        + " ".join(f"{code} ({'/'.join(map(str, info.statuses))}): {info.meaning}." for code, info in ERROR_CODES.items()),
        # The enum is documentation (a test keeps it complete); an answer is never refused for it.
        json_schema_extra={"enum": list(ERROR_CODES)},
    )
    message: str = Field(description="What was wrong, in English, for a person (may change; do not parse it)")
    details: dict[str, Any] = Field(
        default_factory=dict,
        description="Structured context, per code: `errors` (each invalid field: field path, message, type), `field`, "
        "`limit`/`value`/`actual` of a size limit, `taskId`, `sessionId`, `stepIndex`/`newestStepIndex`, "
        "`retryAfterSeconds` (also sent as the Retry-After header), `idempotencyKey`",
    )


class ErrorResponse(BaseModel):
    error: ErrorBody = Field(description="Every non-2xx answer has this one shape")


def error_response(
    status_code: int,
    code: str,
    message: str,
    details: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    body = ErrorResponse(error=ErrorBody(code=code, message=message, details=details or {}))
    return JSONResponse(body.model_dump(), status_code=status_code, headers=headers)


_HTTP_CODES = {
    400: "BAD_REQUEST",
    401: "UNAUTHORIZED",
    403: "FORBIDDEN",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    409: "CONFLICT",
    413: "PAYLOAD_TOO_LARGE",
    415: "UNSUPPORTED_MEDIA_TYPE",
    422: "VALIDATION_FAILED",
    429: "RATE_LIMITED",
    503: "SERVICE_UNAVAILABLE",
}

_RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait before retrying", "schema": {"type": "integer", "minimum": 1}}}


def error_responses(*codes: str) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route that can answer with ``codes``: per status, the
    error shape, what each code means, and an example body per code."""
    by_status: dict[int, list[str]] = {}
    for code in dict.fromkeys(codes):
        for status in ERROR_CODES[code].statuses:
            by_status.setdefault(status, []).append(code)
    responses: dict[int | str, dict[str, Any]] = {}
    for status in sorted(by_status):
        listed = by_status[status]
        examples = {code: {"summary": ERROR_CODES[code].meaning, "value": example_body(code)} for code in listed}
        response: dict[str, Any] = {
            "model": ErrorResponse,
            "description": " · ".join(f"`{code}`: {ERROR_CODES[code].meaning}" for code in listed),
            "content": {"application/json": {"examples": examples}},
        }
        if any("retryAfterSeconds" in ERROR_CODES[code].details for code in listed):
            response["headers"] = _RETRY_AFTER
        responses[status] = response
    return responses


#: The errors any authenticated route with a JSON body or query can produce.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = error_responses(*AUTHENTICATED, *JSON_BODY)


def _field_path(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body",)]
    path = ""
    for part in parts:
        path += f"[{part}]" if part.isdigit() else (f".{part}" if path else part)
    return path or "body"


def _validation_handler(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = []
    malformed_json = False
    for err in exc.errors():
        if err.get("type") == "json_invalid":
            malformed_json = True
        errors.append({"field": _field_path(tuple(err.get("loc", ()))), "message": err.get("msg", ""), "type": err.get("type", "")})
    if malformed_json:
        return error_response(400, "INVALID_JSON", "Request body is not valid JSON", {"errors": errors})
    first = errors[0] if errors else {"field": "body", "message": "invalid"}
    return error_response(
        422,
        "VALIDATION_FAILED",
        f"{first['field']}: {first['message']}",
        {"errors": errors},
    )


def _stepwise_handler(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StepwiseError)
    headers = {"Retry-After": str(exc.details["retryAfterSeconds"])} if "retryAfterSeconds" in exc.details else None
    return error_response(exc.status_code, exc.code, exc.message, exc.details, headers=headers)


def _conflict_handler(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, TaskConflict)
    return error_response(
        409,
        "TASK_CONFLICT",
        "Another request changed this task first; resend with the page as it is now",
        {"taskId": exc.task_id},
    )


def _unavailable_handler(_: Request, exc: Exception) -> JSONResponse:
    log.error("store.unavailable", error=str(exc))
    return error_response(503, "STORE_UNAVAILABLE", "The database is not reachable; try again shortly")


def _http_handler(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = _HTTP_CODES.get(exc.status_code, "HTTP_ERROR")
    message = exc.detail if isinstance(exc.detail, str) else code
    details = getattr(exc, "details", None)
    return error_response(exc.status_code, code, message, details, headers=getattr(exc, "headers", None))


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(RequestValidationError, _validation_handler)
    app.add_exception_handler(StepwiseError, _stepwise_handler)
    app.add_exception_handler(TaskConflict, _conflict_handler)
    app.add_exception_handler(StoreUnavailable, _unavailable_handler)
    app.add_exception_handler(StarletteHTTPException, _http_handler)
