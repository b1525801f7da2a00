"""A plan whose steps are all done while a clause does not hold redoes the steps whose clause
failed — never a destructive click: its record may be gone, and the same label on the next
row is another record (the gym's bank: a second payee deleted)."""

from __future__ import annotations

from agent.nodes.action_generation import _reopen
from planning import Plan, PlanStep
from verification.contract import Clause, Contract, ElementRef


def _plan(target: str) -> Plan:
    step = PlanStep(index=0, description=f"Click {target}", kind="click", target=target, status="completed", clause="c1", success_criterion="done")
    return Plan(goal="g", steps=[step], current_step_index=1, source="policy")


def _contract() -> Contract:
    clause = Clause(id="c1", kind="activated", description="d", target=ElementRef(name="nursery"), action="click")
    return Contract(clauses=(clause,))


def test_a_destructive_click_that_was_done_is_never_redone() -> None:
    plan = _plan("Delete")
    assert not _reopen(plan, _contract()) and plan.steps[0].status == "completed"


def test_a_harmless_click_whose_clause_failed_is_redone_once() -> None:
    plan = _plan("Show details")
    assert _reopen(plan, _contract()) and plan.steps[0].status == "pending"
