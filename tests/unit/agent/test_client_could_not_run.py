"""An action the client reports it could not run (a click an overlay swallowed) is a failed
step, whatever else changed on the page meanwhile — never a success credited to the goal."""

from __future__ import annotations

import dataclasses

from tests.unit.agent.test_verification_node import _runtime, _state, _verify_then_check
from tests.support.clinic import LIST_URL, list_page
from agent.nodes.verification import verification


async def test_a_save_the_client_could_not_run_never_completes_the_task() -> None:
    state = _state(list_page(saved="Jas"), LIST_URL)  # the page changed as if it had worked
    state["input"] = dataclasses.replace(state["input"], last_action_status="failure", last_action_error="element is covered by another element")
    result = await _verify_then_check(state, None)
    assert result["verification"].success is False and result["step_succeeded"] is False
    assert "could not run" in result["verification"].reason
    assert result["plan"].steps[2].status != "completed" and result["goal_achieved"] is False


async def test_a_reported_success_is_judged_from_the_page_as_before() -> None:
    state = _state(list_page(saved="Jas"), LIST_URL)
    state["input"] = dataclasses.replace(state["input"], last_action_status="success")
    out = await verification(state, _runtime(None))  # type: ignore[arg-type]
    assert out["verification"].success is True
