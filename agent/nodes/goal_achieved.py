from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.contracts import already_done_verdict, completion_thought
from agent.state import GraphContext, InteractState, StepOutcome


async def goal_achieved(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """Every clause of the contract holds: one ``finish()``, with the evidence for each
    clause as the thought (never the model's summary)."""
    contract = state["contract"]
    assert contract.satisfied, "goal_achieved is reached only when the contract holds"
    result = state.get("verification")
    decided_by = "model" if result is not None and result.decided_by == "model" else "policy"
    update: dict[str, Any] = {}
    if result is None and state.get("last_action") is None:
        update["verification"] = already_done_verdict(contract)
    return {
        **update,
        "outcome": StepOutcome(
            thought=completion_thought(contract),
            action="finish()",
            decided_by=decided_by,
            status="completed",
        )
    }
