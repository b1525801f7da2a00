"""The goals of the chaining bench: one form, several ways people ask for it.

``set`` is read by the no-model policy today (value_frames.set_list); the others are the
phrasings of issue 14 that are being taught to it. A phrasing the policy cannot read ends
GOAL_NOT_UNDERSTOOD: the bench counts it as a failure and reports it per phrasing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from bench.chaining_pages import SUBSCRIBE, Case

Pairs = Sequence[tuple[str, str]]  # (label, value) in the goal's order


def _join(parts: Sequence[str]) -> str:
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]


def _set(pairs: Pairs, extras: Sequence[str]) -> str:
    return "Set " + _join([f"{label} to {value}" for label, value in pairs]) + "".join(f", {e}" for e in extras) + " and press Submit"


def _type_into(pairs: Pairs, extras: Sequence[str]) -> str:
    return "Type " + _join([f"{value} into {label}" for label, value in pairs]) + "".join(f", {e}" for e in extras) + " and click Submit"


def _enter_quoted(pairs: Pairs, extras: Sequence[str]) -> str:
    return "Enter " + _join([f'"{value}" in {label}' for label, value in pairs]) + "".join(f", {e}" for e in extras) + ", then submit"


def _fill_form(pairs: Pairs, extras: Sequence[str]) -> str:
    listed = ", ".join(f'{label} "{value}"' for label, value in pairs)
    return f"Fill the form: {listed}" + "".join(f", {e}" for e in extras) + ". Submit."


def _fill_with(pairs: Pairs, extras: Sequence[str]) -> str:
    return "Fill in " + _join([f"the {label.lower()} with {value}" for label, value in pairs]) + "".join(
        f", {e}" for e in extras
    ) + ", then press Submit"


PHRASINGS: Final[dict[str, Callable[[Pairs, Sequence[str]], str]]] = {
    "set": _set,
    "type_into": _type_into,
    "enter_quoted": _enter_quoted,
    "fill_form": _fill_form,
    "fill_with": _fill_with,
}


def goal(case: Case, phrasing: str) -> str:
    pairs = [(case.field(key).label, case.field(key).value) for key in case.goal_order]
    extras: list[str] = []
    if case.country is not None:
        extras.append(f"choose {case.country} in Country")
    if case.subscribe:
        extras.append(f"check {SUBSCRIBE}")
    return PHRASINGS[phrasing](pairs, extras)


def phrasing_for(seed: int) -> str:
    """Seed n is asked the n-th way (cycling), so N ≥ 5 seeds ask every way on every layout."""
    names = list(PHRASINGS)
    return names[seed % len(names)]
