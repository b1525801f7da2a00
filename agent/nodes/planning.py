from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.calls import call_context
from agent.llm import DataBlock, LLMError, Prompt
from agent.offload import heavy, page_work
from agent.contracts import link_steps, plan_from_contract
from agent.model_clauses import merge_model_clauses
from agent.policy import understand
from agent.state import GraphContext, InteractState
from agent.interrupts import user_messages
from agent.reasoning import kept_claims
from agent.subtasks import attach, from_drafts
from planning import (
    MAX_PLAN_RETRIES,
    PLANNER_INSTRUCTIONS,
    PlanDraft,
    PlanInvalid,
    check_plan,
    clauses_from_drafts,
    feedback_block,
    page_signatures,
    plan_from_draft,
    planning_blocks,
)
from planning import Plan
from verification import Contract

log = structlog.get_logger(__name__)


async def planning(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """Make the task's plan once (model when configured, else the policy's reading of the
    goal); later requests reuse the stored plan. With a model, its plan also proposes
    contract clauses: those that account for goal words the policy's contract leaves out
    are merged in (a gap is sent back once, named)."""
    existing = state.get("plan")
    if existing is not None and existing.steps:
        return {"plan": existing}
    task = state["task"]
    page = state["page"]
    contract = state["contract"]
    plan: Plan | None = None
    update: dict[str, Any] = {}
    gateway = runtime.context.deps.gateway
    if gateway is not None:
        plan, contract = await _model_plan(state, runtime, contract)
        update["contract"] = contract
        if plan is not None:
            plan = link_steps(plan, contract)
        elif contract.source != "policy" and contract.complete and not state.get("policy_plan"):
            # The policy could not read the goal, the model's plan was unusable, its clauses
            # (grounded, covering the goal) still say what to do.
            plan = plan_from_contract(task.query, contract)
            log.info("planning.plan_from_contract", steps=len(plan.steps))
        if plan is None and not contract.complete:
            # The policy's plan covers only the part of the goal it could read: carrying it
            # out would do part of the work (submit a form half filled). No plan, no action.
            log.info("planning.no_plan_for_the_whole_goal", unaccounted=list(contract.unaccounted)[:10])
            return {**update, "plan": Plan(goal=task.query, steps=[], source="policy")}
    if plan is None:
        plan = state.get("policy_plan") or understand(task.query).plan
        check = await page_work(heavy(page), check_plan, plan, task.query, page, known_sources=_sources(state))
        log.info("planning.policy_plan", steps=len(plan.steps), check=check.verdict, score=round(check.score, 2))
    if not plan.page_signatures:
        plan = plan.model_copy(update={"page_signatures": page_signatures(page)})
    if runtime.context.deps.config.subtasks:  # a multi-part goal's sub-tasks (agent.subtasks)
        plan = attach(plan, contract, page, task.step_index)
    return {**update, "plan": plan}


def _sources(state: InteractState) -> tuple[str, ...]:
    summary = state.get("search_summary")
    return (summary,) if summary else ()


async def _model_plan(state: InteractState, runtime: Runtime[GraphContext], contract: Contract) -> tuple[Plan | None, Contract]:
    gateway = runtime.context.deps.gateway
    assert gateway is not None
    task, page = state["task"], state["page"]
    blocks = [DataBlock(name, content) for name, content in planning_blocks(task.query, page, rag_chunks=runtime.context.knowledge, web_search_summary=state.get("search_summary"))]
    analysis = state.get("context_analysis")
    if analysis is not None and "MEMORY" in analysis.required_sources and (said := user_messages(runtime.context.history)) is not None:
        blocks.append(said)  # every required source reaches the planner: MEMORY is what the user said before
    gap_sent = False
    for attempt in range(MAX_PLAN_RETRIES + 1):
        try:
            generation = await gateway.generate("PLANNING", PlanDraft, Prompt(PLANNER_INSTRUCTIONS, blocks), ctx=call_context(state, runtime))
        except LLMError as exc:
            log.warning("planning.model_failed", error=type(exc).__name__, attempt=attempt)
            return None, contract
        draft = generation.output
        proposed, dropped = clauses_from_drafts(draft.contract)
        contract, missing = merge_model_clauses(contract, task.query, proposed, page)
        log.info("planning.model_contract", proposed=len(proposed), dropped=len(dropped), unaccounted=missing[:10], source=contract.source)
        if draft.needs_user_input and await _still_missing(draft.needs_user_input, state, contract):
            # The policy's context analysis decides ASK_USER before planning; a plan that
            # still lacks values falls back to the policy plan rather than guessing. A value
            # the goal gives or nothing needs is no gap: the draft stands (agent.reasoning).
            log.info("planning.model_needs_input", missing=len(draft.needs_user_input))
            return None, contract
        feedback: list[DataBlock] = []
        if missing and not gap_sent:
            gap_sent = True
            feedback.append(DataBlock("contract_feedback", _gap(missing, dropped)))
        try:
            plan = plan_from_draft(draft, task.query, page)
            plan = from_drafts(plan, draft.subtasks) if runtime.context.deps.config.subtasks else plan
        except PlanInvalid as exc:
            log.warning("planning.model_plan_invalid", error=str(exc)[:200], attempt=attempt)
            if feedback and attempt < MAX_PLAN_RETRIES:
                blocks = [*blocks, *feedback]
                continue
            return None, contract
        check = await page_work(heavy(page), check_plan, plan, task.query, page, retries_used=attempt, known_sources=_sources(state))
        log.info("planning.model_plan", steps=len(plan.steps), check=check.verdict, score=round(check.score, 2), attempt=attempt)
        if check.verdict == "PASS" and not feedback:
            return plan, contract
        if check.verdict == "FAIL" and not feedback:
            return None, contract
        if attempt >= MAX_PLAN_RETRIES:
            return (plan if check.verdict == "PASS" else None), contract
        if check.verdict != "PASS":
            name, content = feedback_block(check)
            feedback.append(DataBlock(name, content))
        blocks = [*blocks, *feedback]
    return None, contract


async def _still_missing(claims: list[str], state: InteractState, contract: Contract) -> bool:
    """Does any value the draft says is missing hold against the goal and the page (the task's
    reading and the policy's plan — never the draft's own steps)?"""
    policy_plan = state.get("policy_plan")
    steps = policy_plan.steps if policy_plan is not None else ()
    page = state["page"]
    kept = await page_work(heavy(page), kept_claims, claims, state["task"].query, page, engine="planning", contract=contract, steps=steps)
    return bool(kept)


def _gap(missing: list[str], dropped: list[str]) -> str:
    lines = ["Your contract does not account for these words of the goal: " + ", ".join(repr(w) for w in missing[:20]) + "."]
    lines.append("Add clauses that check them on the page, using only values and names the goal gives.")
    lines += [f"Not checkable, dropped: {d}" for d in dropped[:5]]
    return "\n".join(lines)
