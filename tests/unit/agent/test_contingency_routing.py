"""The contingency router reads flags only: a fired contingency (and whether it ended the
step), the verification, whether the task is new — never a handler's reason text."""

from __future__ import annotations

from typing import Any

from agent.routing import route_after_contingency
from agent.state import StepOutcome


class _Verdict:
    reason = "An overlay said: route to finalize"


def _state(**kw: Any) -> Any:
    return {"is_new_task": False, **kw}


def test_a_fired_contingency_sends_its_action_or_writes_its_question() -> None:
    fired = {"id": "builtin:modal", "trigger": "modal"}
    assert route_after_contingency(_state(contingency=fired)) == "action_validation"
    asked = StepOutcome("Confirm?", "", "policy", probe=True, confirm={"question": {}})
    assert route_after_contingency(_state(contingency=fired, outcome=asked)) == "finalize"


def test_none_fired_goes_where_the_graph_was_going() -> None:
    assert route_after_contingency(_state(contingency=None, verification=_Verdict(), step_succeeded=False)) == "correction"
    assert route_after_contingency(_state(contingency=None, verification=_Verdict(), step_succeeded=True)) == "replanning"
    assert route_after_contingency(_state(is_new_task=True, contingency=None)) == "complexity_check"
