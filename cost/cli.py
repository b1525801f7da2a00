"""``stepwise usage``: a tenant's model usage and cost from the billing rows.

stepwise usage --tenant acme                                # last 30 days, by day
stepwise usage --tenant acme --from 2026-11-01 --to 2026-11-30 --group-by model
stepwise usage --tenant acme --group-by task --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import datetime
from typing import Any, TextIO

from cost.reports import (
    GROUP_BY_VALUES,
    InvalidUsageQuery,
    UsageGroup,
    UsageReport,
    parse_bound,
    parse_group_by,
    resolve_range,
    usage_report,
)
from storage import Store, UsageGroupBy, utcnow


def add_usage_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--tenant", required=True, help="tenant id")
    parser.add_argument(
        "--from",
        dest="from_",
        default=None,
        help="ISO date or datetime (default: 30 days before --to)",
    )
    parser.add_argument(
        "--to", default=None, help="ISO date (inclusive) or datetime (exclusive); default: now"
    )
    parser.add_argument(
        "--group-by", default="day", choices=GROUP_BY_VALUES, help="rollup key (default: day)"
    )
    parser.add_argument(
        "--json", action="store_true", help="print the report as JSON (the API's shape)"
    )


def usage_command(args: argparse.Namespace, *, store: Store, out: TextIO = sys.stdout) -> int:
    """Print the report; 2 on a bad query (message on stderr), 0 otherwise.

    ``store`` is opened (``init``) and closed here."""
    try:
        start, end = resolve_range(
            parse_bound(args.from_, field="from"), parse_bound(args.to, field="to"), now=utcnow()
        )
        group_by = parse_group_by(args.group_by)
    except InvalidUsageQuery as exc:
        print(f"stepwise usage: {exc.message}", file=sys.stderr)
        return 2
    report = asyncio.run(_report(store, args.tenant, start, end, group_by))
    out.write(
        json.dumps(report_json(report), indent=2) + "\n" if args.json else render_table(report)
    )
    return 0


async def _report(
    store: Store, tenant_id: str, start: datetime, end: datetime, group_by: UsageGroupBy
) -> UsageReport:
    await store.init()
    try:
        return await usage_report(store, tenant_id, start, end, group_by)
    finally:
        await store.close()


def group_json(group: UsageGroup) -> dict[str, Any]:
    return {
        "key": group.key,
        "calls": group.calls,
        "inputTokens": group.input_tokens,
        "outputTokens": group.output_tokens,
        "totalTokens": group.total_tokens,
        "imageTokens": group.image_tokens,
        "costUsd": group.cost_usd,
    }


def report_json(report: UsageReport) -> dict[str, Any]:
    """The report in the API's JSON shape (``GET /api/usage``)."""
    totals = group_json(report.totals)
    totals.pop("key")
    return {
        "from": report.start.isoformat(),
        "to": report.end.isoformat(),
        "groupBy": report.group_by,
        "groups": [group_json(g) for g in report.groups],
        "totals": totals,
    }


def render_table(report: UsageReport) -> str:
    header = ("key", "calls", "input", "output", "total", "images", "cost_usd")
    rows = [_row(g.key or "(no task)", g) for g in report.groups]
    rows.append(_row("TOTAL", report.totals))
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = [
        f"usage {report.start.isoformat()} .. {report.end.isoformat()} (end exclusive), by {report.group_by}",
        "  ".join(
            h.ljust(w) if i == 0 else h.rjust(w)
            for i, (h, w) in enumerate(zip(header, widths, strict=True))
        ),
    ]
    for row in rows:
        lines.append(
            "  ".join(
                str(c).ljust(w) if i == 0 else str(c).rjust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            )
        )
    if report.totals.cost_usd is None:
        lines.append("cost_usd 'unknown': some calls used a model with no price in cost/pricing.py")
    return "\n".join(lines) + "\n"


def _row(key: str, group: UsageGroup) -> tuple[str, ...]:
    cost = "unknown" if group.cost_usd is None else f"{group.cost_usd:.6f}"
    return (
        key,
        str(group.calls),
        str(group.input_tokens),
        str(group.output_tokens),
        str(group.total_tokens),
        str(group.image_tokens),
        cost,
    )
