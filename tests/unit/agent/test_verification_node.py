"""The verification node judges the step; the goal check alone decides completion, from the
contract — a model's ``task_completed`` is a claim, never proof."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from agent.contracts import contract_for_new_task
from agent.inputs import InteractInput, PageInput
from agent.context import AgentDeps
from agent.nodes.goal_check import goal_check
from agent.nodes.verification import verification
from agent.progress import TaskProgress
from storage import Task, TaskAction
from tests.support.clinic import FORM_URL, LIST_URL, MENU_URL, form_page, list_page, menu_page
from tests.support.scenario_model import ScenarioModel, SeenPrompt
from verification import BeforeState, PageState, check_contract, clause_hits, parse_action

GOAL = 'Add a new patient named "Jas"'


def _claims_done(_: SeenPrompt) -> dict[str, Any]:
    return {"action_succeeded": True, "task_completed": True, "confidence": 0.97, "reason": "All done!"}


def _state(after_html: str, after_url: str) -> dict[str, Any]:
    """The Save click of the patient task, issued on the filled form, about to be verified."""
    start = PageState.from_html(menu_page(), url=MENU_URL)
    contract, plan = contract_for_new_task(GOAL, start)
    for step in plan.steps[:2]:
        step.status = "completed"
    plan.current_step_index = 2
    before = PageState.from_html(form_page(name="Jas"), url=FORM_URL)
    contract = check_contract(contract, before, step=2)  # the name was in its field when Save was pressed
    task = Task(tenant_id="t", user_id="u", session_id="s", url=FORM_URL, query=GOAL, step_index=3)
    save = 'click("22")'
    last = TaskAction(
        tenant_id="t", task_id=task.id, step_index=2, thought="Save", action=save,
        before_state=BeforeState.from_page(before).model_dump(mode="json"),
        metrics={"plan_step": 2, "completes_step": True, "clause_hits": list(clause_hits(contract, parse_action(save), before))},
    )  # fmt: skip
    return {
        "task": task,
        "plan": plan,
        "contract": contract,
        "progress": TaskProgress(),
        "last_action": last,
        "page": PageState.from_html(after_html, url=after_url),
        "input": InteractInput(page=PageInput(url=after_url, dom=after_html), query=None, task_id=task.id),
    }


def _runtime(model: ScenarioModel | None) -> Any:
    deps = AgentDeps(store=None, gateway=model)  # type: ignore[arg-type]
    return SimpleNamespace(context=SimpleNamespace(deps=deps, request=SimpleNamespace(tenant_id="t", user_id="u"), trace_id=None))


async def _verify_then_check(state: dict[str, Any], model: ScenarioModel | None) -> dict[str, Any]:
    state = {**state, **await verification(state, _runtime(model))}  # type: ignore[arg-type]
    return {**state, **await goal_check(state, _runtime(model))}  # type: ignore[arg-type]


async def test_a_claim_without_evidence_never_completes_however_often_it_is_made() -> None:
    model = ScenarioModel({"VERIFICATION": _claims_done})
    no_row = list_page()  # the list, but no confirmation and no "Jas" row
    for _ in range(3):
        result = await _verify_then_check(_state(no_row, LIST_URL), model)
        assert result["verification"].task_completed is True  # the model's claim is recorded…
        assert result["goal_achieved"] is False  # …and is no proof
        assert result["verification"].goal_achieved is False  # one truth per answer
        assert result["contract"].result("c3").status == "pending"


async def test_the_page_proves_it_with_or_without_a_model() -> None:
    for model in (ScenarioModel({"VERIFICATION": _claims_done}), None):
        result = await _verify_then_check(_state(list_page(saved="Jas"), LIST_URL), model)
        assert result["goal_achieved"] is True
        assert result["verification"].goal_achieved is True
        contract = result["contract"]
        assert [contract.result(c.id).status for c in contract.clauses] == ["holds", "holds", "holds"]
        assert contract.result("c2").evidence is not None and contract.result("c2").evidence.step == 2


def _v3(*nodes: dict[str, Any]) -> PageState:
    return PageState.from_v3(list(nodes), url="https://clinic.example/home")


def _open_click_state(after: PageState) -> dict[str, Any]:
    """'Add a new patient' — its first step, clicking "New patient", about to be verified."""
    start = _v3({"i": "10", "r": "btn", "n": "New patient"}, {"i": "11", "r": "link", "n": "Help"})
    contract, plan = contract_for_new_task(GOAL, start)
    task = Task(tenant_id="t", user_id="u", session_id="s", url=start.url, query=GOAL, step_index=1)
    last = TaskAction(
        tenant_id="t", task_id=task.id, step_index=0, thought="Open the form", action='click("10")',
        before_state=BeforeState.from_page(start).model_dump(mode="json"), metrics={"plan_step": 0, "completes_step": True},
    )  # fmt: skip
    page = PageInput(url=after.url, tree=[{"i": e.id, "r": e.role, "n": e.name} for e in after.elements])
    return {"task": task, "plan": plan, "contract": contract, "progress": TaskProgress(), "last_action": last,
            "page": after, "input": InteractInput(page=page, query=None, task_id=task.id)}  # fmt: skip


async def test_a_click_that_only_took_the_focus_did_not_open_the_form() -> None:
    state = _open_click_state(_v3({"i": "10", "r": "btn", "n": "New patient", "s": "focused"}, {"i": "11", "r": "link", "n": "Help"}))
    assert state["plan"].steps[0].kind in ("open", "click") and state["plan"].steps[1].kind == "fill"
    out = await verification(state, _runtime(None))  # type: ignore[arg-type]
    assert out["step_succeeded"] is False and out["verification"].error_category == "next_goal_missing"
    assert state["plan"].steps[0].status != "completed"


async def test_a_click_that_opened_the_form_is_a_success() -> None:
    state = _open_click_state(_v3({"i": "20", "r": "textbox", "n": "Name", "s": "focused"}, {"i": "22", "r": "btn", "n": "Save"}))
    out = await verification(state, _runtime(None))  # type: ignore[arg-type]
    assert out["step_succeeded"] is True and state["plan"].steps[0].status == "completed"
