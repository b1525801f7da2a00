"""MongoDB usage log (billing source of truth) and rate-limit counters."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from pymongo import ReturnDocument
from pymongo.errors import DuplicateKeyError

from storage._common import rate_window, round_cost, sliding_decision, to_utc
from storage.base import UsageGroupBy
from storage.models import RateDecision, UsageLog, UsageTotals
from storage.mongo.codec import RATE_COUNTERS, USAGE
from storage.mongo.errors import translated
from storage.mongo.repos import OLDEST_FIRST

_GROUP_KEY: dict[str, Any] = {
    "day": {"$dateToString": {"format": "%Y-%m-%d", "date": "$created_at"}},  # UTC
    "model": "$model",
    "actionType": "$action_type",
    "task": {"$ifNull": ["$task_id", ""]},
}


@translated
class MongoUsage:
    def __init__(self, db: Any) -> None:
        self._db = db

    async def add(self, log: UsageLog) -> None:
        await self._db[USAGE.name].insert_one(USAGE.to_doc(log))

    async def list_for_task(self, tenant_id: str, task_id: str) -> list[UsageLog]:
        cursor = self._db[USAGE.name].find({"tenant_id": tenant_id, "task_id": task_id})
        return USAGE.from_docs(await cursor.sort(OLDEST_FIRST).to_list())

    async def totals(
        self, tenant_id: str, start: datetime, end: datetime, group_by: UsageGroupBy
    ) -> list[UsageTotals]:
        pipeline: list[dict[str, Any]] = [
            {
                "$match": {
                    "tenant_id": tenant_id,
                    "created_at": {"$gte": to_utc(start), "$lt": to_utc(end)},
                }
            },
            {
                "$group": {
                    "_id": _GROUP_KEY[group_by],
                    "calls": {"$sum": 1},
                    "input_tokens": {"$sum": "$input_tokens"},
                    "output_tokens": {"$sum": "$output_tokens"},
                    "total_tokens": {"$sum": "$total_tokens"},
                    "image_tokens": {"$sum": {"$ifNull": ["$image_tokens", 0]}},
                    "cost_usd": {"$sum": "$cost_usd"},
                    # null sorts below every number: rows without a price
                    "unpriced": {"$sum": {"$cond": [{"$gt": ["$cost_usd", None]}, 0, 1]}},
                }
            },
            {"$sort": {"_id": 1}},
        ]
        cursor = await self._db[USAGE.name].aggregate(pipeline)
        return [
            UsageTotals(
                key=doc["_id"],
                calls=doc["calls"],
                input_tokens=doc["input_tokens"],
                output_tokens=doc["output_tokens"],
                total_tokens=doc["total_tokens"],
                image_tokens=doc.get("image_tokens", 0),
                cost_usd=None if doc["unpriced"] else round_cost(float(doc["cost_usd"])),
            )
            for doc in await cursor.to_list()
        ]


@translated
class MongoRateLimits:
    """Fixed-window counters: one document per (key, window), removed by a TTL index."""

    def __init__(self, db: Any) -> None:
        self._db = db

    async def hit(self, key: str, limit: int, window_seconds: int, now: datetime) -> RateDecision:
        window = rate_window(now, window_seconds)
        # The TTL monitor runs on the server's wall clock, while ``now`` may be a test's or
        # the app's injected clock: keep the counter two windows past the first hit.
        expires_at = datetime.now(UTC) + timedelta(seconds=3 * window_seconds)
        count = await self._increment(key, window.start, expires_at)
        before = await self._db[RATE_COUNTERS].find_one({"_id": f"{key}|{window.start - window_seconds}"})
        return sliding_decision(count, int(before["count"]) if before else 0, limit, now, window_seconds)

    async def _increment(self, key: str, start: int, expires_at: datetime) -> int:
        counters = self._db[RATE_COUNTERS]
        update = {
            "$inc": {"count": 1},
            "$setOnInsert": {"key": key, "window_start": start, "expires_at": expires_at},
        }
        query = {"_id": f"{key}|{start}"}
        try:
            doc = await counters.find_one_and_update(
                query, update, upsert=True, return_document=ReturnDocument.AFTER
            )
        except DuplicateKeyError:
            # Two first hits of a window raced on the upsert; the retry matches the winner's.
            doc = await counters.find_one_and_update(
                query, update, upsert=True, return_document=ReturnDocument.AFTER
            )
        return int(doc["count"])
