"""Action validation (Step 1.8): is this action of the one grammar safe to send?

``validate_action`` parses with :func:`verification.parse_action` and checks the action
against the page the client sent:

* element actions (click, setValue, select, hover, press with an id, scroll with an id)
  must name an element present on the page and not hidden; click / setValue / select /
  press must not target a disabled element, setValue not a read-only one;
* ``setValue`` only on text-like roles (textbox, searchbox, combobox, spinbutton);
* ``select`` only on a combobox or listbox and, when the page lists the options, only an
  existing option (case-insensitive; the action is rewritten to the page's spelling);
* ``navigate`` only to an http(s) URL (relative URLs are resolved against the page)
  whose host is one of ``allowed_domains`` or a subdomain of one. The task's allow-list
  is its start site's registrable domain (:func:`agent.search.allowed_domains_for`); an
  empty list allows no navigation;
* ``wait`` needs seconds with 0 < s ≤ 10;
* ``googleSearch`` only when a search client is configured.

The result is a :class:`ValidatedAction` (canonical text) or an :class:`ActionRejected`
with a code routing can read.
"""

from __future__ import annotations

import re

from collections.abc import Collection
from dataclasses import dataclass
from typing import Final, Literal

from agent.search.domains import host_allowed
from verification import (
    Action,
    ActionSyntaxError,
    PageElement,
    PageState,
    format_action,
    parse_action,
    same_origin_or_upgrade,
    web_url,
)

RejectCode = Literal[
    "SYNTAX",
    "UNKNOWN_ELEMENT",
    "HIDDEN_ELEMENT",
    "DISABLED_ELEMENT",
    "READONLY_ELEMENT",
    "NOT_TEXT_FIELD",
    "NOT_SELECTABLE",
    "UNKNOWN_OPTION",
    "URL_NOT_ALLOWED",
    "BAD_WAIT",
    "SEARCH_UNAVAILABLE",
]
TEXT_ROLES: Final[frozenset[str]] = frozenset({"textbox", "searchbox", "combobox", "spinbutton"})
SELECT_ROLES: Final[frozenset[str]] = frozenset({"combobox", "listbox"})
MAX_WAIT_SECONDS: Final = 10.0
_OPERATING: Final[frozenset[str]] = frozenset({"click", "setValue", "select", "press"})


@dataclass(frozen=True)
class ValidatedAction:
    action: Action
    text: str  # canonical grammar string
    element: PageElement | None = None


@dataclass(frozen=True)
class ActionRejected:
    reason: str
    code: RejectCode
    text: str  # what was validated, as given


def _reject(code: RejectCode, reason: str, text: str) -> ActionRejected:
    return ActionRejected(reason=reason, code=code, text=text)


def _check_element(action: Action, page: PageState, text: str) -> PageElement | ActionRejected:
    assert action.target is not None
    element = page.element(action.target)
    if element is None:
        return _reject("UNKNOWN_ELEMENT", f"element {action.target!r} is not on the page", text)
    if element.hidden:
        return _reject("HIDDEN_ELEMENT", f"element {action.target!r} is hidden", text)
    if action.name in _OPERATING and element.disabled:
        return _reject("DISABLED_ELEMENT", f"element {action.target!r} is disabled", text)
    if action.name == "setValue":
        # A slider takes a number as its value: a native one (<input type=range>) is set, an
        # ARIA or script-made one is driven with its arrow keys by the client.
        native_slider = element.role == "slider" and element.input_type in (None, "range")
        if element.role not in TEXT_ROLES and not native_slider:
            return _reject(
                "NOT_TEXT_FIELD",
                f"setValue needs a text field; {action.target!r} is a {element.role}",
                text,
            )
        if "readonly" in element.states:
            return _reject("READONLY_ELEMENT", f"element {action.target!r} is read-only", text)
    if action.name == "select" and element.role not in SELECT_ROLES:
        return _reject(
            "NOT_SELECTABLE",
            f"select needs a combobox or listbox; {action.target!r} is a {element.role}",
            text,
        )
    return element


