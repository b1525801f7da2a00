from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.state import GraphContext, InteractState, StepOutcome


async def goal_achieved(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """The goal is done: one ``finish()``. The description comes from the verifier's
    ``semantic_summary`` (display only), never parsed."""
    result = state.get("verification")
    summary = result.semantic_summary if result is not None and result.semantic_summary else "the page shows the goal is done"
    decided_by = "model" if result is not None and result.decided_by == "model" else "policy"
    flags = ("lowEvidenceCompletion",) if state.get("low_evidence_completion") else ()
    return {
        "outcome": StepOutcome(
            thought=f"Task complete. {summary}",
            action="finish()",
            decided_by=decided_by,
            status="completed",
            flags=flags,
        )
    }
