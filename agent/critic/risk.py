"""When the critic should look at an action: low confidence, a destructive target, or a
navigation off the task's site (see :mod:`agent.critic`)."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final

from agent.policy.text import fold, words
from agent.search.domains import allowed_domains_for, host_allowed, host_of
from verification import Action, ActionSyntaxError, PageElement, parse_action

CONFIDENCE_THRESHOLD: Final = 0.6
_FAMILIES: Final[tuple[tuple[str, ...], ...]] = (
    ("delete", "remove", "erase", "destroy", "discard", "trash", "wipe"),
    (
        "pay",
        "purchase",
        "buy",
        "checkout",
        "place order",
        "submit order",
        "confirm order",
        "complete order",
        "order",
    ),
    ("transfer", "send money", "wire"),
    ("cancel subscription", "unsubscribe", "end subscription"),
    ("close account", "delete account", "deactivate", "terminate"),
)
_DESTRUCTIVE: Final = re.compile(
    r"\b(?:delete|remove|erase|destroy|discard|trash|wipe|pay|purchase|buy(?: now)?|checkout|"
    r"place order|submit order|confirm order|complete order|transfer|send money|wire|"
    r"cancel subscription|unsubscribe|"
    r"close account|delete account|deactivate|terminate)\b"
)


NOT_AN_ACTION = "not an action of the grammar"


def as_action(action: str | Action) -> Action | None:
    """The parsed action, or ``None`` when the text is not the action grammar."""
    if isinstance(action, Action):
        return action
    try:
        return parse_action(action)
    except ActionSyntaxError:
        return None


def destructive_words(action: Action, element: PageElement | None) -> list[str]:
    """Destructive words in what the action operates: the target's name/value, the option."""
    if action.name not in ("click", "press", "select"):
        return []
    texts = [element.name, element.value or ""] if element is not None else []
    if action.name == "select" and action.value:
        texts.append(action.value)
    return sorted({m.group(0) for text in texts for m in _DESTRUCTIVE.finditer(fold(text))})


def off_site(action: Action, page_url: str | None, allowed_domains: Collection[str] | None) -> bool:
    if action.name != "navigate":
        return False
    host = host_of(action.value or "")
    allowed = (
        allowed_domains
        if allowed_domains is not None
        else (allowed_domains_for(page_url) if page_url else ())
    )
    return host is None or not host_allowed(host, allowed)


def critic_triggers(
    action: str | Action,
    element: PageElement | None,
    confidence: float,
    *,
    page_url: str | None = None,
    allowed_domains: Collection[str] | None = None,
    threshold: float = CONFIDENCE_THRESHOLD,
) -> list[str]:
    """Why the critic should look at this action (empty: it need not)."""
    parsed = as_action(action)
    if parsed is None:
        return [NOT_AN_ACTION]
    out = [f"confidence {confidence:.2f} < {threshold:.2f}"] if confidence < threshold else []
    if found := destructive_words(parsed, element):
        out.append(f"destructive target ({', '.join(found)})")
    if off_site(parsed, page_url, allowed_domains):
        out.append("navigates off the task's site")
    return out


def needs_critic(
    action: str | Action,
    element: PageElement | None,
    confidence: float,
    *,
    page_url: str | None = None,
    allowed_domains: Collection[str] | None = None,
    threshold: float = CONFIDENCE_THRESHOLD,
) -> bool:
    """True for risky or low-confidence actions (see the module doc)."""
    return bool(
        critic_triggers(
            action,
            element,
            confidence,
            page_url=page_url,
            allowed_domains=allowed_domains,
            threshold=threshold,
        )
    )


def _family(word: str) -> tuple[str, ...]:
    exact = next((f for f in _FAMILIES if word in f), None)
    return exact or next((f for f in _FAMILIES if word.split()[0] in f), (word,))


def goal_asks_for(goal: str, word: str) -> bool:
    """The goal uses a word of the same family ("remove" for "delete"); a several-word
    entry counts when all its words are in the goal ("cancel the subscription")."""
    said = set(words(goal))
    return any(set(entry.split()) <= said for entry in _family(word))
