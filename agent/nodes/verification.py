from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.adapters import verdict_model
from agent.calls import call_context
from agent.chaining import ChainLink, ChainVerdict, choose_recovery, read_report, stored_chain, verify_chain
from agent.contingency.native import declined_dialog
from agent.inputs import NativeDialog
from agent.policy import form_opened
from agent.memory import MemoryContext
from agent.progress import TaskProgress
from agent.state import GraphContext, InteractState
from observability import record_chain_recovery, record_chain_result, record_correction, record_verification
from planning import Plan
from verification import BeforeState, ErrorCategory, ExpectedOutcome, PageState, StepHint, VerificationResult, verify_action_with_observations
from verification import format_action

log = structlog.get_logger(__name__)


async def verification(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """Verify the previous action from what changed on the page and move the plan on when it
    worked. Whether the whole goal is done is not decided here: the goal check does that,
    from the contract."""
    task = state["task"]
    progress = state["progress"]
    plan = state.get("plan")
    last = state.get("last_action")
    if last is None or last.before_state is None:
        log.warning("verification.skipped", reason="no previous action with a before-state")
        return {"verification": None, "step_succeeded": False}

    deps = runtime.context.deps
    step_index = last.metrics.get("plan_step")
    links = stored_chain(last.actions)
    last_step = max((link.plan_step for link in links if link.plan_step is not None), default=step_index)
    is_final = plan is not None and last_step is not None and last_step >= len(plan.steps) - 1
    # A step replayed from a recipe is judged by the page alone, as the runs that recorded it
    # were (agent.memory.recipes keeps only steps the rules proved): no model's word either way.
    replayed = (last.metrics.get("memory") or {}).get("replay") == "HIT"
    # A native confirm the client dismissed cancelled what the action did: the page decides,
    # no model's word (agent.contingency.native).
    dismissed = declined_dialog(state["input"].native_dialogs, last)
    model = verdict_model(deps.gateway, call_context(state, runtime)) if deps.gateway is not None and not replayed and dismissed is None else None
    context = {"session_id": task.session_id, "task_id": task.id}
    hint: StepHint = "final" if is_final else "intermediate"
    update: dict[str, Any] = {"chain_verdict": None, "chain_recovery": None}
    if links:
        report = read_report(state["input"], links)
        verdict = await verify_chain(
            last, links, report, state["page"], goal=task.query, client=state["input"].client_observations,
            model=model, step_hint=hint, context=context,
        )  # fmt: skip
        verdict = _dismissed_link_undone(verdict, dismissed, links)
        result = verdict.result
        recovery = choose_recovery(report, links, verdict.checks, state["page"])
        record_chain_result(verdict.checks, recovery.strategy if recovery else None)
        update |= {"chain_verdict": verdict, "chain_recovery": recovery}
        done = [
            (link.plan_step, link.completes_step)
            for link, check in zip(links, verdict.checks, strict=True)
            if check.status == "verified" and (dismissed is None or link.text != (dismissed.action or link.text))
        ]
        step_ok = verdict.progressed and dismissed is None
        result = _dialog_declined(result, dismissed)
    else:
        expected = ExpectedOutcome.model_validate(last.expected_outcome) if last.expected_outcome else None
        result = await verify_action_with_observations(
            before=BeforeState.model_validate(last.before_state),
            after=state["page"],
            action=last.action,
            goal=task.query,
            client_observations=state["input"].client_observations,
            expected_outcome=expected,
            model=model,
            step_hint=hint,
            context=context,
        )
        result = _form_not_opened(result, last.action, plan, step_index, state["page"])
        result = _client_could_not_run(result, state["input"].last_action_status, state["input"].last_action_error)
        result = _dialog_declined(result, dismissed)
        if replayed and _recorded_change(runtime.context.memory, last.metrics.get("memory") or {}):
            result = _as_recorded(result)
        done = [(step_index, bool(last.metrics.get("completes_step", True)))] if result.success else []
        step_ok = result.success

    record_verification(tier=result.verification_tier, success=result.success, confidence=result.confidence, goal_achieved=result.goal_achieved)
    if strategy := last.metrics.get("correction"):
        record_correction(strategy=strategy, success=result.success)
    if recovered := task.state.get("chain_recovery"):
        record_chain_recovery(strategy=str(recovered.get("strategy")), success=step_ok)
    completed_step = False
    if plan is not None:
        for index, completes in done:
            if index is not None and completes:
                completed_step = _complete_step(plan, index) or completed_step
    # An exploring move (hover a menu item, page a calendar) is bounded by its own step; that
    # it changed nothing is what the policy reads next, not a failure to correct, and it is
    # neither a failure nor idle progress in the counters.
    probe = bool(last.metrics.get("probe")) and result.error_category != "error_message"
    if not probe:
        progress = _count(progress, success=step_ok, completed_step=completed_step)

    log.info(
        "verification.routed",
        success=result.success,
        task_completed_claim=result.task_completed,
        tier=result.verification_tier,
        completed_step=completed_step,
    )
    return {
        **update,
        "verification": result,
        "velocity_tripped": progress.successes_without_progress >= deps.config.velocity_limit,
        "step_succeeded": step_ok or probe,
        "plan": plan,
        "progress": progress,
    }


def _recorded_change(memory: MemoryContext, status: Mapping[str, Any]) -> bool:
    """Did the verified run that recorded this replayed step see the page change (its URL or
    content, not only the focus)?"""
    recipe = next((r for r in memory.recipes if r.id == status.get("recipeId")), None)
    step = status.get("recipeStep")
    if recipe is None or not isinstance(step, int) or not 0 <= step < len(recipe.steps):
        return False
    return recipe.steps[step].get("changed") is True


def _as_recorded(result: VerificationResult) -> VerificationResult:
    """A replayed step is held to what it did when it was recorded: a click that opened a
    section then and only moves the focus now (a widget that no longer works, another
    element under the same name) did not work — the recipe is not followed blindly to its
    end."""
    if not _only_focus(result):
        return result
    log.info("verification.replay_without_recorded_change")
    return _failed(result, "When this step was recorded the page changed; now only the focus moved", "no_change")


def _form_not_opened(
    result: VerificationResult, action: str, plan: Plan | None, step_index: int | None, page: PageState
) -> VerificationResult:
    """A click that only moved the focus is no proof that it opened anything. When it was
    an ``open`` step's click and the page does not show the form the plan opens next, the
    step failed: the correction looks for the control that does open it (a dead "Add" button
    next to the working one), instead of the plan going on to fields that are not there."""
    if not _only_focus(result) or plan is None or step_index is None or not 0 <= step_index < len(plan.steps):
        return result
    if not action.startswith("click(") or form_opened(plan.steps[step_index], page, plan) is not False:
        return result
    log.info("verification.form_not_opened", action=action[:200])
    return _failed(result, "Only the focus moved: the form this should open is not on the page", "next_goal_missing")


def _client_could_not_run(result: VerificationResult, status: str | None, error: str | None) -> VerificationResult:
    """The client reports that the action did not run (a click an overlay swallowed: the
    element was covered). Whatever changed meanwhile — the overlay itself coming up — is not
    the action's doing: it failed, and is never credited to the goal."""
    if status != "failure" or not result.success:
        return result
    log.info("verification.client_could_not_run", error=(error or "")[:200])
    return _failed(result, f"The client could not run the action ({(error or 'no reason given')[:200]})", "no_change")


def _dialog_declined(result: VerificationResult, dialog: NativeDialog | None) -> VerificationResult:
    """The page asked a native confirm (or prompt, or beforeunload) and the client dismissed
    it: whatever the action was to do was cancelled — it is never counted done, whatever
    else changed (the button's focus)."""
    if dialog is None:
        return result
    log.info("verification.native_dialog_dismissed", kind=dialog.kind)
    why = f"The page asked a native {dialog.kind} and the client dismissed it: the action was cancelled"
    if not result.success:
        return result.model_copy(update={"reason": f"{result.reason}. {why}", "semantic_summary": f"{result.reason}. {why}"[:300]})
    return _failed(result, why, "no_change")


def _dismissed_link_undone(verdict: ChainVerdict, dialog: NativeDialog | None, links: list[ChainLink]) -> ChainVerdict:
    """The chain action whose native confirm was dismissed did nothing: the contract's event
    checks never read it as done (the one that raised it, or the last one run)."""
    if dialog is None or not verdict.previous:
        return verdict
    raised = dialog.action or links[-1].text
    previous = [dataclasses.replace(p, success=False, effect=False) if format_action(p.action) == raised else p for p in verdict.previous]
    return dataclasses.replace(verdict, previous=previous)


def _only_focus(result: VerificationResult) -> bool:
    """A success whose only trace is the focus (no URL, content or client-seen change)."""
    return result.success and not (result.url_changed or result.meaningful_content_change or result.client_witness_override)


def _failed(result: VerificationResult, why: str, category: ErrorCategory) -> VerificationResult:
    reason = f"{result.reason}. {why}"
    update = {"success": False, "action_succeeded": False, "confidence": min(result.confidence, 0.5), "reason": reason, "semantic_summary": reason[:300], "error_category": category}
    return result.model_copy(update=update)


def _complete_step(plan: Plan, step_index: int) -> bool:
    if not 0 <= step_index < len(plan.steps):
        return False
    step = plan.steps[step_index]
    if step.status == "completed":
        return False
    step.status = "completed"
    plan.current_step_index = next((s.index for s in plan.steps if s.status not in ("completed", "skipped")), len(plan.steps))
    return True


def _count(progress: TaskProgress, *, success: bool, completed_step: bool) -> TaskProgress:
    if success:
        return progress.model_copy(
            update={
                "consecutive_failures": 0,
                "retries_on_step": 0 if completed_step else progress.retries_on_step,
                "successes_without_progress": 0 if completed_step else progress.successes_without_progress + 1,
                "verified_steps": progress.verified_steps + 1,
            }
        )
    return progress.model_copy(
        update={"consecutive_failures": progress.consecutive_failures + 1, "failed_steps": progress.failed_steps + 1}
    )
