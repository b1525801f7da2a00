from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.action_validation import ActionRejected, validate_action
from agent.nodes.critic import start_url
from agent.progress import fingerprint
from agent.search import allowed_domains_for
from agent.state import Candidate, GraphContext, InteractState, StepOutcome
from verification import Action, format_action

log = structlog.get_logger(__name__)


async def action_validation(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """Only an action the page and the task allow is ever sent: ids that exist, values that
    fit, navigation within the task's site. Also the loop detector: the same action on an
    unchanged page too often goes to correction once, then fails."""
    deps = runtime.context.deps
    page = state["page"]
    rejections = list(state.get("rejections", []))
    allowed = allowed_domains_for(start_url(state))
    chosen: tuple[Candidate, str] | None = None
    for candidate in (state.get("candidate"), state.get("fallback")):
        if candidate is None:
            continue
        result = validate_action(candidate.action, page, allowed_domains=allowed, search_available=deps.search is not None)
        if isinstance(result, ActionRejected):
            log.info("action_validation.rejected", code=result.code, decided_by=candidate.decided_by)
            rejections.append(f"{result.code}: {result.reason}")
            continue
        chosen = (candidate, result.text)
        break
    if chosen is None:
        return {"outcome": _fail("NO_VALID_ACTION", "No valid next action: " + ("; ".join(rejections) or "nothing to do on this page"))}

    candidate, text = chosen
    if candidate.action.name in ("finish", "fail"):
        status = "completed" if candidate.action.name == "finish" else "failed"
        return {"outcome": StepOutcome(candidate.thought, text, candidate.decided_by, status=status, failure_code="MODEL_GAVE_UP" if status == "failed" else None, failure_reason=candidate.action.value)}

    progress = state["progress"]
    repeats = progress.fingerprint_count(fingerprint(text, page))
    limit = deps.config.loop_repeats
    if repeats >= limit - 1:
        corrected_before = progress.loop_corrections > 0 or state.get("correction_attempted")
        if repeats >= limit or corrected_before or state.get("verification") is None:
            log.warning("action_validation.loop_detected", action=text, repeats=repeats)
            return {"outcome": _fail("LOOP_DETECTED", f"The same action {text} was chosen {repeats + 1} times on an unchanged page")}
        log.info("action_validation.loop_suspected", action=text, repeats=repeats)
        return {"loop_suspected": True}
    return {
        "loop_suspected": False,
        "outcome": StepOutcome(
            thought=candidate.thought,
            action=text,
            decided_by=candidate.decided_by,
            plan_step=candidate.plan_step,
            completes_step=candidate.completes_step,
        ),
    }


def _fail(code: str, reason: str) -> StepOutcome:
    return StepOutcome(
        thought=reason,
        action=format_action(Action(name="fail", value=reason[:300])),
        decided_by="policy",
        status="failed",
        failure_code=code,
        failure_reason=reason,
    )
