from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verification import ACTION_NAMES, Action, ActionSyntaxError, format_action, parse_action


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Action("click", target="14"), 'click("14")'),
        (Action("setValue", target="14", value="Jas"), 'setValue("14", "Jas")'),
        (Action("select", target="3", value="Red"), 'select("3", "Red")'),
        (Action("press", target="5", value="Enter"), 'press("5", "Enter")'),
        (Action("press", value="Escape"), 'press("Escape")'),
        (Action("scroll", value="down"), 'scroll("down")'),
        (Action("scroll", target="12"), 'scroll("12")'),
        (Action("scroll", target="12", value="bottom"), 'scroll("12", "bottom")'),
        (Action("scroll"), "scroll()"),
        (Action("hover", target="4"), 'hover("4")'),
        (Action("navigate", value="https://x"), 'navigate("https://x")'),
        (Action("goBack"), "goBack()"),
        (Action("wait", seconds=1.5), "wait(1.5)"),
        (Action("wait", seconds=2.0), "wait(2)"),
        (Action("wait"), "wait()"),
        (Action("finish"), "finish()"),
        (Action("finish", value="Patient added"), 'finish("Patient added")'),
        (Action("fail", value="reason"), 'fail("reason")'),
        (Action("googleSearch", value="q"), 'googleSearch("q")'),
    ],
)
def test_canonical_text_of_every_action(action: Action, text: str) -> None:
    assert format_action(action) == text
    assert parse_action(text) == action


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("click(14)", Action("click", target="14")),
        ("click('14')", Action("click", target="14")),
        ('  click ( "14" )  ', Action("click", target="14")),
        ('click("14");', Action("click", target="14")),
        ("Click(14)", Action("click", target="14")),
        ("setvalue(7, 'O\\'Brien')", Action("setValue", target="7", value="O'Brien")),
        ('setValue("7", "say \\"hi\\"")', Action("setValue", target="7", value='say "hi"')),
        ('setValue("7", "a\\\\b")', Action("setValue", target="7", value="a\\b")),
        ('setValue("7", "line1\\nline2")', Action("setValue", target="7", value="line1\nline2")),
        ('setValue("7", "caf\\u00e9")', Action("setValue", target="7", value="café")),
        ('setValue("7", "\\ud83d\\ude00")', Action("setValue", target="7", value="😀")),
        ('setValue("7", "C:\\Users")', Action("setValue", target="7", value="C:\\Users")),
        ('setValue("7", "")', Action("setValue", target="7", value="")),
        ("press(5, Enter)", Action("press", target="5", value="Enter")),
        ("scroll(down)", Action("scroll", value="down")),
        ("scroll('UP')", Action("scroll", value="up")),
        ("scroll(12)", Action("scroll", target="12")),
        ("wait(0.5)", Action("wait", seconds=0.5)),
        ("wait('3')", Action("wait", seconds=3.0)),
        ("navigate(https://x.com/a?b=c&d=e)", Action("navigate", value="https://x.com/a?b=c&d=e")),
        ('googleSearch("weather, Paris")', Action("googleSearch", value="weather, Paris")),
    ],
)
def test_parser_accepts_what_models_write(text: str, expected: Action) -> None:
    assert parse_action(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected an action name"),
        ("tap(3)", "unknown action 'tap'"),
        ("click 14", "expected '('"),
        ("click(14", "missing closing ')'"),
        ('click("14)', "unterminated string"),
        ("click()", "click takes 1 argument, got 0"),
        ('click("1", "2")', "click takes 1 argument, got 2"),
        ('setValue("14")', "setValue takes 2 arguments, got 1"),
        ('goBack("x")', "goBack takes no arguments, got 1"),
        ('click("14") now', "unexpected text after the action"),
        ("setValue(14, Jas Smith)", "expected ',' or ')'"),
        ("wait(soon)", "wait() needs a number of seconds"),
        ("wait(-1)", "seconds must be a finite number >= 0"),
        ("wait(nan)", "seconds must be a finite number >= 0"),
        ('setValue(, "x")', "expected a quoted string or a bare id"),
        ('setValue("7", "\\u12")', "bad \\u escape"),
    ],
)
def test_syntax_errors_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ActionSyntaxError) as info:
        parse_action(text)
    assert isinstance(info.value, ValueError)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ('scroll("7", "bottom")', Action("scroll", target="7", value="bottom")),
        ("scroll(7, TOP)", Action("scroll", target="7", value="top")),
        ('scroll("notes", "down")', Action("scroll", target="notes", value="down")),
    ],
)
def test_scroll_inside_an_element_takes_its_id_then_a_direction(text: str, action: Action) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize("text", ['scroll("down", "bottom")', 'scroll("7", "sideways")', 'scroll("7", "bottom", "x")'])
def test_scroll_inside_an_element_refuses_a_direction_first_or_an_unknown_one(text: str) -> None:
    with pytest.raises(ActionSyntaxError):
        parse_action(text)


