"""Autocomplete fields, on the page: the suggestions a field shows, the one that fits, and
the next move of a ``suggest`` step.

Suggestions are what the page script lists as ``option`` (jQuery UI menus, ARIA listboxes,
plain lists under a field) or ``menuitem`` elements, perceivable, and — when the page gives
boxes — laid out below the field and overlapping it sideways (a site menu elsewhere is not a
suggestion). A suggestion fits when its text meets every condition of the step's
:class:`planning.SuggestionPick` (case and spacing aside). Exactly one fits: it is chosen.
Several fit: the first is chosen only when the goal allows any ("an item …"); otherwise that
would be a guess, and the step fails saying so. None fits: the step fails — the policy never
types an item the page did not offer.

The moves: type the text (the start, or the whole item) → wait while no suggestion shows
(they come late on many sites; bounded) → click the one that fits → the field's value
decides. A ``<datalist>`` shows its options outside the page: when the goal names the item,
typing it whole is enough, and the field's value proves it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from planning import PlanStep, SuggestionPick
from verification import Action, PageElement, PageState
from verification.contract import fold, perceivable

SUGGESTION_ROLES: Final = frozenset({"option", "menuitem"})
# Waits for suggestions to show after typing (two: a third identical wait on an unchanged page
# is a loop to the agent), and how long each is.
MAX_WAITS: Final = 2
WAIT_S: Final = 1.5
MAX_ATTEMPTS: Final = 12  # actions for one suggest step, all told


@dataclass(frozen=True)
class SuggestMove:
    action: Action | None
    thought: str
    satisfied: bool = False
    reason: str = ""
    completes: bool = False


def fits(pick: SuggestionPick, text: str | None) -> bool:
    """Does ``text`` meet every condition of ``pick`` (case and spacing aside)?"""
    if text is None:
        return False
    value = fold(text)
    if not value:
        return False
    if pick.equals is not None and value != fold(pick.equals):
        return False
    if pick.starts is not None and not value.startswith(fold(pick.starts)):
        return False
    if pick.ends is not None and not value.endswith(fold(pick.ends)):
        return False
    return pick.contains is None or fold(pick.contains) in value


def suggestions(field: PageElement, page: PageState) -> list[PageElement]:
    """The suggestions shown for ``field``, in document order."""
    out = []
    for element in page.elements:
        if element.role not in SUGGESTION_ROLES or element.id == field.id or not _text(element):
            continue
        if not perceivable(element, page) or element.occluded or element.disabled:
            continue
        if field.box is not None and element.box is not None and not _below(field.box, element.box):
            continue
        out.append(element)
    return out


def _text(element: PageElement) -> str:
    return (element.text or element.name or "").strip()


def _below(field: tuple[float, float, float, float], item: tuple[float, float, float, float]) -> bool:
    fx, fy, fw, _ = field
    ix, iy, iw, _ = item
    return iy >= fy and ix < fx + fw and fx < ix + iw


@dataclass(frozen=True)
class Choice:
    element: PageElement | None
    reason: str = ""


def choose(pick: SuggestionPick, shown: list[PageElement]) -> Choice:
    """The one suggestion to click, or why there is none."""
    fitting = [s for s in shown if fits(pick, _text(s))]
    if not fitting:
        offered = ", ".join(repr(_text(s)) for s in shown[:8])
        return Choice(None, f"no suggestion fits (shown: {offered})" if shown else "no suggestion is shown")
    if len(fitting) == 1 or pick.any:
        return Choice(fitting[0])
    names = ", ".join(repr(_text(s)) for s in fitting[:8])
    return Choice(None, f"{len(fitting)} suggestions fit and the goal names one: choosing would be a guess ({names})")


def _done(pick: SuggestionPick, typed: str, value: str | None) -> bool:
    """The field holds an item that fits — not merely the text typed to ask for suggestions,
    unless that text is the item the goal names."""
    if not fits(pick, value):
        return False
    return pick.equals is not None or fold(value or "") != fold(typed)


def suggest_move(step: PlanStep, field: PageElement, page: PageState) -> SuggestMove:
    """The next move of a ``suggest`` step on ``page`` (see the module doc)."""
    pick = step.pick
    typed = step.value or ""
    if pick is None or not typed:
        return SuggestMove(None, "", reason="no suggestion to choose was read from the goal")
    label = field.name or field.placeholder or f"element {field.id}"
    if _done(pick, typed, field.value):
        return SuggestMove(None, f"{label!r} holds {field.value!r}.", satisfied=True)
    if step.attempts >= MAX_ATTEMPTS:
        return SuggestMove(None, "", reason=f"{label!r} holds {field.value or ''!r} after {step.attempts} tries, not {_wanted(pick)}")
    shown = suggestions(field, page)
    if fold(field.value or "") != fold(typed):
        choice = choose(pick, shown)
        if choice.element is not None and step.attempts:
            return SuggestMove(_click(choice.element), f"Choose the suggestion {_text(choice.element)!r}.")
        return SuggestMove(Action(name="setValue", target=field.id, value=typed), f"Type {typed!r} into {label!r} to see its suggestions.")
    choice = choose(pick, shown)
    if choice.element is not None:
        return SuggestMove(_click(choice.element), f"Choose the suggestion {_text(choice.element)!r}.")
    if shown and "guess" in choice.reason:
        return SuggestMove(None, "", reason=choice.reason)
    if step.attempts <= MAX_WAITS:  # suggestions come late on many sites (or a list still filters)
        return SuggestMove(Action(name="wait", seconds=WAIT_S), f"Wait for the suggestions of {label!r}.")
    return SuggestMove(None, "", reason=f"{choice.reason}; none is {_wanted(pick)}")


def _click(element: PageElement) -> Action:
    return Action(name="click", target=element.id)


def _wanted(pick: SuggestionPick) -> str:
    if pick.equals is not None:
        return repr(pick.equals)
    parts = [f"{w} {v!r}" for w, v in (("starting with", pick.starts), ("ending with", pick.ends), ("containing", pick.contains)) if v]
    return "an item " + " and ".join(parts)
