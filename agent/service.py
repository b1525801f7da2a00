"""``interact``: one request of the extension, from loaded task to persisted answer."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

import structlog

from agent.answers import answer, confirmed, declined, masked, question
from agent.interrupts import note_answer
from agent.context import AgentDeps, RequestContext
from agent.contracts import stored_contract
from agent.errors import (
    IdempotencyKeyInFlight,
    InvalidPage,
    MaxStepsExceeded,
    SecretsUnavailable,
    SessionNotFound,
    TaskConflictError,
    TaskFinished,
    TaskNotFound,
)
from agent.graph import interact_graph
from agent.idempotency import answer_without_step, claim_key, keep_answer, release
from agent.inputs import InteractInput, InteractOutcome
from agent.memory import load_memory
from agent.offload import INLINE_DOM_BYTES, INLINE_ELEMENTS, page_work
from agent.progress import TaskProgress
from agent.rag import LEARNING, request_knowledge
from agent.replay import check_step, replayed_outcome
from agent.sealing import SecretsUnreadable
from agent.secret_records import open_secrets, reveal_action, reveal_task
from agent.secrets import TaskSecrets
from agent.state import GraphContext, InteractState
from agent.vision import load_vision
from cost import UsageService
from observability import bind_ids, hide_more, hide_secrets, interact_trace_name
from planning import Plan
from storage import TERMINAL_TASK_STATUSES, IdempotencyConflict, IdempotencyRecord, Session, Task, TaskAction, TaskConflict, new_id
from verification import PageInputError, PageState, check_contract

log = structlog.get_logger(__name__)

# What the answer reads from the final state (reading all ~30 channels costs time).
_ANSWER_KEYS = ["stored_task", "needs_user_input", "outcome", "verification", "contract", "memory", "contingency", "needs_full_dom", "needs_screenshot"]


@dataclass(frozen=True)
class _Loaded:
    task: Task
    session: Session
    session_is_new: bool
    is_new_task: bool
    previous_actions: list[TaskAction]
    secrets: TaskSecrets
    replay: TaskAction | None = None  # a re-sent continuation: this step's answer is sent again


async def interact(request: InteractInput, ctx: RequestContext, deps: AgentDeps) -> InteractOutcome:
    """One step. The task's secrets are registered for masking before anything is logged,
    and every part of the answer but the action itself shows them as placeholders."""
    with hide_secrets():
        return masked(await _interact(request, ctx, deps))


async def _interact(request: InteractInput, ctx: RequestContext, deps: AgentDeps) -> InteractOutcome:
    started = time.perf_counter()
    page = await page_work(_heavy_request(request), _page_state, request)
    if request.idempotency is None:
        return await _step(request, ctx, deps, page, started, None)
    claim, held = await claim_key(request.idempotency, ctx, deps)
    if held is not None:  # the key's first request was answered: that answer again
        return dataclasses.replace(await _answered(held, ctx, deps), server_ms=(time.perf_counter() - started) * 1000)
    assert claim is not None
    try:
        outcome = await _step(request, ctx, deps, page, started, claim)
    except BaseException:  # an error keeps nothing: the key is free for the retry
        await release(claim, deps)
        raise
    if outcome.replayed:  # answered from a stored step, nothing ran: nothing to keep
        await release(claim, deps)
    else:  # finalize completed the claim with its step; an answer without one is kept here
        await keep_answer(claim, outcome, deps)
    return outcome


async def _answered(held: IdempotencyRecord, ctx: RequestContext, deps: AgentDeps) -> InteractOutcome:
    """The answer a completed Idempotency-Key points at, its secrets revealed as a replay's are."""
    if held.task_id is None:
        return answer_without_step(held)
    task = await deps.store.tasks.get(ctx.tenant_id, held.task_id)
    if task is None:  # written together with the key: only a deleted task gets here
        raise TaskNotFound(f"No task {held.task_id!r}", details={"taskId": held.task_id})
    secrets = await _open_secrets(task, ctx, deps)
    steps = [a for a in await deps.store.actions.list(ctx.tenant_id, task.id) if a.step_index == held.step_index]
    if not steps:
        raise TaskNotFound(f"No step {held.step_index} of task {task.id!r}", details={"taskId": task.id})
    replayed = replayed_outcome(reveal_task(task, secrets), task.session_id, reveal_action(steps[0], secrets))
    return dataclasses.replace(replayed, idempotent_replay=True)


