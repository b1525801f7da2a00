"""Values as people spell them: comparing the value a goal wants with the value a page
shows, and reading numbers, dates and times in their common spellings.

* :func:`value_matches` — ``how`` is the clause's match kind: ``verbatim`` (character for
  character, spacing included: what was copied); ``exact`` (case counts, spacing aside);
  ``casefold`` (case,
  accents and spacing aside; an input mask's punctuation aside for digits: 5551234 =
  (555) 123-4); ``number`` (1,200 = 1200.0); ``date``; ``time`` (9:37 PM = 21:37 = 21:37:00);
  ``contains``; ``starts`` / ``ends`` (the value begins / ends with the wanted text, case and
  spacing aside: "an item that starts with "An" and ends with "ica"").
* :func:`match_for` — the kind a goal's value calls for (date / time / number / casefold).
* :func:`listed` — a value among the items of a ", "-joined list (a multi-select's labels).
* ``parse_*`` — one reading of a spelling, or ``None``. The client shapes what it types into
  a date, time or number input with the same readings, so what is typed and what is proved
  agree.

Numeric dates are read one way only, never guessed silently: year first (2016-12-02,
2016/12/02) is year-month-day; with slashes (12/02/2016) the month comes first, as English
goals write them, unless the first number cannot be a month (23/04/1999); with dots or dashes
and the year last (02.12.2016) only an unambiguous date is read (13.12.2016, 12.12.2016) —
otherwise there is no reading, and two such spellings match only when they are the same
numbers. Two-digit years are not read.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time
from decimal import Decimal, InvalidOperation
from typing import Final

from verification.contract.model import ValueMatch
from verification.contract.refs import fold

_MONTHS: Final[dict[str, int]] = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
            ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
            ("october", "oct"), ("november", "nov"), ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}  # fmt: skip
_YEAR_FIRST: Final = re.compile(r"^(?P<y>\d{4})[-/.](?P<m>\d{1,2})[-/.](?P<d>\d{1,2})$")
_YEAR_LAST: Final = re.compile(r"^(?P<a>\d{1,2})(?P<sep>[-/.])(?P<b>\d{1,2})(?P=sep)(?P<y>\d{4})$")
_WEEKDAY: Final = r"(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday)?\.?,?\s+)?"
_ORDINAL: Final = r"(?:st|nd|rd|th)?"
_MONTH_FIRST: Final = re.compile(rf"^{_WEEKDAY}(?P<mon>[a-z]+)\.?\s+(?P<d>\d{{1,2}}){_ORDINAL},?\s+(?P<y>\d{{4}})$")
_DAY_FIRST: Final = re.compile(rf"^{_WEEKDAY}(?:the\s+)?(?P<d>\d{{1,2}}){_ORDINAL}\s+(?:of\s+)?(?P<mon>[a-z]+)\.?,?\s+(?P<y>\d{{4}})$")
_MONTH_DAY: Final = re.compile(rf"^{_WEEKDAY}(?P<mon>[a-z]+)\.?\s+(?P<d>\d{{1,2}}){_ORDINAL}$")
_DAY_MONTH: Final = re.compile(rf"^{_WEEKDAY}(?:the\s+)?(?P<d>\d{{1,2}}){_ORDINAL}\s+(?:of\s+)?(?P<mon>[a-z]+)\.?$")
_CLOCK_24: Final = re.compile(r"^(?P<h>\d{1,2}):(?P<m>\d{2})(?::(?P<s>\d{2})(?:\.\d{1,3})?)?$")
_CLOCK_12: Final = re.compile(r"^(?P<h>\d{1,2})(?::(?P<m>\d{2})(?::(?P<s>\d{2}))?)?\s*(?P<half>[ap])\.?\s*m\.?$")
_DATE_AND_TIME: Final = re.compile(
    r"^(?P<date>.+?)(?:t|\s*,\s*|\s+at\s+|\s+)(?P<time>\d{1,2}(?::\d{2}){1,2}(?:\.\d{1,3})?|\d{1,2}(?::\d{2}){0,2}\s*[ap]\.?\s*m\.?)$"
)
_MONTH_NUMERIC: Final = re.compile(r"^(?:(?P<y>\d{4})[-/.](?P<m>\d{1,2})|(?P<m2>\d{1,2})[-/.](?P<y2>\d{4}))$")
_MONTH_NAMED: Final = re.compile(r"^(?P<mon>[a-z]+)\.?,?\s+(?P<y>\d{4})$")
_NUMBER_ONLY: Final = re.compile(r"^[$€£¥]?\s*(?P<n>[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?)\s*%?$")
_NUMBER_IN: Final = re.compile(r"-?\d+(?:\.\d+)?")
_SPACES: Final = re.compile(r"\s+")


def _clean(text: str) -> str:
    return _SPACES.sub(" ", fold(text)).strip()


def _day(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def date_readings(text: str) -> tuple[date, ...]:
    """Every date a numeric spelling with the year last could be (month/day and day/month),
    without repeats: one for 23/04/1999 or 12.12.2016, two for 02.12.2016, none otherwise."""
    m = _YEAR_LAST.match(_clean(text))
    if m is None:
        return ()
    a, b, year = int(m["a"]), int(m["b"]), int(m["y"])
    readings = [d for d in (_day(year, a, b), _day(year, b, a)) if d is not None]
    return tuple(dict.fromkeys(readings))


def parse_date(text: str) -> date | None:
    """The one date ``text`` spells (see the module doc), else ``None``."""
    clean = _clean(text)
    if m := _YEAR_FIRST.match(clean):
        return _day(int(m["y"]), int(m["m"]), int(m["d"]))
    if m := _YEAR_LAST.match(clean):
        readings = date_readings(clean)
        if m["sep"] == "/" and readings:
            return readings[0]  # month first, unless only day first is a date
        return readings[0] if len(readings) == 1 else None
    if m := _MONTH_FIRST.match(clean) or _DAY_FIRST.match(clean):
        month = _MONTHS.get(m["mon"])
        return _day(int(m["y"]), month, int(m["d"])) if month is not None else None
    return None


def parse_month_day(text: str) -> tuple[int, int] | None:
    """(month, day) of a date written without its year: "20 December", "Dec 20th"."""
    clean = _clean(text)
    if m := _MONTH_DAY.match(clean) or _DAY_MONTH.match(clean):
        month = _MONTHS.get(m["mon"])
        if month is not None and _day(2000, month, int(m["d"])) is not None:  # 2000: 29 February is a day
            return month, int(m["d"])
    return None


def parse_time(text: str) -> time | None:
    """A time of day: 21:37, 21:37:05, 9:37 PM, 9:37pm, 9 p.m., 12:05 AM (= 00:05)."""
    clean = _clean(text)
    if m := _CLOCK_24.match(clean):
        hour, minute, second = int(m["h"]), int(m["m"]), int(m["s"] or 0)
    elif m := _CLOCK_12.match(clean):
        hour, minute, second = int(m["h"]), int(m["m"] or 0), int(m["s"] or 0)
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if m["half"] == "p" else 0)
    else:
        return None
    if hour > 23 or minute > 59 or second > 59:
        return None
    return time(hour, minute, second)


def parse_datetime(text: str) -> datetime | None:
    """A date and a time: 2016-12-02T21:37, 12/02/2016 9:37 PM, Dec 2, 2016 at 21:37."""
    m = _DATE_AND_TIME.match(_clean(text))
    if m is None:
        return None
    day, clock = parse_date(m["date"]), parse_time(m["time"])
    return datetime.combine(day, clock) if day is not None and clock is not None else None


def parse_month(text: str) -> tuple[int, int] | None:
    """A year and month: 2016-12, 12/2016, December 2016, Dec 2016."""
    clean = _clean(text)
    if m := _MONTH_NUMERIC.match(clean):
        year, month = int(m["y"] or m["y2"]), int(m["m"] or m["m2"])
    elif m := _MONTH_NAMED.match(clean):
        year, month = int(m["y"]), _MONTHS.get(m["mon"], 0)
    else:
        return None
    return (year, month) if 1 <= month <= 12 else None


def parse_number(text: str) -> Decimal | None:
    """The number ``text`` is, all of it: 42, -3.5, 1,200, $5, 50% — else ``None``."""
    m = _NUMBER_ONLY.match(text.strip())
    if m is None or not any(ch.isdigit() for ch in m["n"]):
        return None
    try:
        return Decimal(m["n"].replace(",", ""))
    except InvalidOperation:
        return None


def _first_number(text: str) -> Decimal | None:
    m = _NUMBER_IN.search(text.replace(",", ""))
    return Decimal(m.group()) if m is not None else None


def _numbers(text: str) -> tuple[int, int, int] | None:
    m = _YEAR_LAST.match(_clean(text))
    return (int(m["a"]), int(m["b"]), int(m["y"])) if m is not None else None


def match_for(value: str) -> ValueMatch:
    """How a goal's value should be compared with a field's: a date, a time, a number, or
    text (case-folded)."""
    if parse_date(value) is not None or date_readings(value):
        return "date"
    if parse_time(value) is not None:
        return "time"
    if parse_number(value) is not None:
        return "number"
    return "casefold"


def value_matches(wanted: str, actual: str | None, how: ValueMatch) -> bool:
    """Does the page's ``actual`` value hold the ``wanted`` one, compared as ``how`` says?"""
    if actual is None:
        return False
    if how == "verbatim":  # character for character: a copy holds the text's own spacing and case
        return wanted == actual
    w, a = " ".join(wanted.split()), " ".join(actual.split())
    match how:
        case "exact":
            return w == a
        case "contains":
            return fold(w) in fold(a)
        case "starts":
            return bool(fold(w)) and fold(a).startswith(fold(w))
        case "ends":
            return bool(fold(w)) and fold(a).endswith(fold(w))
        case "number":
            wn, an = _first_number(w), _first_number(a)
            return wn is not None and wn == an
        case "date":
            wd, ad = parse_date(w), parse_date(a)
            if wd is not None or ad is not None:
                return wd == ad
            # Spellings of no one date (02.12.2016) match only as the same numbers in order.
            return _numbers(w) is not None and _numbers(w) == _numbers(a)
        case "time":
            wt = parse_time(w)
            return wt is not None and wt == parse_time(a)
    if fold(w) == fold(a):
        return True
    digits_w, digits_a = re.sub(r"\W+", "", fold(w)), re.sub(r"\W+", "", fold(a))
    return bool(digits_w) and digits_w.isdigit() and digits_w == digits_a  # input masks: 5551234 vs (555) 123-4


def listed(wanted: str, joined: str | None, how: ValueMatch) -> bool:
    """Is ``wanted`` one of the items of ``joined``, a ", "-joined list such as a
    multi-select's selected labels? An item may itself hold ", " ("Paris, France"), so
    every run of neighbouring items is tried."""
    if joined is None:
        return False
    items = joined.split(", ")
    return any(
        value_matches(wanted, ", ".join(items[start:end]), how)
        for start in range(len(items))
        for end in range(start + 1, len(items) + 1)
    )
