from __future__ import annotations

import pytest

from tests.unit.verification.support import (
    ScriptedModel,
    before_of,
    element,
    page_from_html,
    page_of,
    v3_page,
    verdict,
)
from verification import (
    ExpectedOutcome,
    NextGoal,
    PageMessage,
    check_next_goal,
    verify_action_with_observations,
)

FORM = (
    '<form id="f"><input id="first" placeholder="First name"><button id="submit" type="submit">Submit</button>'
    '<button type="button" disabled>Reset</button><a href="/help" id="help">Help</a></form>'
    '<div style="display:none"><button id="ghost">Delete</button></div><p>Step 2 of 3</p>'
)


@pytest.fixture(scope="module")
def form_page():
    return page_from_html(FORM)


@pytest.mark.parametrize(
    ("goal", "matched"),
    [
        (NextGoal(description="submit", selector="#submit"), "submit"),
        (NextGoal(description="submit", selector="button[type=submit]"), "submit"),
        (NextGoal(description="submit", selector="button[type='SUBMIT' i]"), "submit"),
        (NextGoal(description="submit", selector="form#f > button[type=submit]"), "submit"),
        (NextGoal(description="help", selector="a[href^='/he']"), "help"),
        (NextGoal(description="name", selector="input[placeholder*=First]"), "first"),
        (NextGoal(description="reset", selector="button:disabled"), "#f button:0"),
        (NextGoal(description="submit", selector="button:contains('Submit')"), "submit"),
        (NextGoal(description="a link", selector="span, a"), "help"),
        (NextGoal(description="submit", text="submit"), "submit"),
        (NextGoal(description="submit", role="button", text="Submit"), "submit"),
        (NextGoal(description="any link", role="link"), "help"),
        (NextGoal(description="submit", selector=".btn-primary", text="Submit"), "submit"),
        (NextGoal(description="submit", selector="button[data-testid=save]"), "submit"),
    ],
)
def test_next_goal_found(form_page, goal: NextGoal, matched: str) -> None:
    check = check_next_goal(goal, form_page)
    assert check.found and check.evaluated and check.matched_element_id == matched


@pytest.mark.parametrize(
    "goal",
    [
        NextGoal(description="delete", selector="#ghost"),  # hidden elements are not available
        NextGoal(description="save", selector="#save"),
        NextGoal(description="save", text="Save patient"),
        NextGoal(description="submit link", role="link", text="Submit"),
        NextGoal(description="checkbox", selector="input[type=checkbox]"),
    ],
)
def test_next_goal_missing(form_page, goal: NextGoal) -> None:
    check = check_next_goal(goal, form_page)
    assert not check.found and check.evaluated and check.matched_element_id is None
    assert check.detail.startswith("no visible element matches")


def test_text_only_goal_can_be_found_in_page_text(form_page) -> None:
    check = check_next_goal(NextGoal(description="wizard", text="step 2 of 3"), form_page)
    assert (
        check.found
        and check.matched_element_id is None
        and check.detail == "text 'step 2 of 3' is on the page"
    )


def test_messages_count_as_page_text() -> None:
    page = page_of(element("1", name="OK"), messages=(PageMessage("success", "Patient saved"),))
    assert check_next_goal(NextGoal(description="toast", text="patient saved"), page).found


def test_occluded_elements_are_not_available() -> None:
    page = v3_page({"i": "9", "r": "btn", "n": "Submit", "occ": True})
    assert not check_next_goal(NextGoal(description="submit", text="Submit"), page).found


def test_tag_selectors_work_on_v3_pages_through_roles() -> None:
    page = v3_page({"i": "9", "r": "btn", "n": "Submit"}, {"i": "10", "r": "sel", "n": "Colour"})
    assert (
        check_next_goal(NextGoal(description="b", selector="button"), page).matched_element_id
        == "9"
    )
    assert (
        check_next_goal(NextGoal(description="s", selector="select"), page).matched_element_id
        == "10"
    )
    assert (
        check_next_goal(
            NextGoal(description="id", selector="[data-llm-id='10']"), page
        ).matched_element_id
        == "10"
    )