def test_scroll_with_a_non_direction_word_is_an_element_id() -> None:
    assert parse_action('scroll("sideways")') == Action("scroll", target="sideways")


def test_usage_is_part_of_the_argument_count_message() -> None:
    with pytest.raises(ActionSyntaxError, match=r'usage: setValue\("<id>", "<text>"\)'):
        parse_action('setValue("14")')


def test_non_text_input_is_rejected_cleanly() -> None:
    with pytest.raises(ActionSyntaxError, match="must be text"):
        parse_action(14)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"name": "tap", "target": "1"},
        {"name": "click"},
        {"name": "click", "target": ""},
        {"name": "goBack", "target": "1"},
        {"name": "click", "target": "1", "seconds": 1.0},
        {"name": "setValue", "target": "1"},
        {"name": "scroll", "target": "1", "value": "sideways"},
        {"name": "scroll", "target": "Down"},
        {"name": "wait", "seconds": float("inf")},
        {"name": "navigate", "target": "1", "value": "x"},
    ],
)
def test_invalid_actions_cannot_be_built(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        Action(**kwargs)


def test_actions_are_frozen_and_hashable() -> None:
    action = Action("click", target="1")
    with pytest.raises(AttributeError):
        action.target = "2"  # type: ignore[misc]
    assert {action, Action("click", target="1")} == {action}


def test_every_name_of_the_grammar_is_exported() -> None:
    assert set(ACTION_NAMES) == {
        "click",
        "setValue",
        "select",
        "press",
        "scroll",
        "hover",
        "navigate",
        "goBack",
        "wait",
        "finish",
        "fail",
        "googleSearch",
    }


_ids = st.text(min_size=1, max_size=20).filter(
    lambda s: s.lower() not in {"up", "down", "left", "right", "top", "bottom"}
)
_texts = st.text(max_size=40)


@st.composite
def actions(draw: st.DrawFn) -> Action:
    name = draw(st.sampled_from(ACTION_NAMES))
    if name in ("click", "hover"):
        return Action(name, target=draw(_ids))
    if name in ("setValue", "select"):
        return Action(name, target=draw(_ids), value=draw(_texts))
    if name == "press":
        return Action(name, target=draw(st.none() | _ids), value=draw(_texts))
    if name == "scroll":
        choice = draw(st.sampled_from(["none", "id", "direction", "inside"]))
        if choice == "id":
            return Action(name, target=draw(_ids))
        if choice == "inside":
            return Action(name, target=draw(_ids), value=draw(st.sampled_from(["up", "down", "top", "bottom"])))
        if choice == "direction":
            return Action(
                name, value=draw(st.sampled_from(["up", "down", "left", "right", "top", "bottom"]))
            )
        return Action(name)
    if name == "wait":
        seconds = draw(
            st.none() | st.floats(min_value=0, max_value=1e6, allow_nan=False, allow_infinity=False)
        )
        return Action(name, seconds=seconds)
    if name in ("navigate", "googleSearch"):
        return Action(name, value=draw(_texts))
    if name in ("finish", "fail"):
        return Action(name, value=draw(st.none() | _texts))
    return Action(name)


@given(actions())
def test_parse_format_round_trip(action: Action) -> None:
    text = format_action(action)
    assert parse_action(text) == action
    assert format_action(parse_action(text)) == text


@pytest.mark.parametrize(("seconds", "text"), [(2, "wait(2)"), (0, "wait(0)"), (1.5, "wait(1.5)"), (3.0, "wait(3)")])
def test_a_wait_given_whole_seconds_as_an_int_formats_on_the_oldest_supported_python(seconds: float, text: str) -> None:
    # int.is_integer() exists only from Python 3.12; the policy builds waits from ints.
    assert format_action(Action(name="wait", seconds=seconds)) == text
