"""Usage events: one per billable model attempt, handed to an injected sink.

The gateway does not price anything; ``cost.UsageService`` (behind a ``UsageSink``)
prices the tokens and writes the DB record and the LangFuse generation."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal, Protocol

import structlog

from agent.llm.contract import CallContext, Purpose

log = structlog.get_logger(__name__)

OutputErrorKind = Literal["empty", "invalid_json", "schema_mismatch", "truncated", "blocked"]


@dataclass(frozen=True, slots=True)
class UsageEvent:
    """One HTTP attempt that reached the model and came back with an answer (whether or
    not the answer was usable: a failed answer is billed too)."""

    purpose: Purpose
    model: str
    input_tokens: int
    output_tokens: int
    cached_tokens: int
    thinking_tokens: int
    total_tokens: int
    latency_ms: int
    success: bool
    error_kind: OutputErrorKind | None
    ctx: CallContext
    attempt: int = 1
    repair: bool = False
    image_tokens: int = 0  # of input_tokens, those counted for images (usageMetadata.promptTokensDetails)
    model_version: str | None = None
    provider: Literal["google"] = "google"
    occurred_at: datetime = field(default_factory=lambda: datetime.now(UTC))


class UsageSink(Protocol):
    async def record(self, event: UsageEvent) -> None: ...


class NullUsageSink:
    """Drops every event (no billing configured)."""

    async def record(self, event: UsageEvent) -> None:
        return None


class MemoryUsageSink:
    """Keeps every event in a list, for tests."""

    def __init__(self) -> None:
        self.events: list[UsageEvent] = []

    async def record(self, event: UsageEvent) -> None:
        self.events.append(event)


async def record_usage(sink: UsageSink, event: UsageEvent) -> None:
    """Hand ``event`` to ``sink``; a failing sink is logged and never fails the call."""
    try:
        await sink.record(event)
    # The sink is a foreign boundary (DB, LangFuse): whatever it raises, the model answer
    # is still good. The failure is logged with its traceback, not swallowed.
    except Exception:
        log.exception(
            "llm.usage.record_failed",
            purpose=event.purpose,
            model=event.model,
            tenant_id=event.ctx.tenant_id,
            task_id=event.ctx.task_id,
        )
