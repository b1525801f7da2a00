"""MongoDB repositories for keys, sessions, messages, tasks and their step records."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pymongo import ReturnDocument

from storage._common import now_utc, to_utc
from storage.errors import TaskConflict
from storage.models import (
    ApiKey,
    CorrectionRecord,
    Message,
    Session,
    Task,
    TaskAction,
    VerificationRecordRow,
)
from storage.mongo.codec import (
    ACTIONS,
    API_KEYS,
    CORRECTIONS,
    MESSAGES,
    SESSIONS,
    TASKS,
    VERIFICATIONS,
)
from storage.mongo.errors import translated

OLDEST_FIRST = [("created_at", 1), ("seq", 1)]
NEWEST_FIRST = [("created_at", -1), ("seq", -1)]


class _Repo:
    def __init__(self, db: Any) -> None:
        self._db = db


@translated
class MongoApiKeys(_Repo):
    async def create(self, key: ApiKey) -> None:
        await self._db[API_KEYS.name].insert_one(API_KEYS.to_doc(key))

    async def get_by_hash(self, key_hash: str) -> ApiKey | None:
        doc = await self._db[API_KEYS.name].find_one({"key_hash": key_hash})
        return None if doc is None else API_KEYS.from_doc(doc)

    async def list(self, tenant_id: str) -> list[ApiKey]:
        cursor = self._db[API_KEYS.name].find({"tenant_id": tenant_id})
        return API_KEYS.from_docs(await cursor.sort(OLDEST_FIRST).to_list())

    async def revoke(self, tenant_id: str, key_id: str, at: datetime) -> bool:
        keys = self._db[API_KEYS.name]
        match = {"_id": key_id, "tenant_id": tenant_id}
        result = await keys.update_one(
            {**match, "revoked_at": None}, {"$set": {"revoked_at": to_utc(at)}}
        )
        if result.matched_count:
            return True
        return await keys.count_documents(match, limit=1) > 0  # already revoked: still True


@translated
class MongoSessions(_Repo):
    async def create(self, session: Session) -> None:
        await self._db[SESSIONS.name].insert_one(SESSIONS.to_doc(session))

    async def get(self, tenant_id: str, session_id: str) -> Session | None:
        doc = await self._db[SESSIONS.name].find_one({"_id": session_id, "tenant_id": tenant_id})
        return None if doc is None else SESSIONS.from_doc(doc)

    async def list(self, tenant_id: str, user_id: str, limit: int = 50) -> list[Session]:
        cursor = self._db[SESSIONS.name].find({"tenant_id": tenant_id, "user_id": user_id})
        return SESSIONS.from_docs(await cursor.sort(NEWEST_FIRST).limit(limit).to_list())


@translated
class MongoMessages(_Repo):
    async def add(self, message: Message) -> None:
        await self._db[MESSAGES.name].insert_one(MESSAGES.to_doc(message))

    async def list(self, tenant_id: str, session_id: str, limit: int = 200) -> list[Message]:
        cursor = self._db[MESSAGES.name].find({"tenant_id": tenant_id, "session_id": session_id})
        docs = await cursor.sort(NEWEST_FIRST).limit(limit).to_list()
        return MESSAGES.from_docs(reversed(docs))

    async def update_last_action_status(
        self,
        tenant_id: str,
        session_id: str,
        status: Literal["success", "failure", "pending"],
        error: str | None,
    ) -> bool:
        doc = await self._db[MESSAGES.name].find_one_and_update(
            {"tenant_id": tenant_id, "session_id": session_id, "role": "assistant"},
            {"$set": {"action_status": status, "action_error": error}},
            sort=NEWEST_FIRST,
        )
        return doc is not None


@translated
class MongoTasks(_Repo):
    async def get(self, tenant_id: str, task_id: str) -> Task | None:
        doc = await self._db[TASKS.name].find_one({"_id": task_id, "tenant_id": tenant_id})
        return None if doc is None else TASKS.from_doc(doc)

    async def find_active(
        self, tenant_id: str, session_id: str, url: str | None = None
    ) -> Task | None:
        query: dict[str, Any] = {
            "tenant_id": tenant_id,
            "session_id": session_id,
            "status": "active",
        }
        if url is not None:
            query["url"] = url
        doc = await self._db[TASKS.name].find_one(query, sort=[("updated_at", -1), ("seq", -1)])
        return None if doc is None else TASKS.from_doc(doc)

    async def expire_stale(self, tenant_id: str, session_id: str, older_than: datetime) -> int:
        result = await self._db[TASKS.name].update_many(
            {
                "tenant_id": tenant_id,
                "session_id": session_id,
                "status": "active",
                "updated_at": {"$lt": to_utc(older_than)},
            },
            {"$set": {"status": "interrupted", "updated_at": now_utc()}, "$inc": {"version": 1}},
        )
        return int(result.modified_count)

    async def list(
        self,
        tenant_id: str,
        session_id: str | None = None,
        limit: int = 50,
        *,
        status: str | None = None,
        after: str | None = None,
    ) -> list[Task]:
        query: dict[str, Any] = {"tenant_id": tenant_id}
        if session_id is not None:
            query["session_id"] = session_id
        if status is not None:
            query["status"] = status
        if after is not None:  # keyset: strictly after the anchor in (created_at, seq) order
            anchor = await self._db[TASKS.name].find_one({"_id": after, "tenant_id": tenant_id}, {"created_at": 1, "seq": 1})
            if anchor is None:
                return []
            query["$or"] = [
                {"created_at": {"$lt": anchor["created_at"]}},
                {"created_at": anchor["created_at"], "seq": {"$lt": anchor["seq"]}},
            ]
        docs = await self._db[TASKS.name].find(query).sort(NEWEST_FIRST).limit(limit).to_list()
        return TASKS.from_docs(docs)

    async def fail(
        self, tenant_id: str, task_id: str, expected_version: int, code: str, reason: str
    ) -> Task:
        doc = await self._db[TASKS.name].find_one_and_update(
            {"_id": task_id, "tenant_id": tenant_id, "version": expected_version},
            {
                "$set": {
                    "status": "failed",
                    "failure_code": code,
                    "failure_reason": reason,
                    "updated_at": now_utc(),
                },
                "$inc": {"version": 1},
            },
            return_document=ReturnDocument.AFTER,
        )
        if doc is None:
            raise TaskConflict(task_id, expected_version)
        return TASKS.from_doc(doc)


@translated
class MongoActions(_Repo):
    async def list(self, tenant_id: str, task_id: str) -> list[TaskAction]:
        cursor = self._db[ACTIONS.name].find({"tenant_id": tenant_id, "task_id": task_id})
        return ACTIONS.from_docs(await cursor.sort([("step_index", 1)]).to_list())

    async def last(self, tenant_id: str, task_id: str) -> TaskAction | None:
        doc = await self._db[ACTIONS.name].find_one(
            {"tenant_id": tenant_id, "task_id": task_id}, sort=[("step_index", -1)]
        )
        return None if doc is None else ACTIONS.from_doc(doc)

    async def recent(self, tenant_id: str, task_id: str, limit: int) -> list[TaskAction]:
        if limit < 1:
            return []
        collection = self._db[ACTIONS.name]
        query = {"tenant_id": tenant_id, "task_id": task_id}
        cursor = collection.find(query, {"before_state": False}).sort([("step_index", -1)]).limit(limit)
        docs = await cursor.to_list()
        if docs:
            newest = await collection.find_one({**query, "_id": docs[0]["_id"]}, {"before_state": True})
            if newest is not None and "before_state" in newest:
                docs[0]["before_state"] = newest["before_state"]
        return ACTIONS.from_docs(reversed(docs))


@translated
class MongoCorrections(_Repo):
    async def list(self, tenant_id: str, task_id: str) -> list[CorrectionRecord]:
        cursor = self._db[CORRECTIONS.name].find({"tenant_id": tenant_id, "task_id": task_id})
        return CORRECTIONS.from_docs(await cursor.sort(OLDEST_FIRST).to_list())


@translated
class MongoVerifications(_Repo):
    async def list(self, tenant_id: str, task_id: str) -> list[VerificationRecordRow]:
        cursor = self._db[VERIFICATIONS.name].find({"tenant_id": tenant_id, "task_id": task_id})
        return VERIFICATIONS.from_docs(await cursor.sort(OLDEST_FIRST).to_list())

    async def list_since(self, tenant_id: str, since: datetime) -> list[VerificationRecordRow]:
        cursor = self._db[VERIFICATIONS.name].find(
            {"tenant_id": tenant_id, "created_at": {"$gte": to_utc(since)}}
        )
        return VERIFICATIONS.from_docs(await cursor.sort(OLDEST_FIRST).to_list())
