"""The public face of the skill and recipe repositories, shared by both backends.

Each backend implements the primitives of :class:`MemoryPrimitives` once for both record
kinds; these mixins give them the exact method names and signatures of
``storage.base.SkillRepository`` / ``RecipeRepository``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from storage.models import Recipe, RecipeStatus, Skill, SkillStatus

#: Recipes a replay may start from: not demoted.


class MemoryPrimitives:
    """What a backend implements (once, for skills and recipes alike): every query
    filters by ``tenant_id`` but the TTL sweep; lists are most recently used first."""

    async def _count_success(self, record: Any, task_id: str, at: datetime) -> Any:
        raise NotImplementedError

    async def _upsert(self, record: Any) -> None:
        raise NotImplementedError

    async def _set_status(self, tenant_id: str, record_id: str, status: str) -> None:
        raise NotImplementedError

    async def _get(self, tenant_id: str, record_id: str) -> Any:
        raise NotImplementedError

    async def _list(
        self,
        tenant_id: str,
        domain: str | None,
        statuses: Sequence[str] | None,
        limit: int,
        offset: int,
    ) -> list[Any]:
        raise NotImplementedError

    async def _total(self, tenant_id: str, domain: str | None, status: str | None) -> int:
        raise NotImplementedError

    async def _delete(self, tenant_id: str, record_id: str) -> bool:
        raise NotImplementedError

    async def _delete_all(self, tenant_id: str, domain: str | None) -> int:
        raise NotImplementedError

    async def _evict(self, tenant_id: str, ids: Sequence[str]) -> int:
        raise NotImplementedError

    async def _delete_unused_since(self, before: datetime) -> int:
        raise NotImplementedError


def _statuses(status: str | None) -> tuple[str, ...] | None:
    return None if status is None else (status,)


class _Shared(MemoryPrimitives):
    async def count(self, tenant_id: str) -> int:
        return await self._total(tenant_id, None, None)

    async def delete_all(self, tenant_id: str, domain: str | None = None) -> int:
        return await self._delete_all(tenant_id, domain)

    async def evict(self, tenant_id: str, ids: Sequence[str]) -> int:
        return await self._evict(tenant_id, list(dict.fromkeys(ids)))

    async def delete_unused_since(self, before: datetime) -> int:
        return await self._delete_unused_since(before)


class SkillMethods(_Shared):
    async def learn(self, skill: Skill, task_id: str, at: datetime) -> Skill:
        return await self._count_success(skill, task_id, at)

    async def upsert(self, skill: Skill) -> None:
        await self._upsert(skill)

    async def set_status(
        self, tenant_id: str, skill_id: str, status: SkillStatus
    ) -> None:
        await self._set_status(tenant_id, skill_id, status)

    async def for_domain(
        self, tenant_id: str, domain: str, limit: int = 500
    ) -> list[Skill]:
        return await self._list(tenant_id, domain, None, limit, 0)

    async def get(self, tenant_id: str, skill_id: str) -> Skill | None:
        return await self._get(tenant_id, skill_id)

    async def list(
        self,
        tenant_id: str,
        domain: str | None = None,
        limit: int = 100,
        offset: int = 0,
        *,
        status: SkillStatus | None = None,
    ) -> list[Skill]:
        return await self._list(tenant_id, domain, _statuses(status), limit, offset)

    async def total(
        self,
        tenant_id: str,
        domain: str | None = None,
        *,
        status: SkillStatus | None = None,
    ) -> int:
        return await self._total(tenant_id, domain, status)

    async def delete(self, tenant_id: str, skill_id: str) -> bool:
        return await self._delete(tenant_id, skill_id)


class RecipeMethods(_Shared):
    async def record_run(
        self, recipe: Recipe, task_id: str, at: datetime
    ) -> Recipe:
        return await self._count_success(recipe, task_id, at)

    async def upsert(self, recipe: Recipe) -> None:
        await self._upsert(recipe)

    async def set_status(
        self, tenant_id: str, recipe_id: str, status: RecipeStatus
    ) -> None:
        await self._set_status(tenant_id, recipe_id, status)

    async def find(
        self, tenant_id: str, domain: str, limit: int = 50
    ) -> list[Recipe]:
        return await self._list(tenant_id, domain, None, limit, 0)

    async def get(self, tenant_id: str, recipe_id: str) -> Recipe | None:
        return await self._get(tenant_id, recipe_id)

    async def list(
        self,
        tenant_id: str,
        domain: str | None = None,
        limit: int = 100,
        offset: int = 0,
        *,
        status: RecipeStatus | None = None,
    ) -> list[Recipe]:
        return await self._list(tenant_id, domain, _statuses(status), limit, offset)

    async def total(
        self,
        tenant_id: str,
        domain: str | None = None,
        *,
        status: RecipeStatus | None = None,
    ) -> int:
        return await self._total(tenant_id, domain, status)

    async def delete(self, tenant_id: str, recipe_id: str) -> bool:
        return await self._delete(tenant_id, recipe_id)
