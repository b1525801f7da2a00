""""The cheapest", "the earliest", "the best rated": proven by the list the task picked from.

A person checks a superlative by comparing: the flight picked is the cheapest when no other
flight the list showed costs less. So when the task's verified action acted in one record of a
list (a row, item, card, list item, article), the texts of that list's records are kept with the
action (:func:`peers_of`, at the action's issue), and a superlative of the goal is accounted for
once the record acted in is the extreme of the figure the superlative compares (price, time of
day, duration, rating) among its peers (:func:`proven_extremes`).

Only what the list shows is compared, and only when that is enough: a list with more pages (a
"next page", "show more") proves a superlative only when it is sorted by that figure, that way
round ("Price (lowest first)"), and shows its first page — else the cheapest may be on the next
page. Peers are
the records that say what the goal says of the one acted in ("the cheapest *nonstop* flight"
is compared with the nonstop flights). A figure read two ways (the first price of a card, its
lowest price) must agree, or nothing is proven.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from agent.policy.coverage_lexicon import FILLER
from verification import PageElement, PageState
from verification.contract import fold, parse_date, words

_RECORDS: Final = ("row", "item", "listitem", "card", "article")
MAX_PEERS: Final = 60
# Controls that say the list goes on beyond what is shown.
_MORE: Final = frozenset({"next", "next page", "load more", "show more", "more results", "see more", "view more", "older"})
_PREVIOUS: Final = frozenset({"previous", "prev", "previous page", "newer"})

_MONEY: Final = re.compile(r"[$£€]\s?(\d[\d,]*(?:\.\d{1,2})?)|(\d[\d,]*(?:\.\d{1,2})?)\s?(?:usd|eur|gbp)\b", re.IGNORECASE)
_CLOCK: Final = re.compile(r"\b(\d{1,2}):(\d{2})\s*([ap])\.?m\.?|\b([01]?\d|2[0-3]):([0-5]\d)\b(?!\s*[ap]\.?m)", re.IGNORECASE)
_LASTS: Final = re.compile(r"\b(\d{1,2})\s*h(?:rs?|ours?)?\s*(?:(\d{1,2})\s*m(?:in)?)?\b|\b(\d{1,3})\s*min\b", re.IGNORECASE)
_DAY: Final = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\s+[A-Za-z]{3,9}\.?,?\s+\d{4}\b|\b[A-Za-z]{3,9}\.?\s+\d{1,2},?\s+\d{4}\b")
_RATING: Final = re.compile(r"(\d(?:\.\d)?)\s*(?:★|stars?\b|/\s*5\b|out of 5)|★\s*(\d(?:\.\d)?)|\brated\s+(\d(?:\.\d)?)", re.IGNORECASE)


# A sort that puts the extreme first: the words its selected option says, for the least and the most.
_SORTED: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "money": (("low", "lowest", "cheapest", "ascending"), ("high", "highest", "descending", "priciest")),
    "clock": (("earliest",), ("latest",)),
    "lasts": (("shortest", "fastest", "quickest"), ("longest",)),
    "rating": ((), ("top", "best", "highest", "rating", "rated")),
    "day": (("oldest",), ("newest", "latest", "recent", "new")),
}


def _amounts(text: str) -> list[float]:
    return [float((m.group(1) or m.group(2)).replace(",", "")) for m in _MONEY.finditer(text)]


def _clock(text: str) -> list[float]:
    out = []
    for m in _CLOCK.finditer(text):
        if m.group(3):
            hour = int(m.group(1)) % 12 + (12 if m.group(3).lower() == "p" else 0)
            out.append(hour * 60 + int(m.group(2)))
        else:
            out.append(int(m.group(4)) * 60 + int(m.group(5)))
    return out


def _lasts(text: str) -> list[float]:
    out = []
    for m in _LASTS.finditer(text):
        out.append(int(m.group(3)) if m.group(3) else int(m.group(1)) * 60 + int(m.group(2) or 0))
    return out


def _days(text: str) -> list[float]:
    return [float(d.toordinal()) for m in _DAY.finditer(text) if (d := parse_date(m.group())) is not None]


def _ratings(text: str) -> list[float]:
    return [float(next(g for g in m.groups() if g)) for m in _RATING.finditer(text)]


Figure = Callable[[str], list[float]]
_NAMES: Final[dict[Figure, str]] = {_amounts: "money", _clock: "clock", _lasts: "lasts", _ratings: "rating", _days: "day"}
# The superlative, the figure it compares, and whether the least of it wins.
_EXTREMES: Final[dict[str, tuple[Figure, bool]]] = {
    "cheapest": (_amounts, True),
    "priciest": (_amounts, False),
    "earliest": (_clock, True),
    "shortest": (_lasts, True),
    "fastest": (_lasts, True),
    "quickest": (_lasts, True),
    "newest": (_days, False),
    "oldest": (_days, True),
}
# Two-word superlatives: "best rated", "top rated", "highest rated", "most expensive".
_PAIRS: Final[dict[tuple[str, str], tuple[Figure, bool]]] = {
    ("best", "rated"): (_ratings, False),
    ("top", "rated"): (_ratings, False),
    ("highest", "rated"): (_ratings, False),
    ("most", "expensive"): (_amounts, False),
    ("least", "expensive"): (_amounts, True),
    ("most", "recent"): (_days, False),
}


def peers_of(element: PageElement, page: PageState) -> dict[str, Any] | None:
    """The list ``element`` sits in, as kept with the action: its records' texts (its own
    first), whether the list has more pages, which one it shows, and how it is sorted."""
    records = _records(element, page)
    if not records:
        return None
    controls = [e for e in page.elements if e.role in ("button", "link")]
    paged = any(fold(e.name).strip() in _MORE for e in controls)
    later = any(fold(e.name).strip() in _PREVIOUS and "disabled" not in e.states for e in controls)
    sort = next((e.value for e in page.elements if e.role in ("combobox", "listbox") and e.value and "sort" in fold(e.name)), None)
    return {"records": list(records), "first": _first_shown(element, page, records), "paged": paged, "later_page": later, "sort": sort}


def _first_shown(element: PageElement, page: PageState, records: Sequence[str]) -> list[str]:
    """The records shown before the one acted in, in the page's order (its own excluded)."""
    before: list[str] = []
    for other in page.elements:
        if other.id == element.id:
            break
        before += [c.partition(":")[2].strip() for c in other.container if c.partition(":")[2].strip() in records[1:]]
    return list(dict.fromkeys(before))


