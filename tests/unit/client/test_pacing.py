"""``wait(s)`` counts from when the previous action finished, not from when the wait arrived."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from client.loop import _Runner
from verification import Action


def paced(text: str, acted_ago: float | None) -> Action | str:
    runner = SimpleNamespace(acted_at=None if acted_ago is None else time.monotonic() - acted_ago)
    return _Runner._paced(runner, text)  # type: ignore[arg-type]


def test_the_time_since_the_last_action_is_part_of_the_wait() -> None:
    action = paced("wait(2)", acted_ago=0.5)
    assert isinstance(action, Action) and action.name == "wait"
    assert action.seconds is not None and 1.4 < action.seconds <= 1.5


def test_a_wait_already_spent_is_not_waited_again() -> None:
    action = paced("wait(1)", acted_ago=3.0)
    assert isinstance(action, Action) and action.seconds == 0.0


@pytest.mark.parametrize("text", ['click("4")', 'setValue("2", "x")'])
def test_other_actions_and_a_first_wait_are_untouched(text: str) -> None:
    action = paced(text, acted_ago=1.0)
    assert isinstance(action, Action) and action.name == text.split("(")[0]
    assert paced("wait(2)", acted_ago=None) == Action(name="wait", seconds=2.0)


def test_text_that_is_not_an_action_is_left_for_the_executor_to_refuse() -> None:
    assert paced("explode()", acted_ago=1.0) == "explode()"
