"""The value an ``<input>`` takes, from the spelling the policy sent.

``setValue`` carries a value as a goal spells it ("9:37 PM", "Dec 2, 2016", "1,200"); an
``<input type=time>`` only takes "21:37", a date input "2016-12-02", a slider a number on
its steps. :func:`shaped` turns the one into the other with the readings the goal contract
proves with (:mod:`verification.contract.values`), so what is typed is what is checked — and
refuses, with an :class:`ActionError` that says why, a value the input cannot take rather
than typing something else. Case is never changed: the policy decides the value.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Final

from client.errors import ActionError
from verification.contract.values import (
    date_readings,
    parse_date,
    parse_datetime,
    parse_month,
    parse_number,
    parse_time,
)

# Input types Playwright's ``fill`` sets as a value (with input and change events) rather than types.
SET_AS_VALUE: Final[frozenset[str]] = frozenset({"color", "date", "time", "datetime-local", "month", "range", "week"})


def shaped(input_type: str, text: str, *, low: str = "", high: str = "", step: str = "") -> str:
    """What to put into an input of ``input_type`` for ``text``. ``low``/``high``/``step``
    are the input's ``min``/``max``/``step`` attributes (a range's bounds are checked)."""
    match input_type:
        case "time":
            clock = parse_time(text)
            if clock is None:
                raise ActionError(f"setValue: {text!r} is not a time of day (a time field takes e.g. 21:37 or 9:37 PM)")
            return clock.strftime("%H:%M:%S" if clock.second else "%H:%M")
        case "date":
            return _date(text).isoformat()
        case "datetime-local":
            moment = parse_datetime(text)
            if moment is None:
                raise ActionError(f"setValue: {text!r} is not one date and time (write e.g. 2016-12-02 21:37)")
            return moment.strftime("%Y-%m-%dT%H:%M:%S" if moment.second else "%Y-%m-%dT%H:%M")
        case "month":
            month = parse_month(text)
            if month is None:
                raise ActionError(f"setValue: {text!r} is not a month of a year (write e.g. 2016-12 or December 2016)")
            return f"{month[0]:04d}-{month[1]:02d}"
        case "number":
            return _plain(_number(text, "a number field"))
        case "range":
            return _plain(_on_slider(_number(text, "a slider"), text, low, high, step))
    return text


def same_value(input_type: str, wanted: str, held: str) -> bool:
    """Did the input keep what was put into it? (A slider may write 50 for 50.0.)"""
    if input_type == "range":
        return _decimal(wanted) == _decimal(held)
    return wanted == held


def _date(text: str) -> date:
    day = parse_date(text)
    if day is not None:
        return day
    readings = date_readings(text)
    if len(readings) > 1:
        spelled = " or ".join(f"{d.day} {d:%B %Y}" for d in readings)
        raise ActionError(
            f"setValue: {text!r} could be {spelled}; write the date unambiguously (e.g. {readings[0].isoformat()})"
        )
    raise ActionError(f"setValue: {text!r} is not a date (a date field takes e.g. 2016-12-02 or Dec 2, 2016)")


def _number(text: str, what: str) -> Decimal:
    number = parse_number(text)
    if number is None:
        raise ActionError(f"setValue: {text!r} is not a number, and {what} takes only numbers")
    return number


def _on_slider(number: Decimal, text: str, low: str, high: str, step: str) -> Decimal:
    """A user's drag cannot leave a slider's range or land between its steps; the browser
    would silently clamp or round such a value, so it is refused instead."""
    bottom, top = _decimal(low), _decimal(high)
    bottom = Decimal(0) if bottom is None else bottom
    top = Decimal(100) if top is None else top
    if not bottom <= number <= top:
        raise ActionError(f"setValue: the slider goes from {_plain(bottom)} to {_plain(top)}; {text!r} is outside it")
    if step.strip().lower() == "any":
        return number
    size = _decimal(step) or Decimal(1)
    if size > 0 and (number - bottom) % size != 0:
        raise ActionError(
            f"setValue: the slider moves in steps of {_plain(size)} from {_plain(bottom)}; {text!r} is not on a step"
        )
    return number


def _decimal(text: str) -> Decimal | None:
    try:
        return Decimal(text.strip()) if text.strip() else None
    except InvalidOperation:
        return None


def _plain(number: Decimal) -> str:
    """12, 0.5, -3.25 — never 1.2E+1 or 12.0."""
    text = format(number.normalize(), "f")
    return "0" if text in ("-0", "") else text
