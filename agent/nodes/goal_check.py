from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.contracts import previous_step
from agent.state import GraphContext, InteractState
from verification import check_contract

log = structlog.get_logger(__name__)


async def goal_check(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """The one place completion is decided: every clause of the task's contract checked on
    this page and on the verified action log. A model's ``task_completed`` or a plan that
    ran out of steps is no proof; only the clauses are. The verdict's ``goal_achieved`` is
    set to the contract's answer, so an answer never says two things."""
    task = state["task"]
    result = state.get("verification")
    contract = check_contract(
        state["contract"],
        state["page"],
        step=task.step_index,
        previous=previous_step(state.get("last_action"), result, state["page"]),
    )
    satisfied = contract.satisfied
    if result is not None and result.task_completed and not satisfied:
        log.info("goal_check.claim_rejected", decided_by=result.decided_by, pending=[c.id for c in contract.pending()])
    log.info(
        "goal_check.checked",
        satisfied=satisfied,
        holds=sum(1 for c in contract.clauses if contract.result(c.id).status == "holds"),
        clauses=len(contract.clauses),
    )
    update: dict[str, Any] = {"contract": contract, "goal_achieved": satisfied}
    if result is not None:
        update["verification"] = result.model_copy(update={"goal_achieved": satisfied})
    return update
