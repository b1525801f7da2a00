"""What only the SQLite backend has: URLs, pragmas, schema versions, locking, memory."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from storage import FinalizeBatch, SqliteStore, StorageError, StoreUnavailable
from storage.sqlite import path_from_url
from storage.sqlite.schema import MIGRATIONS, SCHEMA_VERSION
from tests.integration.storage.builders import TENANT_A, next_step, start_task, task


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("sqlite:///./data/stepwise.db", "./data/stepwise.db"),
        ("sqlite:///data/stepwise.db", "data/stepwise.db"),
        ("sqlite:////var/lib/stepwise/db.sqlite", "/var/lib/stepwise/db.sqlite"),
        ("sqlite://", ":memory:"),
        ("sqlite:///:memory:", ":memory:"),
    ],
)
def test_path_from_url(url: str, path: str) -> None:
    assert path_from_url(url) == path


@pytest.mark.parametrize(
    "url", ["postgresql://localhost/db", "sqlite:/x.db", "sqlite:///", "./x.db"]
)
def test_path_from_url_rejects_other_urls(url: str) -> None:
    with pytest.raises(ValueError):
        path_from_url(url)


async def test_file_is_created_in_wal_mode_with_a_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "dir" / "stepwise.db"
    store = SqliteStore.from_url(f"sqlite:///{path}")
    await store.init()
    await store.init()
    await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("SELECT version FROM schema_version ORDER BY version").fetchall() == [
            (version,) for version in range(1, SCHEMA_VERSION + 1)
        ]


async def test_a_database_of_the_first_schema_is_migrated_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "stepwise.db"
    with sqlite3.connect(path) as conn:  # as a version-1 server left it
        conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
        for statement in MIGRATIONS[0][1]:
            conn.execute(statement)
        conn.execute("INSERT INTO schema_version VALUES (1, '2026-11-01T00:00:00Z')")
    store = SqliteStore.from_url(f"sqlite:///{path}")
    await store.init()
    await store.close()
    with sqlite3.connect(path) as conn:
        assert "answer" in [row[1] for row in conn.execute("PRAGMA table_info(task_actions)")]
        assert conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0] == SCHEMA_VERSION


async def test_memory_database_works_for_one_store() -> None:
    store = SqliteStore.from_url("sqlite://")
    await store.init()
    first = await start_task(store)
    assert await store.tasks.get(TENANT_A, first.id) == first
    await store.close()


async def test_closed_store_is_unavailable(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "x.db"))
    await store.init()
    await store.close()
    await store.close()  # idempotent
    with pytest.raises(StoreUnavailable):
        await store.tasks.get(TENANT_A, "t")


async def test_a_writer_holding_the_lock_too_long_makes_it_unavailable(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    store = SqliteStore(str(path), busy_timeout_ms=50)
    await store.init()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreUnavailable):
            await store.finalize(FinalizeBatch(task=task(), expected_version=None))
    finally:
        other.execute("ROLLBACK")
        other.close()
    await store.finalize(FinalizeBatch(task=task(), expected_version=None))  # fine once released
    await store.close()


async def test_a_failed_finalize_leaves_the_connection_usable(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "x.db"))
    await store.init()
    first = await start_task(store)
    bad = next_step(first)
    bad.action_updates = [("missing", {"thought": "x"})]
    with pytest.raises(StorageError):
        await store.finalize(bad)
    assert (await store.finalize(next_step(first))).version == 2
    await store.close()


async def test_expired_rate_windows_are_pruned(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    store = SqliteStore(str(path))
    await store.init()
    store.rate_limits.PRUNE_EVERY = 2
    start = datetime(2026, 1, 1, tzinfo=UTC)
    await store.rate_limits.hit("k", 5, 60, start)
    await store.rate_limits.hit("k", 5, 60, start + timedelta(minutes=5))  # prunes the first window
    await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM rate_counters").fetchone()[0] == 1
