"""Structured logging: event-named lines, every line of a request carrying its
``request_id``, ``session_id`` and ``task_id`` (bound in contextvars by the edge and the
agent service), and ``tenant_id``/``user_id`` once the caller is authenticated.

The same binders tag the request's Sentry scope, so an error report names the request,
session, task, tenant and user without any extra call."""

from __future__ import annotations

import logging
import sys
from typing import Literal

import structlog

from observability.errors import set_scope_tags, set_scope_user
from observability.redaction import redact_log_event, start_secret_scope

REQUEST_KEYS = ("request_id", "session_id", "task_id")
IDENTITY_KEYS = ("tenant_id", "user_id")


def configure_logging(level: str = "INFO", fmt: Literal["console", "json"] = "console") -> None:
    renderer: structlog.typing.Processor
    if fmt == "json":
        renderer = structlog.processors.JSONRenderer()
    else:
        renderer = structlog.dev.ConsoleRenderer(colors=False)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.StackInfoRenderer(),
            structlog.processors.format_exc_info,
            redact_log_event,  # last before rendering: no secret in any field or traceback
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


def start_request_context(request_id: str) -> None:
    """Reset per-request context; session/task ids are filled in as soon as they are known."""
    structlog.contextvars.clear_contextvars()
    structlog.contextvars.bind_contextvars(request_id=request_id, session_id=None, task_id=None)
    start_secret_scope()
    set_scope_tags({"request_id": request_id})


def bind_ids(*, session_id: str | None = None, task_id: str | None = None) -> None:
    values = {k: v for k, v in (("session_id", session_id), ("task_id", task_id)) if v is not None}
    if values:
        structlog.contextvars.bind_contextvars(**values)
        set_scope_tags(values)


def bind_identity(tenant_id: str, user_id: str) -> None:
    """Who is calling: called by the auth dependency once the API key is resolved."""
    structlog.contextvars.bind_contextvars(tenant_id=tenant_id, user_id=user_id)
    set_scope_tags({"tenant_id": tenant_id, "user_id": user_id})
    set_scope_user(user_id, tenant_id)


def end_request_context() -> None:
    structlog.contextvars.clear_contextvars()
