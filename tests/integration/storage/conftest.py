"""One contract suite, every backend.

``store`` is parametrised over SQLite (a real file), MongoDB through the in-process fake,
and a real MongoDB when ``STEPWISE_TEST_MONGODB_URI`` is set (a replica set: finalize uses
transactions). ``backend.open()`` gives further stores on the *same* database, the way two
app replicas share one.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pymongo import AsyncMongoClient

from storage import MongoStore, SqliteStore, Store
from storage.testing import FakeAsyncMongoClient
from tests.integration.storage.backends import Backend

REAL_MONGODB_URI = os.environ.get("STEPWISE_TEST_MONGODB_URI")

BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param("mongo-fake", id="mongo-fake"),
    pytest.param(
        "mongo-real",
        id="mongo-real",
        marks=[
            pytest.mark.mongo_real,
            pytest.mark.skipif(
                not REAL_MONGODB_URI,
                reason="needs STEPWISE_TEST_MONGODB_URI=mongodb://… (a replica set)",
            ),
        ],
    ),
]


async def _nothing() -> None:
    return None


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    name: str = request.param
    if name == "sqlite":
        path = tmp_path / "data" / "stepwise.db"  # parent directory does not exist yet
        made = Backend(name, lambda: SqliteStore.from_url(f"sqlite:///{path}"), _nothing)
    elif name == "mongo-fake":
        client = FakeAsyncMongoClient()
        made = Backend(name, lambda: MongoStore(client, "stepwise"), _nothing)
    else:
        assert REAL_MONGODB_URI is not None
        db_name = f"stepwise_test_{uuid.uuid4().hex[:12]}"

        async def drop() -> None:
            client: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(REAL_MONGODB_URI)
            await client.drop_database(db_name)
            await client.close()

        made = Backend(name, lambda: MongoStore.from_uri(REAL_MONGODB_URI, db_name), drop)
    try:
        yield made
    finally:
        await made.close()


@pytest.fixture
async def store(backend: Backend) -> Store:
    return await backend.open()
