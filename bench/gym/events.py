"""The site's own record as ground truth: does what it logged show exactly the goal's
expected events? A logged event may carry more fields than the expectation names; every
named field must agree (strings compare without regard to case or spacing, numbers by value,
lists element by element, tables field by field)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bench.gym.spec import Event


def same_value(expected: Any, logged: Any) -> bool:
    if isinstance(expected, bool) or isinstance(logged, bool):
        return expected is logged
    if isinstance(expected, int | float) and isinstance(logged, int | float):
        return abs(float(expected) - float(logged)) < 1e-9
    if isinstance(expected, str) and isinstance(logged, str):
        return " ".join(expected.split()).casefold() == " ".join(logged.split()).casefold()
    if isinstance(expected, list) and isinstance(logged, list):
        return len(expected) == len(logged) and all(same_value(e, g) for e, g in zip(expected, logged, strict=True))
    if isinstance(expected, dict) and isinstance(logged, dict):
        return all(k in logged and same_value(v, logged[k]) for k, v in expected.items())
    return False


def event_matches(expected: Event, logged: Event) -> bool:
    return same_value(expected, logged)


def shows_exactly(expected: Sequence[Event], logged: Sequence[Event]) -> bool:
    """The log holds the expected events, in order, and nothing else."""
    return len(expected) == len(logged) and all(event_matches(e, g) for e, g in zip(expected, logged, strict=True))


def shows_within(expected: Sequence[Event], logged: Sequence[Event]) -> bool:
    """The expected events are in the log, in order, among others (something more was done)."""
    remaining = iter(logged)
    return all(any(event_matches(e, g) for g in remaining) for e in expected)


def shows_any(forbidden: Sequence[Event], logged: Sequence[Event]) -> bool:
    return any(event_matches(f, g) for f in forbidden for g in logged)


def difference(expected: Sequence[Event], logged: Sequence[Event]) -> str:
    """A line saying how the log differs from the expectation (empty when it does not)."""
    if shows_exactly(expected, logged):
        return ""
    return f"expected {list(expected)!r}, the site logged {list(logged)!r}"
