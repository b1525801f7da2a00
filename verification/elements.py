"""What an engine can know about one element or one on-page message."""

from __future__ import annotations

import re

from dataclasses import dataclass, field, fields, make_dataclass
from typing import Any, Final, Literal

MessageKind = Literal["error", "success", "alert", "status", "toast"]
ContainerKind = Literal["row", "item", "card", "dialog", "section", "form"]
CONTAINER_LIMIT: Final = 3  # containers kept per element, nearest first
CONTAINER_TEXT_LIMIT: Final = 120  # characters of a container's identifying text

# V3 minified roles and tag-ish spellings → full ARIA role names. Anything else is kept
# as given (lower-cased), so new ARIA roles pass through untouched.
ROLE_ALIASES: Final[dict[str, str]] = {
    "btn": "button",
    "inp": "textbox",
    "input": "textbox",
    "txt": "textbox",
    "text": "textbox",
    "textarea": "textbox",
    "ta": "textbox",
    "chk": "checkbox",
    "cb": "checkbox",
    "sel": "combobox",
    "select": "combobox",
    "a": "link",
    "lnk": "link",
    "opt": "option",
    "mi": "menuitem",
    "menu_item": "menuitem",
    "sw": "switch",
    "toggle": "switch",
    "search": "searchbox",
    "num": "spinbutton",
    "number": "spinbutton",
    "img": "image",
}
# Roles that name an on-page message rather than an element to act on.
MESSAGE_ROLES: Final[dict[str, MessageKind]] = {
    "alert": "alert",
    "alertdialog": "alert",
    "status": "status",
    "error": "error",
    "success": "success",
    "toast": "toast",
}
# What an alert, status line or toast says when it reports a failure ("Wrong username or
# password", "Invalid e-mail address", "Payment declined", "Please enter your name"), as
# data. Only an alert/status/toast is read this way, and only towards "error": a message is
# never taken for a success by its words (that would be a claim of completion), and a new
# error message makes the action it followed fail verification.
_ERROR_MESSAGE: Final = re.compile(
    r"\b(?:wrong|incorrect|invalid|failed|failure|error|errors|denied|declined|rejected|forbidden|"
    r"unable to|could not|couldn't|cannot|can't|not found|not allowed|not valid|not recognized|"
    r"expired|try again|does not match|doesn't match|do not match|don't match|too short|too long|"
    r"is required|are required|must be|must contain|please enter|please fill|please select|"
    r"please provide|locked|unauthorized|went wrong)\b",
    re.IGNORECASE,
)
_NOT_AN_ERROR: Final = re.compile(r"\b(?:no|0|zero|without) errors?\b|\berror[- ]free\b", re.IGNORECASE)


def message_kind_of(kind: MessageKind, text: str) -> MessageKind:
    """``kind`` refined by what the message says: an alert/status/toast that reports a
    failure is an error message."""
    if kind in ("alert", "status", "toast") and _ERROR_MESSAGE.search(text) and not _NOT_AN_ERROR.search(text):
        return "error"
    return kind


ELEMENT_STATES: Final[frozenset[str]] = frozenset(
    {"disabled", "checked", "expanded", "selected", "required", "readonly", "focused"}
)
_STATE_ALIASES: Final[dict[str, str]] = {
    "focus": "focused",
    "read-only": "readonly",
    "read_only": "readonly",
    "check": "checked",
    "open": "expanded",
}


def normalize_role(role: str | None) -> str:
    """``btn`` → ``button``, ``sel`` → ``combobox``; unknown roles are kept (lower-cased)."""
    if not role:
        return "generic"
    key = role.strip().lower()
    return ROLE_ALIASES.get(key, key) or "generic"


def field_type(ty: object) -> tuple[str | None, str | None]:
    """The V3 ``ty`` key as (tag, input type), the way the HTML extraction reads the same
    field: ``textarea`` → a textarea; ``select`` / ``select-multiple`` → a select (the
    multiple one keeps its kind); ``contenteditable`` → an editable element; anything else is
    an ``<input>`` of that type. ``(None, None)``: absent or not a field type (never guessed)."""
    if type(ty) is not str or not ty.strip() or len(ty) > 32:
        return None, None
    kind = ty.strip().lower()
    if kind in ("textarea", "select"):
        return kind, None
    if kind == "select-multiple":
        return "select", kind
    if kind == "contenteditable":
        return None, kind
    return "input", kind


def control_name(raw: object) -> str | None:
    """A form control's ``name`` attribute, trimmed to 100 characters; ``None`` when blank."""
    return (raw.strip()[:100] or None) if isinstance(raw, str) else None


