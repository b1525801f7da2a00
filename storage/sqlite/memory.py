"""SQLite memory: skills and recipes (learned from verified work) and the tenant switches.

Both record kinds count verified successes per task: ``learn`` / ``record_run`` run in one
``BEGIN IMMEDIATE`` transaction (read the row, insert or bump it), so two concurrent
requests never lose an update and one task never counts twice. Unused records are swept
after 90 days on demand (``delete_unused_since``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Generic, TypeVar

from storage._common import iso
from storage._memory import MemoryPrimitives, RecipeMethods, SkillMethods
from storage.errors import DuplicateKey
from storage.models import EVIDENCE_LIMIT, MemorySettings, Recipe, Skill
from storage.sqlite.codec import MEMORY_SETTINGS, RECIPES, SKILLS, Table, dump_json, load_json
from storage.sqlite.connection import SqliteDatabase

M = TypeVar("M", Skill, Recipe)


class _SqliteMemory(MemoryPrimitives, Generic[M]):
    """The primitives over one table (skills or recipes)."""

    table: Table[M]
    counter: str  # the column a verified success bumps
    updatable: tuple[str, ...]  # what ``upsert`` replaces

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    # -- writes ------------------------------------------------------------------------
    async def _count_success(self, record: M, task_id: str, at: datetime) -> M:
        return await self._db.run(self._count_success_sync, record, task_id, at)

    def _count_success_sync(self, record: M, task_id: str, at: datetime) -> M:
        name = self.table.name
        with self._db.transaction() as conn:
            row = conn.execute(
                f"SELECT tenant_id, evidence FROM {name} WHERE id = ?", (record.id,)
            ).fetchone()
            if row is None:
                fresh = record.model_copy(
                    update={self.counter: 1, "evidence": [task_id], "last_used": at}
                )
                conn.execute(self.table.insert_sql, self.table.to_row(fresh))
            elif row["tenant_id"] != record.tenant_id:
                raise DuplicateKey(f"{name} id {record.id!r} belongs to another tenant")
            else:
                evidence: list[str] = load_json(row["evidence"])
                if task_id in evidence:  # counted already: only the use is recorded
                    conn.execute(
                        f"UPDATE {name} SET last_used = ? WHERE id = ?", (iso(at), record.id)
                    )
                else:
                    evidence = [*evidence, task_id][-EVIDENCE_LIMIT:]
                    conn.execute(
                        f"UPDATE {name} SET {self.counter} = {self.counter} + 1, evidence = ?,"
                        " last_used = ? WHERE id = ?",
                        (dump_json(evidence), iso(at), record.id),
                    )
            stored = conn.execute(
                f"SELECT {self.table.select} FROM {name} WHERE id = ?", (record.id,)
            ).fetchone()
        return self.table.from_row(stored)

    async def _upsert(self, record: M) -> None:
        """Insert, or replace every field but ``created_at`` of the same tenant's record."""
        name = self.table.name
        assignments = ", ".join(f"{c} = excluded.{c}" for c in self.updatable)
        changed = await self._db.execute(
            f"{self.table.insert_sql} ON CONFLICT (id) DO UPDATE SET {assignments}"
            f" WHERE {name}.tenant_id = excluded.tenant_id",
            self.table.to_row(record),
        )
        if changed == 0:
            raise DuplicateKey(f"{name} id {record.id!r} belongs to another tenant")

    async def _set_status(self, tenant_id: str, record_id: str, status: str) -> None:
        await self._db.execute(
            f"UPDATE {self.table.name} SET status = ? WHERE tenant_id = ? AND id = ?",
            (status, tenant_id, record_id),
        )

    async def _delete(self, tenant_id: str, record_id: str) -> bool:
        sql = f"DELETE FROM {self.table.name} WHERE tenant_id = ? AND id = ?"
        return await self._db.execute(sql, (tenant_id, record_id)) > 0

    async def _delete_all(self, tenant_id: str, domain: str | None) -> int:
        where, params = _where(tenant_id, domain, None)
        return await self._db.execute(f"DELETE FROM {self.table.name} WHERE {where}", params)

    async def _evict(self, tenant_id: str, ids: Sequence[str]) -> int:
        if not ids:
            return 0
        marks = ", ".join("?" for _ in ids)
        sql = f"DELETE FROM {self.table.name} WHERE tenant_id = ? AND id IN ({marks})"
        return await self._db.execute(sql, (tenant_id, *ids))

    async def _delete_unused_since(self, before: datetime) -> int:
        sql = f"DELETE FROM {self.table.name} WHERE last_used < ?"
        return await self._db.execute(sql, (iso(before),))

    # -- reads -------------------------------------------------------------------------
    async def _get(self, tenant_id: str, record_id: str) -> M | None:
        row = await self._db.fetch_one(
            f"SELECT {self.table.select} FROM {self.table.name} WHERE tenant_id = ? AND id = ?",
            (tenant_id, record_id),
        )
        return None if row is None else self.table.from_row(row)

    async def _list(
        self,
        tenant_id: str,
        domain: str | None,
        statuses: Sequence[str] | None,
        limit: int,
        offset: int,
    ) -> list[M]:
        where, params = _where(tenant_id, domain, statuses)
        rows = await self._db.fetch_all(
            f"SELECT {self.table.select} FROM {self.table.name} WHERE {where}"
            " ORDER BY last_used DESC, seq DESC LIMIT ? OFFSET ?",
            (*params, max(0, limit), max(0, offset)),
        )
        return self.table.from_rows(rows)

    async def _total(self, tenant_id: str, domain: str | None, status: str | None) -> int:
        where, params = _where(tenant_id, domain, None if status is None else (status,))
        row = await self._db.fetch_one(f"SELECT COUNT(*) FROM {self.table.name} WHERE {where}", params)
        return 0 if row is None else int(row[0])


