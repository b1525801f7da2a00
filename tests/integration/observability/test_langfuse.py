"""The real langfuse SDK against the local fake LangFuse: trace tree, generations, scores,
the error rule, and the dual write when either side is down."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict, cast

import pytest
from google.protobuf import json_format
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from pydantic import BaseModel, ConfigDict, Field

from agent.llm import CallContext, DataBlock, GeminiGateway, LLMGateway, Prompt, ScriptedGateway
from app.settings import Settings
from cost import RequestUsage, UsageService, price_call
from observability import (
    LangfuseTracer,
    Metrics,
    NoopTracer,
    build_tracer,
    current_trace_id,
    hide_secrets,
    interact_trace_name,
    record_correction,
    record_task_finished,
    record_verification,
    traced_node,
)
from storage import SqliteStore, Store, StoreUnavailable, UsageLog
from tests.support.fake_gemini import FakeGemini, ok
from tests.support.fake_langfuse import OTEL_PATH, FakeLangfuse, FakeSpan, decode_otlp

TENANT, USER, SESSION, TASK = "tenant-a", "alice", "session-1", "task-1"
PAGE = "<html>" + "x" * 100_000 + "</html>"


class Plan(BaseModel):
    model_config = ConfigDict(extra="forbid")
    steps: list[str] = Field(description="Plan steps.")


class State(TypedDict, total=False):
    query: str
    dom: str
    step_index: int
    complexity: str
    plan: list[str]
    verified: bool


@dataclass(frozen=True)
class Context:
    gateway: LLMGateway


def call_ctx() -> CallContext:
    return CallContext(
        tenant_id=TENANT,
        user_id=USER,
        session_id=SESSION,
        task_id=TASK,
        trace_id=current_trace_id(),
    )


async def complexity_check(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    return {"complexity": "COMPLEX"}


async def planning(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    prompt = Prompt(instructions="Plan the task.", blocks=[DataBlock("goal", state["query"])])
    generation = await runtime.context.gateway.generate("PLANNING", Plan, prompt, ctx=call_ctx())
    return {"plan": generation.output.steps}


async def verification(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    record_verification(tier=2, success=True, confidence=0.92, comment="form saved")
    record_correction(strategy="RETRY_WITH_SELECTOR", success=True)
    return {"verified": True}


async def finalize(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
    record_task_finished("completed")
    return {}


def build_graph(nodes: dict[str, Callable[..., Any]]) -> Any:
    graph = StateGraph(State, context_schema=Context)
    names = list(nodes)
    for name, fn in nodes.items():
        graph.add_node(name, traced_node(name, fn))
    graph.add_edge(START, names[0])
    for before, after in itertools.pairwise(names):
        graph.add_edge(before, after)
    graph.add_edge(names[-1], END)
    return graph.compile()


@dataclass
class Rig:
    fake: FakeLangfuse
    tracer: LangfuseTracer
    store: Store
    metrics: Metrics
    usage: UsageService
    closers: list[Callable[[], Any]] = field(default_factory=list)


@pytest.fixture
async def rig(fake_langfuse: FakeLangfuse, tmp_path: Path) -> AsyncIterator[Rig]:
    metrics = Metrics()
    tracer = LangfuseTracer.connect(
        public_key=fake_langfuse.public_key,
        secret_key="sk-lf-test",
        host=fake_langfuse.url,
        environment="test",
        release="stepwise@test",
        metrics=metrics,
    )
    store = SqliteStore.from_url(f"sqlite:///{tmp_path / 'stepwise.db'}")
    await store.init()
    yield Rig(fake_langfuse, tracer, store, metrics, UsageService(store, tracer, metrics))
    await tracer.aclose()
    await store.close()


async def run_request(rig: Rig, gateway: LLMGateway) -> tuple[str, RequestUsage]:
    """What ``agent.service.interact`` does once wired: one trace and one usage tally per
    request around the graph run."""
    graph = build_graph(
        {
            "complexity_check": complexity_check,
            "planning": planning,
            "verification": verification,
            "finalize": finalize,
        }
    )
    async with rig.tracer.start_trace(
        interact_trace_name(TASK), task_id=TASK, session_id=SESSION, user_id=USER, tenant_id=TENANT
    ) as trace:
        with rig.usage.for_request() as usage:
            await graph.ainvoke(
                {"query": "Save the new patient", "dom": PAGE, "step_index": 0},
                context=Context(gateway),
            )
        trace.set_output({"status": "completed", "usage": usage.as_response()})
        trace_id = trace.trace_id
    assert trace_id is not None
    rig.tracer.flush()
    return trace_id, usage


async def test_one_trace_per_request_with_node_spans_generations_and_scores(rig: Rig) -> None:
    gateway = ScriptedGateway(
        {"PLANNING": [{"steps": ["fill name", "click save"]}]},
        model="gemini-2.5-flash",
        usage_sink=rig.usage,
    )
    trace_id, request_usage = await run_request(rig, gateway)
    fake = rig.fake
    fake.wait_for(lambda f: len(f.spans) == 6 and len(f.scores) == 3)

    root = fake.root("interact-request-task-1")
    assert root.trace_id == trace_id
    assert {s.trace_id for s in fake.spans} == {trace_id}, "one trace per request"
    assert root.json_attr("langfuse.observation.output") == {
        "status": "completed",
        "usage": request_usage.as_response(),
    }
    assert root.metadata("tenant_id") == TENANT and root.metadata("task_id") == TASK

    nodes = fake.children(root)
    assert [n.name for n in nodes] == ["complexity_check", "planning", "verification", "finalize"]
    assert all(n.observation_type == "span" for n in nodes)
    for span in fake.spans:  # trace-level attributes reach every observation
        assert (span.attributes["user.id"], span.attributes["session.id"]) == (USER, SESSION)
        assert span.attributes["langfuse.trace.name"] == "interact-request-task-1"

    planning_span = nodes[1]
    inputs = planning_span.json_attr("langfuse.observation.input")
    assert inputs == {
        "dom": "<str len=100013>",
        "query": "Save the new patient",
        "step_index": 0,
        "complexity": "COMPLEX",
    }
    assert planning_span.json_attr("langfuse.observation.output") == {"plan": "<list len=2>"}

    [generation] = fake.children(planning_span)
    assert generation.name == "PLANNING" and generation.observation_type == "generation"
    assert generation.attributes["langfuse.observation.model.name"] == "gemini-2.5-flash"
    assert (
        planning_span.start_ns <= generation.start_ns <= generation.end_ns <= planning_span.end_ns
    )
    [row] = await rig.store.usage.list_for_task(TENANT, TASK)
    usage = generation.json_attr("langfuse.observation.usage_details")
    assert (usage["input"], usage["output"], usage["total"]) == (
        row.input_tokens,
        row.output_tokens,
        row.total_tokens,
    )
    cost = generation.json_attr("langfuse.observation.cost_details")
    expected = price_call("gemini-2.5-flash", row.input_tokens, row.output_tokens)
    assert expected is not None and cost["total"] == pytest.approx(float(expected))
    assert row.trace_id == trace_id, "the billing row links to its trace"
    assert (request_usage.model_calls, request_usage.input_tokens) == (1, row.input_tokens), (
        "tallied across graph tasks"
    )
    assert request_usage.as_response()["costUsd"] == row.cost_usd

    verification_span = nodes[2]
    scores = {s["name"]: s for s in fake.scores}
    assert set(scores) == {"verification_success", "verification_confidence", "correction_success"}
    assert (
        scores["verification_success"]["dataType"] == "BOOLEAN"
        and scores["verification_success"]["value"] == 1.0
    )
    assert scores["verification_success"]["comment"] == "form saved"
    assert scores["verification_confidence"]["value"] == pytest.approx(0.92)
    assert scores["correction_success"]["value"] == 1.0
    for score in scores.values():
        assert score["traceId"] == trace_id and score["observationId"] == verification_span.span_id

    sample = rig.metrics.registry.get_sample_value
    assert (
        sample("stepwise_graph_node_duration_seconds_count", {"node": "planning", "outcome": "ok"})
        == 1.0
    )
    assert sample("stepwise_verifications_total", {"tier": "2", "result": "success"}) == 1.0
    assert (
        sample(
            "stepwise_corrections_total",
            {"strategy": "RETRY_WITH_SELECTOR", "outcome": "succeeded"},
        )
        == 1.0
    )
    assert sample("stepwise_tasks_finished_total", {"status": "completed"}) == 1.0

    auth = {r.headers.get("authorization") for r in fake.requests}
    [header] = auth
    assert header is not None and header.startswith("Basic ")


async def test_real_gemini_gateway_usage_reaches_the_bill_and_the_trace(rig: Rig) -> None:
    with FakeGemini() as gemini:
        gemini.enqueue(
            ok(
                {"steps": ["a"]},
                prompt_tokens=12_000,
                cached_tokens=8_000,
                output_tokens=300,
                thoughts_tokens=700,
            )
        )
        gateway = GeminiGateway(
            api_key="test-key",
            model="models/gemini-2.5-flash-001",
            base_url=gemini.base_url,
            timeout_s=2.0,
            max_retries=0,
            rng=random.Random(0),
            usage_sink=rig.usage,
        )
        try:
            async with rig.tracer.start_trace(
                interact_trace_name(TASK), task_id=TASK, tenant_id=TENANT
            ):
                generation = await gateway.generate(
                    "PLANNING",
                    Plan,
                    Prompt(instructions="Plan.", blocks=[DataBlock("goal", "x")]),
                    ctx=call_ctx(),
                )
        finally:
            await gateway.aclose()
    assert generation.output.steps == ["a"]
    rig.tracer.flush()
    rig.fake.wait_for(lambda f: len(f.named("PLANNING")) == 1)

    [row] = await rig.store.usage.list_for_task(TENANT, TASK)
    # 4,000 fresh × 0.30 + 8,000 cached × 0.03 + (300 + 700 thinking) × 2.50, per million
    assert row.cost_usd == pytest.approx(0.00394, abs=1e-12)
    assert (row.input_tokens, row.cached_tokens, row.output_tokens, row.thinking_tokens) == (
        12_000,
        8_000,
        300,
        700,
    )
    span = rig.fake.one("PLANNING")
    assert span.json_attr("langfuse.observation.usage_details") == {
        "input": 4_000,
        "input_cached_tokens": 8_000,
        "output": 300,
        "output_reasoning_tokens": 700,
        "total": 13_000,
    }
    assert span.json_attr("langfuse.observation.cost_details")["total"] == pytest.approx(0.00394)
    assert span.attributes["langfuse.observation.model.name"] == "gemini-2.5-flash"
    assert span.duration_ms == pytest.approx(row.duration_ms, abs=1.0), (
        "the generation spans the call's latency"
    )


async def test_a_failing_node_is_marked_but_its_error_stays_out_of_langfuse(rig: Rig) -> None:
    async def broken(state: State, runtime: Runtime[Context]) -> dict[str, Any]:
        raise RuntimeError("secret page text: patient John Doe")

    graph = build_graph({"complexity_check": complexity_check, "broken": broken})
    with pytest.raises(RuntimeError, match="secret page text"):
        async with rig.tracer.start_trace(interact_trace_name(TASK), task_id=TASK):
            await graph.ainvoke({"query": "q"}, context=Context(ScriptedGateway()))
    rig.tracer.flush()
    rig.fake.wait_for(lambda f: len(f.spans) == 3)

    for span in (rig.fake.one("broken"), rig.fake.root("interact-request-task-1")):
        assert span.attributes["langfuse.observation.level"] == "ERROR"
        assert span.attributes["langfuse.observation.status_message"] == "raised RuntimeError"
        assert span.events == [], "no exception event (message, stack) is sent to LangFuse"
    assert "John Doe" not in str([s.attributes for s in rig.fake.spans])
    assert (
        rig.metrics.registry.get_sample_value(
            "stepwise_graph_node_duration_seconds_count", {"node": "broken", "outcome": "error"}
        )
        == 1.0
    )


def usage_event(**overrides: Any) -> Any:
    from agent.llm import UsageEvent

    values: dict[str, Any] = {
        "purpose": "VERIFICATION",
        "model": "gemini-2.5-flash",
        "input_tokens": 2_000,
        "output_tokens": 50,
        "cached_tokens": 0,
        "thinking_tokens": 0,
        "total_tokens": 2_050,
        "latency_ms": 120,
        "success": True,
        "error_kind": None,
        "ctx": CallContext(tenant_id=TENANT, user_id=USER, session_id=SESSION, task_id=TASK),
    }
    values.update(overrides)
    return UsageEvent(**values)


async def test_langfuse_down_the_row_is_still_written_and_nothing_raises(
    tmp_path: Path, closed_port: int
) -> None:
    tracer = LangfuseTracer.connect(
        public_key="pk-lf-down",
        secret_key="sk",
        host=f"http://127.0.0.1:{closed_port}",
        timeout_s=1,
    )
    store = SqliteStore.from_url(f"sqlite:///{tmp_path / 'down.db'}")
    await store.init()
    try:
        service = UsageService(store, tracer)
        async with tracer.start_trace(interact_trace_name(TASK), task_id=TASK):
            await service.record(usage_event())
        assert len(await store.usage.list_for_task(TENANT, TASK)) == 1
        started = time.monotonic()
        await tracer.aclose()  # export fails (connection refused): logged by the SDK, never raised
        assert time.monotonic() - started < 5
    finally:
        await store.close()


async def test_store_down_the_generation_is_still_sent(rig: Rig) -> None:
    class DownUsage:
        async def add(self, log: UsageLog) -> None:
            raise StoreUnavailable("database is down")

    @dataclass
    class DownStore:
        usage: DownUsage = field(default_factory=DownUsage)

    service = UsageService(cast(Store, DownStore()), rig.tracer, rig.metrics)
    await service.record(usage_event())  # no trace bound: the generation becomes its own trace
    rig.tracer.flush()
    rig.fake.wait_for(lambda f: len(f.named("VERIFICATION")) == 1)
    span: FakeSpan = rig.fake.one("VERIFICATION")
    assert span.observation_type == "generation" and span.parent_span_id is None
    assert (
        rig.metrics.registry.get_sample_value(
            "stepwise_usage_write_failures_total", {"sink": "store"}
        )
        == 1.0
    )


async def test_generation_joins_the_trace_named_in_its_context(rig: Rig) -> None:
    async with rig.tracer.start_trace(interact_trace_name(TASK), task_id=TASK) as trace:
        trace_id = trace.trace_id
    assert trace_id is not None
    # recorded later, outside the trace's context (e.g. a buffered write)
    await rig.usage.record(
        usage_event(ctx=CallContext(tenant_id=TENANT, task_id=TASK, trace_id=trace_id))
    )
    rig.tracer.flush()
    rig.fake.wait_for(lambda f: len(f.spans) == 2)
    assert rig.fake.one("VERIFICATION").trace_id == trace_id


def test_no_keys_means_the_noop_tracer() -> None:
    assert isinstance(build_tracer(Settings(env="test")), NoopTracer)
    assert isinstance(build_tracer(Settings(env="test", langfuse_public_key="pk-only")), NoopTracer)


async def test_noop_tracer_still_times_nodes_and_sends_nothing() -> None:
    metrics = Metrics()
    tracer = NoopTracer(metrics)
    graph = build_graph({"complexity_check": complexity_check, "finalize": finalize})
    async with tracer.start_trace(interact_trace_name(TASK)) as trace:
        assert trace.trace_id is None and current_trace_id() is None
        await graph.ainvoke({"query": "q"}, context=Context(ScriptedGateway()))
    sample = metrics.registry.get_sample_value
    assert (
        sample(
            "stepwise_graph_node_duration_seconds_count",
            {"node": "complexity_check", "outcome": "ok"},
        )
        == 1.0
    )
    assert sample("stepwise_tasks_finished_total", {"status": "completed"}) == 1.0


async def test_nodes_run_untraced_outside_a_request() -> None:
    graph = build_graph({"complexity_check": complexity_check})
    assert await graph.ainvoke({"query": "q"}, context=Context(ScriptedGateway())) == {
        "query": "q",
        "complexity": "COMPLEX",
    }


def test_traced_node_refuses_sync_functions() -> None:
    def sync_node(state: State) -> dict[str, Any]:
        return {}

    with pytest.raises(TypeError, match="async"):
        traced_node("sync", sync_node)  # type: ignore[type-var]


async def test_the_fake_decodes_otlp_json_like_protobuf(rig: Rig) -> None:
    async with rig.tracer.start_trace(interact_trace_name(TASK), task_id=TASK):
        pass
    rig.tracer.flush()
    rig.fake.wait_for(lambda f: len(f.spans) == 1)
    [request] = [r for r in rig.fake.requests if r.path == OTEL_PATH]
    assert request.headers["content-type"] == "application/x-protobuf"
    assert request.headers["content-encoding"] == "gzip"
    as_json = json_format.MessageToJson(ExportTraceServiceRequest.FromString(request.body))
    assert decode_otlp(as_json.encode(), "application/json") == rig.fake.spans


async def test_a_secret_reaches_langfuse_only_as_its_placeholder(rig: Rig) -> None:
    """Span input/output, trace output and score comments: the real SDK's ``mask`` and the
    score path show a registered secret as ``[secret:1]`` and a card number as ``[secret]``."""
    secret, card = "Quokka-hunter7", "4111 1111 1111 1111"
    with hide_secrets({1: secret}):
        async with rig.tracer.start_trace("secret-trace", task_id=TASK, input_summary={"goal": f"log in with {secret}"}) as trace:
            with trace.span("action_generation", input_summary={"action": f'setValue("2", "{secret}")'}) as span:
                span.set_output({"thought": f"type {secret}, pay with {card}"})
                trace.score("verification_success", True, comment=f"field holds {secret}")
            trace.set_output({"action": f'setValue("2", "{secret}")'})
    rig.tracer.flush()
    rig.fake.wait_for(lambda f: len(f.named("action_generation")) == 1 and len(f.scores) >= 1)
    for request in rig.fake.requests:
        assert secret.encode() not in request.body and card.encode() not in request.body
    [span] = rig.fake.named("action_generation")
    assert span.json_attr("langfuse.observation.input") == {"action": 'setValue("2", "[secret:1]")'}
    assert span.json_attr("langfuse.observation.output") == {"thought": "type [secret:1], pay with [secret]"}
    assert rig.fake.scores[-1]["comment"] == "field holds [secret:1]"
