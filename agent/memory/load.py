"""What a request loads from memory, once, before the graph runs."""

from __future__ import annotations

import asyncio
from typing import Final

import structlog

from agent.context import AgentDeps
from agent.memory.skills import applicable
from agent.memory.status import MemoryContext
from agent.search.domains import registrable_domain
from storage import StorageError

log = structlog.get_logger(__name__)

LOAD_TIMEOUT_S: Final = 2.0
RECIPES_PER_DOMAIN: Final = 200


async def load_memory(*, tenant_id: str, url: str, goal: str, replaying: bool, deps: AgentDeps) -> MemoryContext:
    """The tenant's switches, the admitted skills that apply to ``goal`` on this site, and
    the site's recipes (for a new task, or one replaying a recipe). Bounded: a slow or
    failing store means a request without memory, never a failed request."""
    config = deps.config
    domain = registrable_domain(url)
    if domain is None or not (config.memory_skills or config.memory_replay):
        return MemoryContext(domain=domain)
    try:
        async with asyncio.timeout(LOAD_TIMEOUT_S):
            settings = await deps.store.memory_settings.get(tenant_id)
            skills_on = config.memory_skills and (settings is None or settings.skills)
            replay_on = config.memory_replay and (settings is None or settings.replay)
            skills = await deps.store.skills.for_domain(tenant_id, domain) if skills_on else []
            recipes = await deps.store.recipes.find(tenant_id, domain, limit=RECIPES_PER_DOMAIN) if replay_on and replaying else []
    except (TimeoutError, StorageError) as exc:
        log.warning("memory.load_failed", error=type(exc).__name__)
        return MemoryContext(domain=domain, error=type(exc).__name__)
    return MemoryContext(
        domain=domain,
        skills_on=skills_on,
        replay_on=replay_on,
        skills=tuple(applicable(skills, goal, deps.now())),
        recipes=tuple(recipes),
    )