def _option(action: Action, element: PageElement, text: str) -> Action | ActionRejected:
    if not element.options or action.value is None:
        return action
    wanted = " ".join(action.value.split()).casefold()
    for option in element.options:
        if " ".join(option.split()).casefold() == wanted:
            return Action(name="select", target=action.target, value=option)
    shown = ", ".join(repr(o) for o in element.options[:10])
    return _reject(
        "UNKNOWN_OPTION", f"{action.value!r} is not an option of {element.id!r} ({shown})", text
    )


def _navigate(
    action: Action, page: PageState, allowed_domains: Collection[str], text: str
) -> Action | ActionRejected:
    raw = (action.value or "").strip()
    here = web_url(page.url) if page.url else None
    target = web_url(raw, base=here.href if here is not None else None)
    if target is None:
        return _reject("URL_NOT_ALLOWED", f"navigate needs an http(s) URL with a host, got {raw[:200]!r}", text)
    if not host_allowed(target.host, allowed_domains):
        allowed = ", ".join(sorted(allowed_domains)) or "none"
        return _reject("URL_NOT_ALLOWED", f"{target.host!r} is outside the task's sites ({allowed})", text)
    if here is not None and not same_origin_or_upgrade(target, here):
        return _reject(
            "URL_NOT_ALLOWED",
            f"{target.scheme}://{target.host}:{target.port} is another service than this page's "
            f"({here.scheme}, port {here.port})",
            text,
        )
    return Action(name="navigate", value=target.href)


def validate_action(
    text_or_action: str | Action,
    page: PageState,
    *,
    allowed_domains: Collection[str],
    search_available: bool = False,
) -> ValidatedAction | ActionRejected:
    """Check one action against the grammar and the page (see the module doc)."""
    if isinstance(text_or_action, Action):
        action, text = text_or_action, format_action(text_or_action)
    else:
        text = text_or_action
        try:
            action = parse_action(text_or_action)
        except ActionSyntaxError as exc:
            return _reject("SYNTAX", str(exc)[:300], text)
    element: PageElement | None = None
    if action.target is not None:
        checked = _check_element(action, page, text)
        if isinstance(checked, ActionRejected):
            return checked
        element = checked
    if action.name == "select" and element is not None:
        normalised = _option(action, element, text)
        if isinstance(normalised, ActionRejected):
            return normalised
        action = normalised
    elif action.name == "navigate":
        resolved = _navigate(action, page, allowed_domains, text)
        if isinstance(resolved, ActionRejected):
            return resolved
        action = resolved
    elif action.name == "wait":
        if action.seconds is None or not 0 < action.seconds <= MAX_WAIT_SECONDS:
            return _reject(
                "BAD_WAIT",
                f"wait needs 0 < seconds <= {MAX_WAIT_SECONDS:g}, got {action.seconds!r}",
                text,
            )
    elif action.name == "setValue" and element is not None and (other := swallowed_field(action.value or "", element, page)):
        return _reject(
            "VALUE_SWALLOWS_FIELD",
            f"{action.value!r} reads as more than one field ({other!r} is another field on this page): say each field with its value",
            text,
        )
    elif action.name == "googleSearch" and not search_available:
        return _reject(
            "SEARCH_UNAVAILABLE", "googleSearch needs a configured web-search client", text
        )
    return ValidatedAction(action=action, text=format_action(action), element=element)


_TYPABLE_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton"})


def swallowed_field(value: str, element: PageElement, page: PageState) -> str | None:
    """Another field's label right after a comma or an "and" in a typed value ("Ada and Last
    name Lovelace"): a goal that listed several fields, read as one value. Typed as it is,
    the first field holds the whole list and the others stay empty — a goal that can then
    look done. Such a value is never typed, by the policy or a model."""
    folded = " ".join(value.split()).casefold()
    if "," not in folded and " and " not in folded:
        return None
    for other in page.elements:
        if other.id == element.id or other.role not in _TYPABLE_ROLES or other.hidden:
            continue
        label = " ".join((other.name or other.placeholder or "").split()).casefold()
        if len(label) >= 3 and re.search(rf"(?:,|\band\b)\s+(?:the\s+|my\s+)?{re.escape(label)}\b", folded):
            return other.name or other.placeholder
    return None
