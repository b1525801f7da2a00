from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.action_validation import ActionRejected, validate_action
from agent.chaining import ChainLink, model_chain, policy_chain
from agent.contracts import completion_thought, not_understood, settle
from agent.destructive import Held, other_record, unasked
from agent.memory import steer_action
from agent.offload import heavy, page_work
from agent.nodes.critic import start_url
from agent.progress import fingerprint
from agent.search import allowed_domains_for
from agent.secrets import PlaceholderMisuse
from agent.state import Candidate, GraphContext, InteractState, StepOutcome
from agent.subtasks import all_met, within_active
from verification import Action, format_action

log = structlog.get_logger(__name__)


async def action_validation(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """Only an action the page and the task allow is ever sent: ids that exist, values that
    fit, navigation within the task's site. Also the loop detector: the same action on an
    unchanged page too often goes to correction once, then fails."""
    deps = runtime.context.deps
    page = state["page"]
    rejections = list(state.get("rejections", []))
    allowed = allowed_domains_for(start_url(state))
    chosen: tuple[Candidate, str] | None = None
    held: tuple[Held, Candidate] | None = None
    contract = state["contract"]
    progress = state["progress"]
    for candidate in (state.get("candidate"), state.get("fallback")):
        if candidate is None:
            continue
        if candidate.action.name == "finish" and not (contract.satisfied and all_met(state.get("plan"))):
            # A finish() is a request to check the contract, and the goal check just did:
            # it does not hold. Fall back to the policy's action (or end honestly below).
            log.info("action_validation.finish_rejected", decided_by=candidate.decided_by, pending=[c.id for c in contract.pending()])
            rejections.append("finish() rejected: the page does not show the goal done")
            progress = progress.model_copy(update={"rejected_finishes": progress.rejected_finishes + 1})
            continue
        try:  # a model types a secret by its placeholder; only into a secret field does it become the value
            action = runtime.context.secrets.fill_placeholders(candidate.action, page, by_model=candidate.decided_by == "model")
        except PlaceholderMisuse as exc:
            log.warning("action_validation.secret_misuse", decided_by=candidate.decided_by)
            rejections.append(f"SECRET_MISUSE: {exc}")
            continue
        result = validate_action(action, page, allowed_domains=allowed, search_available=deps.search is not None)
        if isinstance(result, ActionRejected):
            log.info("action_validation.rejected", code=result.code, decided_by=candidate.decided_by)
            rejections.append(f"{result.code}: {result.reason}")
            continue
        target = page.element(candidate.action.target) if candidate.action.target else None
        if (named := other_record(candidate.action, target, state["task"].query, page)) is not None:
            log.info("action_validation.rejected", code="WRONG_RECORD", decided_by=candidate.decided_by)
            rejections.append(f"WRONG_RECORD: {result.text} acts on another record than the one the goal names ({named!r})")
            continue
        hold = unasked(candidate.action, target, state["task"].query, contract, state.get("confirmed", frozenset()))
        if hold is not None:
            log.info("action_validation.held", phrase=hold.phrase, decided_by=candidate.decided_by)
            held = held or (hold, candidate)
            continue
        chosen = (candidate, result.text)
        break
    if chosen is None and held is not None:
        # Never sent unasked: the user confirms (or not) on the next request.
        hold, by = held
        pending = hold.pending(thought=by.thought, decided_by=by.decided_by, plan_step=by.plan_step, completes_step=by.completes_step)
        return {"outcome": StepOutcome(hold.message, "", "policy", plan_step=by.plan_step, probe=True, confirm=pending), "progress": progress}
    if chosen is None:
        plan = state.get("plan")
        stuck = "; ".join(rejections) or "nothing to do on this page"
        code = "GOAL_NOT_MET" if plan is None or plan.current is None else "NO_VALID_ACTION"
        all_hold = bool(contract.clauses) and all(contract.result(c.id).status == "holds" for c in contract.clauses)
        if (plan is None or not plan.steps) and not contract.complete and not all_hold:
            return {"outcome": not_understood(contract, state["task"].query), "progress": progress}
        if contract.satisfied:  # the contract holds but a sub-task was never seen done (agent.subtasks)
            return {"outcome": _fail("SUBTASK_NOT_MET", f"No valid next action, and a part of the task was not shown done: {stuck}."), "progress": progress}
        return {"outcome": settle(contract, why_stuck=f"No valid next action: {stuck}.", code=code), "progress": progress}

    candidate, text = chosen
    if candidate.action.name == "finish":  # the contract holds (checked above)
        return {"outcome": StepOutcome(completion_thought(contract), text, candidate.decided_by, status="completed")}
    if candidate.action.name == "fail":
        return {"outcome": StepOutcome(candidate.thought, text, candidate.decided_by, status="failed", failure_code="MODEL_GAVE_UP", failure_reason=candidate.action.value)}

    repeats = progress.fingerprint_count(fingerprint(text, page))
    limit = deps.config.loop_repeats
    if repeats >= limit - 1:
        corrected_before = progress.loop_corrections > 0 or state.get("correction_attempted")
        if repeats >= limit or corrected_before or state.get("verification") is None:
            log.warning("action_validation.loop_detected", action=text, repeats=repeats)
            return {"outcome": _fail("LOOP_DETECTED", f"The same action {text} was chosen {repeats + 1} times on an unchanged page"), "progress": progress}
        log.info("action_validation.loop_suspected", action=text, repeats=repeats)
        return {"loop_suspected": True, "progress": progress}
    links, steered = await _chain(state, runtime, candidate, text)
    if links and not all(within_active(state.get("plan"), link.plan_step) for link in links):
        kept = [link for link in links[: next(i for i, link in enumerate(links) if not within_active(state.get("plan"), link.plan_step))]]
        links = kept if len(kept) > 1 else []  # a chain never runs past the active sub-task
    return {
        "progress": progress,
        "loop_suspected": False,
        "outcome": StepOutcome(
            thought=_chain_thought(candidate.thought, links),
            action=text,
            decided_by=candidate.decided_by,
            plan_step=candidate.plan_step,
            completes_step=candidate.completes_step,
            probe=candidate.probe,
            chain=tuple(links),
            skills=tuple(dict.fromkeys((*candidate.skills, *steered))),
            dialog=candidate.dialog,
        ),
    }


async def _chain(state: InteractState, runtime: Runtime[GraphContext], candidate: Candidate, text: str) -> tuple[list[ChainLink], tuple[str, ...]]:
    """The safe run of actions that may follow ``candidate`` without a round trip
    (agent.chaining): from the policy's plan, or the model's (or a recipe's) proposed chain —
    each action vetted exactly as a single one is, and steered by the tenant's skills like
    one. Also returns the skills that steered a chained action."""
    deps = runtime.context.deps
    if not deps.config.chaining or candidate.source in ("correction", "vision", "contingency") or state.get("confirmed"):
        return [], ()
    page, contract = state["page"], state["contract"]
    allowed = allowed_domains_for(start_url(state))
    secrets, goal = runtime.context.secrets, state["task"].query
    by_model = candidate.decided_by == "model"
    skills, steered = runtime.context.memory.skills, []

    def vet(action: Action) -> tuple[Action, str] | None:
        used: tuple[str, ...] = ()
        if skills:  # a known dead end in the chain is avoided like a single action's
            action, used, _ = steer_action(action, page, skills)
        try:
            action = secrets.fill_placeholders(action, page, by_model=by_model)
        except PlaceholderMisuse:
            return None
        result = validate_action(action, page, allowed_domains=allowed, search_available=deps.search is not None)
        if isinstance(result, ActionRejected):
            return None
        element = page.element(action.target) if action.target else None
        if unasked(action, element, goal, contract, frozenset()) is not None or other_record(action, element, goal, page) is not None:
            return None
        steered.extend(used)
        return action, result.text

    limit = deps.config.chain_max_actions
    if by_model or candidate.source == "recall":  # a model's or a recipe's proposed chain, cut where the rules say
        links = await page_work(heavy(page), model_chain, candidate, text, candidate.chain, page, contract, limit=limit, vet=vet)
    else:
        links = await page_work(heavy(page), policy_chain, candidate, text, state.get("plan"), page, contract, limit=limit, vet=vet)
    plan = state.get("plan")
    if links and plan is not None:
        for link in links[1:]:
            if link.plan_step is not None and 0 <= link.plan_step < len(plan.steps):
                plan.steps[link.plan_step].status = "in_progress"
                plan.steps[link.plan_step].attempts += 1
    if links:
        log.info("action_validation.chained", actions=len(links), commit=links[-1].commit, decided_by=candidate.decided_by)
    return links, tuple(steered) if links else ()


def _chain_thought(thought: str, links: list[ChainLink]) -> str:
    if not links:
        return thought
    ending = ", the last one submitting" if links[-1].commit else ""
    return f"{thought} Sent as a chain of {len(links)} actions{ending}: {'; '.join(link.description for link in links)}."


def _fail(code: str, reason: str) -> StepOutcome:
    return StepOutcome(
        thought=reason,
        action=format_action(Action(name="fail", value=reason[:300])),
        decided_by="policy",
        status="failed",
        failure_code=code,
        failure_reason=reason,
    )
