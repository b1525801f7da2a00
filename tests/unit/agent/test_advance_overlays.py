"""A plan step that only closes an overlay ("No thanks" on a newsletter popup, "Accept all" on a
cookie banner) is done when no such control is on the page: a contingency closed it, or this
visit never showed it (agent.advance). A step that may cancel the work is never skipped so."""

from __future__ import annotations

from agent.advance import advance_and_refine
from planning import Plan, PlanStep
from verification import Contract, PageState


def _plan(*targets: str) -> Plan:
    steps = [PlanStep(index=i, description=f"Click {t!r}", kind="click", target=t, success_criterion="it reacts") for i, t in enumerate(targets)]
    return Plan(goal="remove the tent from my wishlist", steps=steps, source="model")

PAGE_NODES = [{"i": "1", "r": "btn", "n": "Remove from wishlist"}, {"i": "2", "r": "btn", "n": "Cancel order"}]
PAGE = PageState.from_v3(PAGE_NODES, url="https://shop.test/")


def test_a_step_that_closes_an_overlay_no_longer_shown_is_done() -> None:
    plan = _plan("No thanks", "Accept all", "Remove from wishlist")
    candidate, _ = advance_and_refine(plan, PAGE, Contract())
    assert candidate is not None and candidate.action.target == "1" and plan.current_step_index == 2


def test_a_closing_step_whose_control_is_shown_and_a_cancel_step_are_done_by_acting() -> None:
    shown = PageState.from_v3([{"i": "9", "r": "btn", "n": "No thanks"}, *PAGE_NODES], url="https://shop.test/")
    candidate, _ = advance_and_refine(_plan("No thanks", "Remove from wishlist"), shown, Contract())
    assert candidate is not None and candidate.action.target == "9"
    plan = _plan("Cancel", "Remove from wishlist")
    candidate, _ = advance_and_refine(plan, PAGE, Contract())
    assert plan.current_step_index == 0  # "Cancel" may cancel the work: never skipped as a closed overlay

