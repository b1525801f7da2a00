"""What a graph run needs besides its state: who is asking, the clients, the knobs."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from agent.llm import LLMGateway
from agent.sealing import Sealer
from knowledge import KnowledgeBase
from observability import NoopTracer, Tracer
from storage import Store, utcnow


@dataclass(frozen=True)
class RequestContext:
    tenant_id: str
    user_id: str
    request_id: str = ""


@dataclass(frozen=True)
class AgentConfig:
    """Per-deployment agent knobs (built from Settings at the edge)."""

    max_steps: int = 50
    task_idle_minutes: int = 30
    max_retries_per_step: int = 3
    max_consecutive_failures: int = 5
    velocity_limit: int = 5  # successful verifications in a row without progress
    loop_repeats: int = 3  # same action on an unchanged page
    history_window: int = 10
    chaining: bool = True  # answer safe runs of actions as a chain (agent.chaining)
    chain_max_actions: int = 10
    subtasks: bool = True  # decompose multi-part goals into page-verified sub-tasks (agent.subtasks)
    memory_skills: bool = True  # learn skills from verified corrections and use the admitted ones (agent.memory)
    memory_replay: bool = True  # record proven flows as recipes and replay them (agent.memory)
    idempotency_ttl_seconds: int = 24 * 60 * 60  # how long an Idempotency-Key is remembered
    idempotency_lease_seconds: int = 120  # an unanswered claim older than this was abandoned
    vision: bool = True  # screenshots may reach the model, for tenants that allow it (agent.vision)
    vision_max_width: int = 1024  # screenshots wider than this are scaled down before the model sees them
    screenshot_asks: int = 2  # answers per task that may ask the client for a screenshot
    full_dom_asks: int = 2  # answers per task that may ask the client for the full DOM


@dataclass
class AgentDeps:
    """Clients made once at start-up and shared by every request."""

    store: Store
    config: AgentConfig = field(default_factory=AgentConfig)
    gateway: LLMGateway | None = None
    search: Any | None = None  # agent.search client, when TAVILY_API_KEY is set
    tracer: Tracer = field(default_factory=NoopTracer)
    clock: Callable[[], datetime] = utcnow
    sealer: Sealer = field(default_factory=Sealer.ephemeral)  # seals a task's secrets at rest (agent.sealing)
    knowledge: KnowledgeBase | None = None  # retrieval once per request (spec Step 1.4) and phase-2 learning
    learn_tenants: frozenset[str] = frozenset()  # tenants whose verified interactions feed phase 2 ("*": all)

    def now(self) -> datetime:
        return self.clock()
