"""Logging, tracing, error reporting and metrics. Business logic calls only these."""

from observability.errors import (
    flush_sentry,
    init_sentry,
    is_expected_error,
    report_exception,
    sentry_enabled,
    shutdown_sentry,
)
from observability.langfuse_tracer import LangfuseTracer, build_tracer
from observability.logging import (
    bind_identity,
    bind_ids,
    configure_logging,
    end_request_context,
    start_request_context,
)
from observability.metrics import Metrics
from observability.nodes import traced_node
from observability.outcomes import (
    record_chain_recovery,
    record_chain_result,
    record_chain_sent,
    record_correction,
    record_task_finished,
    record_verification,
)
from observability.redaction import (
    MASK,
    PLACEHOLDER,
    Masker,
    hidden_values,
    hide_more,
    hide_secrets,
    placeholder,
    redact,
    redact_text,
    redactor,
    secret_shapes,
)
from observability.summarize import summarize_mapping, truncate
from observability.tracing import (
    GenerationRecord,
    NoopTracer,
    SpanHandle,
    TraceHandle,
    Tracer,
    current_trace,
    current_trace_id,
    interact_trace_name,
    score,
)

__all__ = [
    "MASK",
    "Masker",
    "PLACEHOLDER",
    "hidden_values",
    "hide_more",
    "hide_secrets",
    "placeholder",
    "redact",
    "redact_text",
    "redactor",
    "secret_shapes",
    "GenerationRecord",
    "LangfuseTracer",
    "Metrics",
    "NoopTracer",
    "SpanHandle",
    "TraceHandle",
    "Tracer",
    "bind_identity",
    "bind_ids",
    "build_tracer",
    "configure_logging",
    "current_trace",
    "current_trace_id",
    "end_request_context",
    "flush_sentry",
    "init_sentry",
    "interact_trace_name",
    "is_expected_error",
    "record_chain_recovery",
    "record_chain_result",
    "record_chain_sent",
    "record_correction",
    "record_task_finished",
    "record_verification",
    "report_exception",
    "score",
    "sentry_enabled",
    "shutdown_sentry",
    "start_request_context",
    "summarize_mapping",
    "traced_node",
    "truncate",
]
