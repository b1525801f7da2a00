"""A date a form takes in parts — Day, Month, Year fields ("2", "1" or "January", "2027") — read
back as the date the goal gives ("2nd January 2027"), so the fields that hold it account for it
and a part the goal's date implies is grounded."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Final


from verification.contract import Clause, parse_date, parse_month_day, words

_PARTS: Final = ("day", "month", "year")
_TOKEN: Final = re.compile(r"[A-Za-z0-9]+")
_MAX_DATE_WORDS: Final = 5


def _part(clause: Clause) -> str | None:
    if not clause.value or clause.target is None:
        return None
    named = set(words(clause.target.name))
    found = [p for p in _PARTS if p in named]
    return found[0] if len(found) == 1 else None


def _month(value: str) -> int | None:
    value = value.strip()
    if value.isdigit():
        return int(value) if 1 <= int(value) <= 12 else None
    found = parse_month_day(f"{value} 1")
    return found[0] if found else None


def _number(value: str, low: int, high: int) -> int | None:
    value = value.strip()
    return int(value) if value.isdigit() and low <= int(value) <= high else None


def dates_in_parts(clauses: Sequence[Clause]) -> tuple[set[dt.date], set[tuple[int, int]]]:
    """The dates (and year-less month-days) the clauses' Day, Month and Year fields hold together."""
    days: set[int] = set()
    months: set[int] = set()
    years: set[int] = set()
    for clause in clauses:
        part = _part(clause)
        if part == "day" and (d := _number(clause.value or "", 1, 31)) is not None:
            days.add(d)
        elif part == "month" and (m := _month(clause.value or "")) is not None:
            months.add(m)
        elif part == "year" and (y := _number(clause.value or "", 1000, 9999)) is not None:
            years.add(y)
    month_days = {(m, d) for m in months for d in days}
    full: set[dt.date] = set()
    for (m, d) in month_days:
        for y in years:
            try:
                full.add(dt.date(y, m, d))
            except ValueError:
                continue
    return full, month_days


def part_of(clause: Clause, goal_dates: Sequence[dt.date | tuple[int, int]]) -> bool:
    """Does the clause hold the day, the month (number or name) or the year of a date the goal gives?"""
    part = _part(clause)
    if part is None or clause.value is None:
        return False
    for when in goal_dates:
        month, day = (when.month, when.day) if isinstance(when, dt.date) else when
        if part == "day" and _number(clause.value, 1, 31) == day:
            return True
        if part == "month" and _month(clause.value) == month:
            return True
        if part == "year" and isinstance(when, dt.date) and _number(clause.value, 1000, 9999) == when.year:
            return True
    return False


def goal_dates(goal: str) -> list[dt.date | tuple[int, int]]:
    """The dates the goal gives, and the month-days it gives without a year."""
    tokens = list(_TOKEN.finditer(goal))
    out: list[dt.date | tuple[int, int]] = []
    for i in range(len(tokens)):
        for j in range(min(len(tokens), i + _MAX_DATE_WORDS) - 1, i, -1):
            said = goal[tokens[i].start() : tokens[j].end()]
            if (full := parse_date(said)) is not None or (full := parse_month_day(said)) is not None:
                out.append(full)
                break
    return out
