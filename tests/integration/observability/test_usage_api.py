"""GET /api/usage, the shared report service, task cost and the ``stepwise usage`` CLI."""

from __future__ import annotations

import argparse
import asyncio
import io
import json
from datetime import UTC, datetime, timedelta

import pytest

from cost import task_cost
from cost.cli import add_usage_arguments, usage_command
from storage import SqliteStore, Store, UsageLog, utcnow
from tests.integration.observability.conftest import AppFactory, ObservedApp


def usage(
    tenant: str,
    *,
    at: datetime,
    model: str = "gemini-2.5-flash",
    action: str = "PLANNING",
    task: str | None = "task-1",
    tokens: tuple[int, int] = (1_000, 100),
    cost: float | None = 0.00055,
    images: int = 0,
) -> UsageLog:
    return UsageLog(
        tenant_id=tenant,
        user_id="alice",
        task_id=task,
        action_type=action,
        provider="google",
        model=model,
        input_tokens=tokens[0],
        output_tokens=tokens[1],
        total_tokens=sum(tokens),
        image_tokens=images,
        cost_usd=cost,
        created_at=at,
    )


async def seed(store: Store, now: datetime) -> None:
    day = timedelta(days=1)
    for log in (
        usage("tenant-a", at=now - 2 * day),
        usage("tenant-a", at=now - 2 * day, action="VERIFICATION", tokens=(500, 20), cost=0.0002),
        usage(
            "tenant-a",
            at=now - 1 * day,
            model="gemini-2.5-pro",
            task="task-2",
            tokens=(2_000, 300),
            cost=0.0055,
            images=1_290,  # a screenshot in hybrid mode
        ),
        usage("tenant-a", at=now - 40 * day),  # outside the default 30 days
        usage("tenant-b", at=now - 1 * day, tokens=(9_999, 9_999), cost=1.0),  # another tenant
    ):
        await store.usage.add(log)


@pytest.fixture
async def api(make_app: AppFactory) -> ObservedApp:
    observed = await make_app()
    await seed(observed.store, utcnow())
    return observed


async def test_default_is_last_30_days_by_day(api: ObservedApp) -> None:
    response = await api.client.get("/api/usage", headers=api.headers())
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["groupBy"] == "day"
    start, end = datetime.fromisoformat(body["from"]), datetime.fromisoformat(body["to"])
    assert end - start == timedelta(days=30)
    assert [g["calls"] for g in body["groups"]] == [2, 1]
    assert body["totals"] == {
        "calls": 3,
        "inputTokens": 3_500,
        "outputTokens": 420,
        "totalTokens": 3_920,
        "imageTokens": 1_290,
        "costUsd": pytest.approx(0.00625),
    }
    assert set(body["groups"][0]) == {
        "key",
        "calls",
        "inputTokens",
        "outputTokens",
        "totalTokens",
        "imageTokens",
        "costUsd",
    }
    assert [g["imageTokens"] for g in body["groups"]] == [0, 1_290]


@pytest.mark.parametrize(
    ("group_by", "keys"),
    [
        ("model", ["gemini-2.5-flash", "gemini-2.5-pro"]),
        ("actionType", ["PLANNING", "VERIFICATION"]),
        ("task", ["task-1", "task-2"]),
    ],
)
async def test_group_by(api: ObservedApp, group_by: str, keys: list[str]) -> None:
    response = await api.client.get(
        "/api/usage", params={"groupBy": group_by}, headers=api.headers()
    )
    assert response.status_code == 200, response.text
    assert [g["key"] for g in response.json()["groups"]] == keys


async def test_explicit_dates_include_the_whole_to_day(api: ObservedApp) -> None:
    today = utcnow().date()
    params = {
        "from": (today - timedelta(days=60)).isoformat(),
        "to": today.isoformat(),
        "groupBy": "model",
    }
    body = (await api.client.get("/api/usage", params=params, headers=api.headers())).json()
    assert body["totals"]["calls"] == 4  # the 40-day-old call too
    assert datetime.fromisoformat(body["to"]) == datetime.combine(
        today + timedelta(days=1), datetime.min.time(), UTC
    )


