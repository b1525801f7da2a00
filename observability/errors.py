"""Error reporting (Sentry): unhandled errors with who/what context, nothing else.

- Only **unexpected** errors are reported: anything carrying an HTTP ``status_code`` below
  500 (``StepwiseError`` 4xx, ``HTTPException`` 4xx) and the types the edge declares
  expected (``RequestValidationError``, ``TaskConflict``) are dropped in ``before_send``.
- Every event carries the request's ``request_id``, ``session_id``, ``task_id``,
  ``tenant_id`` and ``user_id`` as tags: the edge binds them (``observability.logging``)
  and they are set on the request's Sentry isolation scope as soon as they are known.
- Nothing from the LLM path goes to Sentry: the google-genai, LangChain and LangGraph
  integrations are not enabled (``auto_enabling_integrations=False``), request bodies
  (pages, goals), cookies and frame locals are never collected (``DATA_COLLECTION``),
  and log lines never become events —
  model calls, prompts and failed answers are LangFuse's (docs/observability.md).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import sentry_sdk
import structlog
from sentry_sdk.integrations.fastapi import FastApiIntegration
from sentry_sdk.integrations.logging import LoggingIntegration
from sentry_sdk.integrations.starlette import StarletteIntegration
from sentry_sdk.transport import Transport

from observability.redaction import redact
from storage import TaskConflict

if TYPE_CHECKING:
    from pydantic import SecretStr
    from sentry_sdk._types import DataCollectionUserOptions
    from sentry_sdk.types import Event, Hint

log = structlog.get_logger(__name__)


@dataclass
class _SentryState:
    enabled: bool = False
    expected: tuple[type[BaseException], ...] = (TaskConflict,)


_state = _SentryState()


DATA_COLLECTION: DataCollectionUserOptions = {
    "user_info": False,  # no automatic user/IP capture; the edge sets the opaque ids itself
    "cookies": {"mode": "off"},
    # headers kept for debugging; "auth", "key", "token", "session"… values are always
    # replaced by "[Filtered]", and so are client-address headers
    "http_headers": {
        "request": {"mode": "denylist", "terms": ["forwarded", "-ip", "remote-", "via", "-user"]}
    },
    "http_bodies": [],  # request bodies carry pages and goals
    "url_query_params": {"mode": "denylist"},
    "gen_ai": {"inputs": False, "outputs": False},
    "graphql": {"document": False, "variables": False},
    "database_query_data": False,
    "queues": False,
    "stack_frame_variables": False,  # frames on the interact path hold goals and page text
}
"""What Sentry may collect automatically (sentry-sdk ``data_collection``)."""


class ErrorReportingSettings(Protocol):
    """What ``init_sentry`` reads (``app.settings.Settings`` satisfies it)."""

    @property
    def sentry_dsn(self) -> SecretStr | None: ...
    @property
    def env(self) -> str: ...
    @property
    def release(self) -> str: ...


def init_sentry(
    settings: ErrorReportingSettings,
    *,
    expected_errors: tuple[type[BaseException], ...] = (),
    transport: Transport | None = None,
    traces_sample_rate: float | None = None,
) -> bool:
    """Start Sentry when ``SENTRY_DSN`` is set; return whether it is on.

    Call it before the FastAPI app is built (its integrations patch Starlette classes).
    ``expected_errors`` are never reported, whatever their status. Tracing (performance)
    stays off unless ``traces_sample_rate`` is given: latency lives in Prometheus."""
    dsn = settings.sentry_dsn.get_secret_value() if settings.sentry_dsn is not None else ""
    if not dsn:
        return False
    sentry_sdk.init(
        dsn=dsn,
        environment=settings.env,
        release=settings.release,
        # sentry-sdk 2.7x: ``data_collection`` supersedes the deprecated
        # ``send_default_pii`` (which it ignores when both are set); this is the
        # ``send_default_pii=False`` policy, made stricter.
        data_collection=DATA_COLLECTION,
        max_request_body_size="never",
        auto_enabling_integrations=False,  # keeps google-genai / LangChain / LangGraph out
        integrations=[
            StarletteIntegration(transaction_style="url"),
            FastApiIntegration(transaction_style="url"),
            LoggingIntegration(level=logging.INFO, event_level=None),  # breadcrumbs only
        ],
        trace_propagation_targets=[],  # no sentry-trace/baggage headers to Google or LangFuse
        traces_sample_rate=traces_sample_rate,
        before_send=_before_send,
        transport=transport,
    )
    _state.enabled = True
    _state.expected = (TaskConflict, *expected_errors)
    log.info("errors.sentry_enabled", environment=settings.env, release=settings.release)
    return True


def sentry_enabled() -> bool:
    return _state.enabled


def is_expected_error(exc: BaseException) -> bool:
    """A client's mistake or an expected refusal: never reported."""
    if isinstance(exc, _state.expected):
        return True
    status = getattr(exc, "status_code", None)
    return isinstance(status, int) and status < 500


def _before_send(event: Event, hint: Hint) -> Event | None:
    exc_info = hint.get("exc_info")
    if exc_info is not None and exc_info[1] is not None and is_expected_error(exc_info[1]):
        return None
    masked: Event = redact(event)  # no secret in a message, an exception value or a breadcrumb
    return masked


def set_scope_tags(tags: Mapping[str, str | None]) -> None:
    """Tag the current request's Sentry scope (no-op while Sentry is off)."""
    if not _state.enabled:
        return
    scope = sentry_sdk.get_isolation_scope()
    for key, value in tags.items():
        if value:
            scope.set_tag(key, value)


def set_scope_user(user_id: str | None, tenant_id: str | None) -> None:
    if not _state.enabled or not user_id:
        return
    user: dict[str, Any] = {"id": user_id}
    if tenant_id:
        user["tenant_id"] = tenant_id
    sentry_sdk.get_isolation_scope().set_user(user)


def report_exception(exc: BaseException) -> None:
    """Report an error that was handled but must not go unnoticed (e.g. a billing row that
    could not be written). No-op while Sentry is off."""
    if _state.enabled and not is_expected_error(exc):
        sentry_sdk.capture_exception(exc)


def shutdown_sentry(timeout_s: float = 2.0) -> None:
    """Flush pending events and detach the client (lifespan shutdown, tests)."""
    if not _state.enabled:
        return
    _state.enabled = False
    _state.expected = (TaskConflict,)
    client = sentry_sdk.get_client()
    client.close(timeout=timeout_s)
    sentry_sdk.get_global_scope().set_client(None)


def flush_sentry(timeout_s: float = 2.0) -> None:
    if _state.enabled:
        sentry_sdk.flush(timeout=timeout_s)
