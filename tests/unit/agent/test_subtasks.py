"""Sub-tasks in the graph: each read off the page (sub_task_completed), latched with its
evidence, given a bounded wait, failed when the page never shows it or it runs over budget;
the worker sees only its own part."""

from __future__ import annotations

from typing import Any

from agent.routing import route_after_goal_check
from agent.subtasks import SUBTASK_WAITS, active, advance, all_met, attach, subtask_ending, within_active, worker_view
from planning import Plan, PlanStep, SubTask
from storage import TaskAction
from verification import Contract, PageState
from verification.contract import Clause, ClauseResult, ElementRef

URL = "https://records.example/"


def _page(*nodes: dict[str, Any], url: str = URL, text: str = "") -> PageState:
    return PageState.from_v3(list(nodes), url=url, text=text)


SEARCH = _page({"i": "1", "r": "inp", "n": "Search records"}, {"i": "2", "r": "btn", "n": "Search"})
RESULTS = _page({"i": "1", "r": "inp", "n": "Search records", "v": "Ana"}, {"i": "5", "r": "link", "n": "Ana Silva"}, url=URL + "search?q=Ana")
FORM = _page({"i": "7", "r": "inp", "n": "Email"}, {"i": "8", "r": "btn", "n": "Save"}, url=URL + "records/17")


def _plan() -> Plan:
    steps = [
        PlanStep(index=0, description="type", kind="fill", target="Search records", value="Ana", success_criterion="typed"),
        PlanStep(index=1, description="search", kind="press", target="Search records", value="Enter", success_criterion="results"),
        PlanStep(index=2, description="open", kind="open", target="Ana Silva", success_criterion="record"),
        PlanStep(index=3, description="save", kind="submit", target="Save", success_criterion="saved"),
    ]
    listed = Clause(id="s0m1", kind="presence", description="Ana Silva is listed", target=ElementRef(name="Ana Silva", role="link"))
    saved = Clause(id="s1m1", kind="message", description="saved", value="saved")
    subtasks = [
        SubTask(index=0, goal="Search for Ana", first_step=0, last_step=1, outputs=["record: Ana Silva"], checks=Contract(clauses=(listed,)), budget=4),
        SubTask(index=1, goal="Open and save", first_step=2, last_step=3, inputs=["record"], checks=Contract(clauses=(saved,)), budget=4),
    ]
    return Plan(goal="g", steps=steps, subtasks=subtasks)


def _done(plan: Plan, *indexes: int) -> Plan:
    for i in indexes:
        plan.steps[i].status = "completed"
    plan.current_step_index = next((s.index for s in plan.steps if s.status != "completed"), len(plan.steps))
    return plan


def _action(step_index: int, chain: int = 0) -> TaskAction:
    return TaskAction(tenant_id="t", task_id="x", step_index=step_index, thought="", action='click("1")', actions=[{}] * chain or None)


def test_the_first_sub_task_starts_on_the_planning_page_with_its_baselines() -> None:
    plan = attach(_plan(), Contract(), SEARCH, 0)
    first = plan.subtasks[0]
    assert first.status == "active" and first.started_step == 0
    assert first.checks.baseline == {"s0m1": 0}
    assert active(plan) is first and not all_met(plan)


def test_a_sub_task_completes_only_when_its_steps_are_done_and_the_page_shows_it() -> None:
    plan = attach(_plan(), Contract(), SEARCH, 0)
    check = advance(plan, Contract(), RESULTS, step=1, last=_action(0))
    assert check is not None and check.completed == () and not check.wait, "its steps are not done yet"
    check = advance(_done(check.plan, 0, 1), Contract(), RESULTS, step=2, last=_action(1))
    assert check is not None and check.completed == (0,)
    first, second = check.plan.subtasks
    assert first.status == "completed" and first.verified_step == 2 and first.verified_url == RESULTS.url
    assert any("Ana Silva" in line for line in first.evidence)
    assert first.actions_used == 2
    assert second.status == "active" and second.started_step == 2 and second.actions_used == 0
    assert not check.all_met


