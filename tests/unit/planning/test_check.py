from __future__ import annotations

from typing import get_args

import pytest

from planning import (
    MAX_PLAN_RETRIES,
    ROUTES,
    WEIGHTS,
    PlanCheck,
    StepKind,
    check_plan,
    feedback_block,
    verdict_for,
)
from planning.check import weighted_score
from verification import ACTION_NAMES, PageState

from tests.unit.planning.support import FORM_URL, form_page, good_patient_plan, list_page, plan_of, step

GOAL = 'Add a new patient with name "Jas"'


def _check(plan_steps: list, goal: str = GOAL, page: PageState | None = None, **kwargs: object) -> PlanCheck:
    return check_plan(plan_of(*plan_steps, goal=goal), goal, page or list_page(), **kwargs)  # type: ignore[arg-type]


# ---------------------------------------------------------------- verdict and weights


def test_weights_follow_the_spec() -> None:
    assert WEIGHTS == {"completeness": 0.4, "consistency": 0.2, "groundedness": 0.2, "routability": 0.2}
    assert MAX_PLAN_RETRIES == 2


@pytest.mark.parametrize(
    ("score", "retries", "blocking", "verdict"),
    [
        (1.0, 0, False, "PASS"),
        (0.7, 0, False, "PASS"),
        (0.7000000000000001, 0, False, "PASS"),
        (0.6999999999999999, 0, False, "PASS"),  # float noise around 0.7 is 0.7
        (0.69, 0, False, "RETRY"),
        (0.5, 0, False, "RETRY"),
        (0.5, 1, False, "RETRY"),
        (0.49, 0, False, "FAIL"),
        (0.0, 0, False, "FAIL"),
        (0.6, 2, False, "FAIL"),  # retry cap
        (0.9, 2, False, "PASS"),
        (0.9, 0, True, "RETRY"),  # a blocking issue never passes
        (0.9, 2, True, "FAIL"),
        (0.4, 0, True, "FAIL"),
    ],
)
def test_verdict_boundaries(score: float, retries: int, blocking: bool, verdict: str) -> None:
    assert verdict_for(score, retries, blocking=blocking) == verdict


def test_weighted_score_exact_boundaries() -> None:
    assert weighted_score({"completeness": 0.25, "consistency": 1, "groundedness": 1, "routability": 1}) == 0.7
    assert weighted_score({"completeness": 0.0, "consistency": 0.5, "groundedness": 1, "routability": 1}) == 0.5


# ---------------------------------------------------------------- whole plans


def test_a_good_plan_passes_with_full_marks() -> None:
    check = check_plan(good_patient_plan(), GOAL, list_page())
    assert check.scores == {"completeness": 1.0, "consistency": 1.0, "groundedness": 1.0, "routability": 1.0}
    assert check.score == 1.0 and check.verdict == "PASS" and check.passed
    assert check.feedback == [] and check.blocking == []


def test_score_exactly_at_pass_threshold_passes() -> None:
    goal = "Register a patient"
    steps = [
        step(0, "open", "Billing"),  # not on the page: groundedness 0.5
        step(1, "fill", "Name", "Zed"),  # four invented values: consistency 0
        step(2, "fill", "Date of birth", "1999-01-01"),
        step(3, "fill", "Email", "zed@example.org"),
        step(4, "fill", "Phone", "555-0100"),
        step(5, "submit", "Save"),
    ]
    check = _check(steps, goal=goal)
    assert check.scores == {"completeness": 1.0, "consistency": 0.0, "groundedness": 0.5, "routability": 1.0}
    assert check.score == 0.7 and check.verdict == "PASS"
    worse = _check([*steps[:5], step(5, "other", "Save"), step(6, "submit", "Save")], goal=goal)
    assert worse.score < 0.7 and worse.verdict == "RETRY"


def test_retry_cap_turns_retry_into_fail() -> None:
    steps = [step(0, "open", "New patient"), step(1, "submit", "Save")]  # "Jas" unused
    assert _check(steps).verdict == "RETRY"
    assert _check(steps, retries_used=1).verdict == "RETRY"
    capped = _check(steps, retries_used=MAX_PLAN_RETRIES)
    assert capped.verdict == "FAIL" and capped.retries_used == MAX_PLAN_RETRIES


