from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.complexity import ComplexityResult, classify_complexity
from agent.offload import heavy, page_work
from agent.policy import parse_goal
from agent.state import GraphContext, InteractState
from verification import resolve_ref

log = structlog.get_logger(__name__)


async def complexity_check(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    return await page_work(heavy(state["page"]), _complexity, state)


def _complexity(state: InteractState) -> dict[str, Any]:
    goal = parse_goal(state["task"].query)
    result = classify_complexity(goal, state["page"])
    if result.complexity == "SIMPLE":
        result = _confirm_simple(state, result)
    log.info("graph.complexity_check", complexity=result.complexity, reason=result.reason, intent=goal.intent)
    return {"goal": goal, "complexity": result}


def _confirm_simple(state: InteractState, result: ComplexityResult) -> ComplexityResult:
    """SIMPLE only when the contract covers the goal with one step, and the element the
    policy would act on is the one that step's clause names (strictly, in its row or
    section) — else the planned path decides, with the contract's reference."""
    contract, plan = state["contract"], state.get("policy_plan")
    if not contract.complete:
        return ComplexityResult("COMPLEX", "the policy cannot read the whole goal", result.decision)
    if plan is None or len(plan.steps) != 1:
        return ComplexityResult("COMPLEX", "the goal takes more than one step", result.decision)
    step = plan.steps[0]
    clause = contract.clause(step.clause) if step.clause else None
    decision = result.decision
    if clause is not None and clause.target is not None and decision is not None and decision.action is not None:
        found = resolve_ref(clause.target, state["page"])
        if found.element is None or found.element.id != decision.action.target:
            return ComplexityResult("COMPLEX", found.reason or "the goal names another element than the best match", decision)
    return result
