"""Stores and helpers shared by the ingestion tests (test_ingest.py, test_spa.py,
test_quality_slice.py): a real SQLite file and MongoDB through the in-process fake."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from storage import KnowledgeChunk, MongoStore, SqliteStore, Store
from storage.testing import FakeAsyncMongoClient

TENANT_A = "tenant-a"
TENANT_B = "tenant-b"


@pytest.fixture(params=["sqlite", "mongo-fake"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    made: Store
    if request.param == "sqlite":
        made = SqliteStore.from_url(f"sqlite:///{tmp_path / 'kb.db'}")
    else:
        made = MongoStore(FakeAsyncMongoClient(), "stepwise")
    await made.init()
    try:
        yield made
    finally:
        await made.close()


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> AsyncIterator[Store]:
    made = SqliteStore.from_url(f"sqlite:///{tmp_path / 'kb.db'}")
    await made.init()
    try:
        yield made
    finally:
        await made.close()


def dangling(chunks: Sequence[KnowledgeChunk], alive: set[str]) -> list[str]:
    """Chunks superseded by an id that is not a stored chunk."""
    return [c.id for c in chunks if c.superseded_by is not None and c.superseded_by not in alive]
