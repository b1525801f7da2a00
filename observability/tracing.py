"""LLM tracing: the wrapper business logic uses instead of the LangFuse SDK.

One trace per interact request (``interact-request-{taskId}``), one span per graph node
(``observability.traced_node``), one generation per billed model call
(``Tracer.generation``, called by ``cost.UsageService``), scores for verification and
correction outcomes::

    async with tracer.start_trace(interact_trace_name(task.id), task_id=task.id,
                                  session_id=session.id, user_id=ctx.user_id,
                                  tenant_id=ctx.tenant_id) as trace:
        CallContext(..., trace_id=current_trace_id())   # links usage rows to the trace
        await graph.ainvoke(...)                          # nodes wrapped in traced_node

``NoopTracer`` (no LangFuse keys) keeps the same shape at near-zero cost; node durations
still reach Prometheus through it.

Errors are Sentry's business, not LangFuse's: a span whose code raised is marked
``level=ERROR`` with the exception *type* only; no message, stack or exception event is
ever attached to a LangFuse observation (see docs/observability.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from contextvars import ContextVar, Token
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, Self

from observability.metrics import Metrics

TRACE_NAME_PREFIX = "interact-request-"


def interact_trace_name(task_id: str) -> str:
    """The trace name of one interact request: ``interact-request-{taskId}``."""
    return f"{TRACE_NAME_PREFIX}{task_id}"


# --- the handles business code sees ---------------------------------------------------


class SpanHandle(Protocol):
    def set_output(self, summary: Any) -> None:
        """What the span produced, summarised (small scalars and keys only)."""


class TraceHandle(Protocol):
    """The trace of the current request."""

    @property
    def name(self) -> str: ...

    @property
    def trace_id(self) -> str | None:
        """32-hex LangFuse/OTel trace id; ``None`` when tracing is off."""

    @property
    def recording(self) -> bool:
        """False for the no-op handle: callers skip building summaries."""

    @property
    def metrics(self) -> Metrics | None: ...

    def span(
        self, name: str, input_summary: Any = None, output_summary: Any = None
    ) -> AbstractContextManager[SpanHandle]: ...

    def score(self, name: str, value: float | bool, comment: str | None = None) -> None:
        """A score on the current span of this trace (or the trace itself)."""

    def set_output(self, summary: Any) -> None:
        """The request's outcome on the trace's root span."""


@dataclass(frozen=True, slots=True)
class GenerationRecord:
    """One billed model call, as the tracer records it (built by ``cost.UsageService``)."""

    name: str
    model: str
    purpose: str
    started_at: datetime
    ended_at: datetime
    input_tokens: int
    output_tokens: int
    cached_tokens: int = 0
    thinking_tokens: int = 0
    total_tokens: int = 0
    cost_details: Mapping[str, float] | None = None
    """USD by token kind (``input``, ``input_cached_tokens``, ``output``,
    ``output_reasoning_tokens``, ``total``); ``None`` when the model has no price."""
    success: bool = True
    error_kind: str | None = None
    input_summary: str | None = None
    output_summary: str | None = None
    trace_id: str | None = None
    """Trace to attach to when no trace is active in this context (e.g. a buffered write)."""
    metadata: Mapping[str, Any] = field(default_factory=dict)


class Tracer(Protocol):
    @property
    def enabled(self) -> bool: ...

    @property
    def metrics(self) -> Metrics | None: ...

    def start_trace(
        self,
        name: str,
        *,
        task_id: str | None = None,
        session_id: str | None = None,
        user_id: str | None = None,
        tenant_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        input_summary: Any = None,
    ) -> AbstractAsyncContextManager[TraceHandle]: ...

    def generation(self, record: GenerationRecord) -> None:
        """Record one model call under the current span (or ``record.trace_id``)."""

    def flush(self) -> None:
        """Block until everything recorded so far is delivered (tests, shutdown)."""

    async def aclose(self) -> None:
        """Flush and stop background export (lifespan shutdown)."""


_current_trace: ContextVar[TraceHandle | None] = ContextVar("stepwise_trace", default=None)


def current_trace() -> TraceHandle | None:
    """The trace bound to this request, if any."""
    return _current_trace.get()


def current_trace_id() -> str | None:
    """The current trace id, for ``CallContext(trace_id=...)`` and usage rows."""
    handle = _current_trace.get()
    return None if handle is None else handle.trace_id


def score(name: str, value: float | bool, comment: str | None = None) -> None:
    """Score the current trace (no-op outside a trace or with tracing off)."""
    handle = _current_trace.get()
    if handle is not None and handle.recording:
        handle.score(name, value, comment)


def bind_trace(handle: TraceHandle) -> Token[TraceHandle | None]:
    """Make ``handle`` the current trace (tracer implementations call this)."""
    return _current_trace.set(handle)


def unbind_trace(token: Token[TraceHandle | None]) -> None:
    _current_trace.reset(token)


# --- no-op ----------------------------------------------------------------------------


class _NoopSpan:
    __slots__ = ()

    def set_output(self, summary: Any) -> None:
        return None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


_NOOP_SPAN = _NoopSpan()


class _NoopTraceHandle:
    __slots__ = ("_metrics",)

    name = ""
    trace_id = None
    recording = False

    def __init__(self, metrics: Metrics | None) -> None:
        self._metrics = metrics

    @property
    def metrics(self) -> Metrics | None:
        return self._metrics

    def span(self, name: str, input_summary: Any = None, output_summary: Any = None) -> _NoopSpan:
        return _NOOP_SPAN

    def score(self, name: str, value: float | bool, comment: str | None = None) -> None:
        return None

    def set_output(self, summary: Any) -> None:
        return None


class _NoopTraceScope:
    """A hand-written async context manager: cheaper than ``@asynccontextmanager``."""

    __slots__ = ("_handle", "_token")

    def __init__(self, handle: _NoopTraceHandle) -> None:
        self._handle = handle
        self._token: Token[TraceHandle | None] | None = None

    async def __aenter__(self) -> _NoopTraceHandle:
        self._token = _current_trace.set(self._handle)
        return self._handle

    async def __aexit__(self, *exc: object) -> None:
        if self._token is not None:
            _current_trace.reset(self._token)


class NoopTracer:
    """Tracing off: nothing is recorded or sent; metrics still flow through the handle."""

    enabled = False

    def __init__(self, metrics: Metrics | None = None) -> None:
        self._metrics = metrics
        self._handle = _NoopTraceHandle(metrics)

    @property
    def metrics(self) -> Metrics | None:
        return self._metrics

    def start_trace(
        self,
        name: str,
        *,
        task_id: str | None = None,
        session_id: str | None = None,
        user_id: str | None = None,
        tenant_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        input_summary: Any = None,
    ) -> _NoopTraceScope:
        return _NoopTraceScope(self._handle)

    def generation(self, record: GenerationRecord) -> None:
        return None

    def flush(self) -> None:
        return None

    async def aclose(self) -> None:
        return None
