"""MongoDB crawl jobs: status and progress of background crawls, cancellable."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pymongo import ReturnDocument

from storage._common import now_utc, to_utc
from storage._knowledge import ABANDONED_ERROR, clean_job_update
from storage.knowledge_models import CrawlJob
from storage.mongo.codec import CRAWL_JOBS, db_value
from storage.mongo.errors import translated
from storage.mongo.repos import NEWEST_FIRST

_ACTIVE = {"$in": ["queued", "running"]}


@translated
class MongoCrawlJobs:
    def __init__(self, db: Any) -> None:
        self._db = db

    async def create(self, job: CrawlJob) -> None:
        await self._db[CRAWL_JOBS.name].insert_one(CRAWL_JOBS.to_doc(job))

    async def get(self, tenant_id: str, job_id: str) -> CrawlJob | None:
        doc = await self._db[CRAWL_JOBS.name].find_one({"_id": job_id, "tenant_id": tenant_id})
        return None if doc is None else CRAWL_JOBS.from_doc(doc)

    async def update(self, tenant_id: str, job_id: str, /, **fields: Any) -> CrawlJob | None:
        clean = clean_job_update(fields)
        if not clean:
            return await self.get(tenant_id, job_id)
        changes = CRAWL_JOBS.fields(CrawlJob.model_construct(**clean), clean)
        doc = await self._db[CRAWL_JOBS.name].find_one_and_update(
            {"_id": job_id, "tenant_id": tenant_id}, {"$set": changes}, return_document=ReturnDocument.AFTER
        )
        return None if doc is None else CRAWL_JOBS.from_doc(doc)

    async def request_cancel(self, tenant_id: str, job_id: str) -> CrawlJob | None:
        jobs = self._db[CRAWL_JOBS.name]
        match = {"_id": job_id, "tenant_id": tenant_id}
        doc = await jobs.find_one_and_update(
            {**match, "status": "queued"},
            {"$set": {"status": "cancelled", "cancel_requested": True, "finished_at": now_utc()}},
            return_document=ReturnDocument.AFTER,
        )
        if doc is None:
            doc = await jobs.find_one_and_update(
                {**match, "status": "running"}, {"$set": {"cancel_requested": True}}, return_document=ReturnDocument.AFTER
            )
        if doc is None:
            doc = await jobs.find_one(match)
        return None if doc is None else CRAWL_JOBS.from_doc(doc)

    async def list(self, tenant_id: str, limit: int = 50) -> list[CrawlJob]:
        cursor = self._db[CRAWL_JOBS.name].find({"tenant_id": tenant_id})
        return CRAWL_JOBS.from_docs(await cursor.sort(NEWEST_FIRST).limit(limit).to_list())

    async def fail_abandoned(self, stale_before: datetime) -> int:
        result = await self._db[CRAWL_JOBS.name].update_many(
            {"status": _ACTIVE, "heartbeat_at": {"$lt": db_value("datetime", to_utc(stale_before))}},
            {"$set": {"status": "failed", "error": ABANDONED_ERROR, "finished_at": now_utc()}},
        )
        return int(result.modified_count)
