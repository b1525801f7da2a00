"""The agent's side of the goal contract: deriving it when a task starts, merging what a
model proposes, reading the previous step for the checks, and ending a task honestly.

The checks themselves are pure (``verification.contract``); this module only assembles
their inputs and turns their answer into the task's ending.
"""

from __future__ import annotations

from typing import Any, Final

from agent.confirmation import confirm_label, confirmation_asked
from agent.model_clauses import merge_proposed
from agent.page_meaning import read_on_page
from agent.policy import understand
from agent.policy.lexicon import SUCCESS_WORDS
from agent.policy.limits import model_need
from agent.state import StepOutcome
from planning import Plan, PlanStep
from storage import TaskAction
from verification import (
    MESSAGE_APPEARED,
    Action,
    ActionSyntaxError,
    Clause,
    Contract,
    PageState,
    PreviousStep,
    VerificationResult,
    contract_unproven,
    format_action,
    parse_action,
    start_contract,
    unmet_clauses,
)
from verification.contract import fold, words, words_within

_UNINFORMATIVE: Final = ("URL did not change", "Extension reported", "Background network")


def contract_for_new_task(goal: str, page: PageState) -> tuple[Contract, Plan]:
    """The policy's contract for ``goal``, read against its first page and started there,
    and its plan."""
    understanding = understand(goal)
    contract, plan = read_on_page(understanding.contract, understanding.plan, page, goal)
    return start_contract(contract, page), plan


def stored_contract(task_state: dict[str, Any], goal: str, page: PageState) -> Contract:
    """The task's contract, with the model's waiting clauses this page grounds merged in; a
    task that began before contracts existed gets one now (its baseline is this page)."""
    raw = task_state.get("contract")
    if raw:
        return merge_proposed(Contract.model_validate(raw), goal, page)
    contract, _plan = contract_for_new_task(goal, page)
    return contract


def previous_step(last: TaskAction | None, result: VerificationResult | None, page: PageState | None = None) -> PreviousStep | None:
    """The action issued on the previous request, as the contract checks read it. ``page``
    is the page after it: whether the change it shows is a result (see :func:`shows_effect`)."""
    if last is None or result is None:
        return None
    try:
        action = parse_action(last.action)
    except ActionSyntaxError:
        return None
    lines = [line for line in result.observations if not line.startswith(_UNINFORMATIVE)]
    lines.sort(key=lambda line: not line.startswith(MESSAGE_APPEARED))  # what the page said of it first
    asks = None
    if action.name == "click" and result.success and page is not None:
        asks = confirmation_asked(action.target, (last.before_state or {}).get("skeleton"), page)
    return PreviousStep(
        step=last.step_index,
        action=action,
        hits=tuple(last.metrics.get("clause_hits") or ()),
        success=result.success,
        effect=shows_effect(last, result, page),
        observation=(lines[0] if lines else result.reason)[:300],
        element=last.metrics.get("target"),
        confirming=confirm_label(asks) if asks is not None else None,
    )


def shows_effect(last: TaskAction, result: VerificationResult, page: PageState | None) -> bool:
    """Did the page change in a way that can be the action's result? A new address, or
    changed controls, yes. When the only change is a new message, it must read as success:
    "Choose a country from the list" after Save is the page answering, not the work done."""
    if result.url_changed:
        return True
    if not result.meaningful_content_change:
        return False
    before = (last.before_state or {}).get("skeleton") or {}
    if page is None or not before:
        return True
    after = page.skeleton
    if before.get("elements") != after.get("elements"):
        return True
    seen = set((before.get("messages") or {}).values())
    new = {key: text for key, text in after["messages"].items() if text not in seen}
    if not new:
        return True  # messages went away (an error cleared): the change is the page's own
    return any(key.startswith("success:") or set(words(text)) & SUCCESS_WORDS for key, text in new.items())


