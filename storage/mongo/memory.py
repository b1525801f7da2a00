"""MongoDB memory: skills and recipes (learned from verified work) and the tenant switches.

``learn`` / ``record_run`` are one upsert whose filter only matches while the task is not
in the record's evidence (``evidence: {$ne: task}``): ``$inc`` the counter, ``$push`` the
task (last ``EVIDENCE_LIMIT`` kept), ``$setOnInsert`` the rest. When the filter does not
match, the upsert's insert collides with the stored ``_id`` (DuplicateKeyError): the record
is another tenant's (refused), or this task was counted already (only ``last_used`` moves),
or a concurrent request inserted it first (try again). TTL indexes drop records unused for
90 days; ``delete_unused_since`` sweeps on demand too.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Generic, TypeVar

from pymongo import ReturnDocument
from pymongo.errors import DuplicateKeyError

from storage._common import to_utc
from storage._memory import MemoryPrimitives, RecipeMethods, SkillMethods
from storage.errors import DuplicateKey, StorageError
from storage.models import EVIDENCE_LIMIT, MemorySettings, Recipe, Skill
from storage.mongo.codec import MEMORY_SETTINGS, RECIPES, SKILLS, Collection
from storage.mongo.errors import translated, translating

M = TypeVar("M", Skill, Recipe)
_ORDER = [("last_used", -1), ("seq", -1)]
_ATTEMPTS = 5


class _MongoMemory(MemoryPrimitives, Generic[M]):
    """The primitives over one collection (skills or recipes); driver errors become
    storage errors (``translating``)."""

    codec: Collection[M]
    counter: str

    def __init__(self, db: Any) -> None:
        self._db = db

    @property
    def _coll(self) -> Any:
        return self._db[self.codec.name]

    # -- writes ------------------------------------------------------------------------
    @translating
    async def _count_success(self, record: M, task_id: str, at: datetime) -> M:
        doc = self.codec.to_doc(record)
        match = {"_id": doc.pop("_id"), "tenant_id": doc.pop("tenant_id")}
        for name in (self.counter, "evidence", "last_used"):
            doc.pop(name)
        used = to_utc(at)
        update = {
            "$inc": {self.counter: 1},
            "$push": {"evidence": {"$each": [task_id], "$slice": -EVIDENCE_LIMIT}},
            "$set": {"last_used": used},
            "$setOnInsert": doc,
        }
        for _ in range(_ATTEMPTS):
            try:
                stored = await self._coll.find_one_and_update(
                    {**match, "evidence": {"$ne": task_id}},
                    update,
                    upsert=True,
                    return_document=ReturnDocument.AFTER,
                )
                return self.codec.from_doc(stored)
            except DuplicateKeyError:
                pass
            # The id is taken: this task counted already, another tenant's, or a race.
            stored = await self._coll.find_one_and_update(
                {**match, "evidence": task_id},
                {"$set": {"last_used": used}},
                return_document=ReturnDocument.AFTER,
            )
            if stored is not None:
                return self.codec.from_doc(stored)
            owner = await self._coll.find_one({"_id": match["_id"]}, {"tenant_id": 1})
            if owner is not None and owner["tenant_id"] != match["tenant_id"]:
                raise DuplicateKey(f"{self.codec.name} id {match['_id']!r} belongs to another tenant")
        raise StorageError(f"{self.codec.name} {match['_id']!r}: too many concurrent writes")

    @translating
    async def _upsert(self, record: M) -> None:
        doc = self.codec.to_doc(record)
        on_insert = {"created_at": doc.pop("created_at"), "seq": doc.pop("seq")}
        match = {"_id": doc.pop("_id"), "tenant_id": doc.pop("tenant_id")}
        # A same id of another tenant makes the upsert insert a duplicate _id -> DuplicateKey.
        await self._coll.update_one(match, {"$set": doc, "$setOnInsert": on_insert}, upsert=True)

    @translating
    async def _set_status(self, tenant_id: str, record_id: str, status: str) -> None:
        await self._coll.update_one({"_id": record_id, "tenant_id": tenant_id}, {"$set": {"status": status}})

    @translating
    async def _delete(self, tenant_id: str, record_id: str) -> bool:
        result = await self._coll.delete_one({"_id": record_id, "tenant_id": tenant_id})
        return result.deleted_count > 0

    @translating
    async def _delete_all(self, tenant_id: str, domain: str | None) -> int:
        result = await self._coll.delete_many(_filter(tenant_id, domain, None))
        return int(result.deleted_count)

    @translating
    async def _evict(self, tenant_id: str, ids: Sequence[str]) -> int:
        if not ids:
            return 0
        result = await self._coll.delete_many({"tenant_id": tenant_id, "_id": {"$in": list(ids)}})
        return int(result.deleted_count)

    @translating
    async def _delete_unused_since(self, before: datetime) -> int:
        result = await self._coll.delete_many({"last_used": {"$lt": to_utc(before)}})
        return int(result.deleted_count)

    # -- reads -------------------------------------------------------------------------
    @translating
    async def _get(self, tenant_id: str, record_id: str) -> M | None:
        doc = await self._coll.find_one({"_id": record_id, "tenant_id": tenant_id})
        return None if doc is None else self.codec.from_doc(doc)

    @translating
    async def _list(
        self,
        tenant_id: str,
        domain: str | None,
        statuses: Sequence[str] | None,
        limit: int,
        offset: int,
    ) -> list[M]:
        if limit <= 0:
            return []
        cursor = self._coll.find(_filter(tenant_id, domain, statuses)).sort(_ORDER)
        if offset > 0:
            cursor = cursor.skip(offset)
        return self.codec.from_docs(await cursor.limit(limit).to_list())

    @translating
    async def _total(self, tenant_id: str, domain: str | None, status: str | None) -> int:
        query = _filter(tenant_id, domain, None if status is None else (status,))
        return int(await self._coll.count_documents(query))


def _filter(
    tenant_id: str, domain: str | None, statuses: Sequence[str] | None
) -> dict[str, Any]:
    query: dict[str, Any] = {"tenant_id": tenant_id}
    if domain is not None:
        query["domain"] = domain
    if statuses is not None:
        query["status"] = {"$in": list(statuses)}
    return query


@translated
class MongoSkills(SkillMethods, _MongoMemory[Skill]):
    codec = SKILLS
    counter = "success_count"

    async def record_outcome(
        self, tenant_id: str, skill_id: str, success: bool, at: datetime
    ) -> None:
        await self._coll.update_one(
            {"_id": skill_id, "tenant_id": tenant_id},
            {
                "$inc": {"success_count": int(success), "failure_count": int(not success)},
                "$set": {"last_used": to_utc(at)},
            },
        )


@translated
class MongoRecipes(RecipeMethods, _MongoMemory[Recipe]):
    codec = RECIPES
    counter = "verified_runs"

    async def record_replay(
        self, tenant_id: str, recipe_id: str, success: bool, at: datetime
    ) -> None:
        changes: dict[str, Any] = {"last_used": to_utc(at)}
        if not success:
            changes["status"] = "demoted"
            changes["verified_runs"] = 0  # a demoted recipe counts its verified runs afresh
        await self._coll.update_one(
            {"_id": recipe_id, "tenant_id": tenant_id},
            {"$inc": {"replays": 1, "failed_runs": int(not success)}, "$set": changes},
        )


@translated
class MongoMemorySettings:
    """One document per tenant, ``_id`` = tenant_id."""

    def __init__(self, db: Any) -> None:
        self._db = db

    async def get(self, tenant_id: str) -> MemorySettings | None:
        doc = await self._db[MEMORY_SETTINGS].find_one({"_id": tenant_id})
        if doc is None:
            return None
        return MemorySettings(
            tenant_id=doc["tenant_id"],
            skills=bool(doc["skills"]),
            replay=bool(doc["replay"]),
            updated_at=to_utc(doc["updated_at"]),
        )

    async def put(self, settings: MemorySettings) -> None:
        doc = {
            "tenant_id": settings.tenant_id,
            "skills": settings.skills,
            "replay": settings.replay,
            "updated_at": to_utc(settings.updated_at),
        }
        await self._db[MEMORY_SETTINGS].replace_one({"_id": settings.tenant_id}, doc, upsert=True)
