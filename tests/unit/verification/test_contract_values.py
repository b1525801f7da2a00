"""Values as people spell them: dates, times and numbers read one way, compared as the
clause says; the match kind a goal's value calls for; a value among a multi-select's labels."""

from __future__ import annotations

from datetime import date, datetime, time
from decimal import Decimal

import pytest

from verification.contract import (
    ValueMatch,
    listed,
    match_for,
    parse_date,
    parse_datetime,
    parse_month,
    parse_number,
    parse_time,
    value_matches,
)
from verification.contract.values import date_readings

DEC_2 = date(2016, 12, 2)


@pytest.mark.parametrize(
    "spelling",
    [
        "2016-12-02", "2016/12/02", "2016.12.2", "12/02/2016", "12/2/2016", " 12/02/2016 ",
        "Dec 2, 2016", "December 2, 2016", "dec 2 2016", "Dec. 2, 2016", "December 2nd, 2016",
        "2 December 2016", "2 Dec 2016", "2nd of December, 2016", "Friday, December 2, 2016", "Fri, Dec 2, 2016",
    ],
)  # fmt: skip
def test_the_common_spellings_of_a_date_are_read(spelling: str) -> None:
    assert parse_date(spelling) == DEC_2


@pytest.mark.parametrize(
    ("spelling", "day"),
    [
        ("23/04/1999", date(1999, 4, 23)),  # 23 cannot be a month: day first
        ("03/04/1999", date(1999, 3, 4)),  # slashes: month first
        ("13.12.2016", date(2016, 12, 13)),  # dots, unambiguous
        ("12.12.2016", date(2016, 12, 12)),
        ("Sept 9, 2021", date(2021, 9, 9)),
        ("29 February 2024", date(2024, 2, 29)),
    ],
)
def test_numeric_dates_are_read_one_way(spelling: str, day: date) -> None:
    assert parse_date(spelling) == day


@pytest.mark.parametrize(
    "spelling",
    ["02.12.2016", "02-12-2016", "31/31/2016", "2016-13-01", "29 February 2023", "Smarch 2, 2016", "12/02/16", "2016", "tomorrow", ""],
)
def test_ambiguous_or_impossible_dates_have_no_reading(spelling: str) -> None:
    assert parse_date(spelling) is None


def test_an_ambiguous_date_has_both_readings() -> None:
    assert date_readings("02.12.2016") == (date(2016, 2, 12), DEC_2)
    assert date_readings("12.12.2016") == (date(2016, 12, 12),)
    assert date_readings("2016-12-02") == ()


@pytest.mark.parametrize(
    ("spelling", "clock"),
    [
        ("9:37 PM", time(21, 37)), ("9:37pm", time(21, 37)), ("9:37 p.m.", time(21, 37)), ("09:37 PM", time(21, 37)),
        ("21:37", time(21, 37)), ("21:37:00", time(21, 37)), ("21:37:05", time(21, 37, 5)), ("9 PM", time(21)),
        ("12:05 AM", time(0, 5)), ("12:05 PM", time(12, 5)), ("00:05", time(0, 5)), ("9:37 am", time(9, 37)),
        ("21:37:00.000", time(21, 37)),
    ],
)  # fmt: skip
def test_times_in_12_and_24_hour_spellings(spelling: str, clock: time) -> None:
    assert parse_time(spelling) == clock


@pytest.mark.parametrize("spelling", ["24:00", "21:60", "13:00 PM", "0:30 AM", "9:37 XM", "937", "9.37", "nine"])
def test_what_is_not_a_time(spelling: str) -> None:
    assert parse_time(spelling) is None