def normalize_state(state: str) -> str:
    key = state.strip().lower()
    return _STATE_ALIASES.get(key, key)


@dataclass(frozen=True, slots=True)
class PageElement:
    """One interactive element. ``id`` is what actions target (``click("14")``).

    ``container``: the rows, list items, cards, dialogs, sections and forms the element sits
    in, nearest first, at most 3, each ``"<kind>: <text>"`` with the text a person would name
    it by (``"row: Bob Smith · bob@x.org"``, ``"section: Billing"``; rules in
    :mod:`verification.html_containers`); ``()`` outside any (and for hidden HTML elements).
    ``text``: the visible text when it differs from ``name`` (case and spacing aside) — an
    aria-label or aria-labelledby overrode it (``<button aria-label="Save">Delete</button>``);
    else ``None``."""

    id: str
    role: str
    name: str = ""
    value: str | None = None
    tag: str | None = None
    input_type: str | None = None
    placeholder: str | None = None
    href: str | None = None
    states: frozenset[str] = field(default_factory=frozenset)
    hidden: bool = False
    occluded: bool = False
    xy: tuple[float, float] | None = None
    box: tuple[float, float, float, float] | None = None
    frame: int = 0
    options: tuple[str, ...] = ()
    context: str | None = None
    scroll: dict[str, Any] | None = None
    container: tuple[str, ...] = ()
    text: str | None = None
    field_name: str | None = None

    @property
    def disabled(self) -> bool:
        return "disabled" in self.states

    @property
    def actionable(self) -> bool:
        """Visible, not behind a modal, not disabled: an action on it can work."""
        return not self.hidden and not self.occluded and "disabled" not in self.states

    @property
    def labelled(self) -> bool:
        """The field has a name of its own besides its placeholder (a ``<label>``, an
        aria-label). Its placeholder is then a hint — an example, a format, what a search
        looks in ("Name or notes") — and names it only when a reference says the placeholder
        whole ("the CVC field" under the label "Security code")."""
        name = " ".join(self.name.split()).casefold()
        return bool(name) and name != " ".join((self.placeholder or "").split()).casefold()


@dataclass(frozen=True, slots=True)
class PageMessage:
    """A visible alert, toast, status line or error/success message."""

    kind: MessageKind
    text: str


def collapse(text: str, limit: int | None = None) -> str:
    """Whitespace-collapsed, stripped text, cut to ``limit`` characters (with an ellipsis)."""
    out = " ".join(text.split())
    if limit is not None and len(out) > limit:
        return out[: max(limit - 1, 0)].rstrip() + "…"
    return out


class PageInputError(ValueError):
    """The page the client sent is malformed. Messages read ``"<field>: <what is wrong>"``,
    the field being the input's path (``interactiveTree[3].xy``, ``viewport.width``)."""

    @property
    def field(self) -> str:
        return str(self).partition(": ")[0]


# The same slots, in the same order, without the frozen ``__setattr__``: built with a plain
# ``__init__`` (one C-level store per field), then re-labelled as a PageElement.
_Draft = make_dataclass("_Draft", [f.name for f in fields(PageElement)], slots=True)
_FIELD_COUNT: Final = len(fields(PageElement))


def new_element(*values: Any) -> PageElement:
    """Build a ``PageElement`` from all 20 field values in declaration order.

    A page yields hundreds to thousands of elements per request; the frozen dataclass
    ``__init__`` routes every field through ``object.__setattr__`` and costs ~8× as much.
    The result is identical and just as immutable (tested)."""
    if len(values) != _FIELD_COUNT:
        raise ValueError(f"new_element takes {_FIELD_COUNT} values, got {len(values)}")
    element: Any = _Draft(*values)
    element.__class__ = PageElement  # same slot layout: allowed, and now frozen
    return element  # type: ignore[no-any-return]


def typed_items(value: str) -> list[str]:
    """What a tags or recipients box makes items of: the parts of a value typed with
    separators ("harbour, people," → harbour, people); nothing for a plain value."""
    if not re.search(r"[,;]", value):
        return []
    return [part.strip() for part in re.split(r"[,;\n]", value) if part.strip()]


def shows_item(element: PageElement, item: str) -> bool:
    """Is ``element`` an item chip for ``item`` ("item: harbour", "Remove tag harbour")?"""
    said = item.casefold()
    name = element.name.casefold()
    return name == said or name.endswith(f" {said}") or any(entry.partition(": ")[2].strip().casefold() == said for entry in element.container)

