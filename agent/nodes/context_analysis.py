from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.calls import call_context
from agent.reasoning import needs_user_input, run_context_analysis
from agent.state import GraphContext, InteractState

log = structlog.get_logger(__name__)


async def context_analysis(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """Do we have what the goal needs (PAGE / MEMORY), or must we search or ask the user?"""
    deps = runtime.context.deps
    decision = await run_context_analysis(
        state["task"].query,
        state["page"],
        deps.gateway,
        history=runtime.context.history,
        knowledge=runtime.context.knowledge,
        search_available=deps.search is not None,
        ctx=call_context(state, runtime) if deps.gateway is not None else None,
        contract=state.get("contract"),
        steps=policy_plan.steps if (policy_plan := state.get("policy_plan")) is not None else (),
    )
    analysis = decision.analysis
    log.info("graph.context_analysis", source=analysis.source, decided_by=decision.decided_by, missing=len(analysis.missing_information))
    update: dict[str, Any] = {"context_source": analysis.source, "context_analysis": analysis}
    if analysis.needs_user_input:
        update["context_source"] = "ASK_USER"
        update["needs_user_input"] = dict(needs_user_input(analysis.missing_information))
    return update