def test_date_and_time_month_and_number() -> None:
    moment = datetime(2016, 12, 2, 21, 37)
    for spelling in ("2016-12-02T21:37", "2016-12-02 21:37", "12/02/2016 9:37 PM", "Dec 2, 2016 at 9:37 pm", "December 2, 2016, 21:37"):
        assert parse_datetime(spelling) == moment, spelling
    assert parse_datetime("02.12.2016 21:37") is None  # an ambiguous date stays unread
    assert parse_datetime("2016-12-02") is None
    for spelling in ("2016-12", "12/2016", "December 2016", "Dec 2016", "dec, 2016"):
        assert parse_month(spelling) == (2016, 12), spelling
    assert parse_month("13/2016") is None and parse_month("Smarch 2016") is None
    assert parse_number("1,200") == Decimal(1200)
    assert parse_number("-3.5") == Decimal("-3.5")
    assert parse_number("$5") == 5 and parse_number("50%") == 50 and parse_number(".5") == Decimal("0.5")
    for spelling in ("1,20", "five", "5 apples", "-", "", "1.2.3", "2016-12-02"):
        assert parse_number(spelling) is None, spelling


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("12/02/2016", "date"), ("Dec 2, 2016", "date"), ("2016-12-02", "date"), ("02.12.2016", "date"),
        ("9:37 PM", "time"), ("21:37", "time"), ("9pm", "time"),
        ("42", "number"), ("-3.5", "number"), ("1,200", "number"), ("2016", "number"),
        ("Jas", "casefold"), ("Room 9", "casefold"), ("555-1234", "casefold"), ("", "casefold"),
    ],
)  # fmt: skip
def test_the_match_kind_follows_the_goals_value(value: str, kind: str) -> None:
    assert match_for(value) == kind


@pytest.mark.parametrize(
    ("wanted", "actual", "how", "ok"),
    [
        # times
        ("9:37 PM", "21:37", "time", True),
        ("21:37", "9:37 PM", "time", True),
        ("9:37 PM", "21:37:00", "time", True),
        ("9:37pm", "21:37", "time", True),
        ("12:05 AM", "00:05", "time", True),
        ("12:05 PM", "12:05", "time", True),
        ("9:37 PM", "9:37 AM", "time", False),
        ("9:37 PM", "09:37", "time", False),
        ("12:05 AM", "12:05", "time", False),
        ("21:37", "21:38", "time", False),
        ("21:37", "", "time", False),
        ("soon", "soon", "time", False),
        # dates
        ("12/02/2016", "2016-12-02", "date", True),
        ("Dec 2, 2016", "2016-12-02", "date", True),
        ("December 2, 2016", "12/2/2016", "date", True),
        ("2 December 2016", "Friday, December 2, 2016", "date", True),
        ("13.12.2016", "2016-12-13", "date", True),
        ("12/02/2016", "2016-12-03", "date", False),
        ("12/02/2016", "02/12/2016", "date", False),  # not confused
        ("12/02/2016", "2016-02-12", "date", False),
        ("02.12.2016", "02.12.2016", "date", True),  # the same spelling of an ambiguous date
        ("02.12.2016", "2.12.2016", "date", True),
        ("02.12.2016", "12.02.2016", "date", False),
        ("02.12.2016", "2016-12-02", "date", False),  # ambiguous: never silently one reading
        ("02.12.2016", "2016-02-12", "date", False),
        ("Dec 2, 2016", "", "date", False),
        # numbers, text
        ("1,200", "1200.0", "number", True),
        ("5", "5 items", "number", True),
        ("5", "6", "number", False),
        ("Jas", "jas", "casefold", True),
        ("Jas", " Jas ", "exact", True),
        ("Jas", "jas", "exact", False),
        ("5551234", "(555) 123-4", "casefold", True),
        ("laptop", "Laptop Pro 14", "contains", True),
        ("Jas", None, "casefold", False),
    ],
)
def test_values_match_as_the_clause_says(wanted: str, actual: str | None, how: ValueMatch, ok: bool) -> None:
    assert value_matches(wanted, actual, how) is ok


def test_a_value_among_a_multi_selects_labels() -> None:
    assert listed("Blue", "Red, Blue", "casefold")
    assert listed("red", "Red, Blue", "casefold")
    assert listed("Paris, France", "Oslo, Paris, France", "casefold")  # a label with ", " in it
    assert listed("Red, Blue", "Red, Blue", "casefold")
    assert not listed("Green", "Red, Blue", "casefold")
    assert not listed("Re", "Red, Blue", "casefold")
    assert not listed("Red", None, "casefold")
    assert not listed("Red", "", "casefold")
