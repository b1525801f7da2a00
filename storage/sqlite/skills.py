"""SQLite skills library (episodic memory). The 90-day TTL is swept on demand."""

from __future__ import annotations

from datetime import datetime

from storage._common import SKILL_CANDIDATES, iso, rank_skills
from storage.errors import DuplicateKey
from storage.models import Skill
from storage.sqlite.codec import SKILLS
from storage.sqlite.connection import SqliteDatabase

_UPDATABLE = (
    "domain",
    "goal",
    "failed_state",
    "successful_action",
    "success_count",
    "failure_count",
    "last_used",
)


class SqliteSkills:
    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    async def upsert(self, skill: Skill) -> None:
        """Insert, or replace every field but ``created_at`` of the same tenant's skill."""
        assignments = ", ".join(f"{c} = excluded.{c}" for c in _UPDATABLE)
        changed = await self._db.execute(
            f"{SKILLS.insert_sql} ON CONFLICT (id) DO UPDATE SET {assignments}"
            " WHERE skills.tenant_id = excluded.tenant_id",
            SKILLS.to_row(skill),
        )
        if changed == 0:
            raise DuplicateKey(f"skill id {skill.id!r} belongs to another tenant")

    async def find(self, tenant_id: str, domain: str, goal: str, limit: int = 5) -> list[Skill]:
        rows = await self._db.fetch_all(
            f"SELECT {SKILLS.select} FROM skills WHERE tenant_id = ? AND domain = ?"
            " ORDER BY last_used DESC LIMIT ?",
            (tenant_id, domain, SKILL_CANDIDATES),
        )
        return rank_skills(SKILLS.from_rows(rows), goal, limit)

    async def count(self, tenant_id: str) -> int:
        sql = "SELECT COUNT(*) FROM skills WHERE tenant_id = ?"
        row = await self._db.fetch_one(sql, (tenant_id,))
        return 0 if row is None else int(row[0])

    async def record_outcome(
        self, tenant_id: str, skill_id: str, success: bool, at: datetime
    ) -> None:
        await self._db.execute(
            "UPDATE skills SET success_count = success_count + ?,"
            " failure_count = failure_count + ?, last_used = ? WHERE tenant_id = ? AND id = ?",
            (int(success), int(not success), iso(at), tenant_id, skill_id),
        )

    async def delete_unused_since(self, before: datetime) -> int:
        return await self._db.execute("DELETE FROM skills WHERE last_used < ?", (iso(before),))
