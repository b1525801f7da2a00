"""The SQLite store: one file, one connection on one worker thread, atomic finalize."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any, Literal

from storage._common import TASK_MUTABLE_FIELDS, check_batch, clean_action_update
from storage.errors import DuplicateKey, StorageError, TaskConflict
from storage.models import FinalizeBatch, Record, Task
from storage.sqlite.codec import (
    ACTIONS,
    CORRECTIONS,
    MESSAGES,
    SESSIONS,
    TASKS,
    USAGE,
    VERIFICATIONS,
    Table,
)
from storage.sqlite.connection import (
    DEFAULT_BUSY_TIMEOUT_MS,
    SqliteDatabase,
    is_unique_violation,
    path_from_url,
)
from storage.sqlite.crawl_jobs import SqliteCrawlJobs
from storage.sqlite.idempotency import SqliteIdempotency, complete_in
from storage.sqlite.knowledge import SqliteKnowledge
from storage.sqlite.repos import (
    SqliteActions,
    SqliteApiKeys,
    SqliteCorrections,
    SqliteMessages,
    SqliteSessions,
    SqliteTasks,
    SqliteVerifications,
)
from storage.sqlite.schema import migrate
from storage.sqlite.vision import SqliteVisionSettings
from storage.sqlite.memory import SqliteMemorySettings, SqliteRecipes, SqliteSkills
from storage.sqlite.usage import SqliteRateLimits, SqliteUsage

_TASK_UPDATE = (
    "UPDATE tasks SET "
    + ", ".join(f"{field} = ?" for field in TASK_MUTABLE_FIELDS)
    + ", version = version + 1 WHERE id = ? AND tenant_id = ? AND version = ?"
    + f" RETURNING {TASKS.select}"
)
_TASK_INSERT = f"{TASKS.insert_sql} RETURNING {TASKS.select}"
# A session is upserted: created with the task, else its status/updated_at (and url/title
# when given) follow the batch. A session id of another tenant is never touched.
_SESSION_UPSERT = (
    f"{SESSIONS.insert_sql} ON CONFLICT (id) DO UPDATE SET status = excluded.status,"
    " updated_at = excluded.updated_at, url = COALESCE(excluded.url, sessions.url),"
    " title = COALESCE(excluded.title, sessions.title)"
    " WHERE sessions.tenant_id = excluded.tenant_id"
)


class SqliteStore:
    """``Store`` on SQLite. Build with :meth:`from_url` or a filesystem path."""

    backend: Literal["sqlite", "mongodb"] = "sqlite"

    def __init__(self, path: str, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> None:
        self._db = SqliteDatabase(path, busy_timeout_ms=busy_timeout_ms)
        self.path = path
        self.api_keys = SqliteApiKeys(self._db)
        self.sessions = SqliteSessions(self._db)
        self.messages = SqliteMessages(self._db)
        self.tasks = SqliteTasks(self._db)
        self.actions = SqliteActions(self._db)
        self.corrections = SqliteCorrections(self._db)
        self.verifications = SqliteVerifications(self._db)
        self.usage = SqliteUsage(self._db)
        self.skills = SqliteSkills(self._db)
        self.recipes = SqliteRecipes(self._db)
        self.memory_settings = SqliteMemorySettings(self._db)
        self.vision_settings = SqliteVisionSettings(self._db)
        self.knowledge = SqliteKnowledge(self._db)
        self.crawl_jobs = SqliteCrawlJobs(self._db)
        self.rate_limits = SqliteRateLimits(self._db)
        self.idempotency = SqliteIdempotency(self._db)

    @classmethod
    def from_url(cls, url: str, *, busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS) -> SqliteStore:
        """``sqlite:///./data/stepwise.db`` (relative), ``sqlite:////abs/path.db`` (absolute),
        ``sqlite://`` (in memory, one store only)."""
        return cls(path_from_url(url), busy_timeout_ms=busy_timeout_ms)

    async def init(self) -> None:
        await self._db.run(self._init)

    def _init(self) -> int:
        with self._db.transaction() as conn:
            return migrate(conn)

    async def ping(self) -> bool:
        try:
            row = await self._db.fetch_one("SELECT 1")
        except (sqlite3.Error, StorageError):
            return False
        return row is not None

    async def finalize(self, batch: FinalizeBatch) -> Task:
        check_batch(batch)
        updates = [(aid, clean_action_update(fields)) for aid, fields in batch.action_updates]
        return await self._db.run(self._finalize, batch, updates)

    def _finalize(self, batch: FinalizeBatch, updates: list[tuple[str, dict[str, object]]]) -> Task:
        task = batch.task
        with self._db.transaction() as conn:
            if batch.expected_version is None:
                new = task.model_copy(update={"version": 1})
                try:
                    row = conn.execute(_TASK_INSERT, TASKS.to_row(new)).fetchone()
                except sqlite3.IntegrityError as exc:
                    if is_unique_violation(exc):
                        raise TaskConflict(task.id, None) from exc
                    raise
                stored = TASKS.from_row(row)  # as a read returns it (ms, JSON mode)
            else:
                values = [TASKS.value(f, v) for f, v in _task_fields(task)]
                row = conn.execute(
                    _TASK_UPDATE, [*values, task.id, task.tenant_id, batch.expected_version]
                ).fetchone()
                if row is None:
                    raise TaskConflict(task.id, batch.expected_version)
                stored = TASKS.from_row(row)
            if batch.session is not None:
                if conn.execute(_SESSION_UPSERT, SESSIONS.to_row(batch.session)).rowcount == 0:
                    raise StorageError(f"session {batch.session.id!r} belongs to another tenant")
            _insert(conn, ACTIONS, batch.actions)
            _insert(conn, MESSAGES, batch.messages)
            _insert(conn, VERIFICATIONS, batch.verifications)
            _insert(conn, CORRECTIONS, batch.corrections)
            _insert(conn, USAGE, batch.usage)
            if batch.message_outcome is not None:  # an older message may predate outcome ids: no row is fine
                message_id, outcome, error = batch.message_outcome
                conn.execute(
                    "UPDATE messages SET action_status = ?, action_error = ? WHERE id = ? AND tenant_id = ? AND session_id = ?",
                    (outcome, error, message_id, task.tenant_id, task.session_id),
                )
            for action_id, fields in updates:
                assignments = ", ".join(f"{name} = ?" for name in fields)
                values = [ACTIONS.value(n, v) for n, v in fields.items()]
                changed = conn.execute(
                    f"UPDATE task_actions SET {assignments}"
                    " WHERE id = ? AND tenant_id = ? AND task_id = ?",
                    [*values, action_id, task.tenant_id, task.id],
                ).rowcount
                if changed == 0:
                    raise StorageError(f"action {action_id!r} of task {task.id!r} not found")
            if batch.idempotency is not None:
                complete_in(conn, batch.idempotency)
        return stored

    async def close(self) -> None:
        await self._db.close()


def _task_fields(task: Task) -> list[tuple[str, object]]:
    jsonable = task.model_dump(mode="json", include=set(TASK_MUTABLE_FIELDS))
    return [(f, task.updated_at if f == "updated_at" else jsonable[f]) for f in TASK_MUTABLE_FIELDS]


def _insert(conn: sqlite3.Connection, table: Table[Any], records: Sequence[Record]) -> None:
    if not records:
        return
    try:
        conn.executemany(table.insert_sql, table.rows(records))
    except sqlite3.IntegrityError as exc:
        if is_unique_violation(exc):
            raise DuplicateKey(f"{table.name}: {exc}") from exc
        raise
