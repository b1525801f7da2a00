"""SQLite crawl jobs: status and progress of background crawls, cancellable."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic_core import to_jsonable_python

from storage._common import iso, now_utc
from storage._knowledge import ABANDONED_ERROR, clean_job_update
from storage.knowledge_models import CrawlJob
from storage.sqlite.codec import CRAWL_JOBS
from storage.sqlite.connection import SqliteDatabase

_ACTIVE = "('queued', 'running')"


class SqliteCrawlJobs:
    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    async def create(self, job: CrawlJob) -> None:
        await self._db.execute(CRAWL_JOBS.insert_sql, CRAWL_JOBS.to_row(job))

    async def get(self, tenant_id: str, job_id: str) -> CrawlJob | None:
        row = await self._db.fetch_one(
            f"SELECT {CRAWL_JOBS.select} FROM crawl_jobs WHERE tenant_id = ? AND id = ?", (tenant_id, job_id)
        )
        return None if row is None else CRAWL_JOBS.from_row(row)

    async def update(self, tenant_id: str, job_id: str, /, **fields: Any) -> CrawlJob | None:
        clean = clean_job_update(fields)
        if not clean:
            return await self.get(tenant_id, job_id)
        assignments = ", ".join(f"{name} = ?" for name in clean)
        values = [CRAWL_JOBS.value(name, _jsonable(value)) for name, value in clean.items()]
        row = await self._db.fetch_one(
            f"UPDATE crawl_jobs SET {assignments} WHERE tenant_id = ? AND id = ? RETURNING {CRAWL_JOBS.select}",
            (*values, tenant_id, job_id),
        )
        return None if row is None else CRAWL_JOBS.from_row(row)

    async def request_cancel(self, tenant_id: str, job_id: str) -> CrawlJob | None:
        now = iso(now_utc())
        row = await self._db.fetch_one(
            "UPDATE crawl_jobs SET cancel_requested = 1,"
            " status = CASE WHEN status = 'queued' THEN 'cancelled' ELSE status END,"
            " finished_at = CASE WHEN status = 'queued' THEN ? ELSE finished_at END"
            f" WHERE tenant_id = ? AND id = ? AND status IN {_ACTIVE} RETURNING {CRAWL_JOBS.select}",
            (now, tenant_id, job_id),
        )
        return CRAWL_JOBS.from_row(row) if row is not None else await self.get(tenant_id, job_id)

    async def list(self, tenant_id: str, limit: int = 50) -> list[CrawlJob]:
        rows = await self._db.fetch_all(
            f"SELECT {CRAWL_JOBS.select} FROM crawl_jobs WHERE tenant_id = ?"
            " ORDER BY created_at DESC, seq DESC LIMIT ?",
            (tenant_id, limit),
        )
        return CRAWL_JOBS.from_rows(rows)

    async def fail_abandoned(self, stale_before: datetime) -> int:
        return await self._db.execute(
            "UPDATE crawl_jobs SET status = 'failed', error = ?, finished_at = ?"
            f" WHERE status IN {_ACTIVE} AND heartbeat_at < ?",
            (ABANDONED_ERROR, iso(now_utc()), iso(stale_before)),
        )


def _jsonable(value: Any) -> Any:
    """Datetimes stay datetimes (the codec writes them as ISO text); the rest as JSON."""
    if isinstance(value, datetime):
        return value
    return to_jsonable_python(value)