# ---------------------------------------------------------------- completeness


def test_missing_goal_value_is_blocking() -> None:
    check = _check([step(0, "open", "New patient"), step(1, "submit", "Save")])
    assert check.scores["completeness"] == 0.0
    assert check.score == 0.6 and check.verdict == "RETRY"
    assert check.blocking == ['The goal gives the value "Jas", but no step uses it.']


def test_partial_coverage_scores_the_fraction() -> None:
    goal = 'Add patient name: "Jas", email: jas@example.org'
    steps = [step(0, "open", "New patient"), step(1, "fill", "Name", "Jas"), step(2, "submit", "Save")]
    check = _check(steps, goal=goal)
    assert check.scores["completeness"] == 0.5
    assert "jas@example.org" in check.blocking[0]


def test_missing_commit_step_halves_completeness_and_blocks() -> None:
    check = _check([step(0, "open", "New patient"), step(1, "fill", "Name", "Jas")])
    assert check.scores["completeness"] == 0.5
    assert check.score == 0.8 and check.verdict == "RETRY"
    assert "does not end" in check.blocking[0]


def test_goals_that_commit_nothing_need_no_commit_step() -> None:
    check = _check([step(0, "click", "Settings")], goal="Open the Settings page")
    assert check.scores["completeness"] == 1.0 and check.verdict == "PASS"


@pytest.mark.parametrize("last", ["click", "press", "submit"])
def test_any_commit_kind_ends_a_plan(last: str) -> None:
    steps = [step(0, "fill", "Search patients", "Jas"), step(1, last, "Search patients" if last != "press" else None, "Enter" if last == "press" else None)]
    assert _check(steps, goal='Search for "Jas"').scores["completeness"] == 1.0


def test_value_used_as_a_target_counts() -> None:
    check = _check([step(0, "click", "Ada Lovelace")], goal="Open the record 'Ada Lovelace'")
    assert check.scores["completeness"] == 1.0


@pytest.mark.parametrize(
    ("goal", "typed"),
    [
        ("Add patient Jas, born 3/3/27", "03/03/2027"),  # a short year
        ("Add patient Jas, born 1 Dec 2026", "01/12/2026"),  # either reading of day and month
        ("Add patient Jas, born January 22nd", "01/22/2027"),  # the page gives the year
        ("Add patient Jas with a deposit of £850", "850"),
    ],
)
def test_the_goals_date_or_amount_as_the_field_takes_it_is_the_goals_value(goal: str, typed: str) -> None:
    steps = [step(0, "open", "New patient"), step(1, "fill", "Name", "Jas"), step(2, "fill", "Date of birth", typed), step(3, "submit", "Save")]
    check = _check(steps, goal=goal)
    assert check.scores["completeness"] == 1.0 and check.scores["consistency"] == 1.0, check.feedback


def test_another_date_is_not_the_goals() -> None:
    steps = [step(0, "open", "New patient"), step(1, "fill", "Name", "Jas"), step(2, "fill", "Date of birth", "03/04/2027"), step(3, "submit", "Save")]
    check = _check(steps, goal="Add patient Jas, born 3/3/27")
    assert check.scores["completeness"] < 1.0 and check.scores["consistency"] < 1.0
    steps[2] = step(2, "fill", "Date of birth", "01/12/2026")
    assert _check(steps, goal="Add 1 patient named Jas").scores["consistency"] < 1.0  # a number is no date's day


# ---------------------------------------------------------------- consistency


def test_invented_value_costs_consistency() -> None:
    steps = [step(0, "open", "New patient"), step(1, "fill", "Name", "Jas"), step(2, "fill", "Date of birth", "01/01/1990"), step(3, "submit", "Save")]
    check = _check(steps)
    assert check.scores["consistency"] == 0.75
    assert any('"01/01/1990"' in f and "does not give" in f for f in check.feedback)


def test_value_from_a_known_source_is_fine() -> None:
    steps = [step(0, "open", "New patient"), step(1, "fill", "Name", "Jas"), step(2, "fill", "Date of birth", "01/01/1990"), step(3, "submit", "Save")]
    check = _check(steps, known_sources=["The user said: born 01/01/1990"])
    assert check.scores["consistency"] == 1.0


