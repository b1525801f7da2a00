"""What only the MongoDB backend has: indexes, the URI constructor, the factory."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from pymongo import ASCENDING, TEXT, IndexModel

from storage import MongoStore, SqliteStore, StorageError, Store, StoreUnavailable, open_store
from storage.mongo.indexes import INDEXES, SKILL_TTL_SECONDS
from storage.testing import FakeAsyncMongoClient
from storage.testing.fake_mongo import FakeAsyncDatabase
from tests.integration.storage.backends import Backend


@pytest.fixture
async def mongo(backend: Backend) -> MongoStore:
    if backend.name == "sqlite":
        pytest.skip("MongoDB only")
    store = await backend.open()
    assert isinstance(store, MongoStore)
    return store


async def _indexes(store: MongoStore, collection: str) -> dict[str, dict[str, object]]:
    return await store._db[collection].index_information()


async def test_init_creates_every_index(mongo: MongoStore) -> None:
    await mongo.init()  # idempotent
    for collection, models in INDEXES.items():
        names = set(await _indexes(mongo, collection))
        for model in models:
            name = model.document["name"]
            assert name in names, (collection, name)


async def test_init_drops_the_first_knowledge_indexes(backend: Backend) -> None:
    """A database made before issue 13 has a text index of the old shape and a unique
    (tenant_id, source_url) index; init replaces them (one text index per collection)."""
    if backend.name == "sqlite":
        pytest.skip("MongoDB only")
    old = await backend.open(init=False)
    assert isinstance(old, MongoStore)
    await old._db["knowledge_chunks"].create_indexes(
        [IndexModel([("tenant_id", ASCENDING), ("heading", TEXT), ("text", TEXT)], name="tenant_text")]
    )
    await old._db["knowledge_documents"].create_index(
        [("tenant_id", ASCENDING), ("source_url", ASCENDING)], name="tenant_url_unique", unique=True
    )
    await old.init()
    chunks, documents = await _indexes(old, "knowledge_chunks"), await _indexes(old, "knowledge_documents")
    assert "tenant_text" not in chunks and "tenant_heading_text" in chunks
    assert "tenant_url_unique" not in documents and "tenant_identity_unique" in documents
    await old.init()  # and again: nothing left to drop


async def test_integrity_and_ttl_indexes(mongo: MongoStore) -> None:
    assert (await _indexes(mongo, "api_keys"))["key_hash_unique"]["unique"] is True
    actions = (await _indexes(mongo, "task_actions"))["task_step_unique"]
    assert actions["unique"] is True
    assert list(actions["key"]) == [("task_id", 1), ("step_index", 1)]
    assert (await _indexes(mongo, "knowledge_documents"))["tenant_identity_unique"]["unique"] is True
    skills_ttl = (await _indexes(mongo, "skills"))["last_used_ttl"]
    assert skills_ttl["expireAfterSeconds"] == SKILL_TTL_SECONDS
    recipes_ttl = (await _indexes(mongo, "recipes"))["last_used_ttl"]
    assert recipes_ttl["expireAfterSeconds"] == SKILL_TTL_SECONDS
    assert (await _indexes(mongo, "memory_settings"))["tenant_unique"]["unique"] is True
    assert (await _indexes(mongo, "rate_counters"))["expires_at_ttl"]["expireAfterSeconds"] == 0


def test_every_query_index_is_tenant_scoped() -> None:
    global_ok = {
        ("api_keys", "key_hash_unique"),
        ("task_actions", "task_step_unique"),
        ("crawl_jobs", "status_heartbeat"),  # fail_abandoned sweeps every tenant
    }
    for collection, models in INDEXES.items():
        for model in models:
            doc = model.document
            first_field = next(iter(doc["key"]))
            if "expireAfterSeconds" in doc or (collection, doc["name"]) in global_ok:
                continue
            assert first_field == "tenant_id", (collection, doc["name"])


async def test_an_unreachable_server_is_unavailable_not_a_driver_error() -> None:
    store = MongoStore.from_uri("mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=100", "x")
    assert store.backend == "mongodb"  # built without I/O
    assert await store.ping() is False  # nothing listens there
    with pytest.raises(StoreUnavailable):
        await store.init()
    with pytest.raises(StoreUnavailable):
        await store.tasks.get("t", "x")
    await store.close()


async def test_open_store_picks_the_backend(tmp_path: object) -> None:
    sqlite_store: Store = open_store(f"sqlite:///{tmp_path}/s.db")
    assert isinstance(sqlite_store, SqliteStore) and sqlite_store.backend == "sqlite"
    await sqlite_store.close()
    mongo_store = open_store("sqlite:///x.db", "mongodb://127.0.0.1:1/", mongo_db_name="custom")
    assert isinstance(mongo_store, MongoStore) and mongo_store.db_name == "custom"
    await mongo_store.close()


async def test_init_refuses_a_standalone_server(monkeypatch: pytest.MonkeyPatch) -> None:
    client = FakeAsyncMongoClient()
    real_command = FakeAsyncDatabase.command

    async def standalone(
        self: FakeAsyncDatabase, command: str | Mapping[str, Any], **kw: Any
    ) -> dict[str, Any]:
        if command == "hello":
            return {"ok": 1.0, "isWritablePrimary": True}
        return await real_command(self, command, **kw)

    monkeypatch.setattr(FakeAsyncDatabase, "command", standalone)
    with pytest.raises(StorageError, match="replica set"):
        await MongoStore(client, "x").init()
