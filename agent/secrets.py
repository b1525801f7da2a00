"""What a secret is, and a task's secrets while a request handles them.

The rule (issue 12, "Secrets stay secret"; docs/api.md "Secrets"):

* a value the goal binds to a secret's name — ``password``, ``PIN``, ``API key``, ``card
  number``, ``CVV`` … (:data:`agent.policy.lexicon.SECRET_NAMES`): ``with password
  "hunter2"``, ``PIN is 4821``, ``token: abc`` (quoted, or one bare token that is not a
  function word or a UI noun);
* text of the goal that looks like a secret whoever wrote it: a payment-card number (Luhn
  valid), an API key of a known shape (:func:`observability.redaction.secret_shapes`);
* any value the task types into a field whose kind is password (HTML ``type=password``,
  V3 ``ty: "password"``) or whose label names a secret.

A task's secrets are numbered from 1 in the order found; everywhere outside the request
(stored records, messages, logs, traces, model prompts, API answers) a secret is its
placeholder ``[secret:N]``. The real values travel only sealed (:mod:`agent.sealing`) in
``task.state["sealed"]``, and in the one place that needs them: the action the client must
execute.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from agent.policy.lexicon import SECRET_NAMES
from observability import PLACEHOLDER, hide_more, redactor, secret_shapes
from planning import fold
from verification import Action, ActionSyntaxError, PageElement, PageState, format_action, parse_action

_NAMES: Final = "|".join(sorted((re.escape(n).replace(r"\ ", r"[\s_-]?") for n in SECRET_NAMES), key=len, reverse=True))
_BOUND: Final = re.compile(
    rf"\b(?:{_NAMES})\b(?:\s+(?:number|code))?\s*(?:(?:is|of|to|=|:|as|with)\s*)?"
    r"(?P<v>\"[^\"]+\"|“[^”]+”|'[^']+'|‘[^’]+’|\d(?:[ -]?\d){11,18}|[^\s,;\"“'‘]+)",
    re.IGNORECASE,
)
# "type "x" into Password", "enter 4821 in the PIN field", "use abc as the token"
_INTO: Final = re.compile(
    r"(?P<v>\"[^\"]+\"|“[^”]+”|'[^']+'|‘[^’]+’|[^\s,;\"“'‘]+)\s+(?:into|in|as)\s+(?:the\s+|my\s+|your\s+|our\s+)?"
    rf"(?:{_NAMES})\b",
    re.IGNORECASE,
)
# Bare words after a secret's name that are not its value ("type the password *in* the
# box", "the PIN *field*", "a *new* token").
_NOT_A_VALUE: Final[frozenset[str]] = frozenset(
    """a an the in into on onto at of to for from with without and or then than as by is are was be it its this that
    these those my your our his her their me you we i field box input textbox form page screen button link tab menu
    dialog prompt here there again please now first next new old same current above below reset forgot forgotten
    change changed update updated hint strength manager required optional again also too only just saved stored
    remembered visible hidden settings setting options preferences section panel area page entry fields policy
    requirements rules length""".split()
)
_TRAILING: Final = ".,:)]}"
_FIELD_NAME: Final = re.compile(rf"\b(?:{_NAMES})\b", re.IGNORECASE)


def goal_secrets(goal: str) -> list[str]:
    """The secret values a goal gives, in the order it gives them."""
    found: list[str] = []
    for match in (*_BOUND.finditer(goal), *_INTO.finditer(goal)):
        raw = match.group("v")
        if raw[0] in "\"“'‘":
            value = raw[1:-1]
        else:
            value = raw.rstrip(_TRAILING)
            if fold(value) in _NOT_A_VALUE or _FIELD_NAME.fullmatch(value):
                continue
            if match.re is _INTO and value.isalpha():  # "click Help in the password section"
                continue
        if value.strip():
            found.append(value)
    found += secret_shapes(goal)
    return list(dict.fromkeys(found))


def goal_masker(goal: str) -> Callable[[str], str]:
    """Masks a goal's secrets (and secret-shaped text) in text printed outside the server:
    the CLI's progress lines show ``[secret:N]`` where the action typed the value."""
    return redactor({i + 1: v for i, v in enumerate(goal_secrets(goal))})


