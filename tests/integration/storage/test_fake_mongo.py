"""The in-process MongoDB fake keeps the promises MongoStore relies on."""

from __future__ import annotations

import asyncio

import pytest
from pymongo import ReturnDocument
from pymongo.errors import DuplicateKeyError, OperationFailure

from storage.mongo.indexes import INDEXES
from storage.testing import FakeAsyncMongoClient


@pytest.fixture
def client() -> FakeAsyncMongoClient:
    return FakeAsyncMongoClient()


async def test_abort_restores_inserts_updates_and_deletes(client: FakeAsyncMongoClient) -> None:
    coll = client["db"]["c"]
    await coll.insert_many([{"_id": 1, "v": 1}, {"_id": 2, "v": 2}])

    class Boom(Exception):
        pass

    async def work(session: object) -> None:
        await coll.insert_one({"_id": 3, "v": 3}, session=session)
        await coll.update_many({}, {"$inc": {"v": 10}}, session=session)
        await coll.delete_one({"_id": 1}, session=session)
        await coll.update_one({"_id": 4}, {"$set": {"v": 4}}, upsert=True, session=session)
        await coll.find_one_and_update({"_id": 5}, {"$inc": {"v": 1}}, upsert=True, session=session)
        raise Boom

    async with client.start_session() as session:
        with pytest.raises(Boom):
            await session.with_transaction(work)
    assert await coll.find({}).sort("_id", 1).to_list() == [{"_id": 1, "v": 1}, {"_id": 2, "v": 2}]


async def test_explicit_transaction_context_commits_or_aborts(client: FakeAsyncMongoClient) -> None:
    coll = client["db"]["c"]
    async with client.start_session() as session:
        async with await session.start_transaction():
            await coll.insert_one({"_id": "kept"}, session=session)
        with pytest.raises(DuplicateKeyError):
            async with await session.start_transaction():
                await coll.insert_one({"_id": "dropped"}, session=session)
                await coll.insert_one({"_id": "kept"}, session=session)
    assert [d["_id"] for d in await coll.find({}).to_list()] == ["kept"]


async def test_transactions_are_serialised(client: FakeAsyncMongoClient) -> None:
    coll = client["db"]["c"]
    await coll.insert_one({"_id": "n", "v": 0})
    seen: list[int] = []

    async def read_then_write(session: object) -> None:
        doc = await coll.find_one({"_id": "n"})
        assert doc is not None
        await asyncio.sleep(0)
        await coll.update_one({"_id": "n"}, {"$set": {"v": doc["v"] + 1}}, session=session)
        seen.append(doc["v"])

    async def run() -> None:
        async with client.start_session() as session:
            await session.with_transaction(read_then_write)

    await asyncio.gather(*(run() for _ in range(5)))
    assert sorted(seen) == [0, 1, 2, 3, 4]
    assert (await coll.find_one({"_id": "n"})) == {"_id": "n", "v": 5}


async def test_cursor_iteration_and_find_one_and_update(client: FakeAsyncMongoClient) -> None:
    coll = client["db"]["c"]
    await coll.insert_many([{"_id": i, "v": i % 3} for i in range(6)])
    assert [d["_id"] async for d in coll.find({"v": 0}).sort("_id", -1)] == [3, 0]
    assert len(await coll.find({}).skip(2).limit(3).to_list()) == 3
    doc = await coll.find_one_and_update(
        {"v": 1}, {"$set": {"hit": True}}, sort=[("_id", -1)], return_document=ReturnDocument.AFTER
    )
    assert doc == {"_id": 4, "v": 1, "hit": True}
    assert await client.admin.command("ping") == {"ok": 1.0}


async def test_text_search_needs_an_index_and_prefix_equality(client: FakeAsyncMongoClient) -> None:
    chunks = client["db"]["knowledge_chunks"]
    await chunks.insert_one({"_id": 1, "tenant_id": "a", "heading": "", "text": "Saving settings"})
    pipeline = [{"$match": {"tenant_id": "a", "$text": {"$search": "save setting"}}}]
    with pytest.raises(OperationFailure):
        await chunks.aggregate(pipeline)
    await chunks.create_indexes(INDEXES["knowledge_chunks"])
    with pytest.raises(OperationFailure):
        await chunks.aggregate(
            [{"$match": {"tenant_id": {"$in": ["a"]}, "$text": {"$search": "save"}}}]
        )
    cursor = await chunks.aggregate([*pipeline, {"$addFields": {"s": {"$meta": "textScore"}}}])
    found = await cursor.to_list()
    assert [d["_id"] for d in found] == [1]  # stemmed: saving ~ save, settings ~ setting
    assert found[0]["s"] > 0


async def test_guarded_upsert_push_slice_and_duplicate_id(client: FakeAsyncMongoClient) -> None:
    """What memory's learn/record_run rely on: an upsert whose filter holds ``$ne`` on an
    array inserts (``$inc`` from 0, ``$push`` a new array, ``$setOnInsert``), updates while
    the value is absent (``$slice`` keeps the tail), and collides on ``_id`` once it is there."""
    coll = client["db"]["c"]

    async def count(value: str, tenant: str = "a") -> dict[str, object]:
        return await coll.find_one_and_update(
            {"_id": "k", "tenant_id": tenant, "evidence": {"$ne": value}},
            {
                "$inc": {"n": 1},
                "$push": {"evidence": {"$each": [value], "$slice": -2}},
                "$setOnInsert": {"goal": "g"},
            },
            upsert=True,
            return_document=ReturnDocument.AFTER,
        )

    assert await count("t1") == {"_id": "k", "tenant_id": "a", "n": 1, "evidence": ["t1"], "goal": "g"}
    assert (await count("t2"))["evidence"] == ["t1", "t2"]
    assert await count("t3") == {"_id": "k", "tenant_id": "a", "n": 3, "evidence": ["t2", "t3"], "goal": "g"}
    with pytest.raises(DuplicateKeyError):
        await count("t3")  # counted already: the filter misses, the insert collides
    with pytest.raises(DuplicateKeyError):
        await count("t9", tenant="b")  # another tenant's id
    assert (await coll.find_one({"_id": "k"}))["n"] == 3
    assert await coll.find_one({"_id": "k", "evidence": "t3"}) is not None