async def _step(
    request: InteractInput, ctx: RequestContext, deps: AgentDeps, page: PageState, started: float, claim: IdempotencyRecord | None
) -> InteractOutcome:
    loaded = await _load(request, ctx, deps, page)
    task, session = loaded.task, loaded.session
    if loaded.replay is not None:
        log.info("interact.replayed", step_index=loaded.replay.step_index)
        replayed = replayed_outcome(task, session.id, loaded.replay)
        return dataclasses.replace(replayed, server_ms=(time.perf_counter() - started) * 1000)
    state: InteractState = {
        "input": request,
        "page": page,
        "task": task,
        "is_new_task": loaded.is_new_task,
        "last_action": loaded.previous_actions[-1] if loaded.previous_actions else None,
        "previous_actions": loaded.previous_actions,
        "plan": Plan.model_validate(task.plan) if task.plan else None,
        "progress": TaskProgress.from_task_state(task.state),
        "corrections": [],
    }
    if not loaded.is_new_task:
        state["contract"] = stored_contract(task.state, task.query, page)
    pending = task.state.get("confirm") if not loaded.is_new_task else None
    if pending:
        if request.confirm is None:  # no answer yet: the same question
            return question(task, session.id, pending, (time.perf_counter() - started) * 1000)
        if request.confirm is False:
            return await declined(task, session.id, pending, ctx, deps, (time.perf_counter() - started) * 1000)
        state.update(confirmed(pending))
        # The held action is issued on this page: what the contract needs to hold when it is
        # made (the fields a press submits) is read here, as on every other step's page.
        state["contract"] = check_contract(state["contract"], page, step=task.step_index)
    await note_answer(request, task, loaded.is_new_task, ctx, deps)  # a reply to a mid-flight question (agent.interrupts)
    history = () if loaded.session_is_new else tuple(await deps.store.messages.list(ctx.tenant_id, session.id, limit=20))
    vision = await load_vision(tenant_id=ctx.tenant_id, page=request.page, deps=deps)  # an unreadable screenshot fails here, before any model call
    rag = await request_knowledge(task.query, page.url, ctx, deps)
    replaying = loaded.is_new_task or task.state.get("recall") is not None
    memory = await load_memory(tenant_id=ctx.tenant_id, url=page.url, goal=task.query, replaying=replaying, deps=deps)
    async with deps.tracer.start_trace(
        interact_trace_name(task.id), task_id=task.id, session_id=session.id, user_id=ctx.user_id, tenant_id=ctx.tenant_id
    ) as trace:
        context = GraphContext(
            request=ctx,
            deps=deps,
            session=session,
            session_is_new=loaded.session_is_new,
            history=history,
            trace_id=trace.trace_id,
            secrets=loaded.secrets,
            idempotency=claim,
            rag=rag,
            memory=memory,
            vision=vision,
        )
        with UsageService.for_request() as usage:
            try:
                final = await interact_graph().ainvoke(state, context=context, output_keys=_ANSWER_KEYS)
            except TaskConflict as exc:
                raise TaskConflictError(
                    "Another request on this task step was answered first; nothing was changed by this one",
                    details={"taskId": exc.task_id},
                ) from exc
            except IdempotencyConflict as exc:  # this request's claim outlived its lease and was taken over
                raise IdempotencyKeyInFlight(
                    "A retry of this request took over its Idempotency-Key; nothing was changed by this one",
                    details={"idempotencyKey": exc.key, "retryAfterSeconds": 1},
                ) from exc
    if loaded.previous_actions:
        LEARNING.after_step(
            deps, ctx, url=page.url, dom=request.page.dom, previous_action=loaded.previous_actions[-1].action,
            verification=final.get("verification"),
        )  # fmt: skip
    outcome = answer(final, session, usage.as_response(), (time.perf_counter() - started) * 1000)
    return dataclasses.replace(outcome, has_org_knowledge=rag.has_org_knowledge)


