from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.complexity import classify_complexity
from agent.policy import parse_goal
from agent.state import GraphContext, InteractState

log = structlog.get_logger(__name__)


async def complexity_check(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    goal = parse_goal(state["task"].query)
    result = classify_complexity(goal, state["page"])
    log.info("graph.complexity_check", complexity=result.complexity, reason=result.reason, intent=goal.intent)
    return {"goal": goal, "complexity": result}
