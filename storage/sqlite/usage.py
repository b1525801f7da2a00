"""SQLite usage log (billing source of truth) and rate-limit counters."""

from __future__ import annotations

from datetime import datetime

from storage._common import iso, rate_window, round_cost, sliding_decision
from storage.base import UsageGroupBy
from storage.models import RateDecision, UsageLog, UsageTotals
from storage.sqlite.codec import USAGE
from storage.sqlite.connection import SqliteDatabase

_GROUP_KEY: dict[str, str] = {
    "day": "substr(created_at, 1, 10)",  # created_at is ISO-8601 UTC text
    "model": "model",
    "actionType": "action_type",
    "task": "COALESCE(task_id, '')",
}


class SqliteUsage:
    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    async def add(self, log: UsageLog) -> None:
        await self._db.execute(USAGE.insert_sql, USAGE.to_row(log))

    async def list_for_task(self, tenant_id: str, task_id: str) -> list[UsageLog]:
        rows = await self._db.fetch_all(
            f"SELECT {USAGE.select} FROM usage_logs WHERE tenant_id = ? AND task_id = ?"
            " ORDER BY created_at, seq",
            (tenant_id, task_id),
        )
        return USAGE.from_rows(rows)

    async def totals(
        self, tenant_id: str, start: datetime, end: datetime, group_by: UsageGroupBy
    ) -> list[UsageTotals]:
        key = _GROUP_KEY[group_by]
        rows = await self._db.fetch_all(
            f"SELECT {key} AS key, COUNT(*) AS calls, SUM(input_tokens) AS input_tokens,"
            " SUM(output_tokens) AS output_tokens, SUM(total_tokens) AS total_tokens, SUM(image_tokens) AS image_tokens,"
            " CASE WHEN COUNT(cost_usd) = COUNT(*) THEN SUM(cost_usd) END AS cost_usd"
            " FROM usage_logs WHERE tenant_id = ? AND created_at >= ? AND created_at < ?"
            " GROUP BY 1 ORDER BY 1",
            (tenant_id, iso(start), iso(end)),
        )
        return [
            UsageTotals(
                key=row["key"],
                calls=row["calls"],
                input_tokens=row["input_tokens"],
                output_tokens=row["output_tokens"],
                total_tokens=row["total_tokens"],
                image_tokens=row["image_tokens"] or 0,
                cost_usd=round_cost(row["cost_usd"]),
            )
            for row in rows
        ]


class SqliteRateLimits:
    """Fixed-window counters, one row per (key, window). Shared by every process on the file."""

    #: Expired windows are deleted every this many hits (per store).
    PRUNE_EVERY = 512

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db
        self._hits = 0

    async def hit(self, key: str, limit: int, window_seconds: int, now: datetime) -> RateDecision:
        window = rate_window(now, window_seconds)
        self._hits += 1
        prune = self._hits % self.PRUNE_EVERY == 0
        # A counter lives one window past its own: the next window's decision weighs it in.
        count, previous = await self._db.run(self._hit, key, window.start, window.end + window_seconds, window_seconds, prune)
        return sliding_decision(count, previous, limit, now, window_seconds)

    def _hit(self, key: str, start: int, expires: int, window_seconds: int, prune: bool) -> tuple[int, int]:
        conn = self._db.conn()
        if prune:
            conn.execute("DELETE FROM rate_counters WHERE expires_at <= ?", (start,))
        row = conn.execute(
            "INSERT INTO rate_counters (key, window_start, count, expires_at) VALUES (?, ?, 1, ?)"
            " ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1 RETURNING count",
            (key, start, expires),
        ).fetchone()
        before = conn.execute(
            "SELECT count FROM rate_counters WHERE key = ? AND window_start = ?", (key, start - window_seconds)
        ).fetchone()
        return int(row[0]), int(before[0]) if before else 0
