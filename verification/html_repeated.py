"""Entries of a list made of plain repeated boxes (server-side HTML): a feed of
``<div class="media">`` posts, a list of ``<div class="row-item">`` rows.

A box is such an entry (an ``item`` container) when a sibling has the same tag and the same
class words (words that only say a state — ``selected``, ``active`` — left out), and both have text and hold a control: an interactive element (a link, a
button, a field, an interactive role) or an icon control named by its class words (``ICON_CLASS_WORDS``:
reply, like, retweet, more …) or a quantity stepper's "+" / "−". Tags and roles that are containers of their own (``li``,
``tr``, ``article``, ``[role=…]``) keep their kind; lists and tables themselves are never entries.
A bare wrapper around one box (a ``<div>`` or ``<span>`` with no class, role or text of its
own) is looked through: the box is still the twin of its siblings.

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
    parent = _outermost(node).parent  # the list it is an entry of, past bare wrappers
    if not classes or "role" in attrs or parent is None:
        return None
    if " " in classes.strip():
        classes = " ".join(sorted(w for w in classes.split() if w.lower() not in STATE_WORDS))
    return parent.mem_id, tag, classes.strip()


_LOOK_BACK: Final = 4  # elements between two repeated boxes (a separator, an ad) looked past
_WRAPPER_TAGS: Final = frozenset({"div", "span"})
# A classed element alone in a classless div / span: maybe an entry inside a bare wrapper.
_WRAPPED: Final = "div:not([class]) > [class]:only-child, span:not([class]) > [class]:only-child"


Key = tuple[int, str, str]


def _bare_wrapper(node: LexborNode) -> bool:
    """A ``<div>`` / ``<span>`` that adds nothing around one element: no class, no role, no
    text of its own (an animation or layout wrapper around one entry of a list). Looked
    through, so that entry is still the twin of its siblings."""
    if (node.tag or "") not in _WRAPPER_TAGS:
        return False
    attrs = node.attributes
    if (attrs.get("class") or "").strip() or "role" in attrs:
        return False
    only: LexborNode | None = None
    child = node.child
    while child is not None:
        tag = child.tag or ""
        if tag == "-text":
            if (child.text(deep=False) or "").strip():
                return False
        elif not tag.startswith("-"):
            if only is not None:
                return False
            only = child
        child = child.next
    return only is not None


def _first_element(node: LexborNode) -> LexborNode | None:
    child = node.child
    while child is not None and (child.tag or "-").startswith("-"):
        child = child.next
    return child


def _unwrapped(node: LexborNode) -> LexborNode:
    """The element inside a chain of bare wrappers (the node itself when it is none)."""
    while _bare_wrapper(node):
        inner = _first_element(node)
        if inner is None:
            break
        node = inner
    return node


def _outermost(node: LexborNode) -> LexborNode:
    """The outermost bare wrapper around ``node`` (``node`` itself when it has none)."""
    while node.parent is not None and _bare_wrapper(node.parent):
        node = node.parent
    return node


def _twin(node: LexborNode, key: Key, keys: dict[int, Key | None], *, forward: bool = False) -> LexborNode | None:
    """The nearest sibling with the same key before (or after) ``node``, a few elements away
    at most, bare wrappers looked through on both sides (``keys`` caches each element's key
    for this page)."""
    start = _outermost(node)
    other, seen = (start.next if forward else start.prev), 0
    while other is not None and seen <= _LOOK_BACK:
        if not (other.tag or "").startswith("-"):  # text and comment nodes do not count
            candidate = _unwrapped(other)
            mem = candidate.mem_id
            if mem not in keys:
                keys[mem] = _group_key(candidate)
            if keys[mem] == key:
                return candidate
            seen += 1
        other = other.next if forward else other.prev
    return None


def repeated_entries(root: LexborNode | None) -> set[int]:
    """The mem_ids of the boxes that are entries of a list of repeated boxes (see the module doc).
    Only elements that follow a sibling with a class are looked at (one CSS pass finds them),
    with their nearest earlier twin, and elements alone in a bare wrapper, with their nearest
    twins on both sides: a box with no classed sibling before it starts no pair."""
    groups: dict[Key, dict[int, LexborNode]] = {}
    keys: dict[int, Key | None] = {}
    wrapped = [n for n in select(_WRAPPED, root) if n.parent is not None and _bare_wrapper(n.parent)]
    alone = {n.mem_id for n in wrapped}
    for node in [*select("[class] ~ [class]", root), *wrapped]:
        key = keys[node.mem_id] = _group_key(node)
        if key is None:
            continue
        group = groups.setdefault(key, {})
        group[node.mem_id] = node
        for twin in (_twin(node, key, keys), _twin(node, key, keys, forward=True) if node.mem_id in alone else None):
            if twin is not None:
                group.setdefault(twin.mem_id, twin)
    found: set[int] = set()
    for members in groups.values():
        if len(members) < 2:
            continue
        entries = [m for m in members.values() if _entry_like(m)]
        if len(entries) >= 2:
            found.update(m.mem_id for m in entries)
    return found
