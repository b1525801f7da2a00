"""Routers read flags only — never the verifier's prose."""

from __future__ import annotations

from typing import Any

from agent.reasoning import ContextAnalysis
from agent.memory import MemoryStatus
from agent.routing import route_after_context, route_after_contract, route_after_goal_check, route_after_recall, route_after_replanning, route_start
from agent.state import Candidate
from agent.state import StepOutcome
from planning import Plan, PlanStep
from verification import Clause, ClauseResult, Contract, ElementRef, parse_action


class _Verdict:
    def __init__(self, reason: str) -> None:
        self.reason = reason


def _state(**kw: Any) -> Any:
    return kw


def test_start_routes_new_tasks_to_their_contract_and_continuations_to_verification() -> None:
    assert route_start(_state(is_new_task=True)) == "contract"
    assert route_start(_state(is_new_task=False)) == "verification"


def _contract(status: str, *, unaccounted: tuple[str, ...] = ()) -> Contract:
    clause = Clause(id="c1", kind="control", description="SMS is on", target=ElementRef(name="SMS"), state="checked")
    return Contract(clauses=(clause,), unaccounted=unaccounted, results={"c1": ClauseResult(id="c1", status=status)})  # type: ignore[arg-type]


def test_a_new_task_whose_contract_already_holds_finishes_at_once() -> None:
    assert route_after_contract(_state(contract=_contract("holds"))) == "goal_achieved"


def test_a_contract_that_does_not_cover_the_goal_never_finishes_on_the_first_page() -> None:
    assert route_after_contract(_state(contract=_contract("holds", unaccounted=("savings",)))) == "recall"


def test_a_new_task_asks_the_user_or_ends_not_understood() -> None:
    assert route_after_contract(_state(contract=_contract("pending"), needs_user_input={"missing": ["x"]})) == "ask_user"
    ended = StepOutcome("?", 'fail("?")', "policy", status="failed", failure_code="GOAL_NOT_UNDERSTOOD")
    assert route_after_contract(_state(contract=_contract("pending"), outcome=ended)) == "finalize"
    assert route_after_contract(_state(contract=_contract("pending"))) == "recall"


def test_only_a_replay_hit_with_its_action_skips_the_planner() -> None:
    hit = MemoryStatus("HIT", recipe_id="r1", recipe_step=0)
    step = Candidate(parse_action('click("4")'), "the recipe's step 1", "policy", 1.0, source="recall")
    assert route_after_recall(_state(memory=hit, candidate=step, is_new_task=True)) == "action_validation"
    assert route_after_recall(_state(memory=hit, candidate=step, is_new_task=False)) == "action_validation"
    assert route_after_recall(_state(memory=hit, is_new_task=True)) == "complexity_check"
    for status in (MemoryStatus(miss_reason="no recipe"), MemoryStatus("FALLBACK", "the page does not match"), MemoryStatus("DISABLED")):
        assert route_after_recall(_state(memory=status, candidate=step, is_new_task=True)) == "complexity_check"
        assert route_after_recall(_state(memory=status, candidate=step, is_new_task=False)) == "replanning"


def test_goal_achieved_flag_finishes_whatever_the_reason_says() -> None:
    state = _state(verification=_Verdict("nothing happened, failure"), goal_achieved=True, step_succeeded=False)
    assert route_after_goal_check(state) == "goal_achieved"


def test_prose_claiming_success_does_not_finish() -> None:
    state = _state(verification=_Verdict("Task completed successfully!"), goal_achieved=False, step_succeeded=False)
    assert route_after_goal_check(state) == "correction"


def test_successful_step_goes_on() -> None:
    state = _state(verification=_Verdict(""), goal_achieved=False, step_succeeded=True)
    assert route_after_goal_check(state) == "next_action"


def test_missing_verification_goes_on_without_finishing() -> None:
    state = _state(verification=None, goal_achieved=False, step_succeeded=False)
    assert route_after_goal_check(state) == "next_action"


def test_a_kept_plan_skips_planning_and_a_discarded_one_is_made_again() -> None:
    kept = Plan(goal="Save", steps=[PlanStep(index=0, description="Click Save", kind="click", target="Save", success_criterion="saved")])
    assert route_after_replanning(_state(plan=kept)) == "action_generation"
    assert route_after_replanning(_state(plan=None)) == "planning"
    assert route_after_replanning(_state()) == "planning"


def test_every_source_the_context_analysis_requires_runs() -> None:
    memory_and_search = ContextAnalysis(source="MEMORY", required_sources=["MEMORY", "WEB_SEARCH", "PAGE"], reason="x", search_query="q")
    assert route_after_context(_state(context_source="MEMORY", context_analysis=memory_and_search)) == "web_search"
    memory_only = ContextAnalysis(source="MEMORY", required_sources=["MEMORY", "PAGE"], reason="x")
    assert route_after_context(_state(context_source="MEMORY", context_analysis=memory_only)) == "planning"
    assert route_after_context(_state(context_source="WEB_SEARCH", context_analysis=None)) == "web_search"
    asked = ContextAnalysis(source="ASK_USER", required_sources=["WEB_SEARCH"], missing_information=["the name"], reason="x")
    assert route_after_context(_state(context_source="ASK_USER", context_analysis=asked)) == "ask_user"
