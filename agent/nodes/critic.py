from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.calls import call_context
from agent.critic import run_critic
from agent.destructive import unasked
from agent.search import allowed_domains_for
from agent.state import Candidate, GraphContext, InteractState
from verification import ActionSyntaxError, parse_action

log = structlog.get_logger(__name__)


async def critic(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """Pre-execution reflection for risky or low-confidence actions. Approval comes only
    from the verdict's ``approved`` flag."""
    candidate = state["candidate"]
    assert candidate is not None
    target = state["page"].element(candidate.action.target) if candidate.action.target else None
    if unasked(candidate.action, target, state["task"].query, state.get("contract"), state.get("confirmed", frozenset())) is not None:
        # Destructive and not asked for: not for the critic to refuse — the user is asked (action_validation).
        log.info("graph.critic", approved=False, decided_by="policy", triggers=["held for the user"])
        return {"critic_needed": False}
    deps = runtime.context.deps
    plan = state.get("plan")
    step = plan.steps[candidate.plan_step] if plan is not None and candidate.plan_step is not None and candidate.plan_step < len(plan.steps) else None
    decision = await run_critic(
        candidate.action,
        state["page"],
        state["task"].query,
        deps.gateway,
        step_description=step.description if step else None,
        confidence=candidate.confidence,
        allowed_domains=allowed_domains_for(start_url(state)),
        ctx=call_context(state, runtime) if deps.gateway is not None else None,
    )
    log.info("graph.critic", approved=decision.approved, decided_by=decision.decided_by, triggers=list(decision.triggers))
    if decision.approved:
        return {"critic_needed": False}
    rejections = [*state.get("rejections", []), "critic: " + "; ".join(decision.verdict.concerns or ["not approved"])]
    if decision.verdict.alternative_action:
        try:
            alternative = parse_action(decision.verdict.alternative_action)
        except ActionSyntaxError:
            alternative = None
        if alternative is not None:
            return {
                "critic_needed": False,
                "rejections": rejections,
                "candidate": Candidate(alternative, f"{candidate.thought} (revised after review)", decision.decided_by, candidate.confidence, candidate.plan_step, candidate.completes_step, candidate.source),
            }
    fallback = state.get("fallback")
    if fallback is not None and fallback.action != candidate.action:
        return {"critic_needed": False, "rejections": rejections, "candidate": fallback, "fallback": None}
    return {"critic_needed": False, "rejections": rejections, "candidate": None}


def start_url(state: InteractState) -> str:
    task = state["task"]
    return str(task.state.get("start_url") or task.url)
