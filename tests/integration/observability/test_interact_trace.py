"""End to end through ``POST /api/agent/interact``: each request is one LangFuse trace of
node spans, the verdict is scored, and the same run shows up in ``/metrics``.

"""

from __future__ import annotations

from tests.integration.observability.conftest import AppFactory
from tests.support.fake_langfuse import FakeLangfuse
from tests.support.pages import save_form

URL = "https://clinic.example/patients/new"


async def test_each_interact_request_is_one_trace_of_node_spans(
    make_app: AppFactory, fake_langfuse: FakeLangfuse
) -> None:
    observed = await make_app(
        langfuse_public_key=fake_langfuse.public_key,
        langfuse_secret_key="sk-lf-test",
        langfuse_host=fake_langfuse.url,
        rate_limit_per_minute=1000,
    )
    assert observed.tracer.enabled
    client, headers = observed.client, observed.headers()
    first = await client.post(
        "/api/agent/interact",
        json={"url": URL, "query": "Click the Save button", "dom": save_form()},
        headers=headers,
    )
    assert first.status_code == 200, first.text
    task_id = first.json()["taskId"]
    assert first.json()["usage"] == {
        "modelCalls": 0,
        "inputTokens": 0,
        "outputTokens": 0,
        "imageTokens": 0,
        "costUsd": 0.0,
    }
    second = await client.post(
        "/api/agent/interact",
        json={"url": URL, "taskId": task_id, "dom": save_form(toast="Patient saved")},
        headers=headers,
    )
    assert second.status_code == 200, second.text
    assert second.json()["status"] == "completed"

    observed.tracer.flush()
    name = f"interact-request-{task_id}"
    fake_langfuse.wait_for(lambda f: len(f.named(name)) == 2 and len(f.scores) >= 2)
    first_root, second_root = sorted(fake_langfuse.named(name), key=lambda s: s.start_ns)
    assert first_root.parent_span_id is None and second_root.parent_span_id is None
    assert first_root.trace_id != second_root.trace_id, "one trace per request"
    assert first_root.attributes["user.id"] == "alice"
    assert first_root.metadata("tenant_id") == "tenant-a"

    first_nodes = [s.name for s in fake_langfuse.children(first_root)]
    assert first_nodes[:2] == ["contract", "recall"] and first_nodes[-1] == "finalize"
    second_nodes = [s.name for s in fake_langfuse.children(second_root)]
    assert second_nodes[0] == "verification" and second_nodes[-1] == "finalize"
    verification_span = fake_langfuse.children(second_root)[0]
    scores = {s["name"]: s for s in fake_langfuse.scores if s["traceId"] == second_root.trace_id}
    assert scores["verification_success"]["value"] == 1.0
    assert scores["verification_success"]["observationId"] == verification_span.span_id
    page_html = save_form()
    for span in fake_langfuse.spans:  # node spans carry keys and small scalars, never the page
        assert page_html not in str(span.attributes) and "<button" not in str(span.attributes)

    metrics = (await client.get("/metrics")).text
    assert 'route="/api/agent/interact",status="200"} 2.0' in metrics
    assert 'stepwise_graph_node_duration_seconds_count{node="finalize",outcome="ok"} 2.0' in metrics
    assert 'stepwise_verifications_total{result="goal_achieved",tier="1"} 1.0' in metrics
    assert 'stepwise_tasks_finished_total{status="completed"} 1.0' in metrics
