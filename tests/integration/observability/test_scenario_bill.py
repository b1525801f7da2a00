"""A whole task with a (scripted) model: every model call is a billed row with the right
cost, the trace tree follows the graph path, metrics agree — and none of it depends on
LangFuse or Sentry being up."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from cost.pricing import price_call, to_stored_usd
from tests.integration.api.test_scenarios import PATIENT_PAGES, _model
from tests.integration.observability.conftest import AppFactory, ObservedApp
from tests.support.fake_langfuse import FakeLangfuse
from tests.support.fake_sentry import FakeSentry
from tests.support.scenario_model import ScenarioModel

GOAL = 'Add a new patient named "Jas"'


async def _run_patient_task(observed: ObservedApp, model: ScenarioModel) -> list[dict[str, Any]]:
    model.sink = observed.app.state.usage_service
    observed.app.state.agent_deps.gateway = model
    bodies: list[dict[str, Any]] = []
    ids: dict[str, str] = {}
    for url, html in PATIENT_PAGES:
        body = {"url": url, "dom": html, **ids} | ({} if ids else {"query": GOAL})
        response = await observed.client.post("/api/agent/interact", json=body, headers=observed.headers())
        assert response.status_code == 200, response.text
        bodies.append(response.json())
        ids = {"taskId": bodies[-1]["taskId"], "sessionId": bodies[-1]["sessionId"]}
    assert bodies[-1]["status"] == "completed"
    return bodies


async def test_bill_trace_and_metrics_of_a_scripted_task(
    make_app: AppFactory, fake_langfuse: FakeLangfuse, fake_sentry: FakeSentry
) -> None:
    observed = await make_app(
        langfuse_public_key=fake_langfuse.public_key,
        langfuse_secret_key="sk-lf-test",
        langfuse_host=fake_langfuse.url,
        sentry_dsn=fake_sentry.dsn,
        rate_limit_per_minute=1000,
    )
    model = _model()
    bodies = await _run_patient_task(observed, model)
    task_id = bodies[0]["taskId"]

    rows = await observed.store.usage.list_for_task("tenant-a", task_id)
    assert len(rows) == len(model.calls) > 0
    for row in rows:
        expected = price_call(row.model, row.input_tokens, row.output_tokens, row.cached_tokens, row.thinking_tokens)
        assert expected is not None and row.cost_usd == to_stored_usd(expected)
        assert row.tenant_id == "tenant-a" and row.task_id == task_id and row.trace_id
    total = sum((Decimal(str(r.cost_usd)) for r in rows), Decimal(0))
    detail = (await observed.client.get(f"/api/tasks/{task_id}", headers=observed.headers())).json()
    assert abs(Decimal(str(detail["cost"]["costUsd"])) - total) < Decimal("1e-9")

    observed.tracer.flush()
    name = f"interact-request-{task_id}"
    fake_langfuse.wait_for(lambda f: len(f.named(name)) == len(bodies))
    roots = sorted(fake_langfuse.named(name), key=lambda s: s.start_ns)
    first_path = [s.name for s in fake_langfuse.children(roots[0])]
    assert first_path[:6] == ["contract", "recall", "contingency", "complexity_check", "context_analysis", "planning"]
    assert first_path[-1] == "finalize"
    last_path = [s.name for s in fake_langfuse.children(roots[-1])]
    assert last_path == ["verification", "goal_check", "goal_achieved", "finalize"]
    generations = [s for root in roots for s in fake_langfuse.trace(root.trace_id) if s.attributes.get("langfuse.observation.type") == "generation"]
    assert len(generations) == len(rows)

    metrics = (await observed.client.get("/metrics")).text
    assert 'stepwise_tasks_finished_total{status="completed"} 1.0' in metrics
    assert fake_sentry.events == []  # nothing went wrong: nothing reported


async def test_langfuse_and_sentry_down_the_task_runs_and_is_billed(make_app: AppFactory, closed_port: int) -> None:
    observed = await make_app(
        langfuse_public_key="pk-lf-down",
        langfuse_secret_key="sk-lf-down",
        langfuse_host=f"http://127.0.0.1:{closed_port}",
        sentry_dsn=f"http://public@127.0.0.1:{closed_port}/1",
        rate_limit_per_minute=1000,
    )
    model = _model()
    bodies = await _run_patient_task(observed, model)
    rows = await observed.store.usage.list_for_task("tenant-a", bodies[0]["taskId"])
    assert len(rows) == len(model.calls) > 0
