"""The controls of a record of a list — an email, a message, a ticket, an order: "the Reply
button of the email from Ana" (``ElementRef.record``).

A record's control is found in one of two places, as on real webmail, ticket and CRM pages:

* in the record's own entry of the list (its row, list item or card): the entry's text must
  carry every word that names the record. Where some entries carry those words exactly
  and others only nearly ("Ana" / "Anna"), only the exact ones count;
* in the **open view** of that record, once it was opened: a control in no row, item or
  card, on a page that shows the record's words, where no list entry and no control named
  by those words is left — the list is gone, one record is open. A page that still shows
  the record in a list (or as a link to open it) is not its open view, so a toolbar's
  Delete beside a list is never taken for the record's own.

Either way the usual rules follow: the best-named control wins and several different ones
equally good are ambiguous, never guessed between.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from verification.contract.model import ElementRef
from verification.elements import PageElement
from verification.page import PageState

_ENTRY_KINDS: Final = ("row:", "item:", "card:")
Words = Callable[[str], tuple[str, ...]]


def exact_entries(scored: list[tuple[float, int, PageElement]], record: str, words: Words) -> list[tuple[float, int, PageElement]]:
    """Among controls found in entries that carry the record's words, those whose entry
    carries them exactly — when there are any. A record named by an ``@handle`` ("the post
    by @leo") is only an entry that shows that handle as it is written: an entry whose text
    merely has the word ("leo" in another post's body) is not @leo's."""
    wanted = set(words(record))
    exact = [s for s in scored if any(wanted <= set(words(c.partition(":")[2])) for c in s[2].container)]
    handles = _HANDLE.findall(record.lower())
    if handles:
        return [s for s in exact if any(carries_handles(c, handles) for c in s[2].container if c.startswith(_ENTRY_KINDS))]
    return exact or scored


_HANDLE: Final = re.compile(r"(?<![\w@])@[a-z0-9_][a-z0-9_.-]*[a-z0-9_]|(?<![\w@])@[a-z0-9_]")


def carries_handles(entry: str, handles: list[str]) -> bool:
    """Does a container entry show each ``@handle`` as a whole token?"""
    found = {h.rstrip(".") for h in _HANDLE.findall(entry.lower())}
    return all(h in found for h in handles)


def in_entry(element: PageElement) -> bool:
    return any(c.startswith(_ENTRY_KINDS) for c in element.container)


def shows_open(ref: ElementRef, page: PageState, words: Words, visible: Callable[[PageElement], bool]) -> bool:
    """The page shows the record open: its words are on the page, and no list entry or
    control names it (see the module doc)."""
    wanted = set(words(ref.container or ""))
    if not wanted:
        return False
    shown = set(words(page.text_summary or ""))
    for element in page.elements:
        if not visible(element):
            continue
        if any(wanted <= set(words(c.partition(":")[2])) for c in element.container if c.startswith(_ENTRY_KINDS)):
            return False  # the record is still an entry of a list
        named = set(words(element.name))
        if wanted <= named and element.role in ("link", "button", "row", "treeitem", "option"):
            return False  # a control that opens it is still there
        if element.role not in ("textbox", "searchbox", "combobox"):
            shown |= named
    return wanted <= shown


def in_open_view(
    ref: ElementRef,
    page: PageState,
    candidates: list[tuple[float, int, PageElement]],
    words: Words,
    visible: Callable[[PageElement], bool],
) -> list[tuple[float, int, PageElement]]:
    """The controls (already scored by name and role, containers not asked) of the record's
    open view: none when the page does not show the record open."""
    if not candidates or not shows_open(ref, page, words, visible):
        return []
    return [s for s in candidates if not in_entry(s[2])]
