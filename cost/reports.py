"""Usage rollups shared by ``GET /api/usage``, the ``stepwise usage`` CLI and task detail.

All reads are tenant-scoped repository calls; nothing here touches a driver."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

from storage import Store, UsageGroupBy, UsageTotals

GROUP_BY_VALUES: tuple[UsageGroupBy, ...] = ("day", "model", "actionType", "task")
DEFAULT_WINDOW = timedelta(days=30)
_TOTAL_QUANTUM = Decimal("0.0000000001")  # the store's rollup precision (1e-10)


class InvalidUsageQuery(ValueError):
    """A bad ``from``/``to``/``groupBy``; ``field`` names the parameter."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True, slots=True)
class UsageGroup:
    key: str
    calls: int
    input_tokens: int
    output_tokens: int
    total_tokens: int
    cost_usd: float | None
    """``None`` when any call in the group has no known price."""
    image_tokens: int = 0
    """Of ``input_tokens``, those the model counted for images (screenshots in hybrid mode)."""


@dataclass(frozen=True, slots=True)
class UsageReport:
    start: datetime
    end: datetime
    """Exclusive."""
    group_by: UsageGroupBy
    groups: list[UsageGroup]
    totals: UsageGroup


@dataclass(frozen=True, slots=True)
class TaskCost:
    """What one task's model calls cost (task detail)."""

    calls: int
    tokens: int
    input_tokens: int
    output_tokens: int
    cost_usd: float | None
    """``None`` when any call has no known price."""
    image_tokens: int = 0


def parse_bound(value: str | None, *, field: Literal["from", "to"]) -> datetime | None:
    """An ISO date or datetime as an aware UTC datetime.

    A bare date means its whole UTC day: ``from=2026-11-01`` starts at its midnight and
    ``to=2026-11-30`` *includes* the 30th (the range ends at midnight of the 1st). A
    datetime is used as given (naive means UTC); ``to`` is exclusive."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    try:
        day = date.fromisoformat(text)
    except ValueError:
        pass
    else:
        start = datetime.combine(day, time.min, tzinfo=UTC)
        return start + timedelta(days=1) if field == "to" else start
    try:
        moment = datetime.fromisoformat(text)
    except ValueError as exc:
        raise InvalidUsageQuery(
            field,
            f"{field}: {value!r} is not an ISO 8601 date (2026-11-01)"
            " or datetime (2026-11-01T09:30:00Z)",
        ) from exc
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def resolve_range(
    start: datetime | None, end: datetime | None, *, now: datetime
) -> tuple[datetime, datetime]:
    """Fill defaults (the last 30 days up to ``now``) and check ``start < end``."""
    end = end or now
    start = start or end - DEFAULT_WINDOW
    if start >= end:
        raise InvalidUsageQuery(
            "from", f"from ({start.isoformat()}) must be before to ({end.isoformat()})"
        )
    return start, end


def parse_group_by(value: str) -> UsageGroupBy:
    for option in GROUP_BY_VALUES:
        if value == option:
            return option
    raise InvalidUsageQuery(
        "groupBy", f"groupBy must be one of {', '.join(GROUP_BY_VALUES)}; got {value!r}"
    )


async def usage_report(
    store: Store, tenant_id: str, start: datetime, end: datetime, group_by: UsageGroupBy
) -> UsageReport:
    """Calls, tokens and cost of one tenant in ``[start, end)``, grouped."""
    rows = await store.usage.totals(tenant_id, start, end, group_by)
    groups = [_group(row) for row in rows]
    return UsageReport(
        start=start, end=end, group_by=group_by, groups=groups, totals=_sum("total", groups)
    )


async def task_cost(store: Store, tenant_id: str, task_id: str) -> TaskCost:
    """Every billed call of one task, summed (tenant-scoped: another tenant's task is 0)."""
    logs = await store.usage.list_for_task(tenant_id, task_id)
    costs = [log.cost_usd for log in logs]
    return TaskCost(
        calls=len(logs),
        tokens=sum(log.total_tokens for log in logs),
        input_tokens=sum(log.input_tokens for log in logs),
        output_tokens=sum(log.output_tokens for log in logs),
        cost_usd=_sum_costs(costs),
        image_tokens=sum(log.image_tokens for log in logs),
    )


def _group(row: UsageTotals) -> UsageGroup:
    return UsageGroup(
        key=row.key,
        calls=row.calls,
        input_tokens=row.input_tokens,
        output_tokens=row.output_tokens,
        total_tokens=row.total_tokens,
        cost_usd=row.cost_usd,
        image_tokens=row.image_tokens,
    )


def _sum(key: str, groups: Sequence[UsageGroup]) -> UsageGroup:
    return UsageGroup(
        key=key,
        calls=sum(g.calls for g in groups),
        input_tokens=sum(g.input_tokens for g in groups),
        output_tokens=sum(g.output_tokens for g in groups),
        total_tokens=sum(g.total_tokens for g in groups),
        cost_usd=_sum_costs([g.cost_usd for g in groups]),
        image_tokens=sum(g.image_tokens for g in groups),
    )


def _sum_costs(costs: Sequence[float | None]) -> float | None:
    """Exact decimal sum of stored costs; ``None`` if any is unknown."""
    total = Decimal(0)
    for cost in costs:
        if cost is None:
            return None
        total += Decimal(repr(cost))
    return float(total.quantize(_TOTAL_QUANTUM, rounding=ROUND_HALF_UP))
