from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from planning import RefinedAction, RefinementInvalid, validate_refined_action
from planning.refinement import MAX_CHAIN
from verification import PageState

from tests.unit.planning.support import FORM_URL, form_tree


def _answer(action: str, **kwargs: Any) -> RefinedAction:
    fields: dict[str, Any] = {"thought": "Typing the name.", "confidence": 0.9, "step_done": True, **kwargs}
    return RefinedAction(action=action, **fields)


def _page(extra: list[dict[str, Any]] | None = None) -> PageState:
    return PageState.from_v3(form_tree() + (extra or []), url=FORM_URL, title="New patient")


def test_a_valid_action_is_canonicalised() -> None:
    result = validate_refined_action(_answer("setValue(10, 'Jas')", element_id="10"), _page())
    assert result.text == 'setValue("10", "Jas")'
    assert result.element_id == "10"
    assert result.step_done and result.confidence == 0.9
    assert result.warnings == () and result.chain == ()


@pytest.mark.parametrize("action", ["goBack()", "wait(1)", "finish()", 'fail("no form")', 'googleSearch("clinic hours")', 'scroll("down")', 'press("Enter")'])
def test_actions_without_elements_pass(action: str) -> None:
    assert validate_refined_action(_answer(action), _page()).element_id is None


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ('teleport("10")', "not in the action grammar"),
        ("click(99)", "not on the page"),
        ('setValue("10")', "not in the action grammar"),
        ('navigate("javascript:alert(1)")', "http"),
        ('navigate("file:///etc/passwd")', "http"),
    ],
)
def test_invalid_actions_are_rejected(action: str, message: str) -> None:
    with pytest.raises(RefinementInvalid, match=message):
        validate_refined_action(_answer(action), _page())


def test_hidden_covered_and_disabled_targets_are_rejected() -> None:
    page = _page(
        [
            {"i": "20", "r": "btn", "n": "Ghost", "s": "hidden"},
            {"i": "21", "r": "btn", "n": "Behind modal", "occ": True},
            {"i": "22", "r": "btn", "n": "Off", "s": "disabled"},
        ]
    )
    for element_id, word in (("20", "hidden"), ("21", "covered"), ("22", "disabled")):
        with pytest.raises(RefinementInvalid, match=word):
            validate_refined_action(_answer(f"click({element_id})"), page)
    assert validate_refined_action(_answer("scroll(21)"), page).element_id == "21"
    assert validate_refined_action(_answer("hover(22)"), page).element_id == "22"


def test_http_navigation_is_allowed() -> None:
    assert validate_refined_action(_answer('navigate("https://clinic.example.com/x")'), _page()).text.startswith("navigate(")


def test_element_id_mismatch_is_a_warning_and_the_action_wins() -> None:
    result = validate_refined_action(_answer("click(14)", element_id="15"), _page())
    assert result.element_id == "14"
    assert any("differs" in w for w in result.warnings)


def test_setvalue_on_a_button_and_unknown_option_warn() -> None:
    page = PageState.from_v3(
        [{"i": "1", "r": "btn", "n": "Save"}, {"i": "2", "r": "sel", "n": "Gender"}], url=FORM_URL
    )
    assert validate_refined_action(_answer('setValue("1", "x")'), page).warnings == ("setValue() on a button",)


def test_safe_chain_is_kept() -> None:
    answer = _answer(
        'setValue("10", "Jas")',
        chain=[
            {"action": 'setValue("11", "01/01/1990")', "description": "Type DOB"},
            {"action": 'select("12", "Female")', "description": "Choose gender"},
            {"action": 'click("13")', "description": "Tick reminders"},
        ],
    )
    result = validate_refined_action(answer, _page())
    assert [c.text for c in result.chain] == ['setValue("11", "01/01/1990")', 'select("12", "Female")', 'click("13")']
    assert result.chain[0].description == "Type DOB"


def test_chain_is_cut_at_the_first_unsafe_action() -> None:
    answer = _answer(
        'setValue("10", "Jas")',
        chain=[
            {"action": 'setValue("11", "01/01/1990")', "description": "Type DOB"},
            {"action": 'click("14")', "description": "Save"},  # a button: may submit
            {"action": 'click("13")', "description": "Tick reminders"},
        ],
    )
    result = validate_refined_action(answer, _page())
    assert [c.text for c in result.chain] == ['setValue("11", "01/01/1990")']
    assert any("chain cut" in w for w in result.warnings)


@pytest.mark.parametrize(
    "item",
    ['navigate("https://x.example")', "click(99)", 'setValue("10", "again")', "not an action", "finish()"],
)
def test_unsafe_chain_items(item: str) -> None:
    answer = _answer('setValue("10", "Jas")', chain=[{"action": item, "description": "x"}])
    assert validate_refined_action(answer, _page()).chain == ()


def test_chain_cannot_follow_a_page_changing_action() -> None:
    answer = _answer('click("14")', chain=[{"action": 'setValue("11", "x")', "description": "x"}])
    result = validate_refined_action(answer, _page())
    assert result.chain == ()
    assert any("cannot follow click()" in w for w in result.warnings)


def test_missing_info_flags_user_input() -> None:
    result = validate_refined_action(_answer("wait(1)", missing_info=["  middle   name "]), _page())
    assert result.needs_user_input
    assert result.missing_info == ("middle name",)


def test_schema_bounds() -> None:
    with pytest.raises(ValidationError):
        _answer("wait(1)", confidence=1.5)
    with pytest.raises(ValidationError):
        _answer("wait(1)", chain=[{"action": "wait(1)", "description": "x"}] * (MAX_CHAIN + 1))
    with pytest.raises(ValidationError):
        RefinedAction.model_validate({"thought": "t", "action": "wait(1)", "confidence": 0.5, "step_done": False, "done": True})
