"""What a finished task leaves for a recipe (:func:`agent.memory.recipes.recorded`): the actions
the page proved — never an exploring move. Opening a tab, expanding a section or turning a page
to *find* the target depends on where this page's data put it: the link "{v1}" was behind Tab
#3 in the learning runs and is in the open tab the next time; a replayed "click Tab #3" there
is a wrong action the verifier cannot see (MiniWoB scores it -1)."""

from __future__ import annotations

from typing import Any

from agent.memory.recipes import recorded
from storage import TaskAction

RULES: dict[str, Any] = {"decided_by": "rules", "success": True}


def _step(index: int, action: str, *, probe: bool, role: str, name: str) -> TaskAction:
    return TaskAction(
        tenant_id="t",
        task_id="task",
        step_index=index,
        thought="",
        action=action,
        metrics={"probe": probe, "recall": {"fingerprint": "f" * 16, "targets": [{"role": role, "name": name}]}},
    )


def test_exploring_moves_are_not_recorded_the_steps_they_led_to_are() -> None:
    steps = [
        (_step(0, 'click("2")', probe=True, role="tab", name="Tab #2"), RULES),
        (_step(1, 'click("3")', probe=True, role="tab", name="Tab #3"), RULES),
        (_step(2, 'click("15")', probe=False, role="link", name="justo"), RULES),
    ]
    kept = recorded(steps)
    assert [(r.action.name, r.action.target, (r.target or {}).get("name")) for r in kept] == [("click", "15", "justo")]


def test_a_planned_step_that_opens_something_is_recorded() -> None:
    """"Open the New patient form, then type …": a step of the plan (not a search) is the flow's."""
    steps = [
        (_step(0, 'click("4")', probe=False, role="link", name="New patient"), RULES),
        (_step(1, 'setValue("9", "Jas")', probe=False, role="textbox", name="Name"), RULES),
    ]
    assert [r.action.target for r in recorded(steps)] == ["4", "9"]


def test_a_step_only_a_model_vouched_for_is_not_recorded() -> None:
    steps = [(_step(0, 'click("4")', probe=False, role="button", name="Save"), {"decided_by": "model", "success": True})]
    assert recorded(steps) == []


def test_a_click_the_user_confirmed_is_never_recorded() -> None:
    """"Yes, cancel subscription" was sent because the user said yes: the next task asks again."""
    first = _step(0, 'click("c1")', probe=False, role="button", name="Cancel subscription")
    confirmed = _step(1, 'click("y")', probe=False, role="button", name="Yes, cancel subscription")
    confirmed.metrics["user_confirmed"] = True
    assert [r.action.target for r in recorded([(first, RULES), (confirmed, RULES)])] == ["c1"]
