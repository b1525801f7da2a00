"""The semantic skeleton: a small JSON map of what a user can see and use on a page.

Stored with every action as part of its before-state and compared on the next request,
so it must stay small, JSON-serialisable and stable across harmless re-renders::

    {
      "version": 1,
      "source": "html" | "v3",
      "elements": {"<key>": {"tag": "button", "role": "button", "text": "Save", ...}},
      "messages": {"<kind>:<n>": "Saved successfully"}
    }

Element descriptors hold only non-default fields (see :data:`DESCRIPTOR_FIELDS`); a
missing field means empty string / ``False``. Hidden elements are not in the skeleton,
so an element that becomes visible "appears". Message keys are ``kind:ordinal``; the
diff compares messages by their text, so a new toast never renumbers older ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal, TypedDict, cast

from verification.elements import PageElement, PageMessage, collapse

SKELETON_VERSION: Final = 1
TEXT_LIMIT: Final = 50  # descriptor text: trimmed, first 50 characters
VALUE_LIMIT: Final = 200  # values and hrefs: long enough to compare, short enough to store
MESSAGE_LIMIT: Final = 200

# Render order of descriptor fields in diff lines; booleans are stored only when true.
DESCRIPTOR_FIELDS: Final[tuple[str, ...]] = (
    "tag",
    "role",
    "text",
    "value",
    "href",
    "disabled",
    "ariaExpanded",
    "checked",
    "selected",
    "scrolled",
)
BOOLEAN_FIELDS: Final[frozenset[str]] = frozenset({"disabled", "checked", "selected"})

Descriptor = dict[str, str | bool]


class Skeleton(TypedDict):
    version: int
    source: Literal["html", "v3"]
    elements: dict[str, Descriptor]
    messages: dict[str, str]


class SkeletonError(ValueError):
    """A stored skeleton is not in the shape this version writes."""


def descriptor(
    element: PageElement,
    *,
    text: str,
    aria_expanded: str | None,
) -> Descriptor:
    """The compact, comparable view of one element (non-default fields only)."""
    out: Descriptor = {}
    if element.tag:
        out["tag"] = element.tag
    if element.role:
        out["role"] = element.role
    if text:
        out["text"] = text[:TEXT_LIMIT].rstrip()
    if element.value:
        out["value"] = element.value[:VALUE_LIMIT]
    if element.href:
        out["href"] = element.href[:VALUE_LIMIT]
    states = element.states
    if "disabled" in states:
        out["disabled"] = True
    if aria_expanded:
        out["ariaExpanded"] = aria_expanded
    if "checked" in states:
        out["checked"] = True
    if "selected" in states:
        out["selected"] = True
    edge = next((e for e in ("top", "bottom") if f"scrolled-{e}" in states), None)
    if edge:  # a box that scrolls its own content (V3 only): which end it shows
        out["scrolled"] = edge
    return out


def message_map(
    messages: Iterable[PageMessage], *, flags: Mapping[str, str] | None = None
) -> dict[str, str]:
    """``{"error:0": "Name is required", "success:0": …}`` in page order."""
    counters: dict[str, int] = {}
    out: dict[str, str] = {}
    for message in messages:
        n = counters.get(message.kind, 0)
        counters[message.kind] = n + 1
        out[f"{message.kind}:{n}"] = collapse(message.text, MESSAGE_LIMIT)
    if flags:
        out.update(flags)
    return out


def make_skeleton(
    source: Literal["html", "v3"], elements: dict[str, Descriptor], messages: dict[str, str]
) -> Skeleton:
    return {
        "version": SKELETON_VERSION,
        "source": source,
        "elements": elements,
        "messages": messages,
    }


def message_kind(key: str) -> str:
    """The kind part of a message key (``"error:2"`` → ``"error"``)."""
    return key.partition(":")[0]


def validate_skeleton(value: Any) -> Skeleton:
    """Return ``value`` typed as a skeleton, or raise :class:`SkeletonError` saying why not.

    Checks the structure (version, source, element and message maps). Descriptor field
    values are not type-checked: they are only ever compared and rendered as text.
    """
    if not isinstance(value, Mapping):
        raise SkeletonError(f"skeleton must be an object, got {type(value).__name__}")
    version = value.get("version")
    if version != SKELETON_VERSION:
        raise SkeletonError(
            f"unsupported skeleton version {version!r} (this code writes {SKELETON_VERSION})"
        )
    source = value.get("source")
    if source not in ("html", "v3"):
        raise SkeletonError(f"skeleton source must be 'html' or 'v3', got {source!r}")
    elements = value.get("elements")
    if not isinstance(elements, Mapping):
        raise SkeletonError("skeleton 'elements' must be an object")
    if not all(isinstance(desc, Mapping) for desc in elements.values()):
        raise SkeletonError("every skeleton element must map its key to an object")
    messages = value.get("messages")
    if not isinstance(messages, Mapping):
        raise SkeletonError("skeleton 'messages' must be an object")
    if not all(isinstance(text, str) for text in messages.values()):
        raise SkeletonError("every skeleton message must map its key to text")
    return cast(Skeleton, value)  # structure checked above
