from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.calls import call_context
from agent.memory import hints, steer
from agent.llm import DataBlock, LLMError, Prompt
from agent.offload import heavy, page_work
from agent.critic import needs_critic
from agent.destructive import phrase_in
from agent.advance import advance_and_refine
from agent.search import allowed_domains_for
from agent.interrupts import MAX_INTERRUPTS, retrieve_missing, stored_search
from agent.reasoning import kept_claims, needs_user_input
from agent.state import Candidate, GraphContext, InteractState
from agent.subtasks import active, within_active, worker_view
from agent.vision.call import CallVision, position_lines
from agent.vision.steps import call_vision, full_dom_request, screenshot_request
from planning import REFINEMENT_INSTRUCTIONS, RefinedAction, RefinementInvalid, RefinementResult, refinement_blocks, summarise_history, validate_refined_action
from planning import Plan
from verification import Action, ActionSyntaxError, Contract, parse_action

log = structlog.get_logger(__name__)

EVIDENCE_WAITS = 2
TARGET_WAITS = 2
MAX_REOPEN = 1

async def action_generation(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """The next action for the current plan step (:func:`_generate`), steered by the
    tenant's admitted skills away from a known dead end on this site (agent.memory)."""
    update = await _generate(state, runtime)
    skills = runtime.context.memory.skills
    if skills:
        for key in ("candidate", "fallback"):
            if update.get(key) is not None:
                update[key] = steered(update[key], state["page"], skills)
    return update


def steered(candidate: Candidate, page: Any, skills: Any) -> Candidate:
    moved, used = steer(candidate, page, skills)
    return dataclasses.replace(moved, skills=used) if used else candidate


async def _generate(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """The next action for the current plan step: skip what the page already shows done,
    then ask the model (when configured) with the policy's choice as the fallback. When
    every step is done but the contract does not hold, redo the steps whose clause failed
    (once each), or wait briefly for a late result; otherwise there is nothing left to do
    and action validation ends the task from the contract."""
    plan = state["plan"]
    page = state["page"]
    contract = state["contract"]
    assert plan is not None
    if (retry := _pending_retry(state) or _chain_retry(state, plan)) is not None:
        return {"plan": plan, "candidate": retry, "fallback": None}
    if state.get("subtask_wait") is True:
        return {"plan": plan, "candidate": _subtask_wait(plan, "its steps are done; waiting for the page to show it"), "fallback": None}
    _skip_failed_link(state, plan)
    policy_candidate, reason = await page_work(heavy(page), advance_and_refine, plan, page, contract)
    update: dict[str, Any] = {"plan": plan}
    if not within_active(plan, plan.current_step_index):
        # The page already shows the rest of this sub-task's steps done: the next one starts
        # only once its condition is seen (next request), never with an action past it.
        return {**update, "candidate": _subtask_wait(plan, "its steps show done; checking it before the next part"), "fallback": None}
    if plan.current is None and _reopen(plan, contract):
        policy_candidate, reason = await page_work(heavy(page), advance_and_refine, plan, page, contract)
    if plan.current is None:
        progress = state["progress"]
        if plan.steps and _worth_waiting(contract) and progress.evidence_waits < EVIDENCE_WAITS:
            # Every step is done; the result may show late (a toast, a list that reloads).
            return {
                "plan": plan,
                "progress": progress.model_copy(update={"evidence_waits": progress.evidence_waits + 1}),
                "candidate": Candidate(Action(name="wait", seconds=1.0), "Every step is done; waiting for the page to show the result.", "policy", 0.8, completes_step=False),
                "fallback": None,
            }
        reason = "every step of the plan is done"

    if (full := full_dom_request(state, runtime, plan, policy_candidate)) is not None:
        return {**update, **full}  # the step's target is not in the element list: ask for the page (agent.vision)
    model_candidate = None
    if runtime.context.deps.gateway is not None:
        vision = call_vision(state, runtime, plan, policy_candidate)  # hybrid or text (agent.vision)
        if vision.ask:
            return {**update, **screenshot_request(plan, vision)}
        update["vision"] = vision.state
        model_candidate, searched = await _model_candidate(state, runtime, plan, vision)
        if searched is not None:
            update["search_state"] = searched
        if isinstance(model_candidate, Asked):  # nothing is sent: the user gives the value first
            return {**update, "candidate": None, "fallback": None, "needs_user_input": model_candidate.question}
    if model_candidate is not None:
        return {**update, "candidate": model_candidate, "fallback": policy_candidate, "critic_needed": _critic_needed(state, model_candidate)}
    if policy_candidate is None:
        if (late := _wait_for_late_target(state, plan)) is not None:
            return {**update, **late}
        log.info("action_generation.no_action", reason=reason)
        return {**update, "candidate": None, "rejections": [reason]}
    return {**update, "candidate": policy_candidate, "fallback": None, "critic_needed": _critic_needed(state, policy_candidate)}


def _wait_for_late_target(state: InteractState, plan: Plan) -> dict[str, Any] | None:
    """The current step's element is not on the page yet, right after a chain that worked:
    pages render fields late, and after a chain the request comes back sooner than after
    one action per round trip. Wait a second — at most ``TARGET_WAITS`` times per task —
    before giving up."""
    progress = state["progress"]
    if plan.current is None or state.get("verification") is None or state.get("step_succeeded") is not True:
        return None
    last = state.get("last_action")
    if last is None or not last.actions:
        return None  # one action at a time gives a late field a round trip per step already
    if progress.target_waits >= TARGET_WAITS:
        return None
    thought = f"Step {plan.current.index + 1}/{len(plan.steps)}: its element is not on the page yet; waiting for it to appear."
    return {
        "progress": progress.model_copy(update={"target_waits": progress.target_waits + 1}),
        "candidate": Candidate(Action(name="wait", seconds=1.0), thought, "policy", 0.7, plan.current.index, completes_step=False, probe=True),
        "fallback": None,
    }


def _subtask_wait(plan: Plan, why: str) -> Candidate:
    current = active(plan)
    part = f"Part {current.index + 1}/{len(plan.subtasks)}" if current is not None else "This part"
    return Candidate(Action(name="wait", seconds=1.0), f"{part}: {why}.", "policy", 0.8, completes_step=False, probe=True)


def _critic_needed(state: InteractState, candidate: Candidate) -> bool:
    page = state["page"]
    element = page.element(candidate.action.target) if candidate.action.target else None
    start = str(state["task"].state.get("start_url") or state["task"].url)
    return needs_critic(candidate.action, element, candidate.confidence, page_url=page.url, allowed_domains=allowed_domains_for(start))


def _chain_retry(state: InteractState, plan: Plan) -> Candidate | None:
    """A chain stopped at an action whose element was re-rendered: the same action on the
    element that now has its role and name (agent.chaining.recovery), then the rest."""
    recovery = state.get("chain_recovery")
    if recovery is None or recovery.strategy != "retry" or recovery.retry is None:
        return None
    step = recovery.plan_step
    if step is not None and 0 <= step < len(plan.steps):
        plan.steps[step].status = "in_progress"
        plan.steps[step].attempts += 1
    return Candidate(recovery.retry, f"Retry on the re-rendered element: {recovery.reason}.", "policy", 0.8, step, True)


def _skip_failed_link(state: InteractState, plan: Plan) -> None:
    """A chain action that may fail (canFail) and did: its step is passed over."""
    recovery = state.get("chain_recovery")
    if recovery is None or recovery.strategy != "skip" or recovery.plan_step is None:
        return
    if 0 <= recovery.plan_step < len(plan.steps) and plan.steps[recovery.plan_step].status != "completed":
        plan.steps[recovery.plan_step].status = "skipped"
        if plan.current_step_index == recovery.plan_step:
            plan.current_step_index = next((s.index for s in plan.steps if s.status not in ("completed", "skipped")), len(plan.steps))


def _pending_retry(state: InteractState) -> Candidate | None:
    """After a corrective wait/scroll verified, send the action it prepared for."""
    pending = state["task"].state.get("pending_retry")
    if not pending or state.get("step_succeeded") is not True:
        return None
    try:
        action = parse_action(pending["action"])
    except (ActionSyntaxError, KeyError, TypeError):
        return None
    target = state["page"].element(action.target) if action.target else None
    if target is not None and target.occluded:
        return None  # still covered: never acted on blindly; the policy decides anew (close what covers it)
    # The plan's own action, now that the page is ready: it may lead a chain like any other.
    return Candidate(action, f"Retry {pending['action']} now that the page is ready.", "policy", 0.7, pending.get("plan_step"), True, "generation")


def _reopen(plan: Plan, contract: Contract) -> bool:
    """Every step is done but some clause does not hold: redo the steps whose clause did
    not come true (a box still off when Save was pressed, a click that did not verify) —
    once each. A commit that worked without a visible result is never repeated (a second
    click could send or delete twice), and neither is a destructive click that was done: its
    record may be gone, and the same label on the next row is another record."""
    reopened = []
    for step in plan.steps:
        if not step.clause or step.status != "completed" or step.reopened >= MAX_REOPEN:
            continue
        if step.kind in ("click", "submit") and step.target and phrase_in(step.target) is not None:
            continue
        result = contract.result(step.clause)
        if result.status == "holds" or result.unproven:
            continue
        step.status = "pending"
        step.reopened += 1
        reopened.append(step.index)
    if not reopened:
        return False
    plan.current_step_index = min(reopened)
    log.info("plan.steps_reopened", steps=reopened)
    return True


def _worth_waiting(contract: Contract) -> bool:
    """A result that may still show: a commit done without a visible effect yet, or a
    message/text/element/address that should follow the work."""
    return any(
        contract.result(c.id).unproven or c.kind in ("message", "shown", "presence", "url") for c in contract.pending()
    )


@dataclass(frozen=True)
class Asked:
    """The worker needs a value nobody gave and nothing found: the user is asked."""

    question: dict[str, Any]


async def _model_candidate(
    state: InteractState, runtime: Runtime[GraphContext], plan: Plan, vision: CallVision | None = None
) -> tuple[Candidate | Asked | None, dict[str, Any] | None]:
    """The model's action for the current step, and the web search an interrupt ran (stored
    with the task). A reported missing value runs the dynamic interrupt (agent.interrupts);
    in hybrid mode the screenshot goes with the call (agent.vision)."""
    gateway = runtime.context.deps.gateway
    assert gateway is not None
    step = plan.current
    # A hierarchical plan's worker sees its sub-task, its steps and its own history only.
    view = worker_view(plan, state.get("previous_actions", []), state["task"].query)
    previous = [(a.step_index, a.action, _verdict_word(a.verification)) for a in view.actions]
    window = summarise_history(previous, keep_last=runtime.context.deps.config.history_window)
    blocks = [
        DataBlock(name, content)
        for name, content in refinement_blocks(
            view.goal,
            view.plan,
            step,
            state["page"],
            previous_actions_summary=window.as_text(),
            verification_summary=state.get("verification"),
            rag_chunks=runtime.context.knowledge,
            web_search_summary=state.get("search_summary") or stored_search(state["task"].state),
        )
    ]
    if view.inputs:  # outputs of earlier sub-tasks this one needs
        blocks.append(DataBlock("inputs", view.inputs))
    learned = hints(runtime.context.memory.skills)
    if learned:  # what corrections on this site taught, as data (the model may weigh it, not obey it)
        blocks.append(DataBlock("learned_skills", learned))
    images = vision.images if vision is not None else ()
    if vision is not None:  # hybrid mode: where the elements are, or why no screenshot comes with this call
        if positions := position_lines(state["page"], vision, runtime.context.vision.screenshot):
            blocks.append(DataBlock("element_positions", positions))
        if vision.note:
            blocks.append(DataBlock("screenshot_note", vision.note))
    done: list[str] = []
    searched: dict[str, Any] | None = None
    for rounds in range(MAX_INTERRUPTS + 1):
        try:
            prompt = Prompt(REFINEMENT_INSTRUCTIONS, blocks, images=images)
            generation = await gateway.generate("ACTION_GENERATION", RefinedAction, prompt, ctx=call_context(state, runtime))
            refined = validate_refined_action(generation.output, state["page"])
        except (LLMError, RefinementInvalid) as exc:
            log.warning("action_generation.model_failed", error=type(exc).__name__)
            return None, searched
        if refined.needs_user_input:
            refined = await _checked_claims(refined, state, plan)
            if refined is None:  # the claim was all there was (its wait(1)): the policy's action goes on
                return None, searched
        if not refined.needs_user_input:
            break
        # The dynamic interrupt: a value is missing; look for it, then ask the worker again.
        found = await retrieve_missing(refined.missing_info, state, runtime, done=done)
        if found.question is not None or rounds == MAX_INTERRUPTS:
            question = found.question or dict(needs_user_input(refined.missing_info))
            return Asked(question), found.search_state or searched
        done += found.tried
        blocks = [*blocks, *found.blocks]
        searched = found.search_state or searched
    return Candidate(
        action=refined.action,
        thought=refined.thought,
        decided_by="model",
        confidence=refined.confidence,
        plan_step=step.index if step is not None else None,
        completes_step=refined.step_done if step is not None else True,
        chain=refined.chain,
    ), searched


async def _checked_claims(refined: RefinementResult, state: InteractState, plan: Plan) -> RefinementResult | None:
    """The worker's answer with only the missing values that hold against the goal and the
    page (agent.reasoning.missing_claims). With none left the answer stands without them —
    unless its action is the wait(1) that only held the question's place (then ``None``)."""
    page = state["page"]
    kept = await page_work(
        heavy(page), kept_claims, refined.missing_info, state["task"].query, page, engine="action_generation", contract=state["contract"], steps=plan.steps
    )
    if not kept and refined.action.name == "wait":
        return None
    return dataclasses.replace(refined, missing_info=kept)


def _verdict_word(verification: dict[str, Any] | None) -> str | None:
    if verification is None:
        return None
    return "verified" if verification.get("success") else "failed"

