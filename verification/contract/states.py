"""Whether an element is in the state a control clause names: on / off (checked or
selected), expanded / collapsed, or — for a box that scrolls its own content — showing its
top or bottom (the page script's ``scrolled-top`` / ``scrolled-bottom``)."""

from __future__ import annotations

from verification.contract.model import SCROLL_STATES, ElementRef
from verification.contract.refs import Resolution, resolve
from verification.elements import PageElement
from verification.page import PageState


def is_checked(element: PageElement) -> bool:
    return "checked" in element.states or "selected" in element.states


def state_candidates(ref: ElementRef, page: PageState, roles: frozenset[str] | None) -> Resolution:
    """The element a state clause is about — for "any checkbox", every one of the kind (one
    in the wanted state is enough)."""
    if ref.any:
        return resolve(ref.model_copy(update={"any": False, "every": True}), page, roles=roles)
    return resolve(ref, page, roles=roles)


def in_state(element: PageElement, state: str) -> bool:
    if state in ("checked", "unchecked"):
        return is_checked(element) == (state == "checked")
    if state in SCROLL_STATES:  # the page script's reading of where its content is scrolled
        return state in element.states
    return ("expanded" in element.states) == (state == "expanded")


def state_now(element: PageElement, state: str) -> str:
    """How the element stands, in the terms of ``state`` ("on", "collapsed", "scrolled to the top")."""
    if state in ("checked", "unchecked"):
        return "on" if is_checked(element) else "off"
    if state in SCROLL_STATES:
        edge = next((s for s in SCROLL_STATES if s in element.states), None)
        return f"scrolled to the {edge.removeprefix('scrolled-')}" if edge else "not scrolled to its top or bottom"
    return "expanded" if "expanded" in element.states else "collapsed"
