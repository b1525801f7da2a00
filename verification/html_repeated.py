"""Entries of a list made of plain repeated boxes (server-side HTML): a feed of
``<div class="media">`` posts, a list of ``<div class="row-item">`` rows.

A box is such an entry (an ``item`` container) when a sibling has the same tag and the same
class words (words that only say a state — ``selected``, ``active`` — left out), and both have text and hold a control: an interactive element (a link, a
button, a field, an interactive role) or an icon control named by its class words (``ICON_CLASS_WORDS``:
reply, like, retweet, more …) or a quantity stepper's "+" / "−". Tags and roles that are containers of their own (``li``,
``tr``, ``article``, ``[role=…]``) keep their kind; lists and tables themselves are never entries.

The page script applies the same rule (client/page_script/containers.js ``isRepeatedEntry``)
so both extractions of a page agree; the script also counts boxes that both show the pointer
cursor, which the server cannot see.
"""

from __future__ import annotations

import re
from typing import Final

from selectolax.lexbor import LexborNode

from verification.html_nodes import select
from verification.html_rules import CONTAINER_TAGS, INTERACTIVE_ROLES, INTERACTIVE_TAGS

# The class words of icon controls (constants.js ICON_WORDS and OVERFLOW_WORDS, kept in step).
ICON_CLASS_WORDS: Final[frozenset[str]] = frozenset(
    """trash delete remove bin star reply forward archive flag important send close edit pin like share retweet
    bookmark favorite favourite unread spam snooze mute repost comment follow block report
    more menu options actions kebab ellipsis overflow dots""".split()
)
# Class words that only say a state ("food-item selected" is a twin of "food-item"; constants.js ICON_ON_WORDS).
STATE_WORDS: Final[frozenset[str]] = frozenset(
    "active on checked selected pressed clicked starred flagged toggled marked liked pinned".split()
)
# A quantity stepper's buttons (describe.js stepSign): their sign, or class words when they have no text.
STEP_SIGNS: Final[frozenset[str]] = frozenset({"+", "＋", "-", "−", "–", "－"})
STEP_CLASS_WORDS: Final[frozenset[str]] = frozenset(
    "add plus increment increase inc up remove minus decrement decrease dec down subtract".split()
)
_NOT_ENTRIES: Final = frozenset({"ul", "ol", "table", "tbody", "tr", "body", "html"})
_CAMEL: Final = re.compile(r"([a-z])([A-Z])")
_SPLIT: Final = re.compile(r"[^a-z0-9]+")


def _class_words(node: LexborNode) -> set[str]:
    attrs = node.attributes
    text = f"{attrs.get('class') or ''} {attrs.get('id') or ''}"
    return {w for w in _SPLIT.split(_CAMEL.sub(r"\1 \2", text).lower()) if w}


def _holds_control(box: LexborNode) -> bool:
    for node in box.traverse(include_text=False):
        if node is box or node.mem_id == box.mem_id:
            continue
        tag = node.tag or ""
        role = (node.attributes.get("role") or "").strip().split(" ")[0].lower()
        if tag in INTERACTIVE_TAGS or role in INTERACTIVE_ROLES or "contenteditable" in node.attributes:
            return True
        if tag not in ("input", "select", "textarea") and _class_words(node) & ICON_CLASS_WORDS:
            return True
        if node.child is None or node.child.tag == "-text":  # a stepper's "+" / "−" (text or class words)
            text = (node.text(deep=True) or "").strip()
            if text in STEP_SIGNS or (not text and _class_words(node) & STEP_CLASS_WORDS):
                return True
    return False


def _entry_like(box: LexborNode) -> bool:
    return box.child is not None and bool((box.text(deep=True) or "").strip()) and _holds_control(box)


def _group_key(node: LexborNode) -> tuple[int, str, str] | None:  # (parent, tag, class words)
    """(parent, tag, class words without state words) of a box that may be an entry, else None."""
    tag = node.tag or ""
    if tag in _NOT_ENTRIES or tag in CONTAINER_TAGS or tag.startswith("-"):
        return None
    attrs = node.attributes
    classes = attrs.get("class")
    parent = node.parent
    if not classes or "role" in attrs or parent is None:
        return None
    if " " in classes.strip():
        classes = " ".join(sorted(w for w in classes.split() if w.lower() not in STATE_WORDS))
    return parent.mem_id, tag, classes.strip()


_LOOK_BACK: Final = 4  # elements between two repeated boxes (a separator, an ad) looked past


Key = tuple[int, str, str]


def _previous_twin(node: LexborNode, key: Key, keys: dict[int, Key | None]) -> LexborNode | None:
    """The nearest earlier sibling with the same key, a few elements back at most (``keys``
    caches each element's key for this page)."""
    before, seen = node.prev, 0
    while before is not None and seen <= _LOOK_BACK:
        if not (before.tag or "").startswith("-"):  # text and comment nodes do not count
            mem = before.mem_id
            if mem not in keys:
                keys[mem] = _group_key(before)
            if keys[mem] == key:
                return before
            seen += 1
        before = before.prev
    return None


def repeated_entries(root: LexborNode | None) -> set[int]:
    """The mem_ids of the boxes that are entries of a list of repeated boxes (see the module doc).
    Only elements that follow a sibling with a class are looked at (one CSS pass finds them),
    with their nearest earlier twin: a box with no classed sibling before it starts no pair."""
    groups: dict[Key, dict[int, LexborNode]] = {}
    keys: dict[int, Key | None] = {}
    for node in select("[class] ~ [class]", root):
        key = keys[node.mem_id] = _group_key(node)
        if key is None:
            continue
        group = groups.setdefault(key, {})
        group[node.mem_id] = node
        before = _previous_twin(node, key, keys)
        if before is not None:
            group.setdefault(before.mem_id, before)
    found: set[int] = set()
    for members in groups.values():
        if len(members) < 2:
            continue
        entries = [m for m in members.values() if _entry_like(m)]
        if len(entries) >= 2:
            found.update(m.mem_id for m in entries)
    return found
