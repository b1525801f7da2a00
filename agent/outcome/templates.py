"""Action-type classification and the fixed outcome templates (see :mod:`agent.outcome`)."""

from __future__ import annotations

import re
from typing import Final, Literal

from agent.policy.text import fold
from verification import Action, ExpectedOutcome, PageElement, PageState, parse_action

ActionType = Literal["navigation", "dropdown", "generic"]
MENU_SELECTOR: Final = "[role=menu], [role=menuitem], [role=listbox], [role=option]"
_SUBMIT: Final = re.compile(
    r"\b(?:submit|save|create|add|send|confirm|update|register|sign up|book|apply|place order|"
    r"finish|done|ok)\b"
)


def _label(element: PageElement | None, fallback: str) -> str:
    if element is None:
        return fallback
    return element.name or element.placeholder or element.value or element.id


def classify_action(action: str | Action, page: PageState) -> ActionType:
    """navigation, dropdown or generic (see :mod:`agent.outcome`)."""
    parsed = action if isinstance(action, Action) else parse_action(action)
    if parsed.name in ("navigate", "goBack"):
        return "navigation"
    if parsed.name != "click" or parsed.target is None:
        return "generic"
    element = page.element(parsed.target)
    if element is None:
        return "generic"
    descriptor = page.skeleton["elements"].get(element.id, {})
    if (
        descriptor.get("ariaExpanded") in ("true", "false")
        or "expanded" in element.states
        or element.role == "combobox"
    ):
        return "dropdown"
    if element.role == "link" or element.tag == "a" or element.href:
        return "navigation"
    return "generic"


def navigation_template(action: Action, element: PageElement | None) -> ExpectedOutcome:
    if action.name == "navigate":
        return ExpectedOutcome(
            description=f"The browser opens {action.value}.", url_should_change=True
        )
    if action.name == "goBack":
        return ExpectedOutcome(
            description="The browser returns to the previous page.", url_should_change=True
        )
    href = (element.href or "") if element is not None else ""
    in_page = href.startswith(("#", "javascript:"))
    return ExpectedOutcome(
        description=f"The link {_label(element, 'target')!r} opens its page.",
        url_should_change=None if in_page else True,
    )


def dropdown_template(element: PageElement | None) -> ExpectedOutcome:
    return ExpectedOutcome(
        description=(
            f"{_label(element, 'The control')!r} expands and its menu or options become visible."
        ),
        url_should_change=False,
        elements_to_appear=[MENU_SELECTOR],
    )


def generic_template(action: Action, page: PageState) -> ExpectedOutcome:
    """The deterministic prediction for a generic action."""
    element = page.element(action.target) if action.target else None
    label = _label(element, action.target or "the page")
    match action.name:
        case "setValue":
            return ExpectedOutcome(
                description=f"Field {label!r} holds {action.value!r}.", url_should_change=False
            )
        case "select":
            return ExpectedOutcome(
                description=f"{action.value!r} is selected in {label!r}.", url_should_change=False
            )
        case "click" if element is not None and element.role in ("checkbox", "radio", "switch"):
            state = "unchecked" if "checked" in element.states else "checked"
            return ExpectedOutcome(
                description=f"{label!r} becomes {state}.", url_should_change=False
            )
        case "click" if element is not None and element.role == "tab":
            return ExpectedOutcome(
                description=f"Tab {label!r} is selected and its panel shows.",
                url_should_change=False,
            )
        case "click" if element is not None and _SUBMIT.search(fold(label)):
            return ExpectedOutcome(
                description=f"After {label!r}, a success message or the next page appears."
            )
        case "press" if (action.value or "").lower() == "enter":
            return ExpectedOutcome(description="The form is submitted or the search runs.")
        case "scroll" if action.target is not None and action.value is not None:
            return ExpectedOutcome(
                description=f"{label!r} scrolls its content {'to the ' if action.value in ('top', 'bottom') else ''}{action.value}.",
                url_should_change=False,
            )
        case "scroll":
            return ExpectedOutcome(
                description=f"The page scrolls {action.value or 'to ' + repr(label)}.",
                url_should_change=False,
            )
        case "hover":
            return ExpectedOutcome(
                description=f"A tooltip or menu for {label!r} may appear.", url_should_change=False
            )
        case "wait":
            return ExpectedOutcome(description="The page finishes loading or updating.")
        case "finish" | "fail":
            return ExpectedOutcome(description="The task ends.", url_should_change=False)
        case "googleSearch":
            return ExpectedOutcome(
                description="Web search results become available to the agent.",
                url_should_change=False,
            )
    return ExpectedOutcome(description=f"The page reacts to the action on {label!r}.")
