"""The MongoDB store: PyMongo's async API, majority writes, transactional finalize."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal
from urllib.parse import parse_qs, urlsplit

from pymongo import AsyncMongoClient, ReturnDocument
from pymongo.errors import DuplicateKeyError, PyMongoError

from storage._common import TASK_MUTABLE_FIELDS, check_batch, clean_action_update
from storage.errors import DuplicateKey, StorageError, TaskConflict
from storage.models import FinalizeBatch, Session, Task
from storage.mongo.codec import (
    ACTIONS,
    CORRECTIONS,
    MESSAGES,
    SESSIONS,
    TASKS,
    USAGE,
    VERIFICATIONS,
    Collection,
    db_value,
    next_seq,
)
from storage.mongo.errors import MAJORITY, Transactions, is_duplicate_key, translate
from storage.mongo.crawl_jobs import MongoCrawlJobs
from storage.mongo.idempotency import MongoIdempotency, complete_in
from storage.mongo.indexes import INDEXES, LEGACY_INDEXES
from storage.mongo.vision import MongoVisionSettings
from storage.mongo.knowledge import MongoKnowledge
from storage.mongo.repos import (
    MongoActions,
    MongoApiKeys,
    MongoCorrections,
    MongoMessages,
    MongoSessions,
    MongoTasks,
    MongoVerifications,
)
from storage.mongo.memory import MongoMemorySettings, MongoRecipes, MongoSkills
from storage.mongo.usage import MongoRateLimits, MongoUsage

DEFAULT_DB_NAME = "stepwise"
_CLIENT_DEFAULTS: dict[str, Any] = {
    "w": "majority",
    "appname": "stepwise",
    "serverSelectionTimeoutMS": 5000,
}


class MongoStore:
    """``Store`` on MongoDB.

    ``MongoStore(client, db_name)`` uses a client you own (an ``AsyncMongoClient`` or the
    in-process fake from ``storage.testing``); :meth:`from_uri` creates and owns one.
    Transactions (``finalize``, knowledge upserts) need a replica set or mongos.
    """

    backend: Literal["sqlite", "mongodb"] = "mongodb"

    def __init__(
        self, client: Any, db_name: str = DEFAULT_DB_NAME, *, owns_client: bool = False
    ) -> None:
        self._client = client
        self._owns_client = owns_client
        self._db = client.get_database(db_name, write_concern=MAJORITY)
        self.db_name = db_name
        self._transactions = Transactions(client)
        self.api_keys = MongoApiKeys(self._db)
        self.sessions = MongoSessions(self._db)
        self.messages = MongoMessages(self._db)
        self.tasks = MongoTasks(self._db)
        self.actions = MongoActions(self._db)
        self.corrections = MongoCorrections(self._db)
        self.verifications = MongoVerifications(self._db)
        self.usage = MongoUsage(self._db)
        self.skills = MongoSkills(self._db)
        self.recipes = MongoRecipes(self._db)
        self.memory_settings = MongoMemorySettings(self._db)
        self.vision_settings = MongoVisionSettings(self._db)
        self.knowledge = MongoKnowledge(self._db, self._transactions)
        self.crawl_jobs = MongoCrawlJobs(self._db)
        self.rate_limits = MongoRateLimits(self._db)
        self.idempotency = MongoIdempotency(self._db)

    @classmethod
    def from_uri(
        cls, uri: str, db_name: str = DEFAULT_DB_NAME, **client_options: Any
    ) -> MongoStore:
        """Create an ``AsyncMongoClient`` (no I/O until first use) that this store closes.

        Defaults (majority writes, 5 s server selection, appname) yield to options given in
        the URI's query string or as keyword arguments.
        """
        in_uri = {name.lower() for name in parse_qs(urlsplit(uri).query)}
        options: dict[str, Any] = {
            name: value for name, value in _CLIENT_DEFAULTS.items() if name.lower() not in in_uri
        }
        options.update(client_options, tz_aware=True)
        return cls(AsyncMongoClient(uri, **options), db_name, owns_client=True)

    async def init(self) -> None:
        """Check the deployment can run transactions, then create every index."""
        try:
            hello = await self._client.admin.command("hello")
            if "setName" not in hello and hello.get("msg") != "isdbgrid":
                raise StorageError(
                    "MongoDB is a standalone server; Stepwise needs a replica set or mongos for "
                    "transactions (a single-node replica set is enough: mongod --replSet rs0, "
                    "then rs.initiate())"
                )
            for name, legacy in LEGACY_INDEXES.items():
                existing = await self._db[name].index_information()
                for index_name in legacy:
                    if index_name in existing:
                        await self._db[name].drop_index(index_name)
            for name, models in INDEXES.items():
                await self._db[name].create_indexes(models)
        except PyMongoError as exc:
            raise translate(exc) from exc

    async def ping(self) -> bool:
        try:
            await self._client.admin.command("ping")
        except PyMongoError:
            return False
        return True

    async def finalize(self, batch: FinalizeBatch) -> Task:
        check_batch(batch)
        updates = [(aid, clean_action_update(fields)) for aid, fields in batch.action_updates]
        # Documents are built once, outside the callback, which the driver may retry.
        inserts = [
            (ACTIONS, ACTIONS.docs(batch.actions)),
            (MESSAGES, MESSAGES.docs(batch.messages)),
            (VERIFICATIONS, VERIFICATIONS.docs(batch.verifications)),
            (CORRECTIONS, CORRECTIONS.docs(batch.corrections)),
            (USAGE, USAGE.docs(batch.usage)),
        ]

        async def write(session: Any) -> Task:
            stored = await self._write_task(batch, session)
            if batch.session is not None:
                await self._upsert_session(batch.session, session)
            for collection, docs in inserts:
                await _insert(self._db, collection, docs, session)
            if batch.message_outcome is not None:  # an older message may predate outcome ids: no match is fine
                message_id, outcome, error = batch.message_outcome
                await self._db[MESSAGES.name].update_one(
                    {"_id": message_id, "tenant_id": batch.task.tenant_id, "session_id": batch.task.session_id},
                    {"$set": {"action_status": outcome, "action_error": error}},
                    session=session,
                )
            for action_id, fields in updates:
                result = await self._db[ACTIONS.name].update_one(
                    {"_id": action_id, "tenant_id": batch.task.tenant_id, "task_id": batch.task.id},
                    {"$set": fields},
                    session=session,
                )
                if not result.matched_count:
                    raise StorageError(f"action {action_id!r} of task {batch.task.id!r} not found")
            if batch.idempotency is not None:
                await complete_in(self._db, batch.idempotency, session)
            return stored

        try:
            return await self._transactions.run(write)
        except PyMongoError as exc:
            raise translate(exc) from exc

    async def _write_task(self, batch: FinalizeBatch, session: Any) -> Task:
        task = batch.task
        tasks = self._db[TASKS.name]
        if batch.expected_version is None:
            doc = TASKS.to_doc(task.model_copy(update={"version": 1}))
            try:
                await tasks.insert_one(doc, session=session)
            except DuplicateKeyError as exc:
                raise TaskConflict(task.id, None) from exc
            return TASKS.from_doc(doc)  # as a read returns it (ms, JSON mode)
        doc = await tasks.find_one_and_update(
            {"_id": task.id, "tenant_id": task.tenant_id, "version": batch.expected_version},
            {"$set": TASKS.fields(task, TASK_MUTABLE_FIELDS), "$inc": {"version": 1}},
            return_document=ReturnDocument.AFTER,
            session=session,
        )
        if doc is None:
            raise TaskConflict(task.id, batch.expected_version)
        return TASKS.from_doc(doc)

    async def _upsert_session(self, record: Session, session: Any) -> None:
        changes: dict[str, Any] = {
            "status": record.status,
            "updated_at": db_value("datetime", record.updated_at),
        }
        on_insert: dict[str, Any] = {
            "user_id": record.user_id,
            "created_at": db_value("datetime", record.created_at),
            "seq": next_seq(),
        }
        for name in ("url", "title"):  # kept when the batch does not say
            value = getattr(record, name)
            (changes if value is not None else on_insert)[name] = value
        try:
            await self._db[SESSIONS.name].update_one(
                {"_id": record.id, "tenant_id": record.tenant_id},
                {"$set": changes, "$setOnInsert": on_insert},
                upsert=True,
                session=session,
            )
        except DuplicateKeyError as exc:
            raise StorageError(f"session {record.id!r} belongs to another tenant") from exc

    async def close(self) -> None:
        if self._owns_client:
            await self._client.close()


async def _insert(
    db: Any, collection: Collection[Any], docs: Sequence[dict[str, Any]], session: Any
) -> None:
    if not docs:
        return
    try:
        await db[collection.name].insert_many(docs, ordered=True, session=session)
    except PyMongoError as exc:
        if is_duplicate_key(exc):
            raise DuplicateKey(f"{collection.name}: {exc}") from exc
        raise

