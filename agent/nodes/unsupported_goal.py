from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.errors import GoalNotSupported
from agent.state import GraphContext, InteractState


async def unsupported_goal(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """COMPLEX goals need the planning engines, which this deployment does not run yet.

    Answer with a typed error instead of a made-up action; nothing is stored.
    """
    complexity = state["complexity"]
    raise GoalNotSupported(
        "This goal needs multi-step planning, which is not available yet; "
        "send a single-action goal such as 'click the Save button'",
        code="COMPLEX_GOAL_UNSUPPORTED",
        details={"complexity": complexity.complexity, "reason": complexity.reason},
    )
