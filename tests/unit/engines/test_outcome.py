from __future__ import annotations

import pytest

from agent.llm import LLMOutputInvalid, ScriptedGateway
from agent.outcome import (
    MENU_SELECTOR,
    classify_action,
    generic_template,
    predict_outcome,
    run_outcome_prediction,
)
from tests.unit.engines.support import el, page
from verification import Action, ExpectedOutcome, NextGoal, PageState, parse_action
from verification.lookahead import find_elements

CLINIC = page()
MENU = PageState.from_v3(
    [
        {"i": "m", "r": "btn", "n": "Account menu", "s": "collapsed"},
        {"i": "b", "r": "btn", "n": "Save"},
        {"i": "a", "r": "a", "n": "Docs"},
        {"i": "c", "r": "sel", "n": "Country"},
    ],
    url="https://app.example.com/",
)


@pytest.mark.parametrize(
    ("action", "state", "kind"),
    [
        ('navigate("https://example.com")', CLINIC, "navigation"),
        ("goBack()", CLINIC, "navigation"),
        ('click("1")', CLINIC, "navigation"),  # link with href
        ('click("a")', MENU, "navigation"),  # V3 link role
        ('click("m")', MENU, "dropdown"),  # aria-expanded known (collapsed)
        ('click("c")', MENU, "dropdown"),  # combobox
        ('click("b")', MENU, "generic"),
        ('click("99")', CLINIC, "generic"),
        ('setValue("3", "Jas")', CLINIC, "generic"),
    ],
)
def test_classify(action: str, state: PageState, kind: str) -> None:
    assert classify_action(action, state) == kind


def test_expanded_state_is_a_dropdown() -> None:
    opened = page(el("x", "button", "More", states=frozenset({"expanded"})))
    assert classify_action('click("x")', opened) == "dropdown"


async def test_navigation_and_dropdown_templates_never_call_the_model() -> None:
    gateway = ScriptedGateway([])  # any call would raise ScriptExhausted
    nav = await run_outcome_prediction(
        'navigate("https://app.example.com/x")', CLINIC, "go", None, gateway
    )
    assert (
        nav.action_type == "navigation"
        and nav.decided_by == "policy"
        and nav.expected.url_should_change is True
    )
    back = await predict_outcome("goBack()", CLINIC, "go back", gateway=gateway)
    assert back.url_should_change is True
    drop = await run_outcome_prediction('click("m")', MENU, "open the account menu", None, gateway)
    assert drop.action_type == "dropdown" and drop.expected.url_should_change is False
    assert drop.expected.elements_to_appear == [MENU_SELECTOR]
    assert gateway.calls == []


def test_menu_selector_is_checkable_by_verification() -> None:
    opened = page(el("o1", "menuitem", "Profile"), el("o2", "button", "Save"))
    assert [e.id for e in find_elements(opened, selector=MENU_SELECTOR)] == ["o1"]


def test_in_page_link_leaves_url_change_unknown() -> None:
    anchors = page(el("t", "link", "Top", href="#top"))
    assert classify_action('click("t")', anchors) == "navigation"


async def test_in_page_link_template() -> None:
    anchors = page(el("t", "link", "Top", href="#top"))
    assert (await predict_outcome('click("t")', anchors, "top")).url_should_change is None


async def test_generic_with_the_model_and_a_look_ahead() -> None:
    gateway = ScriptedGateway(
        [
            {
                "description": "The new patient form opens.",
                "url_should_change": True,
                "elements_to_appear": ["New patient form", " "],
                "success_text": None,
                "next_goal": {
                    "description": "Name field is visible",
                    "selector": None,
                    "text": "Name",
                    "role": "textbox",
                    "required": True,
                },
            }
        ]
    )
    result = await run_outcome_prediction(
        'click("2")', CLINIC, "add patient Jas", "Open the form", gateway
    )
    assert result.decided_by == "model" and result.action_type == "generic"
    assert result.expected.elements_to_appear == ["New patient form"]
    assert result.expected.next_goal == NextGoal(
        description="Name field is visible", text="Name", role="textbox", required=True
    )
    assert gateway.calls_for("OUTCOME_PREDICTION")


async def test_model_failure_falls_back_to_templates() -> None:
    result = await run_outcome_prediction(
        'click("5")', CLINIC, "save", None, ScriptedGateway([LLMOutputInvalid])
    )
    assert result.decided_by == "policy" and "success message" in result.expected.description


@pytest.mark.parametrize(
    ("action", "fragment", "url_change"),
    [
        ('setValue("3", "Jas")', "holds 'Jas'", False),
        ('select("7", "Female")', "'Female' is selected", False),
        ('click("8")', "becomes checked", False),
        ('click("5")', "success message", None),
        ('click("2")', "reacts", None),
        ('press("Enter")', "submitted", None),
        ('scroll("down")', "scrolls down", False),
        ('hover("1")', "tooltip", False),
        ("wait(1)", "loading", None),
        ("finish()", "task ends", False),
    ],
)
def test_generic_templates(action: str, fragment: str, url_change: bool | None) -> None:
    expected = generic_template(parse_action(action), CLINIC)
    assert fragment in expected.description and expected.url_should_change is url_change


async def test_predict_outcome_returns_an_expected_outcome() -> None:
    outcome = await predict_outcome(
        Action(name="setValue", target="3", value="Jas"), CLINIC, "name Jas"
    )
    assert isinstance(outcome, ExpectedOutcome) and outcome.next_goal is None


async def test_wait_and_finish_skip_the_model() -> None:
    gateway = ScriptedGateway([])
    assert (
        await run_outcome_prediction("wait(1)", CLINIC, "g", None, gateway)
    ).decided_by == "policy"
    assert gateway.calls == []