def is_secret_field(element: PageElement) -> bool:
    """A field whose value is a secret: a password input, or a label naming a secret."""
    if (element.input_type or "").lower() == "password":
        return True
    label = " ".join(filter(None, (element.name, element.placeholder)))
    return bool(label) and _FIELD_NAME.search(label) is not None


class PlaceholderMisuse(ValueError):
    """A placeholder aimed somewhere a secret must not go (not a secret field)."""


@dataclass
class TaskSecrets:
    """One task's secret values (number N = index + 1) while a request runs. Values added
    here are also registered with the request's redaction (:func:`observability.hide_more`)."""

    values: list[str] = field(default_factory=list)
    added: bool = False  # a value was found during this request (the sealed copy must change)

    @classmethod
    def of_goal(cls, goal: str) -> TaskSecrets:
        values = goal_secrets(goal)
        return cls(values, added=bool(values))

    def __bool__(self) -> bool:
        return bool(self.values)

    def numbered(self) -> dict[int, str]:
        return {i + 1: v for i, v in enumerate(self.values)}

    def add(self, value: str) -> None:
        if value and value not in self.values and not PLACEHOLDER.fullmatch(value):
            self.values.append(value)
            self.added = True
            hide_more({len(self.values): value})

    def value_of(self, number: int) -> str | None:
        return self.values[number - 1] if 0 < number <= len(self.values) else None

    def reveal_text(self, text: str) -> str:
        """Placeholders back to values; an action keeps its grammar (its value re-quoted)."""
        if "[secret:" not in text:
            return text
        try:
            action = parse_action(text)
        except ActionSyntaxError:
            return self._plain(text)
        if action.value is None or "[secret:" not in action.value:
            return self._plain(text)
        return format_action(Action(name=action.name, target=action.target, value=self._plain(action.value), seconds=action.seconds))

    def _plain(self, text: str) -> str:
        return PLACEHOLDER.sub(lambda m: self.value_of(int(m.group(1))) or m.group(0), text)

    def note_typed(self, action_text: str, page: PageState) -> None:
        """A value typed into a secret field becomes one of the task's secrets."""
        action = _parsed(action_text)
        if action is None or action.name != "setValue" or not action.value or action.target is None:
            return
        element = page.element(action.target)
        if element is not None and is_secret_field(element):
            self.add(action.value)

    def fill_placeholders(self, action: Action, page: PageState, *, by_model: bool = True) -> Action:
        """The action with its placeholders replaced by the real values — only when it types
        into a secret field; a placeholder anywhere else raises PlaceholderMisuse, and so does
        a model typing a real secret into a field that is not a secret one. Placeholders in
        ``finish``/``fail`` text stay as they are (that text is shown, never typed)."""
        if action.value is None or action.name in ("finish", "fail"):
            return action
        element = page.element(action.target) if action.target is not None else None
        secret_field = action.name == "setValue" and element is not None and is_secret_field(element)
        if "[secret:" not in action.value:
            if by_model and not secret_field and any(v in action.value for v in self.values if len(v) >= 4):
                raise PlaceholderMisuse("a secret may only be typed into a password/secret field")
            return action
        if not secret_field:
            raise PlaceholderMisuse(f"a secret placeholder may only be typed into a password/secret field, not used in {action.name}")
        filled = self._plain(action.value)
        if PLACEHOLDER.search(filled):
            raise PlaceholderMisuse("the placeholder names no secret of this task")
        return Action(name=action.name, target=action.target, value=filled, seconds=action.seconds)


def _parsed(text: str) -> Action | None:
    try:
        return parse_action(text)
    except ActionSyntaxError:
        return None


__all__ = ["PlaceholderMisuse", "TaskSecrets", "goal_masker", "goal_secrets", "is_secret_field"]
