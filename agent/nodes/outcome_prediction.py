from __future__ import annotations

from dataclasses import replace
from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.calls import call_context
from agent.outcome import run_outcome_prediction
from agent.state import GraphContext, InteractState
from verification import parse_action

log = structlog.get_logger(__name__)


async def outcome_prediction(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """What the page should show after this action (fixed templates for navigation and
    dropdowns, the model for the rest), kept for correction and look-ahead. A step replayed
    from a recipe asks no model: its templates suffice, the verifier judges it anyway."""
    outcome = state["outcome"]
    deps = runtime.context.deps
    memory = state.get("memory")
    gateway = None if memory is not None and memory.replay == "HIT" else deps.gateway
    plan = state.get("plan")
    step = plan.steps[outcome.plan_step].description if plan is not None and outcome.plan_step is not None and outcome.plan_step < len(plan.steps) else None
    result = await run_outcome_prediction(
        parse_action(outcome.action),
        state["page"],
        state["task"].query,
        step,
        gateway,
        knowledge=runtime.context.knowledge,
        ctx=call_context(state, runtime) if gateway is not None else None,
    )
    log.info("graph.outcome_prediction", action_type=result.action_type, decided_by=result.decided_by)
    return {"outcome": replace(outcome, expected_outcome=result.expected.model_dump(mode="json"))}
