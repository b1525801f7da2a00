"""The real sentry-sdk against the local fake Sentry ingest: unexpected errors are
reported once, with request/task/tenant/user context; expected 4xx never are."""

from __future__ import annotations

import asyncio

from fastapi import FastAPI

from agent.errors import ServiceUnavailable, StepwiseError
from app.deps import Context
from observability import bind_identity, bind_ids, hide_more
from observability.errors import flush_sentry
from tests.integration.observability.conftest import AppFactory
from tests.support.fake_sentry import FakeSentry

SECRET_PAGE = "secret page text of patient John Doe"


def failing_routes(app: FastAPI) -> None:
    """Routes that fail on purpose, registered on the app under test."""

    @app.get("/test/boom")
    async def boom(ctx: Context) -> None:
        bind_identity(ctx.tenant_id, ctx.user_id)  # what the auth dependency does
        bind_ids(session_id="session-1", task_id="task-1")  # what the agent service does
        page = SECRET_PAGE  # a local the report must not carry
        raise RuntimeError(f"injected failure after reading {len(page)} chars")

    @app.get("/test/boom-with-a-secret")
    async def boom_with_a_secret() -> None:
        hide_more({1: "Quokka-hunter7"})  # what the agent does with a task's password
        raise RuntimeError("could not type Quokka-hunter7 (card 4111 1111 1111 1111)")

    @app.post("/test/boom-with-body")
    async def boom_with_body(body: dict[str, str]) -> None:
        raise RuntimeError("injected failure with a request body")

    @app.get("/test/conflict")
    async def conflict() -> None:
        raise StepwiseError("expected refusal", status_code=409, code="TASK_FINISHED")

    @app.get("/test/unavailable")
    async def unavailable() -> None:
        raise ServiceUnavailable("dependency down")


async def test_unhandled_error_is_one_event_with_context_and_a_500_in_the_error_shape(
    make_app: AppFactory, fake_sentry: FakeSentry
) -> None:
    observed = await make_app(
        configure=failing_routes, sentry_dsn=fake_sentry.dsn, release="stepwise@9.9.9"
    )
    assert observed.observability.sentry_enabled

    response = await observed.client.get(
        "/test/boom", headers={**observed.headers(), "X-Request-ID": "req-42"}
    )
    assert response.status_code == 500
    assert response.json() == {
        "error": {
            "code": "INTERNAL_ERROR",
            "message": "Internal server error; it has been reported",
            "details": {},
        }
    }

    flush_sentry()
    [event] = fake_sentry.wait_for_events(1)
    assert event["exception"]["values"][-1]["type"] == "RuntimeError"
    assert event["environment"] == "test" and event["release"] == "stepwise@9.9.9"
    assert event["tags"] == {
        "request_id": "req-42",
        "session_id": "session-1",
        "task_id": "task-1",
        "tenant_id": "tenant-a",
        "user_id": "alice",
    }
    assert event["user"] == {"id": "alice", "tenant_id": "tenant-a"}
    assert event["transaction"] == "/test/boom", "the route template names the error"
    assert SECRET_PAGE not in str(event), "frame locals are not sent"
    assert observed.key_a not in str(event), "the API key is scrubbed"


async def test_expected_errors_and_404s_are_never_reported(
    make_app: AppFactory, fake_sentry: FakeSentry
) -> None:
    observed = await make_app(configure=failing_routes, sentry_dsn=fake_sentry.dsn)
    client = observed.client
    assert (await client.get("/no/such/route")).status_code == 404
    assert (await client.get("/api/tasks/nope", headers=observed.headers())).status_code == 404
    assert (
        await client.get("/api/usage", params={"groupBy": "user"}, headers=observed.headers())
    ).status_code == 422
    assert (await client.get("/api/usage")).status_code == 401
    assert (await client.get("/test/conflict")).status_code == 409

    assert (await client.get("/test/unavailable")).status_code == 503  # a 5xx is reported
    flush_sentry()
    await asyncio.sleep(0.1)
    [event] = fake_sentry.wait_for_events(1)
    assert event["exception"]["values"][-1]["type"] == "ServiceUnavailable"


async def test_request_bodies_are_never_sent(make_app: AppFactory, fake_sentry: FakeSentry) -> None:
    observed = await make_app(configure=failing_routes, sentry_dsn=fake_sentry.dsn)
    response = await observed.client.post("/test/boom-with-body", json={"dom": SECRET_PAGE})
    assert response.status_code == 500
    flush_sentry()
    [event] = fake_sentry.wait_for_events(1)
    assert SECRET_PAGE not in str(event)
    assert not event["request"].get("data")


async def test_llm_integrations_are_off(make_app: AppFactory, fake_sentry: FakeSentry) -> None:
    import sentry_sdk

    await make_app(sentry_dsn=fake_sentry.dsn)
    client = sentry_sdk.get_client()
    for name in ("google_genai", "langchain", "langgraph", "httpx", "openai"):
        assert client.get_integration(name) is None, name
    assert client.get_integration("fastapi") is not None
    collection = client.options["data_collection"]
    assert (
        collection["provided_by_user"]
        and not collection["user_info"]
        and not collection["stack_frame_variables"]
    )
    assert collection["http_bodies"] == [] and collection["gen_ai"] == {
        "inputs": False,
        "outputs": False,
    }
    assert client.should_send_default_pii() is False
    assert client.options["trace_propagation_targets"] == []


async def test_without_a_dsn_nothing_is_initialised(make_app: AppFactory) -> None:
    import sentry_sdk

    observed = await make_app()
    assert observed.observability.sentry_enabled is False
    assert sentry_sdk.get_client().is_active() is False


async def test_an_error_report_shows_a_secret_only_as_its_placeholder(make_app: AppFactory, fake_sentry: FakeSentry) -> None:
    observed = await make_app(configure=failing_routes, sentry_dsn=fake_sentry.dsn)
    response = await observed.client.get("/test/boom-with-a-secret", headers=observed.headers())
    assert response.status_code == 500
    flush_sentry()
    [event] = fake_sentry.wait_for_events(1)
    text = str(event)
    assert "Quokka-hunter7" not in text and "4111 1111 1111 1111" not in text
    assert event["exception"]["values"][-1]["value"] == "could not type [secret:1] (card [secret])"
