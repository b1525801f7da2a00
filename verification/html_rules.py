"""Which HTML nodes matter, and how one node's attributes become roles, states and kinds.

Pure functions over a tag name and an attribute dict, so the extraction loop in
:mod:`verification.html_extract` stays short and these rules are testable on their own.
"""

from __future__ import annotations

from typing import Final

from verification.elements import ContainerKind, MessageKind, normalize_role
from verification.html_styles import inline_hides, see_through_field
from verification.html_suggestions import SUGGESTION_HINTS

INTERACTIVE_TAGS: Final[frozenset[str]] = frozenset(
    {"a", "button", "input", "select", "textarea", "summary"}
)
INTERACTIVE_ROLES: Final[frozenset[str]] = frozenset(
    {
        "button",
        "link",
        "menuitem",
        "menuitemcheckbox",
        "menuitemradio",
        "checkbox",
        "radio",
        "tab",
        "option",
        "switch",
        "combobox",
        "textbox",
        "searchbox",
        "slider",
        "spinbutton",
        "treeitem",
    }
)
MESSAGE_ROLE_KINDS: Final[dict[str, MessageKind]] = {
    "alert": "alert",
    "alertdialog": "alert",
    "status": "status",
}
MESSAGE_CLASS_KINDS: Final[dict[str, MessageKind]] = {
    "toast": "toast",
    "snackbar": "toast",
    "error": "error",
    "error-message": "error",
    "invalid-feedback": "error",
    "success": "success",
    "alert": "alert",
}
_ERROR_WORDS: Final[tuple[str, ...]] = ("error", "danger", "invalid", "fail")
_BUTTON_INPUT_TYPES: Final[frozenset[str]] = frozenset(
    {"button", "submit", "reset", "image", "file"}
)
# The containers an element can sit in (``PageElement.container``). An explicit role wins;
# ``presentation`` / ``none`` take the tag's meaning away; any other role leaves it.
CONTAINER_TAGS: Final[dict[str, ContainerKind]] = {
    "tr": "row",
    "li": "item",
    "article": "card",
    "dialog": "dialog",
    "section": "section",
    "fieldset": "section",
    "form": "form",
}
CONTAINER_ROLES: Final[dict[str, ContainerKind]] = {
    "row": "row",
    "listitem": "item",
    "article": "card",
    "dialog": "dialog",
    "alertdialog": "dialog",
    "region": "section",
    "form": "form",
}
HEADING_TAGS: Final[frozenset[str]] = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


def _query(*, suggestions: bool) -> str:
    # Broad attribute selectors ([role], [aria-hidden], [style]) are cheaper for Lexbor
    # than long lists of exact values; Python filters the few extra nodes they bring.
    parts = sorted(INTERACTIVE_TAGS)
    parts += ["[role]", "[contenteditable]", "[aria-live]", "[data-toast]"]
    parts += [f".{name}" for name in sorted(MESSAGE_CLASS_KINDS)]
    parts += [
        "[hidden]",
        "[aria-hidden]",
        "[style]",  # one pass; Python reads only styles that may hide (html_styles.inline_hides)
        "dialog",
    ]
    parts += ["label", "legend", "fieldset", "title", "script", "style", "noscript"]
    # Containers a tag alone does not tell (a card class) and the headings that name them.
    parts += ['[class*="card" i]', *sorted(HEADING_TAGS)]
    if suggestions:  # the items of an autocomplete's suggestion list (see suggestion_item)
        parts += [f'[{attr}*="{word}" i] > *' for word in SUGGESTION_HINTS for attr in ("class", "id")]
    return ", ".join(parts)


# One selector list: Lexbor walks the tree once, in C, and returns matches in document order.
# Child selectors for suggestion lists cost a quarter of that pass, so they are only in the
# query for a page whose class or id attributes carry one of the hint words.
EXTRACT_QUERY: Final[str] = _query(suggestions=False)
EXTRACT_QUERY_WITH_SUGGESTIONS: Final[str] = _query(suggestions=True)
def explicit_role(attributes: dict[str, str | None]) -> str | None:
    tokens = (attributes.get("role") or "").split()
    return tokens[0].lower() if tokens else None


def container_kind(tag: str, role: str | None, attributes: dict[str, str | None]) -> str:
    """``row``, ``item``, ``card``, ``dialog``, ``section``, ``form``, or ``""`` when the node
    is none of them. A card by class is a class word ending in "card" or "Card" (``card``,
    ``product-card``, ``ProductCard``) — not ``cards`` (a grid of them) nor ``card-body``
    (a part of one)."""
    if role is not None:
        kind = CONTAINER_ROLES.get(role)
        if kind is not None:
            return kind
    if role not in ("presentation", "none"):
        kind = CONTAINER_TAGS.get(tag)
        if kind is not None:
            return kind
    classes = attributes.get("class")
    if classes and ("card" in classes or "Card" in classes):
        if any(token.endswith(("card", "Card")) for token in classes.split()):
            return "card"
    return ""


