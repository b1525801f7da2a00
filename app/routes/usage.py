"""Usage rollups for billing: calls, tokens and cost of the caller's tenant."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import Field

from agent.errors import StepwiseError
from app.json_body import JsonRoute
from app.deps import Context, Deps, StoreDep
from app.error_codes import AUTHENTICATED
from app.errors import error_responses
from app.schemas.common import ApiModel
from cost import InvalidUsageQuery, UsageGroup, parse_bound, resolve_range, usage_report
from storage import UsageGroupBy

# What a client should send (Python's ISO parser also takes a few rarer forms).
_ISO_DATE_OR_TIME = r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$"

router = APIRouter(prefix="/api/usage", tags=["usage"], responses=error_responses(*AUTHENTICATED, "VALIDATION_FAILED"), route_class=JsonRoute)


class UsageTotalsOut(ApiModel):
    calls: int = Field(ge=0, description="Model calls")
    input_tokens: int = Field(ge=0, description="Prompt tokens")
    output_tokens: int = Field(ge=0, description="Completion tokens")
    total_tokens: int = Field(ge=0, description="All tokens")
    image_tokens: int = Field(ge=0, description="Of `inputTokens`, those the model counted for images (screenshots sent in hybrid mode)")
    cost_usd: float | None = Field(
        description="USD; null when any call used a model with no known price"
    )


class UsageGroupOut(UsageTotalsOut):
    key: str = Field(
        description='UTC day (YYYY-MM-DD), model, action type (PLANNING, …) or task id ("" = outside a task)'
    )


class UsageReportOut(ApiModel):
    from_: datetime = Field(alias="from", description="Start (inclusive, UTC)")
    to: datetime = Field(description="End (exclusive, UTC)")
    group_by: UsageGroupBy = Field(description="How `groups` are keyed")
    groups: list[UsageGroupOut] = Field(description="One per day, model, action type or task, by key")
    totals: UsageTotalsOut = Field(description="Over the whole range")


def _totals(group: UsageGroup) -> dict[str, int | float | None]:
    return {
        "calls": group.calls,
        "input_tokens": group.input_tokens,
        "output_tokens": group.output_tokens,
        "total_tokens": group.total_tokens,
        "image_tokens": group.image_tokens,
        "cost_usd": group.cost_usd,
    }


@router.get(
    "", response_model=UsageReportOut, summary="Model usage and cost of your tenant, grouped"
)
async def get_usage(
    ctx: Context,
    store: StoreDep,
    deps: Deps,
    from_: Annotated[
        str | None,
        Query(
            alias="from",
            max_length=64,
            description="ISO 8601 date (from its midnight UTC) or datetime (naive = UTC); default: 30 days before "
            "`to`. Must be before `to`, else 422 VALIDATION_FAILED (field `query.from`)",
            json_schema_extra={"pattern": _ISO_DATE_OR_TIME, "examples": ["2026-11-01", "2026-11-01T09:30:00Z"]},
        ),
    ] = None,
    to: Annotated[
        str | None,
        Query(
            max_length=64,
            description="ISO 8601 date (that whole day included) or datetime (exclusive; naive = UTC); default: now",
            json_schema_extra={"pattern": _ISO_DATE_OR_TIME, "examples": ["2026-11-30", "2026-11-30T18:00:00+01:00"]},
        ),
    ] = None,
    group_by: Annotated[UsageGroupBy, Query(alias="groupBy", description="Key of `groups`: day (UTC), model, actionType or task")] = "day",
) -> UsageReportOut:
    try:
        start, end = resolve_range(
            parse_bound(from_, field="from"), parse_bound(to, field="to"), now=deps.now()
        )
    except InvalidUsageQuery as exc:
        raise StepwiseError(
            exc.message,
            code="VALIDATION_FAILED",
            status_code=422,
            # the same field paths as FastAPI's own validation errors (``query.groupBy``)
            details={
                "errors": [
                    {"field": f"query.{exc.field}", "message": exc.message, "type": "value_error"}
                ]
            },
        ) from exc
    report = await usage_report(store, ctx.tenant_id, start, end, group_by)
    return UsageReportOut.model_validate(
        {
            "from": report.start,
            "to": report.end,
            "group_by": report.group_by,
            "groups": [{"key": g.key, **_totals(g)} for g in report.groups],
            "totals": _totals(report.totals),
        }
    )
