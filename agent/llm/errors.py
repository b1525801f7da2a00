"""Typed errors of the LLM gateway. Engines catch ``LLMError`` and take their
deterministic path. Messages never contain page text or model output."""

from __future__ import annotations

from typing import Literal

ErrorKind = Literal[
    "unavailable",  # retries exhausted: 408/429/5xx, timeouts, connection errors
    "rejected",  # 4xx other than 408/429: bad key, bad request, unknown model
    "output_invalid",  # no schema-valid JSON even after the repair attempt
    "blocked",  # safety / blocklist / prohibited content / recitation / blocked prompt
]


class LLMError(Exception):
    """Base of every gateway failure."""

    kind: ErrorKind = "unavailable"

    def __init__(
        self,
        message: str,
        *,
        purpose: str | None = None,
        model: str | None = None,
        attempts: int = 0,
        status_code: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.purpose = purpose
        self.model = model
        self.attempts = attempts
        self.status_code = status_code

    def __str__(self) -> str:
        where = f"purpose={self.purpose!r} model={self.model!r} attempts={self.attempts}"
        status = f" status={self.status_code}" if self.status_code is not None else ""
        return f"{self.message} ({where}{status})"


class LLMUnavailable(LLMError):
    """The model could not be reached in time: retries exhausted on 408/429/5xx,
    timeouts or connection errors."""

    kind: ErrorKind = "unavailable"


class LLMRequestRejected(LLMError):
    """The provider refused the request (bad key, bad request, unknown model); retrying
    the same request cannot help."""

    kind: ErrorKind = "rejected"


class LLMOutputInvalid(LLMError):
    """The model answered, but not with JSON matching the schema, even after one repair
    attempt."""

    kind: ErrorKind = "output_invalid"


class LLMBlocked(LLMError):
    """The provider's safety system blocked the prompt or the answer."""

    kind: ErrorKind = "blocked"

    def __init__(
        self,
        message: str,
        *,
        reason: str | None = None,
        purpose: str | None = None,
        model: str | None = None,
        attempts: int = 0,
        status_code: int | None = None,
    ) -> None:
        super().__init__(
            message, purpose=purpose, model=model, attempts=attempts, status_code=status_code
        )
        self.reason = reason
