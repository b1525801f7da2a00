from __future__ import annotations

import pytest

from agent.policy import parse_goal


@pytest.mark.parametrize(
    ("goal", "intent", "target", "role"),
    [
        ("Click the Save button", "click", "save", "button"),
        ("click Logout", "click", "logout", None),
        ("Tap on the Patients link", "click", "patients", "link"),
        ("press the Submit button", "click", "submit", "button"),
        ("Hover over Settings", "hover", "settings", None),
        ("check the Remember me checkbox", "check", "remember me", "checkbox"),
        ("uncheck Subscribe", "uncheck", "subscribe", None),
    ],
)
def test_single_actions_are_recognised(goal: str, intent: str, target: str, role: str | None) -> None:
    parsed = parse_goal(goal)
    assert parsed.intent == intent
    assert parsed.target is not None
    assert parsed.target.text == target
    assert parsed.target.role == role
    assert parsed.is_single_action


def test_typed_value_keeps_the_users_spelling() -> None:
    parsed = parse_goal('Type "Jas Éclair" into the Name field')
    assert parsed.intent == "type"
    assert parsed.value == "Jas Éclair"
    assert parsed.target is not None and parsed.target.text == "name"
    assert parsed.target.role == "textbox"


def test_select_option_from_dropdown() -> None:
    parsed = parse_goal("Select 'Red' from the Colour dropdown")
    assert (parsed.intent, parsed.value) == ("select", "Red")
    assert parsed.target is not None and parsed.target.role == "combobox"


def test_ordinal_reference() -> None:
    parsed = parse_goal("click the 2nd Edit button")
    assert parsed.target is not None
    assert (parsed.target.text, parsed.target.ordinal) == ("edit", 2)


def test_navigation_keeps_the_url_exactly() -> None:
    parsed = parse_goal("Go to https://Example.com/Path?q=1")
    assert parsed.intent == "navigate"
    assert parsed.url == "https://Example.com/Path?q=1"


@pytest.mark.parametrize(
    "goal",
    [
        'Add a new patient named "Jas"',
        "click Patients then click New",
        'type "a" into Name and type "b" into Email',
        "Log in as admin",
        "fill out the registration form",
    ],
)
def test_multi_step_goals_are_not_single_actions(goal: str) -> None:
    parsed = parse_goal(goal)
    assert not parsed.is_single_action
    assert parsed.multi_step_reasons


def test_unreadable_goal_is_unknown_not_guessed() -> None:
    assert parse_goal("what is the weather like").intent == "unknown"
