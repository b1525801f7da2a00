"""What changed between two skeletons, as short lines a model (or a person) can read.

Lines come in this order, most telling first, and are capped so that a page that changed
completely (a navigation) cannot blow up a prompt:

1. messages and alerts that appeared, then those that disappeared — a toast or a
   validation error is the page's own verdict on the action;
2. changes to elements present on both pages ("Save" → "Saved", a menu button's
   ``ariaExpanded`` false → true, a field's value) — usually the element acted on;
3. elements that appeared — new UI such as an opened form, menu or dialog;
4. elements that disappeared — least telling on their own (after a navigation
   everything disappears), so they are the first to fall under the cap.

Within each group the order is page order. Messages are compared by their text (as a
multiset), not their key, so one new toast never renumbers the others. Values are quoted
and cut to :data:`QUOTE_LIMIT` characters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from verification.skeleton import (
    BOOLEAN_FIELDS,
    DESCRIPTOR_FIELDS,
    Skeleton,
    SkeletonError,
    message_kind,
    validate_skeleton,
)

QUOTE_LIMIT: Final = 60
DEFAULT_LIMIT: Final = 40


MESSAGE_APPEARED: Final = "New message/alert appeared:"  # an observation line: the page said something after the action


def quote(value: Any, limit: int = QUOTE_LIMIT) -> str:
    """``'Saved'`` — single-quoted, one line, cut with an ellipsis."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif value is None:
        text = ""
    else:
        text = " ".join(str(value).split())
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    return f"'{text}'"


def describe(desc: Mapping[str, Any]) -> str:
    """``button 'Save'`` / ``link 'Patients' (href '/patients')`` for appear/disappear lines."""
    kind = desc.get("role") or desc.get("tag") or "element"
    out = f"{kind} {quote(desc['text'])}" if desc.get("text") else str(kind)
    extras = [f"{field} {quote(desc[field])}" for field in ("href", "value") if desc.get(field)]
    extras += [field for field in ("disabled", "checked", "selected") if desc.get(field) is True]
    if desc.get("ariaExpanded"):
        extras.append(f"expanded {quote(desc['ariaExpanded'])}")
    return f"{out} ({', '.join(extras)})" if extras else out


def _field_value(desc: Mapping[str, Any], field: str) -> Any:
    value = desc.get(field)
    if field in BOOLEAN_FIELDS:
        return value is True
    return "" if value is None else value


def _label(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """A label built only from what both sides share, so diff(a, b) mirrors diff(b, a)."""
    kind = before.get("role") or before.get("tag")
    if kind != (after.get("role") or after.get("tag")):
        kind = None
    text = before.get("text") if before.get("text") == after.get("text") else None
    if kind and text:
        return f" ({kind} {quote(text)})"
    if kind or text:
        return f" ({kind or quote(text)})"
    return ""


def _changes(key: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    fields = list(DESCRIPTOR_FIELDS)
    fields += sorted((set(before) | set(after)) - set(DESCRIPTOR_FIELDS))
    label = _label(before, after)
    lines = []
    for field in fields:
        old, new = _field_value(before, field), _field_value(after, field)
        if old != new:
            lines.append(
                f"Element {quote(key)}{label} changed {quote(field)} from {quote(old)} to {quote(new)}"
            )
    return lines


def _message_lines(
    before: Mapping[str, str], after: Mapping[str, str]
) -> tuple[list[str], list[str]]:
    remaining = Counter(before.values())
    appeared = []
    for key, text in after.items():
        if remaining[text] > 0:
            remaining[text] -= 1
        else:
            appeared.append(f"{MESSAGE_APPEARED} {quote(text, 120)} ({message_kind(key)})")
    remaining = Counter(after.values())
    disappeared = []
    for key, text in before.items():
        if remaining[text] > 0:
            remaining[text] -= 1
        else:
            disappeared.append(
                f"Message/alert disappeared: {quote(text, 120)} ({message_kind(key)})"
            )
    return appeared, disappeared


def diff_lines(before: Any, after: Any) -> list[str]:
    """Every change, uncapped, in the documented order. Raises :class:`SkeletonError`."""
    return diff_checked(validate_skeleton(before), validate_skeleton(after))


def diff_checked(old: Skeleton, new: Skeleton) -> list[str]:
    """:func:`diff_lines` for skeletons already validated (the hot path)."""
    if old["source"] != new["source"]:
        raise SkeletonError(
            f"cannot diff a {old['source']!r} skeleton against a {new['source']!r} one"
        )
    appeared_msgs, gone_msgs = _message_lines(old["messages"], new["messages"])
    old_elements, new_elements = old["elements"], new["elements"]
    changed: list[str] = []
    appeared: list[str] = []
    for key, desc in new_elements.items():
        previous = old_elements.get(key)
        if previous is None:
            appeared.append(f"New element appeared: {describe(desc)} (id {quote(key)})")
        elif previous != desc:
            changed.extend(_changes(key, previous, desc))
    gone = [
        f"Element disappeared: {describe(desc)} (id {quote(key)})"
        for key, desc in old_elements.items()
        if key not in new_elements
    ]
    return appeared_msgs + gone_msgs + changed + appeared + gone


def cap_lines(lines: list[str], limit: int) -> list[str]:
    """At most ``limit`` lines; the last one says how many were left out."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    if len(lines) <= limit:
        return lines
    kept = lines[: limit - 1]
    return [*kept, f"… and {len(lines) - len(kept)} more changes"]


def diff_skeletons(before: Any, after: Any, *, limit: int = DEFAULT_LIMIT) -> list[str]:
    """Human lines for what changed from ``before`` to ``after`` (``[]`` when nothing did).

    Raises :class:`~verification.skeleton.SkeletonError` when either side is not a
    skeleton of this version or the two come from different sources (V3 vs HTML).
    """
    return cap_lines(diff_lines(before, after), limit)