def not_understood(contract: Contract, goal: str) -> StepOutcome:
    """The ending of a goal the policy cannot fully read, with no model to read the rest:
    NEEDS_MODEL when it asks for arithmetic, a comparison, a guess or a judgement of meaning
    (the page does not state those answers), else GOAL_NOT_UNDERSTOOD."""
    need = model_need(goal, contract.unaccounted)
    if need is not None:
        return _ending("failed", need.reason(), code="NEEDS_MODEL")
    words = ", ".join(repr(w) for w in contract.unaccounted[:12])
    if contract.clauses:
        reason = f"I could not understand all of this goal: {words} cannot be matched to anything I can do and check."
    else:
        reason = f"I could not understand this goal: {words} cannot be matched to anything I can do and check."
    reason += " Rephrase it as steps on this page (e.g. 'Click the Save button', 'Type \"x\" into Name')."
    return _ending("failed", reason, code="GOAL_NOT_UNDERSTOOD")


def settle(contract: Contract, *, why_stuck: str, code: str = "GOAL_NOT_MET") -> StepOutcome:
    """Nothing more can be done: an honest ending from the contract. Never "completed"
    unless every clause holds (and then the graph routes to goal_achieved, not here)."""
    if contract.satisfied:
        raise ValueError("a satisfied contract completes the task; settle() is for the rest")
    holds_all = all(contract.result(c.id).status == "holds" for c in contract.clauses)
    if contract.clauses and holds_all and contract.unverifiable and not contract.unaccounted:
        parts = "; ".join(contract.unverifiable[:6])
        return _ending(
            "needs_confirmation",
            f"Every step is done and every part of the goal I can check holds, but the page cannot show {parts}. Please confirm.",
        )
    if contract.clauses and holds_all and contract.unaccounted:
        words = ", ".join(repr(w) for w in contract.unaccounted[:12])
        return _ending(
            "needs_confirmation",
            f"Every part of the goal I can check is done, but I cannot check {words} on the page. Please confirm.",
        )
    if contract_unproven(contract):
        lines = "; ".join(unmet_clauses(contract)[:6])
        return _ending("needs_confirmation", f"The actions were done, but the page does not show the result: {lines}. Please confirm.")
    lines = "; ".join(unmet_clauses(contract)[:6])
    reason = f"The goal is not done: {lines}." if lines else "The goal is not done."
    if why_stuck:
        reason += f" {why_stuck[0].upper()}{why_stuck[1:]}"
    return _ending("failed", reason, code=code)


def _ending(status: str, reason: str, *, code: str | None = None) -> StepOutcome:
    action = format_action(Action(name="fail", value=reason[:300])) if status == "failed" else ""
    return StepOutcome(
        thought=reason,
        action=action,
        decided_by="policy",
        status=status,  # type: ignore[arg-type]
        failure_code=code,
        failure_reason=reason if status != "completed" else None,
    )


def completion_thought(contract: Contract) -> str:
    lines = []
    for clause in contract.clauses:
        result = contract.result(clause.id)
        proof = result.evidence.observation if result.evidence is not None else result.detail
        lines.append(f"{clause.description} ({proof})" if proof else clause.description)
    return "Task complete: " + "; ".join(lines) + "."


def contract_summary(contract: Contract) -> dict[str, Any]:
    """The contract as the answer and the task detail show it: each clause with its state
    and the evidence that satisfied it, so the extension can show *why* Stepwise believes
    the task is (or is not) done."""
    clauses = []
    for clause in contract.clauses:
        result = contract.result(clause.id)
        clauses.append(
            {
                "id": clause.id,
                "kind": clause.kind,
                "mode": clause.mode,
                "description": clause.description,
                "target": clause.target.describe() if clause.target is not None else None,
                "value": clause.value,
                "source": clause.source,
                "status": result.status,
                "detail": result.detail,
                "unproven": result.unproven,
                "awaiting": result.awaiting,
                "evidence": result.evidence.model_dump(mode="json") if result.evidence is not None else None,
                "read": read.model_dump(mode="json") if (read := contract.reads.get(clause.id)) is not None else None,
            }
        )
    return {
        "satisfied": contract.satisfied,
        "complete": contract.complete,
        "source": contract.source,
        "unverifiable": list(contract.unverifiable),
        "unaccounted": list(contract.unaccounted),
        "clauses": clauses,
    }


