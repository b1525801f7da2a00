"""Typed errors of the agent service. The HTTP edge renders each as
``{"error": {"code", "message", "details"}}`` with its ``status_code``.

Expected errors are 4xx so error monitoring stays quiet about them.
"""

from __future__ import annotations

from typing import Any


class StepwiseError(Exception):
    status_code: int = 400
    code: str = "BAD_REQUEST"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        status_code: int | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if status_code is not None:
            self.status_code = status_code
        self.details = details or {}


class NotFound(StepwiseError):
    status_code = 404
    code = "NOT_FOUND"


class TaskNotFound(NotFound):
    code = "TASK_NOT_FOUND"


class SessionNotFound(NotFound):
    code = "SESSION_NOT_FOUND"


class TaskFinished(StepwiseError):
    """The task is completed or failed; it takes no more steps."""

    status_code = 409
    code = "TASK_FINISHED"


class TaskConflictError(StepwiseError):
    """Another request on the same task step won the race."""

    status_code = 409
    code = "TASK_CONFLICT"


class IdempotencyKeyReused(StepwiseError):
    """The Idempotency-Key was first used with another request (body, method or path)."""

    status_code = 422
    code = "IDEMPOTENCY_KEY_REUSED"


class IdempotencyKeyInFlight(StepwiseError):
    """The request that first used this Idempotency-Key is still being answered."""

    status_code = 409
    code = "IDEMPOTENCY_KEY_IN_FLIGHT"


class SecretsUnavailable(StepwiseError):
    """The task's sealed secrets cannot be opened with this server's key (lost or rotated):
    the task has been failed with SECRETS_UNREADABLE."""

    status_code = 409
    code = "SECRETS_UNREADABLE"


class MaxStepsExceeded(StepwiseError):
    status_code = 400
    code = "MAX_STEPS_EXCEEDED"


class InvalidPage(StepwiseError):
    """The page in the request cannot be read (malformed interactiveTree, no page at all)."""

    status_code = 422
    code = "INVALID_PAGE"


class ServiceUnavailable(StepwiseError):
    status_code = 503
    code = "SERVICE_UNAVAILABLE"
