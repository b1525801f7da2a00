"""GET /metrics: request latency by route template, model usage, node timings."""

from __future__ import annotations

from datetime import UTC, datetime

from agent.llm import CallContext, UsageEvent
from observability import traced_node
from tests.integration.observability.conftest import AppFactory


async def test_metrics_exposition(make_app: AppFactory) -> None:
    observed = await make_app()
    client = observed.client
    assert (await client.get("/healthz")).status_code == 200
    assert (await client.get("/api/tasks/task-123", headers=observed.headers())).status_code == 404
    assert (await client.get("/definitely/not/a/route")).status_code == 404

    await observed.usage_service.record(
        UsageEvent(
            purpose="ACTION_GENERATION",
            model="gemini-2.5-flash",
            input_tokens=1_000,
            output_tokens=100,
            cached_tokens=0,
            thinking_tokens=0,
            total_tokens=1_100,
            latency_ms=420,
            success=True,
            error_kind=None,
            ctx=CallContext(tenant_id="tenant-a", task_id="task-1"),
            occurred_at=datetime.now(UTC),
        )
    )

    async def node(state: dict[str, object]) -> dict[str, object]:
        return {}

    async with observed.tracer.start_trace("interact-request-task-1"):
        await traced_node("planning", node)({})

    response = await client.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    text = response.text
    assert (
        'stepwise_http_request_duration_seconds_count{method="GET",route="/healthz",status="200"} 1.0'
        in text
    )
    assert (
        'stepwise_http_request_duration_seconds_count{method="GET",route="/api/tasks/{task_id}",status="404"} 1.0'
        in text
    )
    assert (
        'stepwise_http_request_duration_seconds_count{method="GET",route="<unmatched>",status="404"} 1.0'
        in text
    )
    assert "task-123" not in text and "/definitely" not in text, "raw paths never become labels"
    # (label names are rendered in alphabetical order)
    assert (
        'stepwise_model_calls_total{model="gemini-2.5-flash",outcome="ok",purpose="ACTION_GENERATION"} 1.0'
        in text
    )
    assert (
        'stepwise_model_cost_usd_total{model="gemini-2.5-flash",purpose="ACTION_GENERATION"} 0.00055'
        in text
    )
    assert (
        'stepwise_model_tokens_total{kind="input",model="gemini-2.5-flash",purpose="ACTION_GENERATION"} 1000.0'
        in text
    )
    assert (
        'stepwise_model_call_duration_seconds_count{model="gemini-2.5-flash",purpose="ACTION_GENERATION"} 1.0'
        in text
    )
    assert 'stepwise_graph_node_duration_seconds_count{node="planning",outcome="ok"} 1.0' in text
    for name in (
        "stepwise_verifications_total",
        "stepwise_tasks_finished_total",
        "stepwise_corrections_total",
    ):
        assert f"# TYPE {name} counter" in text


async def test_openmetrics_on_request(make_app: AppFactory) -> None:
    observed = await make_app()
    response = await observed.client.get(
        "/metrics", headers={"Accept": "application/openmetrics-text; version=1.0.0"}
    )
    assert response.headers["content-type"].startswith("application/openmetrics-text")
    assert response.text.rstrip().endswith("# EOF")


async def test_each_app_has_its_own_registry(make_app: AppFactory) -> None:
    first = await make_app()
    second = await make_app()
    await first.client.get("/healthz")
    assert first.metrics.registry is not second.metrics.registry
    sample = {"method": "GET", "route": "/healthz", "status": "200"}
    assert (
        first.metrics.registry.get_sample_value(
            "stepwise_http_request_duration_seconds_count", sample
        )
        == 1.0
    )
    assert (
        second.metrics.registry.get_sample_value(
            "stepwise_http_request_duration_seconds_count", sample
        )
        is None
    )