def test_respelt_value_is_a_minor_issue_for_fills_only() -> None:
    goal = "Add a new patient named jas smith"
    fill = _check([step(0, "open", "New patient"), step(1, "fill", "Name", "Jas Smith"), step(2, "submit", "Save")], goal=goal)
    assert fill.scores["consistency"] == 0.9
    select = _check(
        [step(0, "open", "New patient"), step(1, "select", "Gender", "Female"), step(2, "submit", "Save")],
        goal="Add a new patient, gender female",
    )
    assert select.scores["consistency"] == 1.0


def test_consecutive_duplicate_steps() -> None:
    steps = [step(0, "open", "New patient"), step(1, "open", "New patient"), step(2, "fill", "Name", "Jas"), step(3, "submit", "Save")]
    check = _check(steps)
    assert check.scores["consistency"] == 0.75
    assert "Step 1 repeats step 0." in check.feedback


def test_wizard_next_clicks_with_different_descriptions_are_not_duplicates() -> None:
    steps = [
        step(0, "click", "New patient", description="Open the wizard"),
        step(1, "click", "Next", description="Go to page 2"),
        step(2, "click", "Next", description="Go to page 3"),
    ]
    assert _check(steps, goal="Walk through the patient wizard").scores["consistency"] == 1.0


def test_contradictory_fills_and_toggles() -> None:
    steps = [
        step(0, "open", "New patient"),
        step(1, "fill", "Name", "Jas"),
        step(2, "check", "Send reminders"),
        step(3, "fill", "name", "Jas"),
        step(4, "uncheck", "Send reminders"),
        step(5, "submit", "Save"),
    ]
    check = _check(steps)
    assert check.scores["consistency"] == 0.5
    assert any("again with the same value" in f for f in check.feedback)
    assert any("undoes step 2" in f for f in check.feedback)
    different = _check([step(0, "fill", "Name", "Jas"), step(1, "fill", "Name", "Bob"), step(2, "submit", "Save")], goal='name "Jas" or "Bob"', page=form_page())
    assert any("different values" in f for f in different.feedback)


def test_non_contiguous_indexes() -> None:
    steps = [step(0, "open", "New patient"), step(2, "fill", "Name", "Jas"), step(3, "submit", "Save")]
    check = _check(steps)
    assert check.scores["consistency"] == 0.75
    assert any("indexes" in f for f in check.feedback)


# ---------------------------------------------------------------- groundedness


def test_first_step_must_be_on_the_current_page() -> None:
    check = _check([step(0, "fill", "Name", "Jas"), step(1, "submit", "Save")])  # on the list page
    assert check.scores["groundedness"] == 0.0  # first 0; later: not on the page and a fill changes nothing
    assert any("not on the current page" in f for f in check.feedback)
    assert any("no earlier step changes the page" in f for f in check.feedback)


def test_later_steps_may_live_on_the_next_page() -> None:
    check = check_plan(good_patient_plan(), GOAL, list_page())
    assert check.scores["groundedness"] == 1.0


def test_first_todo_step_is_the_one_grounded_on_the_page() -> None:
    plan = good_patient_plan()
    plan.steps[0].status = "completed"
    plan.current_step_index = 1
    assert check_plan(plan, GOAL, form_page()).scores["groundedness"] == 1.0
    assert check_plan(plan, GOAL, list_page()).scores["groundedness"] == 0.0


def test_grounded_first_step_and_an_unreachable_later_step_score_half() -> None:
    steps = [step(0, "fill", "Name", "Jas"), step(1, "fill", "Billing code", "Jas"), step(2, "submit", "Save")]
    check = _check(steps, page=form_page())
    assert check.scores["groundedness"] == 0.75  # first 1; later: Billing code unreachable, Save on the page
    assert any('"Billing code"' in f for f in check.feedback)


def test_single_ungrounded_step_scores_zero() -> None:
    assert _check([step(0, "click", "Billing")], goal="Open billing").scores["groundedness"] == 0.0


def test_labels_match_loosely() -> None:
    for target in ("the New Patient button", "new patient", "New patient form", "New pateint"):
        assert _check([step(0, "click", target)], goal="Open the form").scores["groundedness"] == 1.0, target