def is_interactive(tag: str, role: str | None, attributes: dict[str, str | None]) -> bool:
    if role in MESSAGE_ROLE_KINDS:
        return False
    if tag in INTERACTIVE_TAGS or role in INTERACTIVE_ROLES:
        return True
    editable = attributes.get("contenteditable")
    return "contenteditable" in attributes and (editable or "").lower() != "false"


def message_kind(role: str | None, attributes: dict[str, str | None]) -> MessageKind | None:
    """The kind of message a node is, or ``None``; class words refine alert/toast kinds."""
    classes = (attributes.get("class") or "").lower().split()
    base: MessageKind | None = MESSAGE_ROLE_KINDS.get(role or "")
    if base is None:
        for token in classes:
            if token in MESSAGE_CLASS_KINDS:
                base = MESSAGE_CLASS_KINDS[token]
                break
    if base is None:
        if (attributes.get("aria-live") or "").lower() == "assertive":
            base = "alert"
        elif "data-toast" in attributes:
            base = "toast"
        else:
            return None
    if base in ("error", "success"):
        return base
    if any(word in token for token in classes for word in _ERROR_WORDS):
        return "error"
    if any("success" in token for token in classes):
        return "success"
    return base


def hides_subtree(tag: str, attributes: dict[str, str | None]) -> bool:
    """True when this element (and so everything inside it) is not shown."""
    if "hidden" in attributes:
        return True
    if (attributes.get("aria-hidden") or "").lower() == "true":
        return True
    if tag == "dialog" and "open" not in attributes:
        return True
    style = attributes.get("style")
    return bool(style) and inline_hides(style, field=see_through_field(tag, attributes.get("type")))


def implicit_role(tag: str, input_type: str | None, attributes: dict[str, str | None]) -> str:
    if tag == "a":
        return "link"
    if tag in ("button", "summary"):
        return "button"
    if tag == "textarea":
        return "textbox"
    if tag == "select":
        return "listbox" if "multiple" in attributes else "combobox"
    if tag == "input":
        kind = input_type or "text"
        if kind in _BUTTON_INPUT_TYPES:
            return "button"
        if kind in ("checkbox", "radio"):
            return kind
        if kind == "search":
            return "searchbox"
        if kind == "number":
            return "spinbutton"
        if kind == "range":
            return "slider"
        return "textbox"  # text-like types, hidden, and anything unknown
    if "contenteditable" in attributes:
        return "textbox"
    return "generic"


def element_role(
    tag: str, input_type: str | None, attributes: dict[str, str | None], role: str | None
) -> str:
    """The ARIA role: the explicit ``role`` (first token, normalised) or the tag's implicit one."""
    return normalize_role(role) if role else implicit_role(tag, input_type, attributes)


_NO_STATES: Final[frozenset[str]] = frozenset()


def _true(attributes: dict[str, str | None], name: str) -> bool:
    value = attributes.get(name)
    return value is not None and value.lower() == "true"


_STATE_ATTRIBUTES: Final[frozenset[str]] = frozenset(
    {
        "disabled", "aria-disabled", "checked", "aria-checked", "aria-expanded", "aria-selected",
        "selected", "required", "aria-required", "readonly", "aria-readonly", "data-llm-focused",
    }
)  # fmt: skip


def element_states(
    tag: str, attributes: dict[str, str | None], *, in_disabled_fieldset: bool
) -> frozenset[str]:
    if not in_disabled_fieldset and attributes.keys().isdisjoint(_STATE_ATTRIBUTES):
        return _NO_STATES  # the common case: a plain link or button
    states: list[str] = []
    if "disabled" in attributes or in_disabled_fieldset or _true(attributes, "aria-disabled"):
        states.append("disabled")
    if "checked" in attributes or _true(attributes, "aria-checked"):
        states.append("checked")
    if _true(attributes, "aria-expanded"):
        states.append("expanded")
    elif attributes.get("aria-expanded") == "false":
        states.append("collapsed")
    if _true(attributes, "aria-selected") or (tag == "option" and "selected" in attributes):
        states.append("selected")
    if "required" in attributes or _true(attributes, "aria-required"):
        states.append("required")
    if "readonly" in attributes or _true(attributes, "aria-readonly"):
        states.append("readonly")
    if "data-llm-focused" in attributes:
        states.append("focused")
    return frozenset(states) if states else _NO_STATES


def signature(tag: str, input_type: str | None, role: str | None) -> str:
    """Positional-key signature: the tag, the input type, an explicit role — never the text,
    so a label change ("Save" → "Saved") keeps the key."""
    sig = tag
    if tag == "input" and input_type:
        sig += f".{input_type}"
    if role:
        sig += f"/{role}"
    return sig


def stable_key(tag: str, input_type: str | None, attrs: dict[str, str | None]) -> str | None:
    for attr in ("data-llm-id", "id"):
        value = (attrs.get(attr) or "").strip()
        if value:
            return value
    name = (attrs.get("name") or "").strip()
    if not name:
        return None
    if tag == "input" and input_type in ("radio", "checkbox") and attrs.get("value"):
        return f"{name}={attrs.get('value')}"
    return name


def unique_key(key: str, used: set[str]) -> str:
    n = 2
    while f"{key}~{n}" in used:
        n += 1
    key = f"{key}~{n}"
    used.add(key)
    return key
