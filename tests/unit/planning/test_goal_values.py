from __future__ import annotations

import pytest

from planning import GoalValue, goal_values, implies_submission


@pytest.mark.parametrize(
    ("goal", "values"),
    [
        ('Add a new patient with name "Jas"', [GoalValue("Jas")]),
        ("Add a new patient with name “Jas”", [GoalValue("Jas")]),
        ("Type 'red shoes' into search", [GoalValue("red shoes")]),
        ("Don't click it, it's fine", []),
        ('name: "Jas"', [GoalValue("Jas", "name")]),
        ("name: Jas, city = Paris", [GoalValue("Jas", "name"), GoalValue("Paris", "city")]),
        (
            "Add patient named Jas Smith, dob: 01/02/1990 and email jas@x.org",
            [GoalValue("Jas Smith", "name"), GoalValue("01/02/1990", "dob"), GoalValue("jas@x.org")],
        ),
        ("set the quantity to 3 then save", [GoalValue("3", "quantity")]),
        ("Go to https://example.com/a?b=1.", [GoalValue("https://example.com/a?b=1")]),
        ("Book for 12/05/2026", [GoalValue("12/05/2026")]),
        ('Enter "Jas" and "jas"', [GoalValue("Jas")]),
        ("Open the settings", []),
    ],
)
def test_goal_values(goal: str, values: list[GoalValue]) -> None:
    assert goal_values(goal) == values


@pytest.mark.parametrize(
    ("goal", "commits"),
    [
        ("Add a new patient", True),
        ("Search for red shoes", True),
        ("Log in as admin", True),
        ("Delete the draft", True),
        ("Open the settings page", False),
        ("Click the Reports tab", False),
        ("Scroll down", False),
    ],
)
def test_implies_submission(goal: str, commits: bool) -> None:
    assert implies_submission(goal) is commits


def test_a_labelled_value_ends_with_its_sentence() -> None:
    from planning.goal_values import goal_values

    values = [v.value for v in goal_values("Company car. Name: Dr Helen Okafor. DOB 22/11/1983. Price: 12.50")]
    assert values == ["Dr Helen Okafor", "22/11/1983", "12.50"]  # a decimal point ends no sentence
