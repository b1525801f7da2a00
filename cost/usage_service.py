"""``UsageService``: the gateway's usage sink. Every billed model call is written twice —
an immutable ``UsageLog`` row (billing source of truth) and a LangFuse generation
(engineering view) — concurrently, and neither write can fail the request.

Decision — usage is written **immediately, per call**, not in the request's ``finalize``
batch: a model call is billed by the provider the moment it returns, whether or not the
request that made it later commits (a 409 on a concurrent step, a crash, a timeout). A
row per call keeps the bill equal to the provider's invoice; the row links to its task,
session and trace, so calls of an abandoned request are still attributable.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

import structlog

from cost.events import UsageEventLike
from cost.pricing import CallCost, cost_call, normalize_model, to_stored_usd
from observability import (
    GenerationRecord,
    Metrics,
    Tracer,
    current_trace_id,
    report_exception,
    truncate,
)
from storage import Store, UsageLog

log = structlog.get_logger(__name__)


@dataclass(slots=True)
class RequestUsage:
    """What one request's model calls cost so far (the interact response's ``usage``)."""

    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    thinking_tokens: int = 0
    total_tokens: int = 0
    image_tokens: int = 0
    priced_cost_usd: Decimal = Decimal(0)
    unpriced_calls: int = 0

    @property
    def cost_usd(self) -> Decimal | None:
        """Total cost, or ``None`` when a call's model has no known price."""
        return None if self.unpriced_calls else self.priced_cost_usd

    def add(self, event: UsageEventLike, cost: Decimal | None) -> None:
        self.model_calls += 1
        self.input_tokens += event.input_tokens
        self.output_tokens += event.output_tokens
        self.cached_tokens += event.cached_tokens
        self.thinking_tokens += event.thinking_tokens
        self.total_tokens += event.total_tokens
        self.image_tokens += event.image_tokens
        if cost is None:
            self.unpriced_calls += 1
        else:
            self.priced_cost_usd += cost

    def as_response(self) -> dict[str, Any]:
        """``{"modelCalls", "inputTokens", "outputTokens", "imageTokens", "costUsd"}``
        (docs/api.md); ``costUsd`` is ``null`` when a call could not be priced."""
        return {
            "modelCalls": self.model_calls,
            "inputTokens": self.input_tokens,
            "outputTokens": self.output_tokens,
            "imageTokens": self.image_tokens,
            "costUsd": to_stored_usd(self.cost_usd),
        }


_request_usage: ContextVar[RequestUsage | None] = ContextVar("stepwise_request_usage", default=None)


