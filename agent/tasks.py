"""Read paths around tasks and sessions: recovery, detail, message log."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Final
from urllib.parse import urlsplit

import structlog

from agent.context import AgentDeps, RequestContext
from agent.chaining.stats import chain_stats
from agent.contracts import contract_summary
from agent.errors import SessionNotFound, StepwiseError, TaskConflictError, TaskFinished, TaskNotFound
from cost import TaskCost, task_cost
from storage import (
    TERMINAL_TASK_STATUSES,
    CorrectionRecord,
    Message,
    Session,
    Store,
    Task,
    TaskAction,
    TaskConflict,
    VerificationRecordRow,
)
from verification import Contract

log = structlog.get_logger(__name__)


async def find_active_task(session_id: str, url: str | None, ctx: RequestContext, deps: AgentDeps) -> Task:
    """The session's active task, after lazily expiring zombie tasks (idle > N minutes)."""
    store = deps.store
    session = await store.sessions.get(ctx.tenant_id, session_id)
    if session is None:
        raise SessionNotFound(f"No session {session_id!r}", details={"sessionId": session_id})
    cutoff = deps.now() - timedelta(minutes=deps.config.task_idle_minutes)
    expired = await store.tasks.expire_stale(ctx.tenant_id, session_id, cutoff)
    if expired:
        log.info("task.expired_stale", count=expired, idle_minutes=deps.config.task_idle_minutes)
    task = await _active_on_site(store, ctx.tenant_id, session_id, url)
    if task is None:
        raise TaskNotFound("No active task in this session; start a new task", details={"sessionId": session_id})
    return task


def _site(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme.lower(), (parts.hostname or "").lower()


async def _active_on_site(store: Store, tenant_id: str, session_id: str, url: str | None) -> Task | None:
    """The most recent active task of the session — on the same site as ``url`` when given.

    A task's URL is the page of its last request; the tab may since have navigated within
    the site (the action did that), so the match is by origin, not by the exact address."""
    if url is None:
        return await store.tasks.find_active(tenant_id, session_id)
    wanted = _site(url)
    for task in await store.tasks.list(tenant_id, session_id):
        if task.status == "active" and wanted in (_site(task.url), _site(str(task.state.get("start_url") or task.url))):
            return task
    return None


@dataclass(frozen=True)
class TaskDetail:
    task: Task
    actions: list[TaskAction]
    verifications: list[VerificationRecordRow]
    corrections: list[CorrectionRecord]
    cost: TaskCost
    contract: dict[str, Any] | None = None
    chains: dict[str, int] | None = None  # agent.chaining.stats


async def task_detail(task_id: str, ctx: RequestContext, deps: AgentDeps) -> TaskDetail:
    store = deps.store
    task = await store.tasks.get(ctx.tenant_id, task_id)
    if task is None:
        raise TaskNotFound(f"No task {task_id!r}", details={"taskId": task_id})
    actions = await store.actions.list(ctx.tenant_id, task_id)
    return TaskDetail(
        task=task,
        actions=actions,
        chains=chain_stats(actions),
        verifications=await store.verifications.list(ctx.tenant_id, task_id),
        corrections=await store.corrections.list(ctx.tenant_id, task_id),
        cost=await task_cost(store, ctx.tenant_id, task_id),
        contract=contract_summary(Contract.model_validate(task.state["contract"])) if task.state.get("contract") else None,
    )


async def create_session(ctx: RequestContext, deps: AgentDeps, url: str | None, title: str | None) -> Session:
    session = Session(tenant_id=ctx.tenant_id, user_id=ctx.user_id, url=url, title=title)
    await deps.store.sessions.create(session)
    log.info("session.created", session_id=session.id)
    return session


async def get_session(session_id: str, ctx: RequestContext, deps: AgentDeps) -> Session:
    session = await deps.store.sessions.get(ctx.tenant_id, session_id)
    if session is None:
        raise SessionNotFound(f"No session {session_id!r}", details={"sessionId": session_id})
    return session


async def session_messages(session_id: str, ctx: RequestContext, deps: AgentDeps, limit: int) -> list[Message]:
    await get_session(session_id, ctx, deps)
    return await deps.store.messages.list(ctx.tenant_id, session_id, limit=limit)


async def session_tasks(session_id: str, ctx: RequestContext, deps: AgentDeps) -> list[Task]:
    await get_session(session_id, ctx, deps)
    return await deps.store.tasks.list(ctx.tenant_id, session_id)


async def list_tasks(
    ctx: RequestContext,
    deps: AgentDeps,
    *,
    status: str | None = None,
    session_id: str | None = None,
    limit: int = 20,
    after: str | None = None,
) -> list[Task]:
    """The tenant's tasks, newest first, one page of them: those after the task ``after``
    (the previous page's last); 422 when it is not a task of the tenant."""
    if after is not None and await deps.store.tasks.get(ctx.tenant_id, after) is None:
        raise StepwiseError(
            "cursor names no task of yours: pass the nextCursor of the previous page",
            code="VALIDATION_FAILED", status_code=422, details={"cursor": after},
        )  # fmt: skip
    return await deps.store.tasks.list(ctx.tenant_id, session_id, limit, status=status, after=after)


CANCELLED: Final = "CANCELLED"


async def cancel_task(task_id: str, ctx: RequestContext, deps: AgentDeps) -> Task:
    """Stop a task that has not ended: it fails with CANCELLED (and takes no more steps).
    A finished task is a 409; a request that steps the task at the same moment wins or
    loses by the task's version, never both."""
    task = await deps.store.tasks.get(ctx.tenant_id, task_id)
    if task is None:
        raise TaskNotFound(f"No task {task_id!r}", details={"taskId": task_id})
    if task.status in TERMINAL_TASK_STATUSES:
        raise TaskFinished(f"Task {task_id!r} is already {task.status}", details={"taskId": task_id, "status": task.status})
    try:
        cancelled = await deps.store.tasks.fail(ctx.tenant_id, task_id, task.version, CANCELLED, "Cancelled by the user")
    except TaskConflict as exc:
        raise TaskConflictError("The task moved while it was being cancelled; try again", details={"taskId": task_id}) from exc
    log.info("task.cancelled", task_id=task_id)
    return cancelled
