"""MongoDB skills library (episodic memory); a TTL index drops skills unused for 90 days."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from storage._common import SKILL_CANDIDATES, rank_skills, to_utc
from storage.models import Skill
from storage.mongo.codec import SKILLS
from storage.mongo.errors import translated


@translated
class MongoSkills:
    def __init__(self, db: Any) -> None:
        self._db = db

    async def upsert(self, skill: Skill) -> None:
        """Insert, or replace every field but ``created_at`` of the same tenant's skill."""
        doc = SKILLS.to_doc(skill)
        on_insert = {"created_at": doc.pop("created_at"), "seq": doc.pop("seq")}
        match = {"_id": doc.pop("_id"), "tenant_id": doc.pop("tenant_id")}
        # A same id of another tenant makes the upsert insert a duplicate _id -> DuplicateKey.
        update = {"$set": doc, "$setOnInsert": on_insert}
        await self._db[SKILLS.name].update_one(match, update, upsert=True)

    async def find(self, tenant_id: str, domain: str, goal: str, limit: int = 5) -> list[Skill]:
        cursor = self._db[SKILLS.name].find({"tenant_id": tenant_id, "domain": domain})
        docs = await cursor.sort([("last_used", -1), ("seq", -1)]).limit(SKILL_CANDIDATES).to_list()
        return rank_skills(SKILLS.from_docs(docs), goal, limit)

    async def count(self, tenant_id: str) -> int:
        return int(await self._db[SKILLS.name].count_documents({"tenant_id": tenant_id}))

    async def record_outcome(
        self, tenant_id: str, skill_id: str, success: bool, at: datetime
    ) -> None:
        await self._db[SKILLS.name].update_one(
            {"_id": skill_id, "tenant_id": tenant_id},
            {
                "$inc": {"success_count": int(success), "failure_count": int(not success)},
                "$set": {"last_used": to_utc(at)},
            },
        )

    async def delete_unused_since(self, before: datetime) -> int:
        result = await self._db[SKILLS.name].delete_many({"last_used": {"$lt": to_utc(before)}})
        return int(result.deleted_count)