class UsageService:
    """Implements ``agent.llm.UsageSink`` (``record(event)``). Made once in the lifespan,
    shared by every request."""

    def __init__(self, store: Store, tracer: Tracer, metrics: Metrics | None = None) -> None:
        self._store = store
        self._tracer = tracer
        self._metrics = metrics

    @staticmethod
    @contextmanager
    def for_request() -> Iterator[RequestUsage]:
        """Tally the model calls made inside this block (and the graph tasks it starts),
        for the interact response: ``usage.as_response()`` after the block."""
        usage = RequestUsage()
        token = _request_usage.set(usage)
        try:
            yield usage
        finally:
            _request_usage.reset(token)

    @staticmethod
    def current() -> RequestUsage | None:
        """The tally of the request being served (inside ``for_request``), else ``None``."""
        return _request_usage.get()

    async def record(self, event: UsageEventLike) -> None:
        """Price the call, then write the row and the generation concurrently. Failures are
        logged (store failures also reported to Sentry) and never raised."""
        cost = cost_call(
            event.model,
            event.input_tokens,
            event.output_tokens,
            event.cached_tokens,
            event.thinking_tokens,
        )
        total = None if cost is None else cost.total_usd
        tally = _request_usage.get()
        if tally is not None:
            tally.add(event, total)
        trace_id = event.ctx.trace_id or current_trace_id()
        results = await asyncio.gather(
            self._write_row(event, total, trace_id),
            self._write_generation(event, cost, trace_id),
            return_exceptions=True,
        )
        for sink, result in zip(("store", "langfuse"), results, strict=True):
            if isinstance(result, BaseException):
                self._write_failed(sink, result, event)
        if self._metrics is not None:
            self._metrics.count_model_call(
                purpose=event.purpose,
                model=normalize_model(event.model),
                outcome="ok" if event.success else (event.error_kind or "error"),
                input_tokens=event.input_tokens,
                output_tokens=event.output_tokens,
                cached_tokens=event.cached_tokens,
                thinking_tokens=event.thinking_tokens,
                cost_usd=total,
                seconds=event.latency_ms / 1000,
            )

    async def _write_row(
        self, event: UsageEventLike, cost: Decimal | None, trace_id: str | None
    ) -> None:
        ctx = event.ctx
        if not ctx.tenant_id:
            raise UnattributedUsage(
                f"{event.purpose} call on {event.model!r} has no tenant_id in its CallContext"
            )
        await self._store.usage.add(
            UsageLog(
                tenant_id=ctx.tenant_id,
                user_id=ctx.user_id,
                session_id=ctx.session_id,
                message_id=ctx.message_id,
                task_id=ctx.task_id,
                action_type=event.purpose,
                provider=event.provider,
                model=event.model,
                input_tokens=event.input_tokens,
                output_tokens=event.output_tokens,
                cached_tokens=event.cached_tokens,
                thinking_tokens=event.thinking_tokens,
                total_tokens=event.total_tokens,
                image_tokens=event.image_tokens,
                cost_usd=to_stored_usd(cost),
                duration_ms=float(event.latency_ms),
                trace_id=trace_id,
                created_at=event.occurred_at,
            )
        )

    async def _write_generation(
        self, event: UsageEventLike, cost: CallCost | None, trace_id: str | None
    ) -> None:
        if not self._tracer.enabled:
            return
        self._tracer.generation(generation_record(event, cost, trace_id))

    def _write_failed(self, sink: str, error: BaseException, event: UsageEventLike) -> None:
        if not isinstance(error, Exception):  # cancellation and exits propagate
            raise error
        log.error(
            "usage.write_failed",
            sink=sink,
            purpose=event.purpose,
            model=event.model,
            tenant_id=event.ctx.tenant_id,
            task_id=event.ctx.task_id,
            exc_info=error,
        )
        if self._metrics is not None:
            self._metrics.count_usage_write_failure(sink)
        if sink == "store":  # a lost billing row is an incident; a LangFuse outage is not
            report_exception(error)


class UnattributedUsage(RuntimeError):
    """A model call without a tenant cannot be billed: its caller built no CallContext."""


def generation_record(
    event: UsageEventLike, cost: CallCost | None, trace_id: str | None
) -> GenerationRecord:
    """The LangFuse view of one usage event: model, tokens, cost by kind, latency, purpose.

    Prompt and answer excerpts are attached when the event carries them (``prompt_summary``
    / ``output_summary``), always truncated; never whole pages."""
    cost_details = None
    if cost is not None:
        cost_details = {
            "input": float(cost.input_usd),
            "input_cached_tokens": float(cost.cached_input_usd),
            "output": float(cost.output_usd),
            "output_reasoning_tokens": float(cost.thinking_usd),
            "total": float(cost.total_usd),
        }
    prompt_summary = getattr(event, "prompt_summary", None)
    output_summary = getattr(event, "output_summary", None)
    return GenerationRecord(
        name=event.purpose,  # = the usage row's actionType: bill and trace line up
        model=normalize_model(event.model),
        purpose=event.purpose,
        started_at=event.occurred_at - timedelta(milliseconds=event.latency_ms),
        ended_at=event.occurred_at,
        input_tokens=event.input_tokens,
        output_tokens=event.output_tokens,
        cached_tokens=event.cached_tokens,
        thinking_tokens=event.thinking_tokens,
        total_tokens=event.total_tokens,
        cost_details=cost_details,
        success=event.success,
        error_kind=event.error_kind,
        input_summary=truncate(prompt_summary) if isinstance(prompt_summary, str) else None,
        output_summary=truncate(output_summary) if isinstance(output_summary, str) else None,
        trace_id=trace_id,
        metadata={
            "attempt": event.attempt,
            "repair": event.repair,
            "model_version": event.model_version,
            "configured_model": event.model,
            "tenant_id": event.ctx.tenant_id,
            "task_id": event.ctx.task_id,
            "priced": cost is not None,
            "image_tokens": event.image_tokens,
        },
    )
