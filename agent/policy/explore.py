"""Looking for a target that is not on the page yet, a bounded number of moves at a time.

Each request decides one move from the page and the moves already made for the step (each
move has a key the plan step keeps), in this order: dismiss a popup that covers the page
(when the goal is not about it); open each collapsed section or tab once (an accordion that
closes one section when another opens, or a header that toggles, is never clicked twice);
hover the items of an open menu one after another (submenus open on hover on most sites;
none twice); open each tab once; turn to the next page of a paged list; scroll; wait for
content that comes late. When every move is spent the target is reported missing, never
guessed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from agent.policy.lexicon import DISMISS_NAMES, PAGER_NEXT
from verification import Action, ElementRef, PageElement, PageState
from verification.contract import fold, words

MAX_EXPANSIONS: Final = 10
MAX_SCROLLS: Final = 2
MAX_PAGES: Final = 10
MAX_WAITS: Final = 5  # seconds of waiting, one at a time, for a late or still-disabled target
MAX_OPENS: Final = 3  # clicks on a record's entry to open it, while its control does not show
_ENTRY_KINDS: Final = ("row:", "item:", "card:")
_OPENER_ROLES: Final = frozenset({"link", "button", "row", "treeitem", "option", "menuitem"})


@dataclass(frozen=True)
class Move:
    action: Action | None
    thought: str = ""
    confidence: float = 0.5
    reason: str = ""
    keys: tuple[str, ...] = ()  # what the move explores (and what it found open), remembered: never made twice


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


def element_key(element: PageElement, page: PageState) -> str:
    """How exploring remembers an element across requests: its role and name, and which of
    the elements with that role and name it is (ids may change when the page is rebuilt)."""
    same = [e for e in page.elements if e.role == element.role and fold(e.name) == fold(element.name)]
    order = next((i for i, e in enumerate(same) if e.id == element.id), 0)
    return f"{element.role}:{fold(element.name) or '#' + element.id}:{order}"


def _spent(explored: Sequence[str], kind: str) -> int:
    return sum(1 for key in explored if key.startswith(f"{kind}|"))


def reveal(page: PageState, target: str | None, explored: Sequence[str] = ()) -> Move:
    """The next move to bring ``target`` into view. ``explored``: the keys of the moves
    already made for this step (``Move.key``), so none is made twice: a section opened
    once is not clicked again when opening another closed it (an accordion), nor when its
    header toggles; a tab opened once is not reopened."""
    wanted = repr(target) if target else "the target"
    done = set(explored)
    # Sections and tabs already showing their content: looked at, never to be opened again.
    showing = tuple(
        k for e in page.elements
        if e.actionable and ("expanded" in e.states or (e.role == "tab" and "selected" in e.states))
        and (k := f"open|{element_key(e, page)}") not in done
    )  # fmt: skip
    dismiss = dismiss_control(page)
    if dismiss is not None and _spent(explored, "dismiss") < MAX_EXPANSIONS:
        key = f"dismiss|{element_key(dismiss, page)}"
        if explored.count(key) < 2:  # a popup that comes back is closed again, once
            return Move(Action(name="click", target=dismiss.id), f"Close the popup covering the page to look for {wanted}.", 0.5, keys=(key,))
    if _spent(explored, "open") < MAX_EXPANSIONS:
        for element in (e for e in page.elements if e.actionable and "collapsed" in e.states):
            key = f"open|{element_key(element, page)}"
            if key not in done:
                what = f"the {_label(element)!r} tab" if element.role == "tab" else repr(_label(element))
                return Move(Action(name="click", target=element.id), f"Open {what} to look for {wanted}.", 0.5, keys=(key, *showing))
    items = menu_items(page)
    for item in items:  # none hovered twice
        key = f"hover|{element_key(item, page)}"
        if key not in done:
            return Move(Action(name="hover", target=item.id), f"Hover {_label(item)!r} to look for {wanted} in its submenu.", 0.45, keys=(key,))
    tabs = [e for e in page.elements if e.actionable and e.role == "tab"]
    for tab in tabs:  # each tab once; the one already showing needs no click
        key = f"open|{element_key(tab, page)}"
        if key not in done and key not in showing:
            return Move(Action(name="click", target=tab.id), f"Open the {_label(tab)!r} tab to look for {wanted}.", 0.45, keys=(key, *showing))
    following = next_page_control(page)
    if following is not None and _spent(explored, "page") < MAX_PAGES:
        return Move(Action(name="click", target=following.id), f"Turn to the next page to look for {wanted}.", 0.45, keys=("page|next",))
    if items and following is None and not tabs:
        return Move(None, reason=f"{wanted} is in none of the menu's submenus")
    if _spent(explored, "scroll") < MAX_SCROLLS:
        return Move(Action(name="scroll", value="down"), f"Scroll to look for {wanted}.", 0.4, keys=("scroll|down",))
    if _spent(explored, "wait") < MAX_WAITS:
        return Move(Action(name="wait", seconds=1.0), f"Wait for {wanted} to appear.", 0.3, keys=("wait|1",))
    return Move(None, reason=f"{wanted} is not on the page")


def wait_until_enabled(element: PageElement, attempts: int) -> Move:
    """A target that is there but disabled: wait for it (a second at a time, bounded)."""
    if attempts < MAX_WAITS:
        return Move(Action(name="wait", seconds=1.0), f"Wait for {_label(element)!r} to be enabled.", 0.5)
    return Move(None, reason=f"{_label(element)!r} stays disabled")


def dismiss_control(page: PageState) -> PageElement | None:
    """The close control of a popup that covers the rest of the page (elements behind it
    are marked covered), when there is exactly one."""
    if not any(e.occluded and not e.hidden for e in page.elements):
        return None
    found = [e for e in page.elements if e.actionable and fold(e.name) in DISMISS_NAMES]
    return found[0] if len(found) == 1 else None


def next_page_control(page: PageState) -> PageElement | None:
    """The "next page" control of a paged list: a next-named link or button beside numbered
    page links — never a wizard's Next button, which commits a step. A pager that shows one
    page number at a time ("1 >") counts when its next control is a bare arrow."""
    numbered = [e for e in page.elements if e.role in ("link", "button") and e.name.strip().isdigit() and not e.hidden]
    found = [e for e in page.elements if e.actionable and e.role in ("link", "button") and fold(e.name) in PAGER_NEXT]
    if len(found) != 1 or not numbered:
        return None
    arrow = not any(ch.isalnum() for ch in found[0].name)
    return found[0] if len(numbered) >= 2 or arrow else None


def record_entry(page: PageState, ref: ElementRef) -> tuple[PageElement | None, str]:
    """The list entry that opens the record a control belongs to ("the Reply button of the
    email from Ana" → Ana's entry): a control named with every word of the record, else the
    first link in a row/item/card whose text carries them (its subject). Entries of two different
    records that both carry the words are ambiguous: none is opened."""
    wanted = set(words(ref.container or ""))
    if not wanted:
        return None, "the record is not named"
    shown = [e for e in page.elements if e.actionable and e.role in _OPENER_ROLES]
    named = [e for e in shown if wanted <= set(words(e.name))]
    # In the record's row: a link (its subject) — never one of the row's own action icons.
    boxed = [
        e for e in shown
        if e.role == "link" and any(wanted <= set(words(c.partition(":")[2])) for c in e.container if c.startswith(_ENTRY_KINDS))
    ]  # fmt: skip
    found = named or boxed
    if not found:
        return None, f"no entry for {ref.container!r} is shown"
    records = {_entry_key(e) for e in found}
    if len(records) > 1:
        return None, f"{len(records)} entries match {ref.container!r}: which one is meant is not said"
    return found[0], ""


def _entry_key(element: PageElement) -> str:
    entry = next((c for c in element.container if c.startswith(_ENTRY_KINDS)), None)
    return entry if entry is not None else fold(element.name)
