"""A goal's value written the way a field takes it: the same number, time or date in another
spelling (£850 as 850, 6 pm as 18:00, 3/3/27 or "3 March" as 03/03/2027). Used by the plan
check: a step that types the goal's date in the page's format uses the goal's value."""

from __future__ import annotations

import re
from typing import Any, Final

from verification.contract import date_readings, match_for, parse_date, parse_month_day, value_matches

_SHORT_YEAR: Final = re.compile(r"^(\d{1,2})([/.-])(\d{1,2})\2(\d{2})$")


def same_value(value: str, wanted: str) -> bool:
    """``value`` is the goal's number, time or date ``wanted`` written the way a field takes
    it: £850 as 850, 6 pm as 18:00, 3/3/27 or 3 March as 03/03/2027 (either reading of a
    day/month pair)."""
    how = match_for(wanted)
    days = _days(value)
    if how in ("number", "time"):
        return not days and value_matches(wanted, value, how)  # "1" is no date's day
    if not days:
        return False
    wanted_days = _days(wanted)
    if wanted_days:
        return bool(days & wanted_days)
    month_day = parse_month_day(wanted)  # "January 22nd": the page gives the year
    return month_day is not None and any((d.month, d.day) == month_day for d in days)


def said_as_date(value: str, goal: str) -> bool:
    """The goal says the date ``value`` in words of its own ("1 Dec 2026", "January 22nd")."""
    if not _days(value):
        return False
    tokens = [m.group() for m in re.finditer(r"\S+", goal)]
    return any(
        same_value(value, " ".join(tokens[i:j]).strip(",.;:"))
        for i in range(len(tokens))
        for j in range(i + 1, min(len(tokens), i + 4) + 1)
    )


def _days(text: str) -> set[Any]:
    short = _SHORT_YEAR.match(text.strip())
    if short is not None:
        text = f"{short[1]}/{short[3]}/20{short[4]}"
    found = {d for d in (parse_date(text), *date_readings(text)) if d is not None}
    return found
