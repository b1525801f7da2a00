from __future__ import annotations

import dataclasses
from typing import Any, Literal

import structlog
from langgraph.runtime import Runtime

from agent.chaining import chain_metadata
from agent.contracts import contract_summary
from agent.extremes import peers_of
from agent.idempotency import completion
from cost import UsageService
from agent.memory import Lesson, MemoryStatus, goal_values, remember
from agent.memory.steps import memory_status, recall_after, recall_info, records_steps
from agent.progress import fingerprint
from agent.secret_records import conceal_batch
from agent.state import GraphContext, InteractState, StepOutcome
from observability import record_chain_sent, record_replay_step, record_skill_retrieval, record_skill_use, record_task_finished
from storage import TERMINAL_TASK_STATUSES, FinalizeBatch, Message, Task, TaskAction, VerificationRecordRow
from verification import ActionSyntaxError, BeforeState, Contract, PageState, clause_hits, describe_element, parse_action

log = structlog.get_logger(__name__)


async def finalize(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """The one write of a request: task (plan, progress, status), the new action with its
    before-state, messages, the verdict on the previous action, corrections — atomically,
    under the task's version guard."""
    ctx = runtime.context
    now = ctx.deps.now()
    task, outcome, page = state["task"], state["outcome"], state["page"]
    if note := state.get("dialog_note"):  # a native confirm was declined: the answer says so (agent.contingency.native)
        outcome = dataclasses.replace(outcome, thought=f"{note} {outcome.thought}".strip())
    is_new = state["is_new_task"]
    step_index = task.step_index
    plan = state.get("plan")
    contract = state.get("contract")
    hits, target, peers, within = _aimed_at(contract, outcome, page)
    if (fired := state.get("contingency")) is not None and not fired.get("resends"):
        hits = ()  # a contingency's dismissal is never the goal's own click ("Click the button" is not "No thanks")
    chain = [dataclasses.replace(link, clause_hits=hits, target=target) if link.index == 0 else link for link in outcome.chain]
    progress = state["progress"].with_fingerprint(fingerprint(" ".join(link.text for link in chain) or outcome.action, page))
    secrets = ctx.secrets
    secrets.note_typed(outcome.action, page)  # a value typed into a password field is a secret too
    memory = memory_status(state, ctx.memory)

    action = TaskAction(
        tenant_id=task.tenant_id,
        task_id=task.id,
        step_index=step_index,
        thought=outcome.thought,
        action=outcome.action,
        actions=[link.stored() for link in chain] or None,
        decided_by=outcome.decided_by,
        expected_outcome=outcome.expected_outcome,
        before_state=BeforeState.from_page(page).model_dump(mode="json"),
        metrics={
            "plan_step": outcome.plan_step,
            "completes_step": outcome.completes_step,
            "probe": outcome.probe,
            "flags": list(outcome.flags),
            "dialog": outcome.dialog,
            "user_confirmed": bool(outcome.action) and outcome.action in state.get("confirmed", frozenset()),
            "correction": corrections[-1].strategy if (corrections := state.get("corrections")) else None,
            "contingency": state.get("contingency"),
            "clause_hits": list(hits),
            "target": target,
            "within": within,  # the rows and sections it sits in: a dialog about them answers it (agent.contingency.opened)
            "peers": peers,  # the list its record was picked from (agent.extremes)
            "memory": memory.wire(),
            "model_calls": usage.model_calls if (usage := UsageService.current()) is not None else 0,  # counted at the gateway
            **({"recall": recall_info(state, chain, page)} if records_steps(ctx.memory, outcome) else {}),
        },
        answer=_answer_snapshot(state, memory, outcome),
        created_at=now,
    )
    task_state = {**task.state, "progress": progress.model_dump(mode="json")}
    if contract is not None:
        task_state["contract"] = contract.model_dump(mode="json")
    if is_new:
        task_state["start_url"] = task.url
    pending = state.get("pending_retry")
    task_state["pending_retry"] = {"action": pending, "plan_step": outcome.plan_step} if pending and outcome.status == "active" else None
    task_state["confirm"] = outcome.confirm if outcome.status == "active" else None
    recovery = state.get("chain_recovery")
    task_state["chain_recovery"] = recovery.stored() if recovery is not None and outcome.status == "active" else None
    task_state["recall"] = recall_after(state, task, memory)
    if (contingencies := state.get("contingency_log")) is not None:
        task_state["contingencies"] = contingencies  # run counts survive across requests (agent.contingency)
    if state.get("search_state"):
        task_state["search"] = state["search_state"]
    if (vision := state.get("vision")) is not None:
        task_state["vision"] = vision.stored()
    if outcome.flags:
        task_state["flags"] = sorted({*task.state.get("flags", []), *outcome.flags})
    updated_task = task.model_copy(
        update={
            "step_index": step_index + 1,
            "status": outcome.status,
            "updated_at": now,
            "url": page.url,
            "plan": plan.model_dump(mode="json") if plan is not None else task.plan,
            "state": task_state,
            "failure_code": outcome.failure_code,
            "failure_reason": outcome.failure_reason,
            "complexity": task.complexity or (state["complexity"].complexity if "complexity" in state else None),
        }
    )
    batch = FinalizeBatch(
        task=updated_task,
        expected_version=None if is_new else task.version,
        session=ctx.session.model_copy(update={"updated_at": now, "url": page.url}),
        actions=[action],
        action_updates=_verdict_update(state),
        messages=_messages(task, outcome, is_new, now, action.id),
        message_outcome=_message_outcome(state),
        verifications=_verification_rows(state, now),
        corrections=[c.model_copy(update={"step_index": step_index}) for c in state.get("corrections", [])],
        idempotency=completion(ctx.idempotency, task.id, step_index) if ctx.idempotency is not None else None,
    )
    # Written with the task's secrets as placeholders, their values sealed (agent.secret_records).
    stored = await ctx.deps.store.finalize(conceal_batch(batch, secrets, ctx.deps.sealer))
    if stored.status in TERMINAL_TASK_STATUSES:
        record_task_finished(stored.status)
    if chain:
        record_chain_sent(len(chain))
    record_replay_step(memory.replay)
    if ctx.memory.skills_on and outcome.status == "active" and memory.replay != "HIT":
        record_skill_retrieval(bool(ctx.memory.skills))
    if outcome.skills:
        record_skill_use("applied", len(outcome.skills))
    log.info("graph.finalize", status=stored.status, step_index=step_index, action=outcome.action, version=stored.version, replay=memory.replay)
    values, held = goal_values(contract)
    await remember(
        Lesson(
            task=stored, before=task, memory=ctx.memory, last_action=state.get("last_action"),
            steps=list(state.get("previous_actions") or []), verification=state.get("verification"),
            step_succeeded=state.get("step_succeeded") is True, secrets=list(secrets.values), now=now,
            values=values, held=held,
        ),
        ctx.deps.store,
    )  # fmt: skip
    return {"stored_task": stored, "memory": memory, "outcome": outcome}


def _answer_snapshot(state: InteractState, memory: MemoryStatus, outcome: StepOutcome) -> dict[str, Any]:
    """What this step answers, as a re-sent request will get it back (agent.replay)."""
    contract, verification = state.get("contract"), state.get("verification")
    return {
        "status": outcome.status,
        "thought": outcome.thought,
        "action": outcome.action,
        "decided_by": outcome.decided_by,
        "expected_outcome": outcome.expected_outcome,
        "failure_code": outcome.failure_code if outcome.status in ("failed", "needs_confirmation") else None,
        "verification": verification.model_dump(mode="json") if verification is not None else None,
        "contract": contract_summary(contract) if contract is not None else None,
        "actions": [link.wire() for link in outcome.chain] or None,
        "chain_metadata": chain_metadata(list(outcome.chain)) if outcome.chain else None,
        "memory": memory.wire(),
        "needs_full_dom": bool(state.get("needs_full_dom")),
        "needs_screenshot": bool(state.get("needs_screenshot")),
        "dialog": outcome.dialog,
    }


def _aimed_at(
    contract: Contract | None, outcome: StepOutcome, page: PageState
) -> tuple[tuple[str, ...], str | None, dict[str, Any] | None, list[str]]:
    """The event clauses this action would satisfy once verified (its target is the element
    their reference resolves to on this page), its target as a person would name it, the
    records of the list it sits in (its own first), and the rows and sections it sits in."""
    if contract is None or outcome.status != "active" or not outcome.action:
        return (), None, None, []
    try:
        action = parse_action(outcome.action)
    except ActionSyntaxError:
        return (), None, None, []
    element = page.element(action.target) if action.target else None
    if element is None:
        return clause_hits(contract, action, page), None, None, []
    return clause_hits(contract, action, page), describe_element(element), peers_of(element, page), list(element.container)


def message_id(action_id: str) -> str:
    """The id of the assistant message that announced an action: its verdict finds it by this."""
    return f"msg-{action_id}"


def _message_outcome(state: InteractState) -> tuple[str, Literal["success", "failure"], str | None] | None:
    result, last = state.get("verification"), state.get("last_action")
    if result is None or last is None:
        return None
    return message_id(last.id), "success" if result.success else "failure", None if result.success else result.reason[:500]


def _messages(task: Task, outcome: StepOutcome, is_new: bool, now: Any, action_id: str) -> list[Message]:
    messages: list[Message] = []
    if is_new:
        messages.append(Message(tenant_id=task.tenant_id, session_id=task.session_id, task_id=task.id, role="user", content=task.query, created_at=now))
    messages.append(
        Message(
            id=message_id(action_id),
            tenant_id=task.tenant_id,
            session_id=task.session_id,
            task_id=task.id,
            role="assistant",
            content=outcome.thought,
            action=outcome.action,
            action_status="pending",
            created_at=now,
        )
    )
    return messages


def _verdict_update(state: InteractState) -> list[tuple[str, dict[str, Any]]]:
    result, last = state.get("verification"), state.get("last_action")
    if result is None or last is None:
        return []
    request = state["input"]
    verdict = result.model_dump(mode="json")
    verdict["client_status"] = request.last_action_status
    verdict["client_error"] = request.last_action_error
    return [(last.id, {"verification": verdict})]


def _verification_rows(state: InteractState, now: Any) -> list[VerificationRecordRow]:
    result, last, task = state.get("verification"), state.get("last_action"), state["task"]
    if result is None or last is None:
        return []
    record = result.to_record(action=last.action, goal=task.query)
    return [
        VerificationRecordRow(
            tenant_id=task.tenant_id,
            task_id=task.id,
            step_index=last.step_index,
            tier=result.verification_tier,
            success=result.success,
            goal_achieved=result.goal_achieved,
            confidence=result.confidence,
            error_category=result.error_category,
            record=record.model_dump(mode="json"),
            created_at=now,
        )
    ]
