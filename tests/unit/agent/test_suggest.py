"""Autocomplete fields: goals in several phrasings → a suggest step and clauses on the field's
value; the suggestion chosen on pages of several layouts (the one that fits, the first only
when any will do, never a guess, never a hidden decoy, nothing when none fits); and the
moves of the step (type, wait for late suggestions, click, done by the field's value)."""

from __future__ import annotations

from typing import Any

import pytest

from agent.policy import refine_step, understand
from agent.policy.suggestions import choose, fits, suggestions
from planning import Plan, PlanStep, SuggestionPick
from verification import ElementRef, PageState, check_contract, start_contract


def _read(goal: str) -> tuple[PlanStep, list[tuple[str, str, str]], tuple[str, ...]]:
    reading = understand(goal)
    step = reading.plan.steps[0]
    clauses = [(c.kind, c.value or "", c.match) for c in reading.contract.clauses if c.kind == "field_value"]
    return step, clauses, reading.contract.unaccounted


@pytest.mark.parametrize(
    ("goal", "typed", "pick", "clauses"),
    [
        (
            'Enter an item that starts with "An" and ends with "ica".',
            "An",
            SuggestionPick(starts="An", ends="ica", any=True),
            [("field_value", "An", "starts"), ("field_value", "ica", "ends")],
        ),
        ("Enter an item that starts with Sw", "Sw", SuggestionPick(starts="Sw", any=True), [("field_value", "Sw", "starts")]),
        ("Pick a country starting with 'Ger'", "Ger", SuggestionPick(starts="Ger", any=True), [("field_value", "Ger", "starts")]),
        (
            "Choose the item that begins with Ber and ends in lin from the suggestions",
            "Ber",
            SuggestionPick(starts="Ber", ends="lin"),
            [("field_value", "Ber", "starts"), ("field_value", "lin", "ends")],
        ),
        (
            'Type a city containing "burg" in the City field',
            "burg",
            SuggestionPick(contains="burg", any=True),
            [("field_value", "burg", "contains")],
        ),
        (
            'Type "San" in the City field and choose "San Francisco" from the suggestions',
            "San",
            SuggestionPick(equals="San Francisco"),
            [("field_value", "San Francisco", "casefold")],
        ),
        ('Enter "Par" and select "Paris"', "Par", SuggestionPick(equals="Paris"), [("field_value", "Paris", "casefold")]),
        ('Start typing "San" and pick "San Diego" from the list', "San", SuggestionPick(equals="San Diego"), [("field_value", "San Diego", "casefold")]),
        ("Type Ber into the city box and pick Berlin from the suggestion list", "Ber", SuggestionPick(equals="Berlin"), [("field_value", "Berlin", "casefold")]),
        ('Select "Berlin" from the autocomplete', "Berlin", SuggestionPick(equals="Berlin"), [("field_value", "Berlin", "casefold")]),
    ],
)
def test_autocomplete_phrasings_read_as_one_suggest_step_proven_by_the_field(
    goal: str, typed: str, pick: SuggestionPick, clauses: list[tuple[str, str, str]]
) -> None:
    step, read, missing = _read(goal)
    assert (step.kind, step.value, step.pick) == ("suggest", typed, pick)
    assert read == clauses and missing == ()


def test_a_named_field_or_a_named_kind_of_item_is_the_field() -> None:
    reading = understand('Type "San" in the City field and choose "San Jose" from the suggestions, then press Submit')
    first, submit = reading.contract.clauses
    assert first.target == ElementRef(name="city", role="textbox") and first.before == submit.id
    country = understand("Pick a country starting with Ger").contract.clauses[0]
    assert country.target is not None and country.target.name == "country"
    item = understand('Enter an item that starts with "An"').contract.clauses[0]
    assert item.target == ElementRef(role="textbox")


@pytest.mark.parametrize(
    "goal",
    [
        'Enter "Par" into the name field and select "Oslo"',  # not a completion of what was typed, no suggestions named
        'Type "Par" in the city field and choose "Oslo" from the list',
        "Type Bob into the name field",
    ],
)
def test_typing_and_choosing_that_is_not_an_autocomplete_stays_as_it_was(goal: str) -> None:
    assert all(s.kind != "suggest" for s in understand(goal).plan.steps)


def test_an_item_described_by_more_than_conditions_is_not_read() -> None:
    reading = understand('Enter an item that starts with "An" and sounds like a country')
    assert reading.contract.unaccounted


# ---- the page ------------------------------------------------------------------------------------

FIELD: dict[str, Any] = {"i": "1", "r": "inp", "n": "Tags", "v": "An", "box": [10, 70, 130, 20]}


def _page(*items: str | dict[str, Any], value: str = "An", layout: str = "option") -> PageState:
    nodes: list[dict[str, Any]] = [{**FIELD, "v": value}]
    for index, item in enumerate(items):
        node = item if isinstance(item, dict) else {"n": item}
        nodes.append({"i": f"s{index}", "r": layout, "box": [10, 92 + 22 * index, 130, 22], **node})
    nodes.append({"i": "9", "r": "btn", "n": "Submit", "box": [10, 300, 80, 30]})
    return PageState.from_v3(nodes, url="https://shop.example/tags")


