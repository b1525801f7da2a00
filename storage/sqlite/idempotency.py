"""SQLite ``Idempotency-Key`` records: a claim is one ``BEGIN IMMEDIATE`` transaction."""

from __future__ import annotations

import sqlite3
from datetime import datetime

from storage._common import iso, may_take_over
from storage.errors import IdempotencyConflict
from storage.models import IdempotencyCompletion, IdempotencyRecord
from storage.sqlite.codec import IDEMPOTENCY
from storage.sqlite.connection import SqliteDatabase

_WHERE_HELD = "tenant_id = ? AND user_id = ? AND key = ? AND token = ? AND state = 'in_flight'"
_COMPLETE = (
    "UPDATE idempotency_keys SET state = 'completed', status_code = ?, task_id = ?, step_index = ?, response = ?"
    f" WHERE {_WHERE_HELD}"
)


def complete_in(conn: sqlite3.Connection, done: IdempotencyCompletion) -> None:
    """Complete ``done``'s claim inside the caller's transaction (``finalize``), or raise
    ``IdempotencyConflict`` so that the whole transaction rolls back."""
    changed = conn.execute(_COMPLETE, _completion_params(done)).rowcount
    if changed == 0:
        raise IdempotencyConflict(done.key)


def _completion_params(done: IdempotencyCompletion) -> tuple[object, ...]:
    response = IDEMPOTENCY.value("response", done.response)
    return (done.status_code, done.task_id, done.step_index, response, done.tenant_id, done.user_id, done.key, done.token)


class SqliteIdempotency:
    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    async def claim(self, record: IdempotencyRecord, now: datetime) -> IdempotencyRecord | None:
        return await self._db.run(self._claim, record, now)

    def _claim(self, record: IdempotencyRecord, now: datetime) -> IdempotencyRecord | None:
        with self._db.transaction() as conn:
            conn.execute("DELETE FROM idempotency_keys WHERE expires_at <= ?", (iso(now),))
            row = conn.execute(
                f"SELECT {IDEMPOTENCY.select} FROM idempotency_keys WHERE tenant_id = ? AND user_id = ? AND key = ?",
                (record.tenant_id, record.user_id, record.key),
            ).fetchone()
            if row is not None:
                held = IDEMPOTENCY.from_row(row)
                if not may_take_over(held, record, now):
                    return held
                conn.execute("DELETE FROM idempotency_keys WHERE id = ?", (held.id,))
            conn.execute(IDEMPOTENCY.insert_sql, IDEMPOTENCY.to_row(record))
        return None

    async def get(self, tenant_id: str, user_id: str, key: str) -> IdempotencyRecord | None:
        row = await self._db.fetch_one(
            f"SELECT {IDEMPOTENCY.select} FROM idempotency_keys WHERE tenant_id = ? AND user_id = ? AND key = ?",
            (tenant_id, user_id, key),
        )
        return IDEMPOTENCY.from_row(row) if row is not None else None

    async def complete(self, done: IdempotencyCompletion) -> bool:
        return await self._db.execute(_COMPLETE, _completion_params(done)) > 0

    async def release(self, tenant_id: str, user_id: str, key: str, token: str) -> bool:
        sql = f"DELETE FROM idempotency_keys WHERE {_WHERE_HELD}"
        return await self._db.execute(sql, (tenant_id, user_id, key, token)) > 0
