from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.calls import call_context
from agent.llm import DataBlock, LLMError, Prompt
from agent.state import GraphContext, InteractState
from planning import (
    REPLAN_INSTRUCTIONS,
    PlanInvalid,
    PlanValidation,
    apply_modification,
    decide_replan_action,
    refresh_signatures,
    replan_blocks,
    should_replan,
)

log = structlog.get_logger(__name__)


async def replanning(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """Plan health check: when the URL path changed or the page no longer resembles the one
    the plan was made on, ask whether the plan still fits — continue, modify or regenerate,
    decided from ``valid`` / ``minor_modifications_only`` only."""
    plan = state.get("plan")
    if plan is None:
        return {}
    page = state["page"]
    trigger = should_replan(plan, page)
    if not trigger.replan:
        return {}
    gateway = runtime.context.deps.gateway
    if gateway is None:
        # The policy re-grounds every step on the current page; remember this page.
        log.info("replanning.refreshed", reason=trigger.reason, similarity=round(trigger.similarity, 2))
        return {"plan": refresh_signatures(plan, page)}
    blocks = [
        DataBlock(name, content)
        for name, content in replan_blocks(
            state["task"].query, plan, page, trigger=trigger, verification_summary=state.get("verification"), rag_chunks=runtime.context.knowledge
        )
    ]
    try:
        generation = await gateway.generate("REPLANNING", PlanValidation, Prompt(REPLAN_INSTRUCTIONS, blocks), ctx=call_context(state, runtime))
    except LLMError as exc:
        log.warning("replanning.model_failed", error=type(exc).__name__)
        return {"plan": refresh_signatures(plan, page)}
    decision = decide_replan_action(generation.output)
    log.info("replanning.decided", decision=decision, reason=trigger.reason, similarity=round(trigger.similarity, 2))
    if decision == "continue":
        return {"plan": refresh_signatures(plan, page)}
    if decision == "modify":
        try:
            return {"plan": apply_modification(plan, generation.output, page)}
        except PlanInvalid:
            log.warning("replanning.modification_invalid")
    return {"plan": None}
