from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.contracts import previous_step
from agent.proof_words import account_by_proof, account_extremes, verified_picks, verified_targets
from agent.state import GraphContext, InteractState
from agent.subtasks import advance, subtask_ending
from verification import Contract, check_contract

log = structlog.get_logger(__name__)


async def goal_check(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """The one place completion is decided: every clause of the task's contract checked on
    this page and on the verified action log. A model's ``task_completed`` or a plan that
    ran out of steps is no proof; only the clauses are. The verdict's ``goal_achieved`` is
    set to the contract's answer, so an answer never says two things."""
    task = state["task"]
    result = state.get("verification")
    chain = state.get("chain_verdict")
    last = state.get("last_action")
    contract = state["contract"]
    if chain is not None and last is not None:
        contract = attest_held(contract, chain.attested, last.step_index)
        previous: Any = chain.previous
    else:
        previous = previous_step(last, result, state["page"])
    contract = check_contract(contract, state["page"], step=task.step_index, previous=previous)
    acted = verified_targets(state.get("previous_actions", []))
    if last is not None and result is not None and result.success and last.metrics.get("target"):
        acted.append(str(last.metrics["target"]))  # the action this page just verified
    contract = account_by_proof(contract, contract.goal or state["goal"].raw, acted)
    picks = verified_picks(state.get("previous_actions", []))
    if last is not None and result is not None and result.success and isinstance(last.metrics.get("peers"), dict):
        picks.append(last.metrics["peers"])
    contract = account_extremes(contract, contract.goal or state["goal"].raw, picks)
    satisfied = contract.satisfied
    if result is not None and result.task_completed and not satisfied:
        log.info("goal_check.claim_rejected", decided_by=result.decided_by, pending=[c.id for c in contract.pending()])
    log.info(
        "goal_check.checked",
        satisfied=satisfied,
        holds=sum(1 for c in contract.clauses if contract.result(c.id).status == "holds"),
        clauses=len(contract.clauses),
        picks=len(picks),
        unaccounted=list(contract.unaccounted)[:10],
        pending=[f"{c.id}: {contract.result(c.id).detail}"[:160] for c in contract.pending()][:4],
    )
    update: dict[str, Any] = {"contract": contract, "goal_achieved": satisfied}
    # A hierarchical plan: the active sub-task read off this page (sub_task_completed); the
    # goal is the conjunction of the contract and every sub-task's condition.
    if (check := advance(state.get("plan"), contract, state["page"], step=task.step_index, last=last)) is not None:
        satisfied = satisfied and check.all_met
        update.update(plan=check.plan, goal_achieved=satisfied, sub_task_completed=check.completed, subtask_wait=check.wait)
        if check.failed is not None:
            update.update(subtask_failed=True, outcome=subtask_ending(check))
    if result is not None:
        update["verification"] = result.model_copy(update={"goal_achieved": satisfied})
    return update


def attest_held(contract: Contract, clauses: tuple[str, ...], step: int) -> Contract:
    """A chain's commit ran after the client re-read the fields it needs (its guard): those
    preconditions held on the page where the commit was issued, which the server never sees."""
    if not clauses:
        return contract
    held_at = {k: list(v) for k, v in contract.held_at.items()}
    for clause in clauses:
        if step not in held_at.setdefault(clause, []):
            held_at[clause].append(step)
    return contract.model_copy(update={"held_at": held_at})
