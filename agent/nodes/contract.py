from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.contracts import contract_for_new_task, not_understood
from agent.reasoning import needs_user_input
from agent.reasoning.rules import memory_answers, missing_values
from agent.state import GraphContext, InteractState

log = structlog.get_logger(__name__)


async def contract(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """A new task: what "done" means for it (the policy's reading of the goal), checked on
    the first page. A goal the policy cannot fully read is not attempted blindly without a
    model: it ends at once (GOAL_NOT_UNDERSTOOD, or NEEDS_MODEL for arithmetic, comparisons, guesses), or asks for the value the user must give."""
    task, page = state["task"], state["page"]
    derived, plan = contract_for_new_task(task.query, page)
    log.info(
        "contract.derived",
        clauses=len(derived.clauses),
        unaccounted=list(derived.unaccounted)[:10],
        satisfied=derived.satisfied,
    )
    update: dict[str, Any] = {"contract": derived, "policy_plan": plan if plan.steps else None}
    if derived.complete or runtime.context.deps.gateway is not None:
        return update
    missing = missing_values(task.query, page)
    missing = [m for m in missing if m not in memory_answers(missing, runtime.context.history)]
    if missing:
        update["needs_user_input"] = dict(needs_user_input([m.label for m in missing]))
        return update
    update["outcome"] = not_understood(derived, task.query)
    return update
