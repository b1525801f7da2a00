"""Goal parsing without a model: what the user wants done, on what, with which values.

The parser recognises single actions ("click the Save button", "type \"Jas\" into Name",
"select \"Red\" from Colour", "go to https://…", "scroll down") and records what makes a goal
multi-step (several actions joined by "then", several field values, form verbs). It never
guesses: a goal it cannot read is ``intent="unknown"``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from agent.policy.lexicon import ORDINAL_LABELS
from agent.policy.text import fold

Intent = Literal[
    "click", "type", "select", "check", "uncheck", "press", "hover", "navigate", "back", "scroll", "unknown"
]
RoleHint = Literal["button", "link", "textbox", "checkbox", "radio", "combobox", "tab", "menuitem", "slider", "spinbutton"]

_QUOTED = re.compile(r"\"([^\"]*)\"|“([^”]*)”|'([^']+)'(?![a-z])")
_URL = re.compile(r"https?://[^\s\"'<>]+", re.IGNORECASE)
_ORDINAL = re.compile(r"\b(?:(\d+)(?:st|nd|rd|th)|(first|second|third|fourth|fifth|last))\b")
_ORDINAL_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1}
_SEQUENCE = re.compile(r"\b(?:and then|then|after that|afterwards|next)\b|;")
_FORM_VERBS = re.compile(
    r"\b(?:add|create|register|sign up|signup|log in|login|sign in|fill(?: out| in)?|submit|book|order|buy|"
    r"checkout|update|edit|change|delete|remove|search for|find)\b"
)
_ROLE_WORDS: dict[str, RoleHint] = {
    "button": "button",
    "btn": "button",
    "link": "link",
    "hyperlink": "link",
    "field": "textbox",
    "textbox": "textbox",
    "text box": "textbox",
    "text area": "textbox",
    "textarea": "textbox",
    "input": "textbox",
    "box": "textbox",
    "checkbox": "checkbox",
    "check box": "checkbox",
    "radio": "radio",
    "radio button": "radio",
    "option": "radio",
    "dropdown": "combobox",
    "drop-down": "combobox",
    "select": "combobox",
    "menu": "combobox",
    "list": "combobox",
    "tab": "tab",
    "menu item": "menuitem",
    "slider": "slider",
    "range slider": "slider",
    "spinner": "spinbutton",
    "spin box": "spinbutton",
    "spinbox": "spinbutton",
    "stepper": "spinbutton",
}
_FILLER = {"the", "a", "an", "on", "at", "in", "into", "to", "please", "named", "called", "labelled", "labeled", "with", "text", "that", "says", "of", "my", "below", "above"}

_PAGE_WORDS = frozenset({"page", "the page", "this page", "the window", "window"})

_PATTERNS: list[tuple[Intent, re.Pattern[str]]] = [
    ("back", re.compile(r"^(?:go|navigate) back\b")),
    # "scroll the terms to the bottom (of the text)", "scroll to the top of the page"
    ("scroll", re.compile(
        r"^scroll(?:\s+(?:all the way\s+)?(?:up|down))?(?:\s+(?P<target>(?!to\b).+?))?\s+(?:all the way\s+)?to\s+(?:the\s+)?(?:very\s+)?"
        r"(?P<edge>top|bottom|end|beginning|start)(?:\s+of\s+(?:the\s+|its\s+)?(?:text|page|content|contents|list|it))?$"
    )),
    ("scroll", re.compile(r"^scroll(?: the page)?(?: (?P<dir>up|down))?(?: to (?P<target>.+))?$")),
    ("navigate", re.compile(r"^(?:go to|navigate to|open|visit|load)\s+(?P<url>https?://\S+)$")),
    # "into" names the field even when the value has "for"/"in" of its own ("the email for Bob into To")
    ("type", re.compile(r"^(?:type|enter|input|write|put|fill(?: in)?)\s+(?P<value>.+)\s+into\s+(?:the\s+)?(?P<target>.+)$")),
    ("type", re.compile(r"^(?:type|enter|input|write|put|fill(?: in)?)\s+(?P<value>.+?)\s+(?:in|into|on|for)\s+(?:the\s+)?(?P<target>.+)$")),
    ("type", re.compile(r"^(?:fill|set|change|update)\s+(?:in\s+)?(?:the\s+)?(?P<target>.+?)\s+(?:with|to)\s+(?P<value>.+)$")),
    ("select", re.compile(r"^(?:select|choose|pick)\s+(?P<value>.+?)\s+(?:from|in)\s+(?:the\s+)?(?P<target>.+)$")),
    ("uncheck", re.compile(r"^(?:uncheck|untick|deselect|clear the checkbox)\s+(?P<target>.+)$")),
    ("check", re.compile(r"^(?:check|tick)\s+(?P<target>.+)$")),
    ("press", re.compile(r"^press\s+(?P<key>enter|tab|escape|esc)(?:\s+(?:in|on)\s+(?P<target>.+))?$")),
    ("hover", re.compile(r"^(?:hover(?: over| on)?|mouse over)\s+(?P<target>.+)$")),
    ("click", re.compile(r"^(?:click|tap|press|hit|push|select|choose|open|activate|follow)(?:\s+on)?\s+(?P<target>.+)$")),
]


@dataclass(frozen=True)
class TargetRef:
    text: str
    role: RoleHint | None = None
    ordinal: int | None = None  # 1-based; -1 = last
    exact: str | None = None  # the quoted label as the user spelled it
    name: str = ""  # the label's words as written, inner small words kept ("sign in", "add to cart")


@dataclass(frozen=True)
class ParsedGoal:
    raw: str
    intent: Intent
    target: TargetRef | None = None
    value: str | None = None
    url: str | None = None
    key: str | None = None
    direction: Literal["up", "down", "top", "bottom"] | None = None
    quoted: tuple[str, ...] = ()
    multi_step_reasons: tuple[str, ...] = field(default_factory=tuple)
    phrase: str | None = None  # the target as the goal words it ("the edit button in the row for bob")

    @property
    def is_single_action(self) -> bool:
        return self.intent != "unknown" and not self.multi_step_reasons


def _unquote(text: str) -> str:
    text = text.strip().rstrip(".!")
    for open_, close in (('"', '"'), ("“", "”"), ("'", "'")):
        if len(text) >= 2 and text.startswith(open_) and text.endswith(close):
            return text[1:-1]
    return text


def parse_target(text: str) -> TargetRef:
    """``"the 2nd Edit button"`` → text ``"edit"``, role button, ordinal 2. An empty text means
    "any element of that role" ("the button", "the text field")."""
    quoted = _QUOTED.search(text)
    exact = next(g for g in quoted.groups() if g is not None) if quoted else None
    folded = fold(_unquote(text)).rstrip(".!")
    folded = re.sub(r"[\"“”]|(?<!\w)'|'(?!\w)", " ", folded)
    folded = " ".join(folded.split())
    ordinal: int | None = None
    if (match := _ORDINAL.search(folded)) and not any(re.match(rf"{re.escape(label)}\b", folded[match.start() :]) for label in ORDINAL_LABELS):
        ordinal = int(match.group(1)) if match.group(1) else _ORDINAL_WORDS[match.group(2)]
        folded = (folded[: match.start()] + folded[match.end() :]).strip()
    role: RoleHint | None = None
    for phrase in sorted(_ROLE_WORDS, key=len, reverse=True):
        pattern = rf"(?:^|\s){re.escape(phrase)}(?:$|\s)"
        if re.search(pattern, folded):
            role = _ROLE_WORDS[phrase]
            folded = re.sub(pattern, " ", folded, count=1).strip()
            break
    generic = _FILLER | ({"text", "input"} if role == "textbox" else set())
    kept = [w for w in folded.split() if w not in generic]
    return TargetRef(text=" ".join(kept), role=role, ordinal=ordinal, exact=exact, name=_label_words(folded.split(), generic))


_TRAILING_NOISE = frozenset({"please", "now", "here", "there", "again"})


def _label_words(words: list[str], generic: set[str]) -> str:
    """Words that name the element: leading filler and trailing noise dropped, the small
    words inside a label kept — "sign in" is not "sign"."""
    start, end = 0, len(words)
    while start < end and words[start] in generic:
        start += 1
    while end > start and (words[end - 1] in _TRAILING_NOISE or (words[end - 1] in generic and end - start == 1)):
        end -= 1
    return " ".join(words[start:end])


def parse_goal(goal: str) -> ParsedGoal:
    raw = goal.strip()
    quoted = tuple(next(g for g in m.groups() if g is not None) for m in _QUOTED.finditer(raw))
    folded = fold(raw).rstrip(".!")
    reasons: list[str] = []
    if _SEQUENCE.search(folded):
        reasons.append("sequence")
    if len(quoted) > 1:
        reasons.append("several values")
    if _FORM_VERBS.search(folded) and not folded.startswith(("click", "tap", "press")):
        reasons.append("form or record task")
    if re.search(r"\b(?:click|type|enter|select|check)\b.*\band\b\s+(?:click|type|enter|select|check|press)\b", folded):
        reasons.append("several actions")

    for intent, pattern in _PATTERNS:
        match = pattern.match(folded)
        if not match:
            continue
        groups = match.groupdict()
        if intent == "navigate":
            url_match = _URL.search(raw)
            return ParsedGoal(raw, intent, url=url_match.group(0) if url_match else groups["url"], quoted=quoted, multi_step_reasons=tuple(reasons))
        if intent == "back":
            return ParsedGoal(raw, intent, quoted=quoted, multi_step_reasons=tuple(reasons))
        if intent == "scroll":
            edge = groups.get("edge")
            direction = ("top" if edge in ("top", "beginning", "start") else "bottom") if edge else groups.get("dir") or "down"
            target = parse_target(groups["target"]) if groups.get("target") and fold(groups["target"]) not in _PAGE_WORDS else None
            return ParsedGoal(raw, intent, target=target, direction=direction, quoted=quoted, multi_step_reasons=tuple(reasons))  # type: ignore[arg-type]
        value = groups.get("value")
        if value is not None:
            value = _original_case(raw, _unquote(value))
        target = parse_target(groups["target"]) if groups.get("target") else None
        key = groups.get("key")
        if key is not None:
            key = {"esc": "Escape"}.get(key, key.capitalize())
        phrase = _original_case(raw, groups["target"]) if groups.get("target") else None
        return ParsedGoal(raw, intent, target=target, value=value, key=key, quoted=quoted, multi_step_reasons=tuple(reasons), phrase=phrase)
    return ParsedGoal(raw, "unknown", quoted=quoted, multi_step_reasons=tuple(reasons))


def _original_case(raw: str, folded_value: str) -> str:
    """Recover the user's own spelling of a value (parsing works on folded text)."""
    for quoted in _QUOTED.finditer(raw):
        text = next(g for g in quoted.groups() if g is not None)
        if fold(text) == folded_value:
            return text
    index = fold(raw).find(folded_value)
    if index >= 0 and len(fold(raw)) == len(raw):
        return raw[index : index + len(folded_value)]
    return folded_value