def test_urls_and_page_level_steps_are_grounded() -> None:
    assert _check([step(0, "navigate", None, "https://clinic.example.com/x")], goal="Go there").scores["groundedness"] == 1.0
    assert _check([step(0, "find", None)], goal="Look around").scores["groundedness"] == 1.0
    assert _check([step(0, "press", None, "Enter")], goal="Press enter").scores["groundedness"] == 1.0


def test_later_step_without_target_is_ungrounded() -> None:
    check = _check([step(0, "open", "New patient"), step(1, "fill", None, "Jas"), step(2, "submit", "Save")])
    assert check.scores["groundedness"] == 0.75
    assert any("names no element" in f for f in check.feedback)


# ---------------------------------------------------------------- routability


def test_every_kind_routes_to_grammar_actions() -> None:
    assert set(ROUTES) == set(get_args(StepKind))
    assert all(name in ACTION_NAMES for names in ROUTES.values() for name in names)
    assert ROUTES["other"] == ()


@pytest.mark.parametrize(
    ("bad", "words"),
    [
        (step(1, "other", "Name"), "kind 'other'"),
        (step(1, "fill", "Name"), "no value to type"),
        (step(1, "select", "Gender"), "no value to choose"),
        (step(1, "press", "Name"), "names no key"),
        (step(1, "navigate", None, "the patients page"), "no URL"),
        (step(1, "click", None), "names no element"),
    ],
)
def test_unroutable_steps(bad, words: str) -> None:  # type: ignore[no-untyped-def]
    check = _check([step(0, "open", "New patient"), bad, step(2, "fill", "Name", "Jas"), step(3, "submit", "Save")])
    assert check.scores["routability"] == 0.75
    assert any(words in f for f in check.feedback)


def test_empty_plan_scores_nothing_routable() -> None:
    check = check_plan(plan_of(), GOAL, list_page())
    assert check.scores["routability"] == 0.0
    assert check.verdict != "PASS"


# ---------------------------------------------------------------- feedback block


def test_feedback_block_for_the_retry_prompt() -> None:
    check = _check([step(0, "open", "New patient"), step(1, "submit", "Save")])
    name, lines = feedback_block(check)
    assert name == "plan_check_feedback"
    assert isinstance(lines, list)
    assert lines[0].startswith("Your previous plan scored 0.60 (completeness 0.00")
    assert 'The goal gives the value "Jas", but no step uses it.' in lines
    assert not any("last attempt" in line for line in lines)
    _, last = feedback_block(_check([step(0, "open", "New patient"), step(1, "submit", "Save")], retries_used=1))
    assert "last attempt" in last[-1]


def test_feedback_block_never_empty() -> None:
    check = PlanCheck(score=0.6, verdict="RETRY", scores=dict.fromkeys(WEIGHTS, 0.6), feedback=[])
    _, lines = feedback_block(check)
    assert len(lines) == 2


def test_page_form_url_is_only_for_fixtures() -> None:
    assert form_page().url == FORM_URL


def test_a_long_form_over_pages_the_same_label_twice_and_a_name_in_parts_pass() -> None:
    goal = "Resident permit, company car. Name: Dr Helen Okafor. DOB 22/11/1983. Permit from 1/1/2027."
    plan = [
        step(0, "click", "New patient"),
        step(1, "fill", "First name", "Helen"),
        step(2, "fill", "Last name", "Okafor"),
        step(3, "fill", "Day", "22"),
        step(4, "fill", "Year", "1983"),
        step(5, "submit", "Continue"),
        step(6, "fill", "Day", "1"),  # another page's "Day": not the same field
        step(7, "fill", "Year", "2027"),
        step(8, "submit", "Continue"),
    ]
    check = _check(plan, goal)
    assert check.scores["completeness"] == 1.0 and check.verdict == "PASS", check.feedback
    assert not any("different values" in line for line in check.feedback)
    same_page = _check([step(0, "fill", "Day", "22"), step(1, "fill", "Day", "1"), step(2, "submit", "Continue")], "Day 22")
    assert any("different values" in line for line in same_page.feedback)
