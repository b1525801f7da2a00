from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.calls import call_context
from agent.llm import DataBlock, LLMError, Prompt
from agent.policy import build_plan
from agent.state import GraphContext, InteractState
from planning import (
    MAX_PLAN_RETRIES,
    PLANNER_INSTRUCTIONS,
    PlanDraft,
    PlanInvalid,
    check_plan,
    feedback_block,
    page_signatures,
    plan_from_draft,
    planning_blocks,
)
from planning import Plan

log = structlog.get_logger(__name__)


async def planning(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """Make the task's plan once (model when configured, else the policy's decomposition);
    later requests reuse the stored plan."""
    existing = state.get("plan")
    if existing is not None and existing.steps:
        return {"plan": existing}
    task = state["task"]
    page = state["page"]
    plan: Plan | None = None
    gateway = runtime.context.deps.gateway
    if gateway is not None:
        plan = await _model_plan(state, runtime)
    if plan is None:
        plan = build_plan(task.query)
        check = check_plan(plan, task.query, page, known_sources=_sources(state))
        log.info("planning.policy_plan", steps=len(plan.steps), check=check.verdict, score=round(check.score, 2))
    if not plan.page_signatures:
        plan = plan.model_copy(update={"page_signatures": page_signatures(page)})
    return {"plan": plan}


def _sources(state: InteractState) -> tuple[str, ...]:
    summary = state.get("search_summary")
    return (summary,) if summary else ()


async def _model_plan(state: InteractState, runtime: Runtime[GraphContext]) -> Plan | None:
    gateway = runtime.context.deps.gateway
    assert gateway is not None
    task, page = state["task"], state["page"]
    blocks = [DataBlock(name, content) for name, content in planning_blocks(task.query, page, web_search_summary=state.get("search_summary"))]
    for attempt in range(MAX_PLAN_RETRIES + 1):
        try:
            generation = await gateway.generate("PLANNING", PlanDraft, Prompt(PLANNER_INSTRUCTIONS, blocks), ctx=call_context(state, runtime))
            if generation.output.needs_user_input:
                # The policy's context analysis decides ASK_USER before planning; a plan that
                # still lacks values falls back to the policy plan rather than guessing.
                log.info("planning.model_needs_input", missing=len(generation.output.needs_user_input))
                return None
            plan = plan_from_draft(generation.output, task.query, page)
        except (LLMError, PlanInvalid) as exc:
            log.warning("planning.model_failed", error=type(exc).__name__, attempt=attempt)
            return None
        check = check_plan(plan, task.query, page, retries_used=attempt, known_sources=_sources(state))
        log.info("planning.model_plan", steps=len(plan.steps), check=check.verdict, score=round(check.score, 2), attempt=attempt)
        if check.verdict == "PASS":
            return plan
        if check.verdict == "FAIL":
            return None
        name, content = feedback_block(check)
        blocks = [*blocks, DataBlock(name, content)]
    return None