async def _load(request: InteractInput, ctx: RequestContext, deps: AgentDeps, page: PageState) -> _Loaded:
    """The task this request continues (tenant-scoped, lifecycle-checked) or a provisional one."""
    session = await _requested_session(request, ctx, deps)
    if request.task_id is None:
        assert request.query is not None, "the edge requires a goal for a new task"
        session_is_new = session is None
        if session is None:
            session = Session(tenant_id=ctx.tenant_id, user_id=ctx.user_id, url=request.page.url)
        task = Task(
            id=new_id(),  # provisional: logged from the first line, stored only with an action
            tenant_id=ctx.tenant_id,
            user_id=ctx.user_id,
            session_id=session.id,
            url=request.page.url,
            query=request.query.strip(),
        )
        bind_ids(session_id=session.id, task_id=task.id)
        secrets = TaskSecrets.of_goal(task.query)
        hide_more(secrets.numbered())
        return _Loaded(task, session, session_is_new, True, [], secrets)

    task = await deps.store.tasks.get(ctx.tenant_id, request.task_id)
    if task is None or (session is not None and task.session_id != session.id):
        raise TaskNotFound(f"No task {request.task_id!r}", details={"taskId": request.task_id})
    if session is None:
        session = await _task_session(task, ctx, deps)
    bind_ids(session_id=session.id, task_id=task.id)
    secrets = await _open_secrets(task, ctx, deps)
    task = reveal_task(task, secrets)
    # Every step (a task has at most max_steps) for the history summary; only the newest
    # with its page, which is what verification compares with.
    previous = [reveal_action(a, secrets) for a in await deps.store.actions.recent(ctx.tenant_id, task.id, deps.config.max_steps)]
    if request.step_index is not None:
        again = check_step(task, request.step_index, previous[-1] if previous else None, page)
        if again is not None:  # checked before the task's status: the lost answer may have ended it
            return _Loaded(task, session, False, False, previous, secrets, replay=again)
    if task.status in TERMINAL_TASK_STATUSES:
        raise TaskFinished(
            f"Task {task.id!r} is {task.status}; start a new task without taskId",
            details={"taskId": task.id, "status": task.status},
        )
    if task.step_index >= deps.config.max_steps:
        await _fail_max_steps(task, ctx, deps)
    if task.status == "interrupted":
        log.info("task.resumed", previous_status=task.status)
        task = task.model_copy(update={"status": "active"})
    return _Loaded(task, session, False, False, previous, secrets)


async def _open_secrets(task: Task, ctx: RequestContext, deps: AgentDeps) -> TaskSecrets:
    """The task's sealed secrets, registered for masking. A key that cannot open them (lost,
    rotated) ends the task with SECRETS_UNREADABLE: it cannot type what it cannot read."""
    try:
        secrets = open_secrets(task, deps.sealer)
    except SecretsUnreadable:
        reason = (
            "The task's secrets (a password or other secret value from its goal) were sealed with another "
            "server key (STEPWISE_SECRET_KEY lost or rotated); start the task again"
        )
        log.error("task.secrets_unreadable")
        if task.status not in TERMINAL_TASK_STATUSES:
            try:
                await deps.store.tasks.fail(ctx.tenant_id, task.id, task.version, "SECRETS_UNREADABLE", reason)
            except TaskConflict as exc:
                raise TaskConflictError("Another request changed this task first", details={"taskId": task.id}) from exc
        raise SecretsUnavailable(reason, details={"taskId": task.id}) from None
    hide_more(secrets.numbered())
    return secrets


def _heavy_request(request: InteractInput) -> bool:
    page = request.page
    return len(page.tree or ()) > INLINE_ELEMENTS or len(page.dom or "") > INLINE_DOM_BYTES


def _page_state(request: InteractInput) -> PageState:
    try:
        return request.page.to_page_state()
    except PageInputError as exc:
        raise InvalidPage(str(exc), details={"field": exc.field}) from exc


async def _requested_session(request: InteractInput, ctx: RequestContext, deps: AgentDeps) -> Session | None:
    if request.session_id is None:
        return None
    session = await deps.store.sessions.get(ctx.tenant_id, request.session_id)
    if session is None:
        raise SessionNotFound(f"No session {request.session_id!r}", details={"sessionId": request.session_id})
    return session


async def _task_session(task: Task, ctx: RequestContext, deps: AgentDeps) -> Session:
    stored = await deps.store.sessions.get(ctx.tenant_id, task.session_id)
    if stored is None:  # written with the task; its absence is a storage fault, not user error
        raise TaskNotFound(f"No session for task {task.id!r}", details={"taskId": task.id})
    return stored


async def _fail_max_steps(task: Task, ctx: RequestContext, deps: AgentDeps) -> None:
    reason = f"The task took {task.step_index} steps without finishing (limit {deps.config.max_steps})"
    try:
        await deps.store.tasks.fail(ctx.tenant_id, task.id, task.version, "MAX_STEPS_EXCEEDED", reason)
    except TaskConflict as exc:
        raise TaskConflictError("Another request changed this task first", details={"taskId": task.id}) from exc
    log.warning("task.max_steps_exceeded", steps=task.step_index, limit=deps.config.max_steps)
    raise MaxStepsExceeded(reason, details={"taskId": task.id, "limit": deps.config.max_steps})
