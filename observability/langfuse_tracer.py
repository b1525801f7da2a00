"""``LangfuseTracer``: the ``Tracer`` that sends traces to LangFuse (langfuse 5.x).

The SDK is OpenTelemetry-based: observations are OTel spans exported over OTLP/HTTP
(protobuf, gzip) to ``{host}/api/public/otel/v1/traces``; scores go to
``POST {host}/api/public/scores`` from a background thread. Nothing here blocks a request:
spans are batched and exported by the SDK's worker thread.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

import httpx
import structlog
from langfuse import Langfuse, LangfuseGeneration, LangfuseSpan, propagate_attributes
from langfuse._client.resource_manager import LangfuseResourceManager
from opentelemetry import context as otel_context
from opentelemetry import trace as otel_trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.trace import (
    NonRecordingSpan,
    SpanContext,
    TraceFlags,
    format_span_id,
    format_trace_id,
)

from observability.metrics import Metrics
from observability.redaction import mask_for_langfuse, redact_text
from observability.summarize import summarize_value, truncate
from observability.tracing import (
    GenerationRecord,
    NoopTracer,
    SpanHandle,
    TraceHandle,
    Tracer,
    bind_trace,
    current_trace,
    unbind_trace,
)

if TYPE_CHECKING:
    from pydantic import SecretStr

log = structlog.get_logger(__name__)

_HEX32 = re.compile(r"^[0-9a-f]{32}$")


class _LangfuseSpanHandle:
    __slots__ = ("output",)

    def __init__(self, output: Any) -> None:
        self.output = output

    def set_output(self, summary: Any) -> None:
        self.output = summary


class _LangfuseTraceHandle:
    def __init__(
        self,
        tracer: LangfuseTracer,
        name: str,
        trace_id: str,
        root: LangfuseSpan,
        root_span: otel_trace.Span,
    ) -> None:
        self._tracer = tracer
        self._name = name
        self._trace_id = trace_id
        self._root = root
        self.root_span = root_span
        self.output: Any = None

    @property
    def name(self) -> str:
        return self._name

    @property
    def trace_id(self) -> str:
        return self._trace_id

    @property
    def recording(self) -> bool:
        return True

    @property
    def metrics(self) -> Metrics | None:
        return self._tracer.metrics

    @property
    def tracer(self) -> LangfuseTracer:
        return self._tracer

    @contextmanager
    def span(
        self, name: str, input_summary: Any = None, output_summary: Any = None
    ) -> Iterator[SpanHandle]:
        client = self._tracer.client
        error: BaseException | None = None
        with client.start_as_current_observation(
            name=name, as_type="span", input=input_summary
        ) as span:
            handle = _LangfuseSpanHandle(output_summary)
            try:
                yield handle
            # Caught only to close the span without the SDK attaching the exception (message,
            # stack) to it: errors belong to Sentry. Re-raised unchanged just below.
            except BaseException as exc:  # noqa: BLE001
                span.update(level="ERROR", status_message=f"raised {type(exc).__name__}")
                error = exc
            if handle.output is not None:
                span.update(output=handle.output)
        if error is not None:
            raise error

    def score(self, name: str, value: float | bool, comment: str | None = None) -> None:
        observation_id = None
        current = otel_trace.get_current_span().get_span_context()
        if current.is_valid and format_trace_id(current.trace_id) == self._trace_id:
            span_id = format_span_id(current.span_id)
            observation_id = None if span_id == self._root.id else span_id
        if isinstance(value, bool):
            self._tracer.client.create_score(
                name=name,
                value=1.0 if value else 0.0,
                data_type="BOOLEAN",
                trace_id=self._trace_id,
                observation_id=observation_id,
                comment=redact_text(comment) if comment else comment,
            )
        else:
            self._tracer.client.create_score(
                name=name,
                value=float(value),
                data_type="NUMERIC",
                trace_id=self._trace_id,
                observation_id=observation_id,
                comment=redact_text(comment) if comment else comment,
            )

    def set_output(self, summary: Any) -> None:
        self.output = summary


class LangfuseTracer:
    """Traces to LangFuse over OTLP/HTTP (langfuse 5.x, OpenTelemetry-based).

    It owns a private OpenTelemetry ``TracerProvider``: the process-global provider is never
    touched, so other OTel users (and other app instances in tests) stay independent.
    """

    enabled = True

    def __init__(
        self,
        client: Langfuse,
        provider: TracerProvider,
        http: httpx.Client,
        public_key: str,
        metrics: Metrics | None = None,
    ) -> None:
        self.client = client
        self._provider = provider
        self._http = http
        self._public_key = public_key
        self._metrics = metrics
        self._closed = False

    @classmethod
    def connect(
        cls,
        *,
        public_key: str,
        secret_key: str,
        host: str | None,
        environment: str | None = None,
        release: str | None = None,
        metrics: Metrics | None = None,
        timeout_s: int = 5,
        flush_interval_s: float | None = None,
    ) -> LangfuseTracer:
        provider = TracerProvider(resource=Resource.create({"service.name": "stepwise"}))
        # Ours so that shutdown closes it (the SDK never closes the client it makes itself).
        http = httpx.Client(timeout=timeout_s)
        client = Langfuse(
            public_key=public_key,
            secret_key=secret_key,
            base_url=host,
            environment=environment,
            release=release,
            timeout=timeout_s,
            flush_interval=flush_interval_s,
            tracer_provider=provider,
            httpx_client=http,
            mask=mask_for_langfuse,  # every input/output/metadata, before the SDK queues it
        )
        return cls(client, provider, http, public_key, metrics)

    @property
    def metrics(self) -> Metrics | None:
        return self._metrics

    @asynccontextmanager
    async def start_trace(
        self,
        name: str,
        *,
        task_id: str | None = None,
        session_id: str | None = None,
        user_id: str | None = None,
        tenant_id: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        input_summary: Any = None,
    ) -> AsyncIterator[TraceHandle]:
        ids = {k: v for k, v in (("tenant_id", tenant_id), ("task_id", task_id)) if v}
        root_metadata = {**ids, **{k: summarize_value(v) for k, v in (metadata or {}).items()}}
        error: BaseException | None = None
        with self.client.start_as_current_observation(
            name=name, as_type="span", input=input_summary, metadata=root_metadata
        ) as root:
            root_span = otel_trace.get_current_span()
            with propagate_attributes(
                user_id=user_id, session_id=session_id, trace_name=name, metadata=ids or None
            ):
                handle = _LangfuseTraceHandle(self, name, root.trace_id, root, root_span)
                token = bind_trace(handle)
                try:
                    yield handle
                # Same rule as spans: close the root without the SDK recording the error.
                except BaseException as exc:  # noqa: BLE001
                    root.update(level="ERROR", status_message=f"raised {type(exc).__name__}")
                    error = exc
                finally:
                    unbind_trace(token)
            if handle.output is not None:
                root.update(output=handle.output)
        if error is not None:
            raise error

    def generation(self, record: GenerationRecord) -> None:
        end_ns = _to_ns(record.ended_at)
        start_ns = min(_to_ns(record.started_at), end_ns)
        parent = self._parent_context(record.trace_id)
        # The SDK's public ``start_observation`` has no start time; a generation is
        # recorded after the call returned, so its span is started back-dated on the
        # client's own tracer (the one its span processor exports) and wrapped in the
        # public ``LangfuseGeneration`` class.
        sdk_tracer: otel_trace.Tracer = self.client._otel_tracer
        otel_span = sdk_tracer.start_span(record.name, context=parent, start_time=start_ns)
        usage = {
            "input": max(record.input_tokens - record.cached_tokens, 0),
            "input_cached_tokens": record.cached_tokens,
            "output": record.output_tokens,
            "output_reasoning_tokens": record.thinking_tokens,
            "total": record.total_tokens,
        }
        generation = LangfuseGeneration(
            otel_span=otel_span,
            langfuse_client=self.client,
            model=record.model,
            usage_details={
                k: v for k, v in usage.items() if v or k in ("input", "output", "total")
            },
            cost_details=dict(record.cost_details) if record.cost_details is not None else None,
            input=truncate(record.input_summary),
            output=truncate(record.output_summary),
            metadata={"purpose": record.purpose, **record.metadata},
            level=None if record.success else "WARNING",
            status_message=None if record.success else f"unusable answer: {record.error_kind}",
        )
        generation.end(end_time=end_ns)

    def _parent_context(self, trace_id: str | None) -> otel_context.Context:
        """Under the current span of this request's trace; else under the root of the bound
        trace; else under ``trace_id`` (remote parent); else a trace of its own."""
        current = otel_context.get_current()
        handle = current_trace()
        if isinstance(handle, _LangfuseTraceHandle) and handle.tracer is self:
            span_context = otel_trace.get_current_span(current).get_span_context()
            if span_context.is_valid and format_trace_id(span_context.trace_id) == handle.trace_id:
                return current
            return otel_trace.set_span_in_context(handle.root_span, current)
        if trace_id is not None and _HEX32.match(trace_id):
            remote = SpanContext(
                trace_id=int(trace_id, 16),
                span_id=int(secrets.token_hex(8), 16) or 1,
                is_remote=True,
                trace_flags=TraceFlags(TraceFlags.SAMPLED),
            )
            return otel_trace.set_span_in_context(NonRecordingSpan(remote), otel_context.Context())
        return otel_context.Context()

    def flush(self) -> None:
        self.client.flush()

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        await asyncio.to_thread(self._shutdown)

    def _shutdown(self) -> None:
        self.client.shutdown()
        self._provider.shutdown()
        self._http.close()
        _forget_sdk_client(self._public_key)


def _forget_sdk_client(public_key: str) -> None:
    """The SDK keeps one resource manager per public key for the life of the process and
    hands it to every later ``Langfuse(public_key=...)``, even after ``shutdown()``. Drop
    ours so a new tracer (a restarted lifespan, the next test) gets live exporters."""
    with LangfuseResourceManager._lock:
        LangfuseResourceManager._instances.pop(public_key, None)


def _to_ns(moment: datetime) -> int:
    return int(moment.timestamp() * 1_000_000_000)


class TracingSettings(Protocol):
    """What ``build_tracer`` reads (``app.settings.Settings`` satisfies it)."""

    @property
    def langfuse_public_key(self) -> str | None: ...
    @property
    def langfuse_secret_key(self) -> SecretStr | None: ...
    @property
    def langfuse_host(self) -> str | None: ...
    @property
    def env(self) -> str: ...
    @property
    def release(self) -> str: ...


def build_tracer(
    settings: TracingSettings,
    metrics: Metrics | None = None,
    *,
    timeout_s: int = 5,
    flush_interval_s: float | None = None,
) -> Tracer:
    """``LangfuseTracer`` when both LangFuse keys are set, else ``NoopTracer``."""
    public_key = settings.langfuse_public_key
    secret = settings.langfuse_secret_key.get_secret_value() if settings.langfuse_secret_key else ""
    if not public_key or not secret:
        return NoopTracer(metrics)
    tracer = LangfuseTracer.connect(
        public_key=public_key,
        secret_key=secret,
        host=settings.langfuse_host,
        environment=settings.env,
        release=settings.release,
        metrics=metrics,
        timeout_s=timeout_s,
        flush_interval_s=flush_interval_s,
    )
    log.info(
        "tracing.langfuse_enabled", host=settings.langfuse_host or "https://cloud.langfuse.com"
    )
    return tracer