def _records(element: PageElement, page: PageState) -> tuple[str, ...]:
    at = next((i for i, c in enumerate(element.container) if c.partition(":")[0] in _RECORDS), None)
    if at is None:
        return ()
    own = element.container[at]
    kind = own.partition(":")[0]
    outer = element.container[at + 1] if at + 1 < len(element.container) else None
    texts: list[str] = []
    for other in page.elements:
        for i, entry in enumerate(other.container):
            if entry.partition(":")[0] != kind:
                continue
            # the same list: records of one kind inside the same container ("section: Choose your flight")
            if outer is None or (i + 1 < len(other.container) and other.container[i + 1] == outer):
                if (text := entry.partition(":")[2].strip()) not in texts:
                    texts.append(text)
            break
    mine = own.partition(":")[2].strip()
    if mine in texts:
        texts.remove(mine)
    return (mine, *texts[: MAX_PEERS - 1]) if texts else ()


def proven_extremes(goal: str, unaccounted: Sequence[str], picks: Sequence[Mapping[str, Any]]) -> set[str]:
    """The superlatives among ``unaccounted`` that a pick (:func:`peers_of`) proves: its record
    the extreme of the figure among the peers that say what the goal says of it, in a list
    shown whole or sorted to put that extreme first."""
    said = [w.lower() for w in words(goal)]
    wanted: list[tuple[tuple[str, ...], tuple[Figure, bool]]] = []
    left = {w.lower() for w in unaccounted}
    for first, second in zip(said, said[1:], strict=False):
        if (first, second) in _PAIRS and first in left:
            wanted.append(((first, second), _PAIRS[first, second]))
    wanted += [((w,), _EXTREMES[w]) for w in left if w in _EXTREMES]
    proven: set[str] = set()
    for names, (figure, least) in wanted:
        if any(_proves(pick, said, figure, least) for pick in picks if pick.get("records")):
            proven.update(names)
    return proven


def _proves(pick: Mapping[str, Any], said: Sequence[str], figure: Figure, least: bool) -> bool:
    records = tuple(pick["records"])
    if _enough(pick, figure, least) and _is_extreme(said, records, figure, least):
        return True
    # Sorted to put the extreme first, the list's first record that says what the goal says is
    # the extreme, though its figure is not printed where Stepwise reads ("card: Daybreak Daypack").
    if not pick.get("sort") or pick.get("later_page") or not _sorted_so(pick, figure, least):
        return False
    shared = _said_of(records[0], said)
    return not any(shared <= set(words(text)) for text in pick.get("first") or ())


def _said_of(record: str, goal_words: Sequence[str]) -> set[str]:
    return {w for w in words(record) if w in goal_words and w not in FILLER and not w.isdigit()}


def _sorted_so(pick: Mapping[str, Any], figure: Figure, least: bool) -> bool:
    first, last = _SORTED[_NAMES[figure]]
    return bool(set(words(str(pick["sort"]))) & set(first if least else last))


def _enough(pick: Mapping[str, Any], figure: Figure, least: bool) -> bool:
    """Does the list show what the comparison needs: all of it, or its first page sorted so?"""
    if not pick.get("paged"):
        return True
    return bool(pick.get("sort")) and not pick.get("later_page") and _sorted_so(pick, figure, least)


def _is_extreme(goal_words: Sequence[str], record: tuple[str, ...], figure: Figure, least: bool) -> bool:
    own, *others = record
    shared = _said_of(own, goal_words)
    alike = [t for t in others if shared <= set(words(t))]  # "nonstop": compared with the nonstop ones
    mine = figure(own)
    theirs = [f for f in (figure(t) for t in alike) if f]
    if not mine or not theirs:
        return False
    for read in (lambda fs: fs[0], min if least else max):  # the first figure, and the extreme one, must agree
        value = read(mine)
        others_values = [read(f) for f in theirs]
        if least and any(v < value for v in others_values) or not least and any(v > value for v in others_values):
            return False
    return True
