"""The answer of one interact request, built from the graph's final state (or from a held
action's question), with every part but the executed action masked for secrets."""

from __future__ import annotations

import dataclasses
from typing import Any

import structlog

from agent.chaining import chain_metadata
from agent.context import AgentDeps, RequestContext
from agent.contracts import contract_summary
from agent.errors import TaskConflictError
from agent.inputs import InteractOutcome
from agent.state import Candidate, InteractState
from observability import record_task_finished, redact
from storage import Session, Task, TaskConflict
from verification import Action, ActionSyntaxError, Contract, VerificationResult, format_action, parse_action

log = structlog.get_logger(__name__)


def executed(action_text: str) -> bool:
    """An action the extension executes (types, clicks, navigates): sent as it is. The text
    of ``finish``/``fail`` is only shown, so it is masked like the thought."""
    try:
        return parse_action(action_text).name not in ("finish", "fail")
    except ActionSyntaxError:
        return False


def masked(outcome: InteractOutcome) -> InteractOutcome:
    """Everything but the action(s) the client executes, with secrets as placeholders."""
    verification = outcome.verification
    return dataclasses.replace(
        outcome,
        action=outcome.action if executed(outcome.action) else redact(outcome.action),
        thought=redact(outcome.thought),
        verification=VerificationResult.model_validate(redact(verification.model_dump(mode="json"))) if verification is not None else None,
        expected_outcome=redact(outcome.expected_outcome),
        plan=redact(outcome.plan),
        contract=redact(outcome.contract),
        needs_user_input=redact(outcome.needs_user_input),
        # A chain's actions are executed as they are; what describes them is only shown.
        actions=[{**item, "description": redact(item["description"])} for item in outcome.actions] if outcome.actions else outcome.actions,
    )


def answer(final: InteractState, session: Session, usage: dict[str, Any], server_ms: float) -> InteractOutcome:
    stored = final.get("stored_task")
    if stored is None:  # ASK_USER: a question, no task
        log.info("interact.needs_user_input", server_ms=round(server_ms, 2))
        question = final.get("needs_user_input") or {}
        return InteractOutcome(
            task_id=question.get("taskId"),  # a running task asking mid-flight keeps its id (agent.interrupts)
            session_id=session.id,
            status="needs_user_input",
            step_index=0,
            thought=str(question.get("message", "")),
            action="",
            decided_by="policy",
            needs_user_input=question,
            usage=usage,
            server_ms=server_ms,
        )
    outcome = final["outcome"]
    contract = final.get("contract")
    if outcome.confirm is not None:  # a destructive action held: the task waits for the user's answer
        log.info("interact.needs_confirmation_of_action", server_ms=round(server_ms, 2))
        question = outcome.confirm["question"]
        return InteractOutcome(
            task_id=stored.id, session_id=session.id, status="needs_user_input", step_index=stored.step_index - 1,
            thought=outcome.thought, action="", decided_by=outcome.decided_by, verification=final.get("verification"),
            plan=stored.plan, contract=contract_summary(contract) if contract is not None else None,
            needs_user_input=question, usage=usage, server_ms=server_ms, contingency=final.get("contingency"),
        )  # fmt: skip
    log.info("interact.answered", status=stored.status, action=outcome.action, decided_by=outcome.decided_by, server_ms=round(server_ms, 2))
    return InteractOutcome(
        task_id=stored.id,
        session_id=session.id,
        status=stored.status,
        step_index=stored.step_index - 1,
        thought=outcome.thought,
        action=outcome.action,
        decided_by=outcome.decided_by,
        verification=final.get("verification"),
        expected_outcome=outcome.expected_outcome,
        plan=stored.plan,
        contract=contract_summary(contract) if contract is not None else None,
        failure_code=stored.failure_code if stored.status in ("failed", "needs_confirmation") else None,
        actions=[link.wire() for link in outcome.chain] or None,
        chain_metadata=chain_metadata(list(outcome.chain)) if outcome.chain else None,
        memory=memory.wire() if (memory := final.get("memory")) is not None else None,
        contingency=final.get("contingency"),
        usage=usage,
        server_ms=server_ms,
        needs_full_dom=bool(final.get("needs_full_dom")) and stored.status == "active",
        needs_screenshot=bool(final.get("needs_screenshot")) and stored.status == "active",
        dialog=outcome.dialog if stored.status == "active" else None,
    )


def question(task: Task, session_id: str, pending: dict[str, Any], server_ms: float) -> InteractOutcome:
    """The held action's question again: nothing is decided or written until the user answers."""
    question = pending["question"]
    return InteractOutcome(
        task_id=task.id, session_id=session_id, status="needs_user_input", step_index=task.step_index - 1,
        thought=str(question["message"]), action="", decided_by="policy", plan=task.plan,
        contract=contract_summary(Contract.model_validate(task.state["contract"])) if task.state.get("contract") else None,
        needs_user_input=question, server_ms=server_ms,
    )  # fmt: skip


async def declined(task: Task, session_id: str, pending: dict[str, Any], ctx: RequestContext, deps: AgentDeps, server_ms: float) -> InteractOutcome:
    """The user said no: the held action is never sent and the task ends failed."""
    what = pending["question"]["confirm"]
    reason = str(pending.get("declined") or f"The user declined to {what['what']} ({what['element']!r}), which the goal did not ask for")
    try:
        stored = await deps.store.tasks.fail(ctx.tenant_id, task.id, task.version, "USER_DECLINED", reason)
    except TaskConflict as exc:
        raise TaskConflictError("Another request changed this task first", details={"taskId": task.id}) from exc
    record_task_finished("failed")
    log.info("interact.declined", phrase=what["what"])
    return InteractOutcome(
        task_id=stored.id, session_id=session_id, status="failed", step_index=task.step_index - 1,
        thought=reason, action=format_action(Action(name="fail", value=reason[:300])), decided_by="policy",
        plan=stored.plan, failure_code="USER_DECLINED", server_ms=server_ms,
    )  # fmt: skip


def confirmed(pending: dict[str, Any]) -> dict[str, Any]:
    """The graph input that sends the held action now (route_start goes to action_validation,
    which still checks it on this page: its element must be there, visible, enabled)."""
    action = str(pending["question"]["confirm"]["action"])
    step = pending.get("plan_step")
    candidate = Candidate(
        action=parse_action(action), thought=f"{pending.get('thought') or 'Do it'} (confirmed by the user)",
        decided_by="model" if pending.get("decided_by") == "model" else "policy", confidence=1.0,
        plan_step=step if isinstance(step, int) else None, completes_step=bool(pending.get("completes_step", True)),
        dialog="accept" if pending.get("dialog") == "accept" else None,  # a native confirm the user said yes to
    )  # fmt: skip
    return {"confirmed": frozenset({action}), "candidate": candidate, "fallback": None}

