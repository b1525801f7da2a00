"""What a goal asks for that a plan must honour: the values it gives, and whether it ends
in committing something (Save, Submit, Search…).

Deliberately conservative — a value is recognised only when the user marked it
unmistakably: quoted text, ``field: value`` / ``field = value``, ``set X to Y``,
``named Jas``, an e-mail address, a URL or a date. Anything else is left to the model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from planning.text import fold

_QUOTED: Final = re.compile(r"\"([^\"]+)\"|“([^”]+)”|‘([^’]+)’|(?<![A-Za-z0-9])'([^']+)'(?![A-Za-z0-9])")
_EMAIL: Final = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_URL: Final = re.compile(r"https?://[^\s\"'<>]+", re.IGNORECASE)
_DATE: Final = re.compile(r"\b\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}\b")
_FIELD_VALUE: Final = re.compile(
    r"(?P<field>[A-Za-z][A-Za-z ]{0,30}?)\s*[:=]\s*(?P<value>[^,;\n]+?)\s*(?=,|;|\n|$|\band\b|[.!?]\s)"
)
_SET_TO: Final = re.compile(
    r"\b(?:set|change|update)\s+(?:the\s+)?(?P<field>[A-Za-z][A-Za-z ]{0,30}?)\s+to\s+(?P<value>[^\s,;]+)",
    re.IGNORECASE,
)
_NAMED: Final = re.compile(r"\b(?:named|called|titled)\s+(?P<value>[A-Z0-9][\w.-]*(?:\s+[A-Z][\w.-]*)*)")
_SUBMIT_VERBS: Final = re.compile(
    r"\b(?:add|create|register|sign up|signup|log in|login|sign in|submit|save|send|post|book|order|buy|"
    r"check ?out|search|subscribe|apply|upload|publish|reply|comment|invite|reserve|pay|confirm|delete|remove)\b"
)
_TRAILING: Final = ".,;:!?)"


@dataclass(frozen=True, slots=True)
class GoalValue:
    """One value the user gave, with the field it is for when the goal says so."""

    value: str
    field: str | None = None


def _clean(value: str) -> str:
    value = value.strip()
    while value and value[-1] in _TRAILING:
        value = value[:-1]
    for open_, close in (('"', '"'), ("'", "'"), ("“", "”")):
        if len(value) >= 2 and value.startswith(open_) and value.endswith(close):
            value = value[1:-1]
    return value.strip()


def goal_values(goal: str) -> list[GoalValue]:
    """The values in ``goal`` in order of appearance, each once (case-insensitively)."""
    found: list[tuple[int, GoalValue]] = []
    taken: list[tuple[int, int]] = []

    def add(start: int, end: int, value: str, field: str | None = None) -> None:
        value = _clean(value)
        if not value or any(start < e and s < end for s, e in taken):
            return
        taken.append((start, end))
        found.append((start, GoalValue(value, field.strip().lower() if field else None)))

    for match in _QUOTED.finditer(goal):
        text = next(g for g in match.groups() if g is not None)
        add(match.start(), match.end(), text, _field_before(goal[: match.start()]))
    for pattern in (_URL, _EMAIL):
        for match in pattern.finditer(goal):
            add(match.start(), match.end(), match.group(0))
    for match in _FIELD_VALUE.finditer(goal):
        field = match.group("field").split()[-2:]
        add(match.start("value"), match.end("value"), match.group("value"), " ".join(field))
    for match in _SET_TO.finditer(goal):
        add(match.start("value"), match.end("value"), match.group("value"), match.group("field"))
    for match in _NAMED.finditer(goal):
        add(match.start("value"), match.end("value"), match.group("value"), "name")
    for match in _DATE.finditer(goal):
        add(match.start(), match.end(), match.group(0))

    seen: set[str] = set()
    out: list[GoalValue] = []
    for _, item in sorted(found, key=lambda pair: pair[0]):
        key = fold(item.value)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


_FIELD_BEFORE: Final = re.compile(r"([A-Za-z]+)\s*[:=]\s*$")


def _field_before(before: str) -> str | None:
    """The field a quoted value is for when the goal says ``name: "Jas"``."""
    match = _FIELD_BEFORE.search(before)
    return match.group(1) if match else None


def implies_submission(goal: str) -> bool:
    """The goal creates, sends, books, searches or deletes something: a plan for it must end
    by pressing the control that commits the work (Save, Submit, Search…)."""
    return bool(_SUBMIT_VERBS.search(fold(goal)))
