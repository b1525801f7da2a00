"""Request dependencies: the clients made in lifespan, the caller's identity, limits.

Every dependency is ``async def``: FastAPI runs a plain ``def`` dependency in a worker
thread, a thread hop per request for what is an attribute read."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from agent import AgentDeps, RequestContext
from agent.errors import StepwiseError
from app.auth import resolve_key
from app.settings import Settings
from knowledge import KnowledgeBase
from observability import bind_identity, bind_ids
from storage import Store

_bearer = HTTPBearer(auto_error=False, description="API key: `Authorization: Bearer sw_…`")


async def get_settings_dep(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def get_store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


async def get_knowledge(request: Request) -> KnowledgeBase:
    kb: KnowledgeBase = request.app.state.knowledge
    return kb


async def get_agent_deps(request: Request) -> AgentDeps:
    deps: AgentDeps = request.app.state.agent_deps
    return deps


class Unauthorized(StepwiseError):
    status_code = 401
    code = "UNAUTHORIZED"


class RateLimited(StepwiseError):
    status_code = 429
    code = "RATE_LIMITED"


async def get_request_context(
    request: Request,
    store: Annotated[Store, Depends(get_store)],
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> RequestContext:
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise Unauthorized("Missing API key: send `Authorization: Bearer <key>`")
    key = await resolve_key(store, credentials.credentials)
    if key is None:
        raise Unauthorized("Invalid or revoked API key")
    bind_identity(key.tenant_id, key.user_id)
    request_id = request.headers.get("x-request-id", "")
    return RequestContext(tenant_id=key.tenant_id, user_id=key.user_id, request_id=request_id)


async def _per_user_limit(ctx: RequestContext, store: Store, agent_deps: AgentDeps, scope: str, limit: int, what: str) -> None:
    """One request of ``ctx``'s user counted against ``limit`` per minute, in the store so
    every replica shares it (sliding window); 429 with Retry-After past it."""
    decision = await store.rate_limits.hit(f"{scope}:{ctx.tenant_id}:{ctx.user_id}", limit=limit, window_seconds=60, now=agent_deps.now())
    if not decision.allowed:
        raise RateLimited(
            f"Rate limit of {limit} {what} per minute reached",
            details={"limit": limit, "windowSeconds": 60, "retryAfterSeconds": decision.retry_after_seconds},
        )


async def enforce_interact_rate_limit(
    ctx: Annotated[RequestContext, Depends(get_request_context)],
    store: Annotated[Store, Depends(get_store)],
    settings: Annotated[Settings, Depends(get_settings_dep)],
    agent_deps: Annotated[AgentDeps, Depends(get_agent_deps)],
) -> RequestContext:
    """Per-user limit on interact."""
    await _per_user_limit(ctx, store, agent_deps, "interact", settings.rate_limit_per_minute, "interact requests")
    return ctx


async def enforce_api_rate_limit(
    ctx: Annotated[RequestContext, Depends(get_request_context)],
    store: Annotated[Store, Depends(get_store)],
    settings: Annotated[Settings, Depends(get_settings_dep)],
    agent_deps: Annotated[AgentDeps, Depends(get_agent_deps)],
) -> RequestContext:
    """Per-user limit on every other authenticated route (task detail, sessions, usage…): far
    above what a client or a person needs, so a runaway poller cannot load the store."""
    await _per_user_limit(ctx, store, agent_deps, "api", settings.api_rate_limit_per_minute, "API requests")
    return ctx


Context = Annotated[RequestContext, Depends(enforce_api_rate_limit)]
InteractContext = Annotated[RequestContext, Depends(enforce_interact_rate_limit)]
Deps = Annotated[AgentDeps, Depends(get_agent_deps)]
SettingsDep = Annotated[Settings, Depends(get_settings_dep)]
StoreDep = Annotated[Store, Depends(get_store)]
KnowledgeDep = Annotated[KnowledgeBase, Depends(get_knowledge)]


def bind_path_ids(session_id: str | None = None, task_id: str | None = None) -> None:
    bind_ids(session_id=session_id, task_id=task_id)
