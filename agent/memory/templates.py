"""A goal as a template: its wording kept, its values named.

``Add a patient named "Jas" born 12/03/1990`` → ``Add a patient named "{v1}" born {v2}``
with ``{"v1": "Jas", "v2": "12/03/1990"}``. A later goal is the same template when it says
the same words (case and spacing aside) around other values; its values are then bound to
the template's variables and nothing else is guessed. The values themselves are never kept
in a template.

The variables of a goal are its quoted spans, the values the caller names (what the task
typed, the names of what it clicked) where the goal says them, and its numbers (amounts,
dates, times, counts). Literal braces are doubled, as in :meth:`str.format`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from agent.memory.targets import substitute
from agent.policy.text import fold

_QUOTED: Final = re.compile(r"\"([^\"]+)\"|“([^”]+)”|‘([^’]+)’|(?<!\w)'([^']+)'(?!\w)")
# 42, 3.50, 1,234.56, $12, 20 €, 15%, 12/03/2024, 2024-03-12, 10:30, 3rd: not inside a word
_NUMBER: Final = re.compile(
    r"(?<![\w.,/:-])(?:[$€£¥]\s?)?\d+(?:[.,:/-]\d+)*(?:st|nd|rd|th)?(?:\s?(?:%|€|£))?(?![\w])"
)
_REF: Final = re.compile(r"\{\{|\}\}|\{(\w+)\}")
_SPACE: Final = re.compile(r"(\s+)")


@dataclass(frozen=True)
class GoalTemplate:
    """A goal with its values as ``{v1}``, ``{v2}`` … (in order of appearance)."""

    text: str
    variables: tuple[str, ...]

    def bind(self, goal: str) -> dict[str, str] | None:
        """The values ``goal`` gives this template's variables, or ``None`` when ``goal`` is
        not this template (other words, a repeated variable given two values, an empty value)."""
        pattern, groups = _compiled(self.text)
        match = pattern.fullmatch(goal.strip())
        if match is None:
            return None
        values = {name: match.group(group) for group, name in groups.items()}
        if any(not value.strip() for value in values.values()):
            return None
        return values

    @classmethod
    def parse(cls, text: str) -> GoalTemplate:
        """A stored template's text back as a template."""
        return cls(text=text, variables=tuple(dict.fromkeys(m.group(1) for m in _REF.finditer(text) if m.group(1))))

    def render(self, bindings: Mapping[str, str]) -> str:
        """The goal this template says with ``bindings`` (raises ``MissingBinding``)."""
        return substitute(self.text, bindings)


@lru_cache(maxsize=1024)
def _compiled(text: str) -> tuple[re.Pattern[str], dict[str, str]]:
    """The template as a pattern: literal words case-insensitive, spacing flexible, each
    variable a non-empty lazy group (group ``g<i>``), a repeated one a back-reference."""
    parts: list[str] = []
    groups: dict[str, str] = {}  # group → variable
    seen: dict[str, str] = {}  # variable → group
    literal: list[str] = []

    def flush() -> None:
        if literal:
            joined = "".join(literal)
            parts.extend(r"\s+" if piece.isspace() else re.escape(piece) for piece in _SPACE.split(joined) if piece)
            literal.clear()

    position = 0
    for match in _REF.finditer(text):
        literal.append(text[position : match.start()])
        position = match.end()
        name = match.group(1)
        if name is None:
            literal.append(match.group(0)[0])
            continue
        flush()
        if name in seen:
            parts.append(f"(?P={seen[name]})")
        else:
            group = f"g{len(seen)}"
            seen[name] = group
            groups[group] = name
            parts.append(f"(?P<{group}>.+?)")
    literal.append(text[position:])
    flush()
    return re.compile("".join(parts), re.IGNORECASE | re.DOTALL), groups


def _occurrences(goal: str, value: str) -> Iterable[tuple[int, int]]:
    words = value.split()
    if not words:
        return ()
    start = r"(?<![^\W_])" if words[0][0].isalnum() else ""
    end = r"(?![^\W_])" if words[-1][-1].isalnum() else ""
    pattern = re.compile(start + r"\s+".join(re.escape(w) for w in words) + end, re.IGNORECASE)
    return (m.span() for m in pattern.finditer(goal))


def make_template(goal: str, values: Iterable[str] = ()) -> tuple[GoalTemplate, dict[str, str]]:
    """``goal`` as a template, and the bindings that give back ``goal``.

    Variables, in this order of precedence (a span once taken is never split): every quoted
    span (``".."``, ``'..'``, ``“..”``, ``‘..’``; the quotes stay literal), every given value
    the goal says (word-bounded, case-insensitive, longest first), every number (digits,
    dates, times, amounts). Equal values (case and spacing aside) are one variable."""
    goal = goal.strip()
    spans: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in spans)

    def claim(start: int, end: int) -> None:
        if start < end and goal[start:end].strip() and free(start, end):
            spans.append((start, end))

    for match in _QUOTED.finditer(goal):
        group = next(i for i in range(1, 5) if match.group(i) is not None)
        claim(match.start(group), match.end(group))
    given = {fold(v): " ".join(v.split()) for v in values if isinstance(v, str) and v.strip()}
    for value in sorted(given.values(), key=len, reverse=True):
        for start, end in _occurrences(goal, value):
            claim(start, end)
    for match in _NUMBER.finditer(goal):
        claim(*match.span())

    spans.sort()
    names: dict[str, str] = {}  # folded value → variable
    bindings: dict[str, str] = {}
    out: list[str] = []
    position = 0
    for start, end in spans:
        value = goal[start:end]
        key = fold(value)
        if key not in names:
            names[key] = f"v{len(names) + 1}"
            bindings[names[key]] = value
        out.append(_escape(goal[position:start]))
        out.append("{" + names[key] + "}")
        position = end
    out.append(_escape(goal[position:]))
    return GoalTemplate("".join(out), tuple(bindings)), bindings


def _escape(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


__all__ = ["GoalTemplate", "make_template"]