def already_done_verdict(contract: Contract) -> VerificationResult:
    """The goal check of a task whose contract holds on its first page (a box the goal asks
    to tick is already ticked): no action was needed, the page shows every clause."""
    reason = "No action was needed: the page already shows every part of the goal done"
    return VerificationResult(
        success=True,
        confidence=1.0,
        reason=reason,
        action_succeeded=True,
        task_completed=True,
        goal_achieved=True,
        semantic_summary=reason,
        observations=satisfied(contract),
        meaningful_content_change=False,
        url_changed=False,
        client_witness_override=False,
        verification_tier=1,
        tokens_saved=0,
        model_called=False,
        decided_by="rules",
        next_goal_check=None,
        error_category=None,
        duration_ms=0.0,
    )


def satisfied(contract: Contract) -> list[str]:
    out = []
    for clause in contract.clauses:
        result = contract.result(clause.id)
        if result.status == "holds":
            proof = result.evidence.observation if result.evidence is not None else result.detail
            out.append(f"{clause.description}: {proof}")
    return out


_STEP_FOR: Final[dict[str, tuple[str, ...]]] = {
    "activated": ("click", "submit", "press", "hover", "focus", "open"),
    "field_value": ("fill",),
    "choice": ("select",),
    "control": ("check", "uncheck", "find"),
}


def link_steps(plan: Plan, contract: Contract) -> Plan:
    """Link a model's plan steps to the contract's clauses they make true (a step whose
    target carries every word of a clause's element name, or whose value is the clause's
    value), so the policy's fallback acts on the element the clause names — in its row —
    and never on a look-alike. The most specific clause wins (a named row over none)."""
    linked = {step.clause for step in plan.steps if step.clause}
    for step in plan.steps:
        if step.clause:
            continue
        best: tuple[int, Clause] | None = None
        for clause in contract.clauses:
            if clause.id in linked or step.kind not in _STEP_FOR.get(clause.kind, ()):
                continue
            if clause.kind in ("field_value", "choice") and fold(clause.value or "") != fold(step.value or ""):
                continue
            target = clause.target
            if target is not None and target.name and not words_within(words(target.name), step.target or step.description):
                continue
            rank = (2 if target is not None and target.container else 0) + (1 if target is not None and target.name else 0)
            if best is None or rank > best[0]:
                best = (rank, clause)
        if best is not None:
            step.clause = best[1].id
            linked.add(best[1].id)
    return plan


def plan_from_contract(goal: str, contract: Contract) -> Plan:
    """Steps that would make the clauses still pending true, in order — the plan when the
    policy could not read the goal and the model's plan was unusable, but the model's
    clauses (grounded and covering the goal) say what to do."""
    steps: list[PlanStep] = []
    for clause in contract.pending():
        target = clause.target
        label = target.describe() if target is not None else ""
        if clause.kind == "activated" and clause.action in ("click", "press", "hover") and target is not None:
            kind = {"click": "submit" if clause.effect else "click", "press": "press", "hover": "hover"}[clause.action]
            steps.append(PlanStep(index=0, kind=kind, description=clause.description, target=target.name or label, value=clause.value if clause.action == "press" else None, success_criterion=clause.description, clause=clause.id))  # type: ignore[arg-type]
        elif clause.kind == "field_value" and target is not None:
            steps.append(PlanStep(index=0, kind="fill", description=clause.description, target=target.name or label, value=clause.value, success_criterion=clause.description, clause=clause.id))
        elif clause.kind == "choice":
            steps.append(PlanStep(index=0, kind="select", description=clause.description, target=target.name if target is not None else None, value=clause.value, success_criterion=clause.description, clause=clause.id))
        elif clause.kind == "control" and target is not None and clause.state in ("checked", "unchecked"):
            kind = "check" if clause.state == "checked" else "uncheck"
            steps.append(PlanStep(index=0, kind=kind, description=clause.description, target=target.name or label, success_criterion=clause.description, clause=clause.id))  # type: ignore[arg-type]
    for index, step in enumerate(steps):
        step.index = index
    return Plan(goal=goal, steps=steps, source="model")
