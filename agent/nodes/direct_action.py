from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.nodes.action_generation import steered
from agent.state import Candidate, GraphContext, InteractState

log = structlog.get_logger(__name__)


async def direct_action(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """SIMPLE goals: the single action the policy found, no model call. The task keeps its
    one-step plan (linked to its contract clause), and completes like any other: when the
    clause holds."""
    complexity = state["complexity"]
    decision = complexity.decision
    assert decision is not None and decision.action is not None, "complexity_check routes here only with a decision"
    plan = state["policy_plan"]
    assert plan is not None and len(plan.steps) == 1, "complexity_check routes here only with a one-step plan"
    plan.steps[0].status = "in_progress"
    plan.steps[0].attempts = 1
    log.info("graph.direct_action", action=decision.action.name, confidence=round(decision.confidence, 2))
    candidate = Candidate(
        action=decision.action,
        thought=decision.thought,
        decided_by="policy",
        confidence=decision.confidence,
        plan_step=0,
        source="direct",
    )
    if runtime.context.memory.skills:  # a dead end this site is known for is avoided (agent.memory)
        candidate = steered(candidate, state["page"], runtime.context.memory.skills)
    return {"plan": plan, "candidate": candidate, "fallback": None}
