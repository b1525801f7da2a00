"""Every ``error.code`` the service can answer with: its HTTP status(es), what it means, and
an example body. The OpenAPI document's ``ErrorBody.code`` enum and each route's error
responses are built from this registry; a test walks the code base and fails when a code is
emitted that is not listed here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final


@dataclass(frozen=True)
class ErrorCodeInfo:
    statuses: tuple[int, ...]
    meaning: str
    message: str  # an example message, as the service writes it
    details: Mapping[str, Any] = field(default_factory=dict)  # example details


_TASK = "3f0c1b9e-7d2a-4c55-9a8e-0b6f2d1c4e77"
_SESSION = "b7a4e2d1-5c3f-4e8a-9d6b-1f2e3a4c5d6e"

ERROR_CODES: Final[dict[str, ErrorCodeInfo]] = {
    "BAD_REQUEST": ErrorCodeInfo((400,), "The request cannot be served as sent", "Bad request"),
    "INVALID_JSON": ErrorCodeInfo(
        (400,),
        "The body is not JSON (or not UTF-8)",
        "Request body is not valid JSON",
        {"errors": [{"field": "body[12]", "message": "JSON decode error", "type": "json_invalid"}]},
    ),
    "IDEMPOTENCY_KEY_INVALID": ErrorCodeInfo(
        (400,),
        "The Idempotency-Key header is not 1-255 printable ASCII characters",
        "Idempotency-Key must be 1-255 printable ASCII characters (not only spaces)",
        {"header": "Idempotency-Key", "maxLength": 255},
    ),
    "MAX_STEPS_EXCEEDED": ErrorCodeInfo(
        (400,),
        "The task reached the step limit (STEPWISE_MAX_STEPS); it is now failed",
        "The task took 50 steps without finishing (limit 50)",
        {"taskId": _TASK, "limit": 50},
    ),
    "UNAUTHORIZED": ErrorCodeInfo((401,), "No API key, or an unknown or revoked one", "Missing API key: send `Authorization: Bearer <key>`"),
    "FORBIDDEN": ErrorCodeInfo((403,), "The request is not allowed", "Forbidden"),
    "NOT_FOUND": ErrorCodeInfo((404,), "No such path or record", "Not Found"),
    "TASK_NOT_FOUND": ErrorCodeInfo(
        (404,), "No task with this id for the caller's tenant (or not in the given session)", f"No task '{_TASK}'", {"taskId": _TASK}
    ),
    "SESSION_NOT_FOUND": ErrorCodeInfo(
        (404,), "No session with this id for the caller's tenant", f"No session '{_SESSION}'", {"sessionId": _SESSION}
    ),
    "DOCUMENT_NOT_FOUND": ErrorCodeInfo(
        (404,), "No knowledge document with this id for the caller's tenant", "No document 'd41d8cd9'", {"documentId": "d41d8cd9"}
    ),
    "SKILL_NOT_FOUND": ErrorCodeInfo(
        (404,), "No skill with this id for the caller's tenant", "No skill '5f1c0a9e'", {"skillId": "5f1c0a9e"}
    ),
    "RECIPE_NOT_FOUND": ErrorCodeInfo(
        (404,), "No recipe with this id for the caller's tenant", "No recipe 'a2e9c4b7'", {"recipeId": "a2e9c4b7"}
    ),
    "JOB_NOT_FOUND": ErrorCodeInfo((404,), "No crawl job with this id for the caller's tenant", "No crawl job 'a1b2c3'", {"jobId": "a1b2c3"}),
    "CRAWLING_DISABLED": ErrorCodeInfo(
        (403,),
        "This deployment does not crawl for clients (STEPWISE_KNOWLEDGE_CRAWL_ENABLED=false); upload documents instead",
        "This deployment does not fetch URLs for clients (STEPWISE_KNOWLEDGE_CRAWL_ENABLED=false); upload the documents instead",
    ),
    "METHOD_NOT_ALLOWED": ErrorCodeInfo((405,), "The path does not take this method", "Method Not Allowed"),
    "CONFLICT": ErrorCodeInfo((409,), "The request conflicts with the record's state", "Conflict"),
    "TASK_CONFLICT": ErrorCodeInfo(
        (409,),
        "Another request changed the task first, or `stepIndex` is neither the newest step nor a re-send of it; "
        "nothing was changed: send the page as it is now with the newest stepIndex",
        "stepIndex 0 is not the task's newest step (2) nor a re-send of the request that answered it; "
        "send the page as it is now with the newest stepIndex",
        {"taskId": _TASK, "stepIndex": 0, "newestStepIndex": 2},
    ),
    "TASK_FINISHED": ErrorCodeInfo(
        (409,),
        "The task is completed, failed or needs_confirmation and takes no more steps; start a new task",
        f"Task '{_TASK}' is completed; start a new task without taskId",
        {"taskId": _TASK, "status": "completed"},
    ),
    "JOB_FINISHED": ErrorCodeInfo(
        (409,), "The crawl job already ended (done, failed or cancelled)", "Crawl job 'a1b2c3' is already done", {"jobId": "a1b2c3", "status": "done"}
    ),
    "IDEMPOTENCY_KEY_IN_FLIGHT": ErrorCodeInfo(
        (409,),
        "The request that first used this Idempotency-Key is still being answered; retry after Retry-After",
        "The request that first used this Idempotency-Key is still being answered; retry later",
        {"idempotencyKey": "8e03978e-40d5-43e8-bc93-6894a57f9324", "retryAfterSeconds": 2},
    ),
    "SECRETS_UNREADABLE": ErrorCodeInfo(
        (409,),
        "The task's sealed secrets cannot be opened with this server's STEPWISE_SECRET_KEY (lost or rotated); the task "
        "is now failed: start it again",
        "The task's secrets (a password or other secret value from its goal) were sealed with another server key "
        "(STEPWISE_SECRET_KEY lost or rotated); start the task again",
        {"taskId": _TASK},
    ),
    "PAYLOAD_TOO_LARGE": ErrorCodeInfo(
        (413,),
        "The body is larger than STEPWISE_MAX_BODY_BYTES",
        "Request body exceeds 4000000 bytes",
        {"limit": "max_body_bytes", "value": 4000000},
    ),
    "LIMIT_EXCEEDED": ErrorCodeInfo(
        (413, 422),
        "A field is over its limit: `dom` (max_dom_chars) or `interactiveTree` (max_tree_nodes) is a 413, "
        "`query` (max_query_chars) a 422",
        "`interactiveTree` has 4200 nodes; the limit is 3000",
        {"field": "interactiveTree", "limit": "max_tree_nodes", "value": 3000, "actual": 4200},
    ),
    "UNSUPPORTED_MEDIA_TYPE": ErrorCodeInfo(
        (415,), "The body is not sent as application/json", "Send the body as application/json, not 'text/plain'"
    ),
    "VALIDATION_FAILED": ErrorCodeInfo(
        (422,),
        "A field is missing or invalid; `details.errors` lists each with its path",
        "url: Value error, url must be the page's http(s) URL, with a host (file:, data:, about: … are no web page)",
        {"errors": [{"field": "url", "message": "Value error, url must be the page's http(s) URL, with a host", "type": "value_error"}]},
    ),
    "EXTRACTION_FAILED": ErrorCodeInfo(
        (422,),
        "The document could not be read (a corrupt or encrypted file, or no text in it)",
        "The PDF is encrypted; upload it without a password",
    ),
    "INVALID_PAGE": ErrorCodeInfo(
        (422,),
        "The page cannot be read (a `dom` nested deeper than any real page, a malformed tree, a page that takes "
        "longer than 10 s to read)",
        "the dom is nested more than 1000 levels deep",
        {"field": "dom"},
    ),
    "IDEMPOTENCY_KEY_REUSED": ErrorCodeInfo(
        (422,),
        "This Idempotency-Key was first used with another request (method, path or body); use a new key",
        "This Idempotency-Key was used with another request; use a new key for a new request",
        {"idempotencyKey": "8e03978e-40d5-43e8-bc93-6894a57f9324"},
    ),
    "RATE_LIMITED": ErrorCodeInfo(
        (429,),
        "The user's per-minute limit is reached; wait Retry-After seconds",
        "Rate limit of 60 interact requests per minute reached",
        {"limit": 60, "windowSeconds": 60, "retryAfterSeconds": 12},
    ),
    "INTERNAL_ERROR": ErrorCodeInfo((500,), "A bug; it was reported", "Internal server error; it has been reported"),
    "SERVICE_UNAVAILABLE": ErrorCodeInfo(
        (503,),
        "The worker is busy (every page reader is taken by heavy pages); retry after Retry-After",
        "Every page reader of this worker is busy with heavy pages; retry shortly",
        {"retryAfterSeconds": 10},
    ),
    "STORE_UNAVAILABLE": ErrorCodeInfo((503,), "The database is not reachable; try again shortly", "The database is not reachable; try again shortly"),
    "HTTP_ERROR": ErrorCodeInfo((400,), "Any other HTTP error status the framework raises", "HTTP error"),
}

#: The errors every authenticated route can answer with (a malformed path, query or header is a 422).
AUTHENTICATED: Final = ("UNAUTHORIZED", "VALIDATION_FAILED", "RATE_LIMITED", "INTERNAL_ERROR", "STORE_UNAVAILABLE")
#: And those of a route that reads a JSON body.
JSON_BODY: Final = ("INVALID_JSON", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE", "VALIDATION_FAILED")


def example_body(code: str) -> dict[str, Any]:
    info = ERROR_CODES[code]
    return {"error": {"code": code, "message": info.message, "details": dict(info.details)}}