def test_a_sub_task_the_page_never_shows_done_waits_then_ends_the_task_not_completed() -> None:
    plan = attach(_plan(), Contract(), SEARCH, 0)
    check = advance(_done(plan, 0, 1), Contract(), RESULTS, step=1, last=_action(0))
    assert check is not None
    plan = _done(check.plan, 2, 3)
    for n in range(SUBTASK_WAITS):
        check = advance(plan, Contract(), FORM, step=2 + n, last=_action(1 + n))
        assert check is not None and check.wait and check.failed is None
        plan = check.plan
    check = advance(plan, Contract(), FORM, step=5, last=_action(4))
    assert check is not None and check.failed is not None and not check.all_met
    assert check.plan.subtasks[1].status == "failed" and "saved" in (check.plan.subtasks[1].failure or "")
    outcome = subtask_ending(check)
    assert outcome.status == "failed" and outcome.failure_code == "SUBTASK_NOT_MET"
    assert route_after_goal_check({"subtask_failed": True, "goal_achieved": True}) == "finalize"


def test_a_sub_task_over_its_budget_fails_with_its_own_code() -> None:
    plan = attach(_plan(), Contract(), SEARCH, 0)
    check = advance(plan, Contract(), SEARCH, step=1, last=_action(0, chain=5))
    assert check is not None and check.failed is not None and check.over_budget
    assert subtask_ending(check).failure_code == "SUBTASK_BUDGET_EXCEEDED"


def test_a_task_contract_clause_of_a_sub_task_must_hold_too() -> None:
    clause = Clause(id="c1", kind="field_value", description="Email holds a@b.c", target=ElementRef(name="Email"), value="a@b.c")
    contract = Contract(clauses=(clause,))
    plan = _plan()
    plan.subtasks[1] = plan.subtasks[1].model_copy(update={"clauses": ["c1"], "checks": Contract()})
    plan = attach(_done(plan, 0, 1), contract, SEARCH, 0)
    check = advance(plan, contract, RESULTS, step=1, last=_action(0))
    assert check is not None and check.completed == (0,)
    check = advance(_done(check.plan, 2, 3), contract, FORM, step=2, last=_action(1))
    assert check is not None and check.wait and not check.all_met
    held = contract.model_copy(update={"results": {"c1": ClauseResult(id="c1", status="holds", detail="held")}})
    check = advance(check.plan, held, FORM, step=3, last=_action(2))
    assert check is not None and check.all_met and check.completed == (1,)


def test_the_worker_sees_its_part_its_steps_its_history_and_the_outputs_it_needs() -> None:
    plan = attach(_plan(), Contract(), SEARCH, 0)
    flat = worker_view(Plan(goal="the whole goal", steps=plan.steps), [_action(0), _action(1)], "the whole goal")
    assert flat.goal == "the whole goal" and len(flat.plan.steps) == 4 and len(flat.actions) == 2
    check = advance(_done(plan, 0, 1), Contract(), RESULTS, step=2, last=_action(1))
    assert check is not None
    view = worker_view(check.plan, [_action(0), _action(1), _action(2)], "the whole goal")
    assert view.goal.startswith("Part 2 of 2") and "Open and save" in view.goal
    assert [s.index for s in view.plan.steps] == [2, 3] and view.plan.subtasks == []
    assert [a.step_index for a in view.actions] == [2]
    assert view.inputs == [f"record: Ana Silva (part 1, verified on {RESULTS.url})"]


def test_no_action_or_chain_link_runs_past_the_active_sub_task() -> None:
    plan = attach(_plan(), Contract(), SEARCH, 0)
    assert within_active(plan, 1) and not within_active(plan, 2)
    assert within_active(None, 9) and within_active(plan, None)
