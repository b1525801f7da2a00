"""Looking for a target that is not on the page yet, a bounded number of moves at a time.

Each request decides one move from the page alone and the step's attempt count: expand a
collapsed section, hover the items of an open menu one after another (submenus open on
hover on most sites; none is opened twice), else scroll. When every move is spent the
target is reported missing, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from verification import Action, PageElement, PageState

MAX_EXPANSIONS: Final = 6
MAX_SCROLLS: Final = 2


@dataclass(frozen=True)
class Move:
    action: Action | None
    thought: str = ""
    confidence: float = 0.5
    reason: str = ""


def _label(element: PageElement) -> str:
    return element.name or element.placeholder or f"element {element.id}"


def open_submenu(item: PageElement, attempts: int) -> Move:
    """Open the submenu of a menu item on a path: hover it (clicking a parent item selects
    it on many menus); a menu that opens on click gets one click after the hover."""
    if attempts == 0:
        return Move(Action(name="hover", target=item.id), f"Hover {_label(item)!r} to open its submenu.", 0.7)
    if attempts == 1:
        return Move(Action(name="click", target=item.id), f"Open {_label(item)!r}: hovering did not show its submenu.", 0.6)
    return Move(None, reason=f"{_label(item)!r} opens no submenu")


def menu_items(page: PageState) -> list[PageElement]:
    """Items of an open menu that may hold a submenu: those marked as opening one where the
    page says so, else every item."""
    items = [e for e in page.elements if e.actionable and e.role == "menuitem"]
    marked = [e for e in items if "haspopup" in e.states]
    return marked or items


def reveal(page: PageState, target: str | None, attempts: int) -> Move:
    """The next move to bring ``target`` into view."""
    wanted = repr(target) if target else "the target"
    collapsed = [e for e in page.elements if e.actionable and "collapsed" in e.states]
    if collapsed and attempts < MAX_EXPANSIONS:
        return Move(Action(name="click", target=collapsed[0].id), f"Expand {_label(collapsed[0])!r} to look for {wanted}.")
    items = menu_items(page)
    if items:
        if attempts < len(items):  # the n-th move hovers the n-th item: none twice
            item = items[attempts]
            return Move(Action(name="hover", target=item.id), f"Hover {_label(item)!r} to look for {wanted} in its submenu.", 0.45)
        return Move(None, reason=f"{wanted} is in none of the menu's submenus")
    if attempts < MAX_SCROLLS:
        return Move(Action(name="scroll", value="down"), f"Scroll to look for {wanted}.", 0.4)
    return Move(None, reason=f"{wanted} is not on the page")
