from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.calls import call_context
from agent.correction import CorrectionLimits, plan_correction, to_record, typed_on_page
from agent.nodes.critic import start_url
from agent.search import allowed_domains_for
from agent.state import Candidate, GraphContext, InteractState, StepOutcome
from observability import record_correction
from verification import Action, ActionSyntaxError, format_action, parse_action

log = structlog.get_logger(__name__)


async def correction(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """The previous action did not verify (or the same action keeps being chosen on an
    unchanged page): pick a recovery strategy within the retry limits, or fail with a code."""
    deps = runtime.context.deps
    task, page = state["task"], state["page"]
    result = state.get("verification")
    last = state.get("last_action")
    progress = state["progress"]
    looping = state.get("loop_suspected") is True
    failed_action = state["candidate"].action if looping and state.get("candidate") else (last.action if last else None)
    chain = state.get("chain_verdict")
    failed_link = chain.failed_commit if chain is not None and not looping else None
    if failed_link is not None:  # a chain's commit that did not verify: it is what is corrected
        failed_action = failed_link.text
    if result is None or failed_action is None:
        return {"outcome": _fail("NO_RECOVERY", "Nothing to correct from"), "correction_attempted": True}

    plan = state.get("plan")
    step_index = failed_link.plan_step if failed_link is not None else (last.metrics.get("plan_step") if last is not None else None)
    step = plan.steps[step_index] if plan is not None and step_index is not None and step_index < len(plan.steps) else None
    # The task's typing on this page (the record's verified actions since it loaded): a
    # correction never reloads, leaves or goes back from a page holding the user's work.
    typed = typed_on_page(state.get("previous_actions") or ([last] if last is not None else []), result, page)
    decision = await plan_correction(
        failed_action,
        result,
        page,
        task.query,
        step.description if step else None,
        progress.retries_on_step,
        progress.consecutive_failures,
        deps.gateway,
        limits=CorrectionLimits(
            max_retries_per_step=deps.config.max_retries_per_step,
            max_consecutive_failures=deps.config.max_consecutive_failures,
        ),
        target_label=_old_label(last.before_state if last else None, failed_action),
        allowed_domains=allowed_domains_for(start_url(state)),
        ctx=call_context(state, runtime) if deps.gateway is not None else None,
        contract=state.get("contract"),
        typed=typed,
    )
    original = failed_action if isinstance(failed_action, str) else str(failed_action)
    record = to_record(decision, tenant_id=task.tenant_id, task_id=task.id, step_index=task.step_index, original_action=original if failed_link is not None or last is None else last.action)
    record_correction(strategy=decision.strategy, success=None)
    log.info("graph.correction", strategy=decision.strategy, attempt=decision.attempt, failure_code=decision.failure_code, looping=looping, typed_on_page=len(typed))
    counters = {"retries_on_step": progress.retries_on_step + 1}
    if looping:
        counters["loop_corrections"] = progress.loop_corrections + 1
    update: dict[str, Any] = {
        "corrections": [*state.get("corrections", []), record],
        "progress": progress.model_copy(update=counters),
        "correction_attempted": True,
        "loop_suspected": False,
        "pending_retry": decision.retry_action,
    }
    if decision.strategy == "FAIL" or decision.action is None:
        code = "LOOP_DETECTED" if looping and decision.failure_code != "FORM_NEEDS_INPUT" else decision.failure_code or "NO_RECOVERY"
        update["outcome"] = _fail(code, decision.reason, action=decision.action)
        update["candidate"] = None
        return update
    try:
        action = parse_action(decision.action)
    except ActionSyntaxError:
        update["outcome"] = _fail("NO_RECOVERY", f"Correction produced an invalid action: {decision.reason}")
        update["candidate"] = None
        return update
    update["candidate"] = Candidate(
        action=action,
        thought=f"Correction ({decision.strategy}): {decision.reason}",
        decided_by=decision.decided_by,
        confidence=0.7,
        plan_step=step_index,
        # Only doing the step's own action on another element can complete the step; a wait,
        # a scroll or a reload only prepares the retry.
        completes_step=decision.strategy == "ALTERNATIVE_SELECTOR",
        source="correction",
    )
    update["fallback"] = None
    return update


def _old_label(before_state: dict[str, Any] | None, failed_action: Any) -> str | None:
    """The failed target's name as it was when the action was chosen (for an alternative)."""
    if not before_state:
        return None
    try:
        target = parse_action(failed_action).target if isinstance(failed_action, str) else failed_action.target
    except ActionSyntaxError:
        return None
    elements = (before_state.get("skeleton") or {}).get("elements") or {}
    described = elements.get(target) if target else None
    if isinstance(described, dict):
        text = described.get("text") or described.get("name")
        return str(text) if text else None
    return None


def _fail(code: str, reason: str, *, action: str | None = None) -> StepOutcome:
    return StepOutcome(
        thought=reason,
        action=action or format_action(Action(name="fail", value=reason[:300])),
        decided_by="policy",
        status="failed",
        failure_code=code,
        failure_reason=reason,
    )
