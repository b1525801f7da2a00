"""The verification node's completion rules: page evidence backs a model's claim."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from agent.context import AgentDeps
from agent.inputs import InteractInput, PageInput
from agent.nodes.verification import verification
from agent.policy import build_plan
from agent.progress import TaskProgress
from storage import Task, TaskAction
from tests.support.clinic import FORM_URL, LIST_URL, form_page, list_page
from tests.support.scenario_model import ScenarioModel, SeenPrompt
from verification import BeforeState, PageState

GOAL = 'Add a new patient named "Jas"'


def _claims_done(_: SeenPrompt) -> dict[str, Any]:
    return {"action_succeeded": True, "task_completed": True, "confidence": 0.9, "reason": "All done!"}


def _state(after_html: str, after_url: str, progress: TaskProgress) -> dict[str, Any]:
    plan = build_plan(GOAL)
    for step in plan.steps[:2]:
        step.status = "completed"
    plan.current_step_index = 2
    before = PageState.from_html(form_page(name="Jas"), url=FORM_URL)
    task = Task(tenant_id="t", user_id="u", session_id="s", url=FORM_URL, query=GOAL)
    last = TaskAction(
        tenant_id="t", task_id=task.id, step_index=2, thought="Save", action='click("22")',
        before_state=BeforeState.from_page(before).model_dump(mode="json"), metrics={"plan_step": 2, "completes_step": True},
    )
    return {
        "task": task,
        "plan": plan,
        "progress": progress,
        "last_action": last,
        "page": PageState.from_html(after_html, url=after_url),
        "input": InteractInput(page=PageInput(url=after_url, dom=after_html), query=None, task_id=task.id),
    }


def _runtime(model: ScenarioModel) -> Any:
    deps = AgentDeps(store=None, gateway=model)  # type: ignore[arg-type]
    return SimpleNamespace(context=SimpleNamespace(deps=deps, request=SimpleNamespace(tenant_id="t", user_id="u"), trace_id=None))


async def test_claim_without_evidence_is_recorded_and_the_second_one_finishes_flagged() -> None:
    model = ScenarioModel({"VERIFICATION": _claims_done})
    no_toast = list_page()  # the list, but no confirmation and no "Jas" row
    first = await verification(_state(no_toast, LIST_URL, TaskProgress()), _runtime(model))  # type: ignore[arg-type]
    assert first["verification"].goal_achieved is True  # the model's flag…
    assert first["goal_achieved"] is False  # …is not enough on its own
    assert first["progress"].unsupported_completions == 1

    second = await verification(_state(no_toast, LIST_URL, first["progress"]), _runtime(model))  # type: ignore[arg-type]
    assert second["goal_achieved"] is True
    assert second["low_evidence_completion"] is True


async def test_claim_with_evidence_finishes_at_once() -> None:
    model = ScenarioModel({"VERIFICATION": _claims_done})
    result = await verification(_state(list_page(saved="Jas"), LIST_URL, TaskProgress()), _runtime(model))  # type: ignore[arg-type]
    assert result["goal_achieved"] is True
    assert result["low_evidence_completion"] is False


async def test_no_model_evidence_alone_finishes_the_finished_plan() -> None:
    result = await verification(_state(list_page(saved="Jas"), LIST_URL, TaskProgress()), _runtime(None))  # type: ignore[arg-type]
    assert result["verification"].model_called is False
    assert result["goal_achieved"] is True
