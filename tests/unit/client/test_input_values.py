"""The value an input takes, from the policy's spelling — or a clear refusal."""

from __future__ import annotations

import pytest

from client.errors import ActionError
from client.input_values import same_value, shaped


@pytest.mark.parametrize(
    ("input_type", "text", "value"),
    [
        ("time", "9:37 PM", "21:37"), ("time", "9:37pm", "21:37"), ("time", "21:37", "21:37"),
        ("time", "12:05 AM", "00:05"), ("time", "21:37:05", "21:37:05"), ("time", "21:37:00", "21:37"),
        ("date", "2016-12-02", "2016-12-02"), ("date", "12/02/2016", "2016-12-02"), ("date", "Dec 2, 2016", "2016-12-02"),
        ("date", "December 2, 2016", "2016-12-02"), ("date", "13.12.2016", "2016-12-13"), ("date", "23/04/1999", "1999-04-23"),
        ("datetime-local", "2016-12-02 9:37 PM", "2016-12-02T21:37"), ("datetime-local", "2016-12-02T21:37", "2016-12-02T21:37"),
        ("month", "December 2016", "2016-12"), ("month", "12/2016", "2016-12"),
        ("number", "42", "42"), ("number", "1,200", "1200"), ("number", "-3.50", "-3.5"), ("number", "$5", "5"),
        ("range", "35", "35"), ("range", "50.0", "50"),
        ("text", "9:37 PM", "9:37 PM"), ("email", "Jas@Example.org", "Jas@Example.org"), ("", "Anything", "Anything"),
    ],
)  # fmt: skip
def test_the_value_is_shaped_for_the_input_type(input_type: str, text: str, value: str) -> None:
    assert shaped(input_type, text, low="10", high="50", step="5") == value


@pytest.mark.parametrize(
    ("input_type", "text", "why"),
    [
        ("time", "after lunch", "not a time of day"),
        ("time", "13:00 PM", "not a time of day"),
        ("date", "02.12.2016", "could be 12 February 2016 or 2 December 2016"),
        ("date", "2016-02-30", "not a date"),
        ("datetime-local", "2016-12-02", "not one date and time"),
        ("month", "Smarch 2016", "not a month"),
        ("number", "four", "not a number"),
        ("range", "60", "goes from 10 to 50"),
        ("range", "33", "steps of 5 from 10"),
    ],
)
def test_a_value_the_input_cannot_take_is_refused(input_type: str, text: str, why: str) -> None:
    with pytest.raises(ActionError, match=why) as caught:
        shaped(input_type, text, low="10", high="50", step="5")
    assert caught.value.code == "NOT_ACTIONABLE"


def test_a_slider_without_bounds_is_0_to_100_in_steps_of_1_unless_any() -> None:
    assert shaped("range", "100", low="", high="", step="") == "100"
    with pytest.raises(ActionError, match="steps of 1"):
        shaped("range", "2.5")
    assert shaped("range", "2.5", step="any") == "2.5"
    assert shaped("range", "0.3", low="0", high="1", step="0.1") == "0.3"


def test_what_the_input_kept_is_compared_as_its_type() -> None:
    assert same_value("range", "50", "50.0")
    assert not same_value("range", "50", "45")
    assert same_value("time", "21:37", "21:37")
    assert not same_value("date", "2016-12-02", "")
