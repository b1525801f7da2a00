"""UsageService against a real SQLite store and an in-memory tracer (the LangFuse SDK
path is covered in tests/integration/observability/)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any, cast

import pytest
from structlog.testing import capture_logs

from agent.llm import CallContext, UsageEvent
from cost import UsageService
from observability import GenerationRecord, Metrics, NoopTracer, TraceHandle
from observability.tracing import bind_trace, unbind_trace
from storage import SqliteStore, Store, StoreUnavailable, UsageLog


def event(**overrides: Any) -> UsageEvent:
    values: dict[str, Any] = {
        "purpose": "PLANNING",
        "model": "gemini-2.5-flash",
        "input_tokens": 10_000,
        "output_tokens": 1_000,
        "cached_tokens": 4_000,
        "thinking_tokens": 2_000,
        "total_tokens": 13_000,
        "latency_ms": 850,
        "success": True,
        "error_kind": None,
        "ctx": CallContext(
            tenant_id="t1", user_id="u1", session_id="s1", task_id="task-1", message_id="m1"
        ),
        "occurred_at": datetime(2026, 11, 20, 12, 0, tzinfo=UTC),
    }
    values.update(overrides)
    return UsageEvent(**values)


@dataclass
class RecordingTracer:
    """A ``Tracer`` that keeps generations in a list (or fails on demand)."""

    fail: bool = False
    records: list[GenerationRecord] = field(default_factory=list)
    enabled: bool = True
    metrics: Metrics | None = None

    def start_trace(self, name: str, **kwargs: Any) -> AbstractAsyncContextManager[TraceHandle]:
        raise NotImplementedError

    def generation(self, record: GenerationRecord) -> None:
        if self.fail:
            raise ConnectionError("tracing backend down")
        self.records.append(record)

    def flush(self) -> None:
        return None

    async def aclose(self) -> None:
        return None


class FailingUsage:
    async def add(self, log: UsageLog) -> None:
        raise StoreUnavailable("database is down")


@dataclass
class FailingStore:
    usage: FailingUsage = field(default_factory=FailingUsage)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    sqlite = SqliteStore.from_url(f"sqlite:///{tmp_path / 'usage.db'}")
    await sqlite.init()
    yield sqlite
    await sqlite.close()


async def test_one_row_and_one_generation_per_call(store: Store) -> None:
    tracer = RecordingTracer()
    service = UsageService(store, tracer)

    await service.record(
        event(
            ctx=CallContext(
                tenant_id="t1",
                user_id="u1",
                session_id="s1",
                task_id="task-1",
                message_id="m1",
                trace_id="a" * 32,
            )
        )
    )

    [row] = await store.usage.list_for_task("t1", "task-1")
    assert (row.tenant_id, row.user_id, row.session_id, row.message_id, row.task_id) == (
        "t1",
        "u1",
        "s1",
        "m1",
        "task-1",
    )
    assert (row.action_type, row.provider, row.model) == ("PLANNING", "google", "gemini-2.5-flash")
    assert (
        row.input_tokens,
        row.output_tokens,
        row.cached_tokens,
        row.thinking_tokens,
        row.total_tokens,
    ) == (
        10_000,
        1_000,
        4_000,
        2_000,
        13_000,
    )
    assert row.cost_usd == 0.00942  # see test_pricing: cached at 0.03, thinking at the output rate
    assert row.duration_ms == 850.0
    assert row.trace_id == "a" * 32
    assert row.created_at == datetime(2026, 11, 20, 12, 0, tzinfo=UTC)

    [generation] = tracer.records
    assert generation.name == "PLANNING" and generation.purpose == "PLANNING"
    assert generation.model == "gemini-2.5-flash"
    assert generation.ended_at - generation.started_at == timedelta(milliseconds=850)
    assert generation.cost_details is not None and generation.cost_details[
        "total"
    ] == pytest.approx(0.00942)
    assert generation.trace_id == "a" * 32


async def test_trace_id_comes_from_the_current_trace_when_the_context_has_none(
    store: Store,
) -> None:
    class Handle:
        name = "interact-request-task-1"
        trace_id = "b" * 32
        recording = True
        metrics = None

    token = bind_trace(cast(TraceHandle, Handle()))
    try:
        await UsageService(store, RecordingTracer()).record(event())
    finally:
        unbind_trace(token)
    [row] = await store.usage.list_for_task("t1", "task-1")
    assert row.trace_id == "b" * 32


async def test_unknown_model_is_stored_with_null_cost(store: Store) -> None:
    tracer = RecordingTracer()
    await UsageService(store, tracer).record(event(model="gemini-9-ultra"))
    [row] = await store.usage.list_for_task("t1", "task-1")
    assert row.cost_usd is None
    assert tracer.records[0].cost_details is None


async def test_tracer_failure_never_loses_the_row(store: Store) -> None:
    metrics = Metrics()
    with capture_logs() as logs:
        await UsageService(store, RecordingTracer(fail=True), metrics).record(event())
    assert len(await store.usage.list_for_task("t1", "task-1")) == 1
    assert [e["sink"] for e in logs if e["event"] == "usage.write_failed"] == ["langfuse"]
    assert (
        metrics.registry.get_sample_value(
            "stepwise_usage_write_failures_total", {"sink": "langfuse"}
        )
        == 1.0
    )


async def test_store_failure_never_loses_the_generation_nor_raises() -> None:
    tracer = RecordingTracer()
    metrics = Metrics()
    with capture_logs() as logs:
        await UsageService(cast(Store, FailingStore()), tracer, metrics).record(event())
    assert len(tracer.records) == 1
    failures = [e for e in logs if e["event"] == "usage.write_failed"]
    assert [f["sink"] for f in failures] == ["store"]
    assert failures[0]["log_level"] == "error" and isinstance(
        failures[0]["exc_info"], StoreUnavailable
    )
    assert (
        metrics.registry.get_sample_value("stepwise_usage_write_failures_total", {"sink": "store"})
        == 1.0
    )


async def test_a_call_without_tenant_is_logged_not_raised(store: Store) -> None:
    with capture_logs() as logs:
        await UsageService(store, RecordingTracer()).record(
            event(ctx=CallContext(task_id="task-1"))
        )
    assert [e["sink"] for e in logs if e["event"] == "usage.write_failed"] == ["store"]


async def test_both_writes_run_concurrently(store: Store) -> None:
    started: list[str] = []
    release = asyncio.Event()

    class SlowUsage:
        async def add(self, log: UsageLog) -> None:
            started.append("store")
            await release.wait()

    @dataclass
    class SlowStore:
        usage: SlowUsage = field(default_factory=SlowUsage)

    tracer = RecordingTracer()
    task = asyncio.create_task(UsageService(cast(Store, SlowStore()), tracer).record(event()))
    await asyncio.sleep(0.01)
    assert started == ["store"] and len(tracer.records) == 1  # generation did not wait for the row
    release.set()
    await task


async def test_request_tally_sums_the_calls_of_the_request(store: Store) -> None:
    service = UsageService(store, NoopTracer())
    with service.for_request() as usage:
        await service.record(event())
        await asyncio.gather(
            service.record(
                event(
                    input_tokens=1_000,
                    cached_tokens=0,
                    output_tokens=500,
                    thinking_tokens=0,
                    total_tokens=1_500,
                )
            )
        )
    await service.record(event())  # outside the block: not counted

    assert (usage.model_calls, usage.input_tokens, usage.output_tokens) == (2, 11_000, 1_500)
    assert usage.cost_usd == Decimal("0.00942") + Decimal("0.00155")
    assert usage.as_response() == {
        "modelCalls": 2,
        "inputTokens": 11_000,
        "outputTokens": 1_500,
        "imageTokens": 0,
        "costUsd": 0.01097,
    }


async def test_request_tally_cost_is_null_when_a_call_is_unpriced(store: Store) -> None:
    service = UsageService(store, NoopTracer())
    with service.for_request() as usage:
        await service.record(event())
        await service.record(event(model="somebody-elses-model"))
    assert usage.model_calls == 2 and usage.cost_usd is None
    assert usage.as_response()["costUsd"] is None


async def test_an_empty_request_costs_zero() -> None:
    with UsageService.for_request() as usage:
        pass
    assert usage.as_response() == {
        "modelCalls": 0,
        "inputTokens": 0,
        "outputTokens": 0,
        "imageTokens": 0,
        "costUsd": 0.0,
    }


async def test_metrics_by_purpose_and_model(store: Store) -> None:
    metrics = Metrics()
    service = UsageService(store, NoopTracer(metrics), metrics)
    await service.record(event(model="models/gemini-2.5-flash-001"))
    await service.record(event(success=False, error_kind="invalid_json"))
    labels = {"purpose": "PLANNING", "model": "gemini-2.5-flash"}
    sample = metrics.registry.get_sample_value
    assert sample("stepwise_model_calls_total", {**labels, "outcome": "ok"}) == 1.0
    assert sample("stepwise_model_calls_total", {**labels, "outcome": "invalid_json"}) == 1.0
    assert sample("stepwise_model_tokens_total", {**labels, "kind": "input"}) == 20_000
    assert sample("stepwise_model_tokens_total", {**labels, "kind": "thinking"}) == 4_000
    assert sample("stepwise_model_cost_usd_total", labels) == pytest.approx(2 * 0.00942)
    assert sample("stepwise_model_call_duration_seconds_count", labels) == 2.0
