"""Pricing, the usage service (billing row + LangFuse generation per model call) and
usage rollups. See docs/observability.md."""

from cost.pricing import (
    PRICES,
    PRICES_READ_ON,
    PRICES_SOURCE,
    CallCost,
    ModelPrice,
    Rates,
    cost_call,
    model_price,
    normalize_model,
    price_call,
    to_stored_usd,
)
from cost.reports import (
    GROUP_BY_VALUES,
    InvalidUsageQuery,
    TaskCost,
    UsageGroup,
    UsageReport,
    parse_bound,
    parse_group_by,
    resolve_range,
    task_cost,
    usage_report,
)
from cost.usage_service import RequestUsage, UnattributedUsage, UsageService

__all__ = [
    "GROUP_BY_VALUES",
    "PRICES",
    "PRICES_READ_ON",
    "PRICES_SOURCE",
    "CallCost",
    "InvalidUsageQuery",
    "ModelPrice",
    "Rates",
    "RequestUsage",
    "TaskCost",
    "UnattributedUsage",
    "UsageGroup",
    "UsageReport",
    "UsageService",
    "cost_call",
    "model_price",
    "normalize_model",
    "parse_bound",
    "parse_group_by",
    "price_call",
    "resolve_range",
    "task_cost",
    "to_stored_usd",
    "usage_report",
]
