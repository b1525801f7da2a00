"""Fields that take their value through a widget rather than typing.

A read-only date field is set the way a person sets it: open its calendar, read the month
the calendar shows, move a month at a time towards the wanted one (bounded), click the day.
Every move is decided from the page in front of the policy — nothing is remembered between
requests but the step's attempt count — and the field's value, read on the page, is what
proves the step (the contract's ``field_value`` clause), never the click on a day.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from typing import Final

from agent.policy.lexicon import CALENDAR_NEXT, CALENDAR_PREVIOUS
from verification import Action, PageElement, PageState
from verification.contract import fold, perceivable
from verification.contract.values import parse_date

MAX_MONTHS: Final = 36  # moves through the calendar before the policy gives up
_DAY_ROLES: Final = frozenset({"link", "button", "gridcell", "option"})
_MONTH_NAMES: Final = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december",
)  # fmt: skip
_MONTH_YEAR: Final = re.compile(
    r"(?<![a-z])(" + "|".join(n for name in _MONTH_NAMES for n in (name, name[:3])) + r")\.?,?\s+(\d{4})(?!\d)"
)


@dataclass(frozen=True)
class WidgetMove:
    """The next action towards the value, or why there is none."""

    action: Action | None
    thought: str
    done_after: bool = False  # this action should leave the field holding the value
    reason: str = ""


@dataclass(frozen=True)
class Calendar:
    days: dict[int, list[PageElement]]
    months: tuple[tuple[int, int], ...]  # (year, month) pairs the page names
    previous: PageElement | None
    following: PageElement | None


def wants_calendar(field: PageElement, value: str) -> date | None:
    """The date to pick when ``field`` cannot be typed into (read-only) and ``value`` is a date."""
    if "readonly" not in field.states:
        return None
    return parse_date(value)


def read_calendar(page: PageState) -> Calendar | None:
    """The month grid on the page: day controls named 1…31 (at least 28 of them), the months
    the page text names, and the controls that move it."""
    days: dict[int, list[PageElement]] = {}
    for element in page.elements:
        name = element.name.strip()
        if element.role in _DAY_ROLES and name.isdigit() and 1 <= int(name) <= 31 and perceivable(element, page):
            if "disabled" not in element.states:
                days.setdefault(int(name), []).append(element)
    if not all(day in days for day in range(1, 29)):
        return None
    named = _MONTH_YEAR.findall(fold(page.text_summary))
    months = tuple(dict.fromkeys((int(year), _MONTH_NAMES.index(_full(name)) + 1) for name, year in named))
    return Calendar(days, months, _control(page, CALENDAR_PREVIOUS), _control(page, CALENDAR_NEXT))


def _full(name: str) -> str:
    return next(month for month in _MONTH_NAMES if month.startswith(name))


def _control(page: PageState, names: frozenset[str]) -> PageElement | None:
    found = [e for e in page.elements if e.actionable and fold(e.name) in names]
    return found[0] if len(found) == 1 else None


def pick_date(field: PageElement, wanted: date, page: PageState, attempts: int) -> WidgetMove:
    """The next move towards ``field`` holding ``wanted`` on ``page``."""
    calendar = read_calendar(page)
    label = field.name or "the date field"
    if calendar is None:
        if attempts == 0 or "focused" not in field.states:
            return WidgetMove(Action(name="click", target=field.id), f"Open the calendar of {label!r}: it cannot be typed into.")
        return WidgetMove(None, "", reason=f"{label!r} cannot be typed into and clicking it shows no calendar")
    if attempts > MAX_MONTHS:
        return WidgetMove(None, "", reason=f"the calendar did not reach {wanted:%B %Y} within {MAX_MONTHS} moves")
    if len(calendar.months) != 1:
        shown = "no month" if not calendar.months else f"{len(calendar.months)} months"
        return WidgetMove(None, "", reason=f"the calendar's page names {shown}, so which month its days belong to is not clear")
    year, month = calendar.months[0]
    if (year, month) == (wanted.year, wanted.month):
        candidates = calendar.days.get(wanted.day, [])
        if len(candidates) != 1:
            return WidgetMove(None, "", reason=f"the calendar shows {len(candidates)} controls for day {wanted.day}")
        return WidgetMove(
            Action(name="click", target=candidates[0].id), f"Pick {wanted.day} in {wanted:%B %Y}.", done_after=True
        )
    later = (wanted.year, wanted.month) > (year, month)
    control = calendar.following if later else calendar.previous
    if control is None:
        return WidgetMove(None, "", reason=f"the calendar shows {date(year, month, 1):%B %Y} and has no {'next' if later else 'previous'}-month control")
    return WidgetMove(
        Action(name="click", target=control.id),
        f"The calendar shows {date(year, month, 1):%B %Y}; move {'forward' if later else 'back'} towards {wanted:%B %Y}.",
    )