async def test_datetimes_are_accepted_with_offsets(api: ObservedApp) -> None:
    now = utcnow()
    params = {
        "from": (now - timedelta(days=1, hours=1)).isoformat(),
        "to": now.isoformat().replace("+00:00", "Z"),
    }
    body = (await api.client.get("/api/usage", params=params, headers=api.headers())).json()
    assert body["totals"]["calls"] == 1


async def test_tenant_scoped(api: ObservedApp) -> None:
    body = (await api.client.get("/api/usage", headers=api.headers(api.key_b))).json()
    assert body["totals"]["calls"] == 1 and body["totals"]["costUsd"] == 1.0


async def test_unpriced_calls_make_the_cost_unknown_not_wrong(api: ObservedApp) -> None:
    await api.store.usage.add(
        usage("tenant-a", at=utcnow() - timedelta(hours=1), model="mystery-model", cost=None)
    )
    body = (
        await api.client.get("/api/usage", params={"groupBy": "model"}, headers=api.headers())
    ).json()
    by_key = {g["key"]: g["costUsd"] for g in body["groups"]}
    assert by_key["mystery-model"] is None and by_key["gemini-2.5-pro"] == pytest.approx(0.0055)
    assert body["totals"]["costUsd"] is None


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"from": "yesterday"}, "query.from"),
        ({"to": "2026-13-01"}, "query.to"),
        ({"from": "2026-11-02", "to": "2026-11-01"}, "query.from"),
        ({"groupBy": "user"}, "query.groupBy"),
    ],
)
async def test_bad_queries_are_422_in_the_error_shape(
    api: ObservedApp, params: dict[str, str], field: str
) -> None:
    response = await api.client.get("/api/usage", params=params, headers=api.headers())
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_FAILED"
    assert error["message"]
    assert error["details"]["errors"][0]["field"] == field


async def test_needs_an_api_key(api: ObservedApp) -> None:
    response = await api.client.get("/api/usage")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "UNAUTHORIZED"


async def test_task_cost(api: ObservedApp) -> None:
    cost = await task_cost(api.store, "tenant-a", "task-1")
    assert (cost.calls, cost.tokens, cost.input_tokens, cost.output_tokens) == (
        3,
        2_720,
        2_500,
        220,
    )
    assert cost.cost_usd == pytest.approx(0.0013)
    assert cost.image_tokens == 0
    assert (await task_cost(api.store, "tenant-a", "task-2")).image_tokens == 1_290
    other_tenant = await task_cost(api.store, "tenant-b", "task-2")
    assert (other_tenant.calls, other_tenant.cost_usd) == (0, 0.0)


async def test_cli_prints_the_api_report(api: ObservedApp, db_url: str) -> None:
    parser = argparse.ArgumentParser()
    add_usage_arguments(parser)
    args = parser.parse_args(["--tenant", "tenant-a", "--group-by", "model", "--json"])
    out = io.StringIO()
    # the CLI runs its own event loop (asyncio.run), so here it runs in a thread
    assert (
        await asyncio.to_thread(usage_command, args, store=SqliteStore.from_url(db_url), out=out)
        == 0
    )
    report = json.loads(out.getvalue())
    api_body = (
        await api.client.get("/api/usage", params={"groupBy": "model"}, headers=api.headers())
    ).json()
    assert report["groups"] == api_body["groups"] and report["totals"] == api_body["totals"]

    table = io.StringIO()
    args = parser.parse_args(["--tenant", "tenant-a", "--group-by", "actionType"])
    assert (
        await asyncio.to_thread(usage_command, args, store=SqliteStore.from_url(db_url), out=table)
        == 0
    )
    assert "VERIFICATION" in table.getvalue() and "TOTAL" in table.getvalue()


def test_cli_rejects_bad_dates(capsys: pytest.CaptureFixture[str], db_url: str) -> None:
    parser = argparse.ArgumentParser()
    add_usage_arguments(parser)
    args = parser.parse_args(["--tenant", "t", "--from", "last week"])
    assert usage_command(args, store=SqliteStore.from_url(db_url)) == 2
    assert "from" in capsys.readouterr().err
