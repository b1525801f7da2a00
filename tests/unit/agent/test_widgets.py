"""Date fields set through their calendar: open it, read the month it shows, move towards
the wanted month, pick the day — each move decided from the page alone."""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest

from agent.policy.widgets import MAX_MONTHS, pick_date, read_calendar, wants_calendar
from verification import PageElement, PageState

FIELD = PageElement(id="f", role="textbox", name="", states=frozenset({"readonly"}), tag="input", input_type="text")

# (previous control, next control, day role, how the header names the month)
LAYOUTS = [
    pytest.param("Prev", "Next", "link", "{month:%B} {month:%Y}", id="jquery-ui"),
    pytest.param("‹", "›", "button", "{month:%b} {month:%Y}", id="glyph-buttons"),
    pytest.param("Previous month", "Next month", "gridcell", "{month:%B}, {month:%Y}", id="aria-grid"),
]


def calendar_page(shown: date, previous: str, following: str, role: str, header: str, *, field: PageElement = FIELD, days: int = 31) -> PageState:
    elements = [
        dataclasses.replace(field, states=field.states | {"focused"}),
        PageElement(id="prev", role="link" if role == "link" else "button", name=previous),
        PageElement(id="next", role="link" if role == "link" else "button", name=following),
        *(PageElement(id=f"d{day}", role=role, name=str(day), container=(f"row: week of {day}",)) for day in range(1, days + 1)),
        PageElement(id="ok", role="button", name="Submit"),
    ]
    page = PageState.from_elements(elements, url="https://app.example/booking")
    return dataclasses.replace(page, text_summary=f"Date:\n{header.format(month=shown)}\nSu Mo Tu We Th Fr Sa")


def test_only_a_read_only_field_and_a_date_value_call_for_the_calendar() -> None:
    assert wants_calendar(FIELD, "12/02/2016") == date(2016, 12, 2)
    assert wants_calendar(FIELD, "next Tuesday") is None
    assert wants_calendar(dataclasses.replace(FIELD, states=frozenset()), "12/02/2016") is None


def test_a_closed_calendar_is_opened_by_clicking_its_field() -> None:
    page = PageState.from_elements([FIELD, PageElement(id="ok", role="button", name="Submit")], url="https://app.example/")
    move = pick_date(FIELD, date(2016, 12, 2), page, attempts=0)
    assert move.action is not None and (move.action.name, move.action.target) == ("click", "f") and not move.done_after


def test_a_calendar_that_never_opens_is_reported_not_clicked_forever() -> None:
    focused = dataclasses.replace(FIELD, states=FIELD.states | {"focused"})
    page = PageState.from_elements([focused], url="https://app.example/")
    move = pick_date(focused, date(2016, 12, 2), page, attempts=1)
    assert move.action is None and "shows no calendar" in move.reason


@pytest.mark.parametrize(("previous", "following", "role", "header"), LAYOUTS)
@pytest.mark.parametrize(
    ("shown", "wanted", "expected"),
    [
        (date(2016, 12, 1), date(2016, 10, 5), "prev"),
        (date(2016, 12, 1), date(2017, 1, 2), "next"),
        (date(2016, 1, 1), date(2015, 12, 31), "prev"),
        (date(2016, 12, 1), date(2016, 12, 5), "d5"),
    ],
)
def test_the_calendar_moves_towards_the_wanted_month_then_picks_the_day(
    previous: str, following: str, role: str, header: str, shown: date, wanted: date, expected: str
) -> None:
    page = calendar_page(shown, previous, following, role, header)
    move = pick_date(FIELD, wanted, page, attempts=3)
    assert move.action is not None and move.action.target == expected
    assert move.done_after is (expected.startswith("d"))


def test_a_month_grid_needs_its_days_and_one_named_month() -> None:
    page = calendar_page(date(2016, 12, 1), "Prev", "Next", "link", "{month:%B} {month:%Y}", days=20)
    assert read_calendar(page) is None  # 20 numbered links are not a month
    unnamed = dataclasses.replace(calendar_page(date(2016, 12, 1), "Prev", "Next", "link", "{month:%B} {month:%Y}"), text_summary="Su Mo Tu")
    move = pick_date(FIELD, date(2016, 12, 2), unnamed, attempts=2)
    assert move.action is None and "no month" in move.reason
    two = dataclasses.replace(unnamed, text_summary="November 2016\nDecember 2016")
    move = pick_date(FIELD, date(2016, 12, 2), two, attempts=2)
    assert move.action is None and "2 months" in move.reason


def test_a_calendar_without_the_control_to_move_says_so() -> None:
    page = calendar_page(date(2016, 12, 1), "Prev", "Later", "link", "{month:%B} {month:%Y}")
    move = pick_date(FIELD, date(2017, 3, 1), page, attempts=2)
    assert move.action is None and "next-month control" in move.reason


def test_the_search_through_months_is_bounded() -> None:
    page = calendar_page(date(2016, 12, 1), "Prev", "Next", "link", "{month:%B} {month:%Y}")
    move = pick_date(FIELD, date(1990, 1, 1), page, attempts=MAX_MONTHS + 1)
    assert move.action is None and "within" in move.reason