@pytest.mark.parametrize("layout", ["option", "menuitem"])
def test_the_one_suggestion_that_fits_every_condition_is_chosen(layout: str) -> None:
    page = _page("Andorra", "Angola", "Antarctica", "Antigua and Barbuda", layout=layout)
    field = page.element("1")
    assert field is not None
    choice = choose(SuggestionPick(starts="An", ends="ica"), suggestions(field, page))
    assert choice.element is not None and choice.element.name == "Antarctica"


def test_several_fit_the_first_is_taken_only_when_any_will_do() -> None:
    page = _page("Andorra", "Angola", "Antarctica")
    field = page.element("1")
    assert field is not None
    shown = suggestions(field, page)
    assert choose(SuggestionPick(starts="An", any=True), shown).element == shown[0]
    named = choose(SuggestionPick(starts="An"), shown)
    assert named.element is None and "guess" in named.reason


def test_none_fits_is_no_choice_and_says_what_was_shown() -> None:
    page = _page("Andorra", "Angola")
    field = page.element("1")
    assert field is not None
    choice = choose(SuggestionPick(starts="An", ends="ica", any=True), suggestions(field, page))
    assert choice.element is None and "'Angola'" in choice.reason


def test_hidden_covered_and_far_away_items_are_not_suggestions() -> None:
    page = _page(
        {"n": "Anjelica", "s": "hidden"},
        {"n": "Annika", "occ": True},
        {"n": "Antarctica"},
        {"n": "Andromedica", "box": [600, 10, 100, 20]},  # a menu elsewhere on the page
    )
    field = page.element("1")
    assert field is not None
    assert [s.name for s in suggestions(field, page)] == ["Antarctica"]
    choice = choose(SuggestionPick(starts="An", ends="ica"), suggestions(field, page))
    assert choice.element is not None and choice.element.name == "Antarctica"


def test_fits_ignores_case_and_spacing_but_not_the_letters() -> None:
    assert fits(SuggestionPick(starts="an", ends="ICA"), "Antarctica")
    assert fits(SuggestionPick(equals="san  francisco"), "San Francisco")
    assert not fits(SuggestionPick(starts="An", ends="ica"), "Angola")
    assert not fits(SuggestionPick(contains="burg"), None)


# ---- the moves -----------------------------------------------------------------------------------


def _decide(goal: str, page: PageState, attempts: int) -> tuple[str | None, bool, str]:
    reading = understand(goal)
    step = reading.plan.steps[0]
    step.attempts = attempts
    clause = reading.contract.clause(step.clause or "")
    decision = refine_step(step, page, Plan(goal=goal, steps=reading.plan.steps), clause.target if clause else None)
    action = None if decision.action is None else f"{decision.action.name}({decision.action.target or ''}, {decision.action.value or decision.action.seconds or ''})"
    return action, decision.satisfied, decision.reason


GOAL = 'Enter an item that starts with "An" and ends with "ica"'


def test_type_then_wait_for_late_suggestions_then_click_then_done() -> None:
    assert _decide(GOAL, _page(value=""), 0)[0] == "setValue(1, An)"
    assert _decide(GOAL, _page(), 1)[0] == "wait(, 1.5)"  # typed, nothing shown yet
    assert _decide(GOAL, _page("Angola", "Antarctica"), 2)[0] == "click(s1, )"
    action, satisfied, _ = _decide(GOAL, _page(value="Antarctica"), 3)
    assert action is None and satisfied


def test_the_typed_start_alone_is_not_the_item() -> None:
    action, satisfied, _ = _decide('Enter an item that starts with "An"', _page("Angola"), 1)
    assert not satisfied and action == "click(s0, )"


def test_no_fitting_suggestion_fails_with_a_reason_instead_of_typing_more() -> None:
    action, satisfied, reason = _decide(GOAL, _page("Andorra", "Angola"), 6)
    assert action is None and not satisfied and "no suggestion fits" in reason
    action, _, reason = _decide(GOAL, _page(), 6)
    assert action is None and "no suggestion is shown" in reason


def test_a_named_item_shown_twice_is_not_guessed() -> None:
    action, _, reason = _decide('Type "San" in the Tags field and choose "San Jose" from the suggestions', _page("San Jose", "San Jose", value="San"), 1)
    assert action is None and "guess" in reason


def test_the_contract_holds_on_the_field_value_not_on_the_click() -> None:
    reading = understand(GOAL)
    typed = start_contract(reading.contract, _page("Antarctica", value="An"))
    assert not typed.satisfied  # "An" starts with An, but does not end with "ica"
    chosen = check_contract(typed, _page(value="Antarctica"), step=2)
    assert chosen.satisfied
    wrong = check_contract(typed, _page(value="Angola"), step=2)
    assert not wrong.satisfied and any(wrong.result(c.id).status == "failed" for c in wrong.clauses)
