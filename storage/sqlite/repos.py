"""SQLite repositories for keys, sessions, messages, tasks and their step records."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from storage._common import iso, now_utc
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
from storage.sqlite.codec import (
    ACTIONS,
    API_KEYS,
    CORRECTIONS,
    MESSAGES,
    SESSIONS,
    TASKS,
    VERIFICATIONS,
)
from storage.sqlite.connection import SqliteDatabase


class _Repo:
    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db


class SqliteApiKeys(_Repo):
    async def create(self, key: ApiKey) -> None:
        await self._db.execute(API_KEYS.insert_sql, API_KEYS.to_row(key))

    async def get_by_hash(self, key_hash: str) -> ApiKey | None:
        row = await self._db.fetch_one(
            f"SELECT {API_KEYS.select} FROM api_keys WHERE key_hash = ?", (key_hash,)
        )
        return None if row is None else API_KEYS.from_row(row)

    async def list(self, tenant_id: str) -> list[ApiKey]:
        rows = await self._db.fetch_all(
            f"SELECT {API_KEYS.select} FROM api_keys WHERE tenant_id = ? ORDER BY created_at, seq",
            (tenant_id,),
        )
        return API_KEYS.from_rows(rows)

    async def revoke(self, tenant_id: str, key_id: str, at: datetime) -> bool:
        changed = await self._db.execute(
            "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?)"
            " WHERE tenant_id = ? AND id = ?",
            (iso(at), tenant_id, key_id),
        )
        return changed > 0


class SqliteSessions(_Repo):
    async def create(self, session: Session) -> None:
        await self._db.execute(SESSIONS.insert_sql, SESSIONS.to_row(session))

    async def get(self, tenant_id: str, session_id: str) -> Session | None:
        row = await self._db.fetch_one(
            f"SELECT {SESSIONS.select} FROM sessions WHERE tenant_id = ? AND id = ?",
            (tenant_id, session_id),
        )
        return None if row is None else SESSIONS.from_row(row)

    async def list(self, tenant_id: str, user_id: str, limit: int = 50) -> list[Session]:
        rows = await self._db.fetch_all(
            f"SELECT {SESSIONS.select} FROM sessions WHERE tenant_id = ? AND user_id = ?"
            " ORDER BY created_at DESC, seq DESC LIMIT ?",
            (tenant_id, user_id, limit),
        )
        return SESSIONS.from_rows(rows)


class SqliteMessages(_Repo):
    async def add(self, message: Message) -> None:
        await self._db.execute(MESSAGES.insert_sql, MESSAGES.to_row(message))

    async def list(self, tenant_id: str, session_id: str, limit: int = 200) -> list[Message]:
        rows = await self._db.fetch_all(
            f"SELECT {MESSAGES.select} FROM (SELECT seq, {MESSAGES.select} FROM messages"
            " WHERE tenant_id = ? AND session_id = ? ORDER BY created_at DESC, seq DESC LIMIT ?)"
            " ORDER BY created_at, seq",
            (tenant_id, session_id, limit),
        )
        return MESSAGES.from_rows(rows)

    async def update_last_action_status(
        self,
        tenant_id: str,
        session_id: str,
        status: Literal["success", "failure", "pending"],
        error: str | None,
    ) -> bool:
        changed = await self._db.execute(
            "UPDATE messages SET action_status = ?, action_error = ? WHERE seq = ("
            " SELECT seq FROM messages"
            " WHERE tenant_id = ? AND session_id = ? AND role = 'assistant'"
            " ORDER BY created_at DESC, seq DESC LIMIT 1)",
            (status, error, tenant_id, session_id),
        )
        return changed > 0


class SqliteTasks(_Repo):
    async def get(self, tenant_id: str, task_id: str) -> Task | None:
        row = await self._db.fetch_one(
            f"SELECT {TASKS.select} FROM tasks WHERE tenant_id = ? AND id = ?", (tenant_id, task_id)
        )
        return None if row is None else TASKS.from_row(row)

    async def find_active(
        self, tenant_id: str, session_id: str, url: str | None = None
    ) -> Task | None:
        sql = (
            f"SELECT {TASKS.select} FROM tasks"
            " WHERE tenant_id = ? AND session_id = ? AND status = 'active'"
        )
        params: list[object] = [tenant_id, session_id]
        if url is not None:
            sql += " AND url = ?"
            params.append(url)
        row = await self._db.fetch_one(sql + " ORDER BY updated_at DESC, seq DESC LIMIT 1", params)
        return None if row is None else TASKS.from_row(row)

    async def expire_stale(self, tenant_id: str, session_id: str, older_than: datetime) -> int:
        return await self._db.execute(
            "UPDATE tasks SET status = 'interrupted', version = version + 1, updated_at = ?"
            " WHERE tenant_id = ? AND session_id = ? AND status = 'active' AND updated_at < ?",
            (iso(now_utc()), tenant_id, session_id, iso(older_than)),
        )

    async def list(
        self,
        tenant_id: str,
        session_id: str | None = None,
        limit: int = 50,
        *,
        status: str | None = None,
        after: str | None = None,
    ) -> list[Task]:
        sql = f"SELECT {TASKS.select} FROM tasks WHERE tenant_id = ?"
        params: list[object] = [tenant_id]
        if session_id is not None:
            sql += " AND session_id = ?"
            params.append(session_id)
        if status is not None:
            sql += " AND status = ?"
            params.append(status)
        if after is not None:  # keyset: strictly after the anchor in (created_at, seq) order
            sql += " AND (created_at, seq) < (SELECT created_at, seq FROM tasks WHERE tenant_id = ? AND id = ?)"
            params.extend([tenant_id, after])
        sql += " ORDER BY created_at DESC, seq DESC LIMIT ?"
        rows = await self._db.fetch_all(sql, [*params, limit])
        return TASKS.from_rows(rows)

    async def fail(
        self, tenant_id: str, task_id: str, expected_version: int, code: str, reason: str
    ) -> Task:
        row = await self._db.fetch_one(
            "UPDATE tasks SET status = 'failed', failure_code = ?, failure_reason = ?,"
            " version = version + 1, updated_at = ?"
            f" WHERE tenant_id = ? AND id = ? AND version = ? RETURNING {TASKS.select}",
            (code, reason, iso(now_utc()), tenant_id, task_id, expected_version),
        )
        if row is None:
            raise TaskConflict(task_id, expected_version)
        return TASKS.from_row(row)


class SqliteActions(_Repo):
    async def list(self, tenant_id: str, task_id: str) -> list[TaskAction]:
        rows = await self._db.fetch_all(
            f"SELECT {ACTIONS.select} FROM task_actions WHERE tenant_id = ? AND task_id = ?"
            " ORDER BY step_index",
            (tenant_id, task_id),
        )
        return ACTIONS.from_rows(rows)

    async def last(self, tenant_id: str, task_id: str) -> TaskAction | None:
        row = await self._db.fetch_one(
            f"SELECT {ACTIONS.select} FROM task_actions WHERE tenant_id = ? AND task_id = ?"
            " ORDER BY step_index DESC LIMIT 1",
            (tenant_id, task_id),
        )
        return None if row is None else ACTIONS.from_row(row)

    async def recent(self, tenant_id: str, task_id: str, limit: int) -> list[TaskAction]:
        if limit < 1:
            return []
        rows = await self._db.fetch_all(
            f"SELECT {_ACTIONS_RECENT} FROM task_actions WHERE tenant_id = ? AND task_id = ?"
            " ORDER BY step_index DESC LIMIT ?",
            (tenant_id, task_id, tenant_id, task_id, limit),
        )
        return ACTIONS.from_rows(reversed(rows))


# Only the newest step reads its before_state column: SQLite reads a column when the
# expression needs it, so the older steps' stored pages (overflow pages) are never touched.
# The subquery is uncorrelated: evaluated once, from the (tenant_id, task_id, step_index) index.
_ACTIONS_RECENT = ", ".join(
    "CASE WHEN step_index = (SELECT MAX(step_index) FROM task_actions WHERE tenant_id = ? AND task_id = ?)"
    " THEN before_state END AS before_state"
    if column == "before_state"
    else column
    for column in ACTIONS.columns
)


class SqliteCorrections(_Repo):
    async def list(self, tenant_id: str, task_id: str) -> list[CorrectionRecord]:
        rows = await self._db.fetch_all(
            f"SELECT {CORRECTIONS.select} FROM corrections WHERE tenant_id = ? AND task_id = ?"
            " ORDER BY created_at, seq",
            (tenant_id, task_id),
        )
        return CORRECTIONS.from_rows(rows)


class SqliteVerifications(_Repo):
    async def list(self, tenant_id: str, task_id: str) -> list[VerificationRecordRow]:
        rows = await self._db.fetch_all(
            f"SELECT {VERIFICATIONS.select} FROM verifications WHERE tenant_id = ? AND task_id = ?"
            " ORDER BY created_at, seq",
            (tenant_id, task_id),
        )
        return VERIFICATIONS.from_rows(rows)

    async def list_since(self, tenant_id: str, since: datetime) -> list[VerificationRecordRow]:
        rows = await self._db.fetch_all(
            f"SELECT {VERIFICATIONS.select} FROM verifications"
            " WHERE tenant_id = ? AND created_at >= ?"
            " ORDER BY created_at, seq",
            (tenant_id, iso(since)),
        )
        return VERIFICATIONS.from_rows(rows)