def _where(
    tenant_id: str, domain: str | None, statuses: Sequence[str] | None
) -> tuple[str, list[Any]]:
    clauses, params = ["tenant_id = ?"], [tenant_id]
    if domain is not None:
        clauses.append("domain = ?")
        params.append(domain)
    if statuses is not None:
        clauses.append(f"status IN ({', '.join('?' for _ in statuses)})")
        params.extend(statuses)
    return " AND ".join(clauses), params


class SqliteSkills(SkillMethods, _SqliteMemory[Skill]):
    table = SKILLS
    counter = "success_count"
    updatable = (
        "domain", "goal", "failed_state", "successful_action", "status",
        "success_count", "failure_count", "evidence", "last_used",
    )

    async def record_outcome(
        self, tenant_id: str, skill_id: str, success: bool, at: datetime
    ) -> None:
        await self._db.execute(
            "UPDATE skills SET success_count = success_count + ?,"
            " failure_count = failure_count + ?, last_used = ? WHERE tenant_id = ? AND id = ?",
            (int(success), int(not success), iso(at), tenant_id, skill_id),
        )


class SqliteRecipes(RecipeMethods, _SqliteMemory[Recipe]):
    table = RECIPES
    counter = "verified_runs"
    updatable = (
        "domain", "template", "variables", "steps", "status", "verified_runs",
        "failed_runs", "replays", "evidence", "last_used",
    )

    async def record_replay(
        self, tenant_id: str, recipe_id: str, success: bool, at: datetime
    ) -> None:
        await self._db.execute(
            "UPDATE recipes SET replays = replays + 1, failed_runs = failed_runs + ?,"
            " status = CASE WHEN ? THEN status ELSE 'demoted' END,"
            " verified_runs = CASE WHEN ? THEN verified_runs ELSE 0 END, last_used = ?"
            " WHERE tenant_id = ? AND id = ?",
            (int(not success), int(success), int(success), iso(at), tenant_id, recipe_id),
        )


class SqliteMemorySettings:
    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    async def get(self, tenant_id: str) -> MemorySettings | None:
        row = await self._db.fetch_one(
            f"SELECT {MEMORY_SETTINGS.select} FROM memory_settings WHERE tenant_id = ?",
            (tenant_id,),
        )
        return None if row is None else MEMORY_SETTINGS.from_row(row)

    async def put(self, settings: MemorySettings) -> None:
        await self._db.execute(
            f"{MEMORY_SETTINGS.insert_sql} ON CONFLICT (tenant_id) DO UPDATE SET"
            " skills = excluded.skills, replay = excluded.replay, updated_at = excluded.updated_at",
            MEMORY_SETTINGS.to_row(settings),
        )

