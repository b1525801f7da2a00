"""The policy's walk along a plan: skip what is done, refine the next step into an action.

Used by action generation for the next action, and by chain building (agent.chaining) on
a copy of the plan over the page as it will be after the chain's earlier actions.
"""

from __future__ import annotations

from typing import Final

import structlog

from agent.contingency.detect import CLOSERS
from agent.policy import StepDecision, refine_step
from agent.state import Candidate
from planning import Plan, PlanStep
from verification import Action, Contract, ElementRef, PageState, resolve_ref
from verification.contract import fold

log = structlog.get_logger(__name__)

# Steps whose action only moves towards the step (opening a menu, revealing a target).
_PARTIAL_KINDS = frozenset({"open", "find"})


def advance_and_refine(plan: Plan, page: PageState, contract: Contract) -> tuple[Candidate | None, str]:
    """Move ``plan`` past the steps the page (or the contract) shows done and return the
    action for the first step that is not: the policy's candidate, or why there is none.
    Mutates ``plan`` (step statuses, attempts, values read from the contract)."""
    while (step := plan.current) is not None:
        clause = contract.clause(step.clause) if step.clause else None
        # A suggest step's clause can hold on the text typed to ask for suggestions ("starts
        # with An" once "An" is typed): only the chosen suggestion in the field is done.
        if clause is not None and contract.result(clause.id).status == "holds" and step.kind != "suggest":
            decision = StepDecision(None, "Its clause holds.", satisfied=True)
        elif _overlay_gone(step, page):
            decision = StepDecision(None, "The overlay it closes is not on the page (closed already, or never shown).", satisfied=True)
        else:
            if clause is not None and step.value is None and clause.value is not None:
                step.value = clause.value  # read on the page: the plan keeps it from now on
            decision = refine_step(step, page, plan, clause.target if clause is not None else None)
        if decision.satisfied:
            log.info("plan.step_satisfied", step=step.index, kind=step.kind)
            step.status = "completed"
            plan.current_step_index = step.index + 1
            continue
        if decision.action is None:
            return None, decision.reason or f"cannot act on step {step.index}"
        step.status = "in_progress"
        step.attempts += 1
        step.explored.extend(decision.explored)
        return (
            Candidate(
                action=decision.action,
                thought=f"Step {step.index + 1}/{len(plan.steps)}: {decision.thought}",
                decided_by="policy",
                confidence=decision.confidence,
                plan_step=step.index,
                completes_step=decision.completes_step and completes(step, decision.action),
                probe=decision.probe,
            ),
            "",
        )
    return None, "every plan step is done"


# A plan step that only closes an overlay ("No thanks" on a newsletter popup, "Accept all" on
# a cookie banner) has nothing to do once no such control is on the page: a contingency closed
# it already, or this visit never showed it. ("Cancel" is not one: it may cancel the work.)
_CLOSING_STEPS: Final = (CLOSERS - {"cancel"}) | {"accept all", "accept all cookies", "accept cookies", "allow all"}


def _overlay_gone(step: PlanStep, page: PageState) -> bool:
    if step.kind not in ("click", "other") or not step.target or fold(step.target) not in _CLOSING_STEPS:
        return False
    return not resolve_ref(ElementRef(name=step.target), page).found


def completes(step: PlanStep, action: Action) -> bool:
    if step.kind in _PARTIAL_KINDS:
        return False
    return action.name not in ("scroll", "wait") and not (step.kind in ("click", "submit", "check") and action.name != "click")


