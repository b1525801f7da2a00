"""Token usage log and billing rollups."""

from __future__ import annotations

import pytest

from datetime import datetime

from storage import DuplicateKey, Store, UsageLog, UsageTotals
from tests.integration.storage.builders import TENANT_A, TENANT_B, at, usage


def _row(
    model: str,
    action_type: str,
    task_id: str | None,
    tokens: tuple[int, int],
    cost: float | None,
    created_at: datetime,
    tenant_id: str = TENANT_A,
) -> UsageLog:
    return usage(
        tenant_id,
        model=model,
        action_type=action_type,
        task_id=task_id,
        input_tokens=tokens[0],
        output_tokens=tokens[1],
        total_tokens=sum(tokens),
        cost_usd=cost,
        created_at=created_at,
    )


@pytest.fixture
async def logged(store: Store) -> Store:
    rows = [
        _row("flash", "PLANNING", "t1", (100, 10), 0.1, at(1, 0, 0)),
        _row("flash", "VERIFICATION", "t1", (50, 5), 0.2, at(1, 23, 59)),
        _row("pro", "PLANNING", "t2", (200, 20), None, at(2, 0, 1)),  # unknown price
        _row("pro", "PLANNING", None, (1, 1), 0.3, at(2, 10)),
        _row("flash", "PLANNING", "t1", (7, 7), 0.4, at(3, 0, 0)),  # == end: excluded
        _row("flash", "PLANNING", "t1", (999, 999), 9.0, at(1, 12), tenant_id=TENANT_B),
    ]
    for row in rows:
        await store.usage.add(row)
    return store


def _by_key(totals: list[UsageTotals]) -> dict[str, tuple[int, int, int, int, float | None]]:
    return {
        t.key: (t.calls, t.input_tokens, t.output_tokens, t.total_tokens,
                None if t.cost_usd is None else pytest.approx(t.cost_usd))
        for t in totals
    }


async def test_totals_by_day_use_utc_dates_and_a_half_open_range(logged: Store) -> None:
    totals = await logged.usage.totals(TENANT_A, at(1, 0, 0), at(3, 0, 0), "day")
    assert [t.key for t in totals] == ["2026-03-01", "2026-03-02"]
    assert _by_key(totals) == {
        "2026-03-01": (2, 150, 15, 165, pytest.approx(0.3)),
        "2026-03-02": (2, 201, 21, 222, None),  # one unpriced call makes the day's cost unknown
    }


async def test_totals_by_model_action_type_and_task(logged: Store) -> None:
    start, end = at(1, 0, 0), at(3, 0, 0)
    assert _by_key(await logged.usage.totals(TENANT_A, start, end, "model")) == {
        "flash": (2, 150, 15, 165, pytest.approx(0.3)),
        "pro": (2, 201, 21, 222, None),
    }
    assert _by_key(await logged.usage.totals(TENANT_A, start, end, "actionType")) == {
        "PLANNING": (3, 301, 31, 332, None),
        "VERIFICATION": (1, 50, 5, 55, pytest.approx(0.2)),
    }
    assert _by_key(await logged.usage.totals(TENANT_A, start, end, "task")) == {
        "": (1, 1, 1, 2, pytest.approx(0.3)),  # calls outside any task
        "t1": (2, 150, 15, 165, pytest.approx(0.3)),
        "t2": (1, 200, 20, 220, None),
    }


async def test_totals_of_an_empty_range_or_another_tenant_are_empty(logged: Store) -> None:
    assert await logged.usage.totals(TENANT_A, at(10), at(11), "day") == []
    assert await logged.usage.totals("tenant-c", at(1, 0, 0), at(3, 0, 0), "model") == []


async def test_list_for_task_is_oldest_first_and_tenant_scoped(logged: Store) -> None:
    rows = await logged.usage.list_for_task(TENANT_A, "t1")
    assert [r.action_type for r in rows] == ["PLANNING", "VERIFICATION", "PLANNING"]
    assert [r.input_tokens for r in await logged.usage.list_for_task(TENANT_B, "t1")] == [999]


async def test_usage_rows_are_immutable(store: Store) -> None:
    row = usage(cost_usd=0.5)
    await store.usage.add(row)
    with pytest.raises(DuplicateKey):
        await store.usage.add(row.model_copy(update={"cost_usd": 0.0}))


async def test_totals_sum_the_image_tokens_of_screenshots(store: Store) -> None:
    """A screenshot sent in hybrid mode is billed as input; the rollup says how much of it."""
    shot = usage(TENANT_A, task_id="t1", input_tokens=1_400, output_tokens=20, total_tokens=1_420, image_tokens=1_290, created_at=at(1, 9))
    text = usage(TENANT_A, task_id="t1", input_tokens=300, output_tokens=10, total_tokens=310, created_at=at(1, 10))
    other = usage(TENANT_B, task_id="t1", input_tokens=900, output_tokens=9, total_tokens=909, image_tokens=800, created_at=at(1, 11))
    for row in (shot, text, other):
        await store.usage.add(row)
    [day] = await store.usage.totals(TENANT_A, at(1, 0, 0), at(2, 0, 0), "day")
    assert (day.calls, day.input_tokens, day.image_tokens) == (2, 1_700, 1_290)
    assert [t.image_tokens for t in await store.usage.totals(TENANT_A, at(1, 0, 0), at(2, 0, 0), "task")] == [1_290]
