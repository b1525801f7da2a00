from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.state import GraphContext, InteractState, StepOutcome
from verification import Action, format_action

log = structlog.get_logger(__name__)


async def reflection(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """Velocity check tripped: several steps in a row 'worked' but none moved the plan on
    (paging forever, toggling a menu). Stop with a reflection instead of looping."""
    progress = state["progress"]
    message = (
        f"Stopping: the last {progress.successes_without_progress} actions each worked but none "
        "brought the goal closer. The page may not offer what the goal needs."
    )
    log.warning("graph.velocity_check_tripped", successes_without_progress=progress.successes_without_progress)
    return {
        "outcome": StepOutcome(
            thought=message,
            action=format_action(Action(name="fail", value=message)),
            decided_by="policy",
            status="failed",
            failure_code="NO_PROGRESS",
            failure_reason=message,
        )
    }