@pytest.mark.parametrize(
    ("goal", "detail"),
    [
        (NextGoal(description="only prose"), "nothing to check"),
        (NextGoal(description="classes only", selector=".btn.primary"), "cannot check"),
        (NextGoal(description="broken", selector="button[type="), "cannot check"),
    ],
)
def test_goals_that_cannot_be_checked_are_not_misses(
    form_page, goal: NextGoal, detail: str
) -> None:
    check = check_next_goal(goal, form_page)
    assert not check.evaluated and not check.found and detail in check.detail


def test_disabled_matches_say_so(form_page) -> None:
    check = check_next_goal(NextGoal(description="reset", text="Reset"), form_page)
    assert check.found and "(disabled)" in check.detail


def test_next_goal_schema_accepts_the_text_content_alias_and_forbids_extras() -> None:
    goal = NextGoal.model_validate({"description": "d", "textContent": "Submit", "required": True})
    assert goal.text == "Submit" and goal.required
    with pytest.raises(ValueError):
        NextGoal.model_validate({"description": "d", "colour": "red"})
    for name, field in ExpectedOutcome.model_fields.items():
        assert field.description, name
    for name, field in NextGoal.model_fields.items():
        assert field.description, name


# ------------------------------------------------------------ in the engine


async def _verify_with(next_goal: NextGoal, after_body: str):
    before = before_of(page_from_html('<button id="next" type="button">Next</button>'))
    after = page_from_html(after_body)
    model = ScriptedModel([verdict(True, False, 0.95)])
    expected = ExpectedOutcome(description="step 2 shows", next_goal=next_goal)
    return await verify_action_with_observations(
        before=before,
        after=after,
        action='click("next")',
        goal="Register",
        model=model,
        expected_outcome=expected,
    )


async def test_missing_required_next_goal_caps_confidence_and_fails_the_step() -> None:
    goal = NextGoal(
        description="Submit button should be visible", selector="button[type=submit]", required=True
    )
    result = await _verify_with(
        goal, '<button id="next" type="button">Next</button><input id="email">'
    )
    assert result.confidence == 0.5 and result.success is False
    assert result.error_category == "next_goal_missing"
    assert result.next_goal_check is not None and not result.next_goal_check.found
    assert any(
        line.startswith("Expected next target not found: Submit button should be visible")
        for line in result.observations
    )
    assert "Required next target missing: Submit button should be visible" in result.reason


async def test_missing_optional_next_goal_is_only_an_observation() -> None:
    goal = NextGoal(
        description="Submit button should be visible",
        selector="button[type=submit]",
        required=False,
    )
    result = await _verify_with(
        goal, '<button id="next" type="button">Next</button><input id="email">'
    )
    assert result.success and result.confidence == 0.95 and result.error_category is None
    assert any(line.startswith("Expected next target not found:") for line in result.observations)


async def test_found_next_goal_is_reported_and_recorded() -> None:
    goal = NextGoal(description="Email field", selector="#email", required=True)
    result = await _verify_with(
        goal, '<button id="next" type="button">Next</button><input id="email">'
    )
    assert result.success and result.confidence == 0.95
    assert any(
        line.startswith("Expected next target is available: Email field")
        for line in result.observations
    )
    assert result.to_record(action='click("next")', goal="Register").next_goal_found is True


async def test_unevaluable_required_goal_does_not_fail_the_step() -> None:
    goal = NextGoal(description="primary button", selector=".btn-primary", required=True)
    result = await _verify_with(
        goal, '<button id="next" type="button">Next</button><input id="email">'
    )
    assert result.success and result.to_record(action="x", goal="y").next_goal_found is None
    assert any(
        line.startswith("Expected next target could not be checked") for line in result.observations
    )
