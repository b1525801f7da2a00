"""Opening a record's overflow menu ("⋯", "more", a kebab, "Actions") when the control a step
wants is not shown in the record's entry: Twitter/X posts, GitHub rows, Gmail threads and admin
tables keep per-record actions there.

The record's entries are the rows, items and cards whose text carries the record's words (an
``@handle`` as written, verification.contract.records). Its overflow control is an element of
such an entry named by ``OVERFLOW_NAMES`` (or marked ``haspopup``). Rules:

* one entry: its overflow control is opened, once (the step remembers the key) — a second
  time only when the first click showed no menu (no element of the entry after the control);
* several entries of the same owner: only for an action on the owner (``OWNER_ACTIONS``: mute,
  block, follow …) — muting @leo from any of @leo's posts is the same act — the first is
  opened; for anything else (like, share, report a post) which post is meant is not said, and
  none is opened;
* an overflow already opened whose menu does not hold the control: the control is not on the
  record's menu — reported, never looked for in another record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from agent.policy.lexicon import OVERFLOW_NAMES, OWNER_ACTIONS
from verification import ElementRef, PageElement, PageState
from verification.contract import fold, words
from verification.contract.records import carries_handles
from verification.contract.records import _HANDLE as HANDLE

_ENTRY_KINDS: Final = ("row:", "item:", "card:")
# Clicks on a record's overflow control: a second only when the first showed no menu (a click
# that landed while the page swapped the icon's hover image).
MAX_OPENS: Final = 2


@dataclass(frozen=True)
class OverflowMove:
    element: PageElement | None
    key: str = ""
    reason: str = ""  # why nothing is opened and the step cannot go on (empty: not a record with a menu)


def _entry(element: PageElement, wanted: set[str], handles: list[str]) -> str | None:
    for entry in element.container:
        if not entry.startswith(_ENTRY_KINDS):
            continue
        if wanted <= set(words(entry.partition(":")[2])) and (not handles or carries_handles(entry, handles)):
            return entry
    return None


def _is_overflow(element: PageElement) -> bool:
    return fold(element.name).strip() in OVERFLOW_NAMES or "haspopup" in element.states


def _owner_key(entry: str, handles: list[str]) -> str:
    return " ".join(handles) if handles else entry


def _menu_shows(page: PageState, found: tuple[str, PageElement]) -> bool:
    """Does the record's menu show: elements of its entry after its overflow control?"""
    entry, control = found
    after = False
    for element in page.elements:
        if element.id == control.id:
            after = True
        elif after and element.actionable and entry.partition(":")[2][:40] in " ".join(element.container):
            return True
    return False


def record_overflow(page: PageState, ref: ElementRef, explored: tuple[str, ...] | list[str]) -> OverflowMove:
    """The record's overflow control to open (see the module doc)."""
    wanted = set(words(ref.container or ""))
    if not wanted:
        return OverflowMove(None)
    handles = HANDLE.findall((ref.container or "").lower())
    found: list[tuple[str, PageElement]] = []
    for element in page.elements:
        if not element.actionable or not _is_overflow(element):
            continue
        entry = _entry(element, wanted, handles)
        if entry is not None:
            found.append((entry, element))
    if not found:
        return OverflowMove(None)
    opened = [key for key in explored if key.startswith("overflow|")]
    if len(opened) >= MAX_OPENS or (opened and _menu_shows(page, found[0])):
        return OverflowMove(None, reason=f"{ref.name!r} is not on the menu of the record for {ref.container!r}")
    entries = {entry for entry, _e in found}
    if len(entries) > 1:
        owners = {_owner_key(entry, handles) for entry in entries}
        per_owner = bool(set(words(ref.name)) & OWNER_ACTIONS)
        if not (per_owner and handles and len(owners) == 1):
            return OverflowMove(None, reason=f"{len(entries)} entries match {ref.container!r}: which one is meant is not said")
    entry, element = found[0]
    return OverflowMove(element, key=f"overflow|{fold(entry)[:80]}")
