"""The one action grammar of Stepwise: ``click("14")``, ``setValue("14", "Jas")`` …

Every component that produces or reads a browser action goes through
:func:`parse_action` and :func:`format_action`, so the text the extension receives,
the text stored with a task and the text the verifier reads are the same language.

Grammar (whitespace allowed between all tokens, one optional trailing ``;``)::

    action   := NAME "(" [arg ("," arg)*] ")"
    arg      := STRING | BARE
    STRING   := '"' … '"' | "'" … "'"     backslash escapes: \\" \\' \\\\ \\n \\t \\r \\b \\f \\/ \\uXXXX
                                        (an unknown escape such as \\d keeps its backslash)
    BARE     := one or more of  A-Z a-z 0-9 _ - . : / # @ + ~ ?  =  &  %

Function names match case-insensitively (``setvalue`` → ``setValue``); the canonical
form written by :func:`format_action` always uses double quotes and JSON escapes.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Final, Literal, cast, get_args

from verification.action_lexer import ActionSyntaxError, Reader

__all__ = [
    "ACTION_NAMES",
    "SCROLL_DIRECTIONS",
    "Action",
    "ActionName",
    "ActionSyntaxError",
    "format_action",
    "parse_action",
]

ActionName = Literal[
    "click",
    "setValue",
    "select",
    "press",
    "scroll",
    "hover",
    "navigate",
    "goBack",
    "wait",
    "finish",
    "fail",
    "googleSearch",
]
ACTION_NAMES: Final[tuple[ActionName, ...]] = get_args(ActionName)
SCROLL_DIRECTIONS: Final[frozenset[str]] = frozenset(
    {"up", "down", "left", "right", "top", "bottom"}
)

_BY_LOWER: Final[dict[str, str]] = {name.lower(): name for name in ACTION_NAMES}
# name -> (what each positional argument fills, minimum number of arguments)
_SIGNATURES: Final[dict[str, tuple[tuple[str, ...], int]]] = {
    "click": (("target",), 1),
    "setValue": (("target", "value"), 2),
    "select": (("target", "value"), 2),
    "press": (("target", "value"), 1),  # press("Enter") = key only, on the focused element
    "scroll": (("target_or_direction", "direction"), 0),  # scroll("<id>", "bottom"): inside it
    "hover": (("target",), 1),
    "navigate": (("value",), 1),
    "goBack": ((), 0),
    "wait": (("seconds",), 0),
    "finish": (("value",), 0),
    "fail": (("value",), 0),
    "googleSearch": (("value",), 1),
}
_USAGE: Final[dict[str, str]] = {
    "click": 'click("<id>")',
    "setValue": 'setValue("<id>", "<text>")',
    "select": 'select("<id>", "<option>")',
    "press": 'press("<id>", "<key>") or press("<key>")',
    "scroll": 'scroll("down"), scroll("<id>") or scroll("<id>", "bottom")',
    "hover": 'hover("<id>")',
    "navigate": 'navigate("<url>")',
    "goBack": "goBack()",
    "wait": "wait(<seconds>)",
    "finish": "finish()",
    "fail": 'fail("<reason>")',
    "googleSearch": 'googleSearch("<query>")',
}


@dataclass(frozen=True, slots=True)
class Action:
    """One browser action. ``target`` is an element id, ``value`` the text/option/key/url/
    reason/query/direction, ``seconds`` the wait time."""

    name: ActionName
    target: str | None = None
    value: str | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.name not in _SIGNATURES:
            raise ValueError(
                f"unknown action {self.name!r}; expected one of {', '.join(ACTION_NAMES)}"
            )
        slots, minimum = _SIGNATURES[self.name]
        takes_target = "target" in slots or "target_or_direction" in slots
        takes_value = "value" in slots or "target_or_direction" in slots
        if self.target is not None and not takes_target:
            raise ValueError(f"{self.name}() takes no element id")
        if self.value is not None and not takes_value:
            raise ValueError(f"{self.name}() takes no text value")
        if self.seconds is not None and self.name != "wait":
            raise ValueError(f"{self.name}() takes no seconds")
        if self.name in ("click", "hover", "setValue", "select") and not self.target:
            raise ValueError(f"{self.name}() needs an element id")
        if (
            self.name in ("setValue", "select", "press", "navigate", "googleSearch")
            and self.value is None
        ):
            raise ValueError(f"{self.name}() needs a value")
        if (
            self.name == "scroll"
            and self.target is not None
            and self.target.lower() in SCROLL_DIRECTIONS
        ):
            raise ValueError(
                f"scroll() element id {self.target!r} reads as a direction; pass it as the value"
            )
        if self.name == "scroll" and self.value is not None and self.value not in SCROLL_DIRECTIONS:
            raise ValueError(
                f"scroll direction must be one of {sorted(SCROLL_DIRECTIONS)}, got {self.value!r}"
            )
        if self.seconds is not None and (not math.isfinite(self.seconds) or self.seconds < 0):
            raise ValueError(f"wait() seconds must be a finite number >= 0, got {self.seconds!r}")
        if minimum and not (self.target or self.value is not None or self.seconds is not None):
            raise ValueError(f"{self.name}() needs an argument")


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _format_seconds(seconds: float) -> str:
    seconds = float(seconds)  # an int has no is_integer() before Python 3.12
    if seconds.is_integer() and abs(seconds) < 1e15:
        return str(int(seconds))
    return repr(float(seconds))


def format_action(action: Action) -> str:
    """Canonical text of an action; ``parse_action(format_action(a)) == a``."""
    args: list[str] = []
    if action.name == "wait":
        if action.seconds is not None:
            args.append(_format_seconds(action.seconds))
    else:
        if action.target is not None:
            args.append(_quote(action.target))
        if action.value is not None:
            args.append(_quote(action.value))
    return f"{action.name}({', '.join(args)})"


def parse_action(text: str) -> Action:
    """Parse one action. Raises :class:`ActionSyntaxError` with a message that says what is wrong."""
    if not isinstance(text, str):
        raise ActionSyntaxError(f"an action must be text, got {type(text).__name__}")
    reader = Reader(text)
    reader.skip_space()
    raw_name = reader.name()
    if not raw_name:
        raise reader.error("expected an action name such as click")
    name = _BY_LOWER.get(raw_name.lower())
    if name is None:
        raise ActionSyntaxError(
            f"unknown action {raw_name!r} in {text!r}; expected one of {', '.join(ACTION_NAMES)}"
        )
    reader.skip_space()
    if reader.peek() != "(":
        raise reader.error(f"expected '(' after {raw_name}")
    reader.pos += 1
    args = reader.arguments()
    reader.skip_space()
    if reader.peek() == ";":
        reader.pos += 1
        reader.skip_space()
    if reader.pos != len(text):
        raise reader.error("unexpected text after the action")
    return _build(name, args, text)


def _build(name: str, args: list[tuple[str, bool]], text: str) -> Action:
    slots, minimum = _SIGNATURES[name]
    usage = _USAGE[name]
    if not minimum <= len(args) <= len(slots):
        raise ActionSyntaxError(
            f"{name} takes {_count(minimum, len(slots))}, got {len(args)} in {text!r}; usage: {usage}"
        )
    target: str | None = None
    value: str | None = None
    seconds: float | None = None
    if name == "press" and len(args) == 1:
        value = args[0][0]
    else:
        for slot, (arg, _quoted) in zip(slots, args, strict=False):
            if slot == "target":
                target = arg
            elif slot == "value":
                value = arg
            elif slot == "seconds":
                seconds = _seconds(arg, text)
            elif slot == "direction":  # scroll("<id>", "<direction>"): inside that element
                value = arg.lower()
                if target is None:
                    raise ActionSyntaxError(f"scroll() takes an element id before a direction in {text!r}; usage: {usage}")
            else:  # scroll: a direction word or an element id
                if arg.lower() in SCROLL_DIRECTIONS and len(args) == 1:
                    value = arg.lower()
                else:
                    target = arg
    try:
        return Action(name=cast(ActionName, name), target=target, value=value, seconds=seconds)
    except ValueError as exc:
        raise ActionSyntaxError(f"{exc} in {text!r}; usage: {usage}") from exc


def _count(minimum: int, maximum: int) -> str:
    if maximum == 0:
        return "no arguments"
    if minimum == maximum:
        return f"{maximum} argument{'s' if maximum > 1 else ''}"
    return f"{minimum} to {maximum} arguments"


def _seconds(arg: str, text: str) -> float:
    try:
        seconds = float(arg)
    except ValueError:
        raise ActionSyntaxError(
            f"wait() needs a number of seconds, got {arg!r} in {text!r}"
        ) from None
    return seconds
