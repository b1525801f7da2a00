"""Routers read flags only — never the verifier's prose."""

from __future__ import annotations

from typing import Any

from agent.routing import route_after_replanning, route_after_verification, route_start
from planning import Plan, PlanStep


class _Verdict:
    def __init__(self, reason: str) -> None:
        self.reason = reason


def _state(**kw: Any) -> Any:
    return kw


def test_start_routes_new_tasks_to_complexity_check_and_continuations_to_verification() -> None:
    assert route_start(_state(is_new_task=True)) == "complexity_check"
    assert route_start(_state(is_new_task=False)) == "verification"


def test_goal_achieved_flag_finishes_whatever_the_reason_says() -> None:
    state = _state(verification=_Verdict("nothing happened, failure"), goal_achieved=True, step_succeeded=False)
    assert route_after_verification(state) == "goal_achieved"


def test_prose_claiming_success_does_not_finish() -> None:
    state = _state(verification=_Verdict("Task completed successfully!"), goal_achieved=False, step_succeeded=False)
    assert route_after_verification(state) == "correction"


def test_successful_step_goes_on() -> None:
    state = _state(verification=_Verdict(""), goal_achieved=False, step_succeeded=True)
    assert route_after_verification(state) == "next_action"


def test_missing_verification_goes_on_without_finishing() -> None:
    state = _state(verification=None, goal_achieved=False, step_succeeded=False)
    assert route_after_verification(state) == "next_action"


def test_a_kept_plan_skips_planning_and_a_discarded_one_is_made_again() -> None:
    kept = Plan(goal="Save", steps=[PlanStep(index=0, description="Click Save", kind="click", target="Save", success_criterion="saved")])
    assert route_after_replanning(_state(plan=kept)) == "action_generation"
    assert route_after_replanning(_state(plan=None)) == "planning"
    assert route_after_replanning(_state()) == "planning"
