"""What a goal's value is: words to type, or a pointer to something on the page.

"type "ann" into Name" gives a value; "enter the phone number of Ana Silva" and "type the
text below" point at one the page shows, and typing those words would be a guess. Quoted
words are always the value itself.
"""

from __future__ import annotations

import re
from typing import Final

from agent.policy.lexicon import ATTRIBUTE_NOUNS
from agent.policy.text import QUOTED, quoted_text
from verification.contract import ValueSource, fold

# A value that points at something instead of giving it: Stepwise cannot type "that".
_PLACEHOLDER_VALUES: Final[frozenset[str]] = frozenset(
    {"it", "that", "this", "them", "these", "those", "your answer", "the answer", "answer", "the result", "result", "the text", "the number", "the word"}
)
_ATTRIBUTE: Final = "(?:" + "|".join(sorted(map(re.escape, ATTRIBUTE_NOUNS), key=len, reverse=True)) + ")"
_POINTER: Final = re.compile(
    rf"^(?:the|its|his|her|their|my|your)\s+(?:[a-z-]+\s+)?{_ATTRIBUTE}(?:\s+{_ATTRIBUTE})?(?:\s+(?:of|for|from)\s+.+)?$"
    rf"|^[a-z0-9 .-]+['’]s\s+(?:[a-z-]+\s+)?{_ATTRIBUTE}(?:\s+{_ATTRIBUTE})?$"
)
_SHOWN: Final = re.compile(
    r"^(?:the|this|that|these|those)\s+(?:(?:same|following|given)\s+)?"
    r"(?:text|word|words|sentence|phrase|value|number|code|string|letters?|characters?|digits?|message)"
    r"(?:\s+(?:below|above|shown|here|displayed|given|provided|on (?:the )?(?:page|screen|right|left)))*$"
)


def placeholder(value: str | None, goal: str = "") -> bool:
    """Whether ``value`` points at something ("that", "the text below", "Ana's email") instead of giving it."""
    if value is None or not value.strip() or fold(value) in _PLACEHOLDER_VALUES:
        return True
    if _SHOWN.match(fold(value)) is not None and not quoted_in(value, goal):
        return True  # "the text below": what the page shows, not these words
    # "the phone number of Ana Silva", "Ana Silva's phone number": a value that points at one
    # on the page. Unless the goal quotes it, typing those words would be a guess.
    return _POINTER.match(fold(value)) is not None and not quoted_in(value, goal)


_CELL_OF: Final = re.compile(
    rf"^(?:the|its|his|her|their)\s+(?P<column>(?:[a-z-]+\s+)?{_ATTRIBUTE}(?:\s+{_ATTRIBUTE})?)\s+(?:of|for)\s+(?P<row>.+)$"
)
_CELL_POSSESSIVE: Final = re.compile(
    rf"^(?P<row>[a-z0-9 .-]+?)['’]s\s+(?P<column>(?:[a-z-]+\s+)?{_ATTRIBUTE}(?:\s+{_ATTRIBUTE})?)$"
)


def table_cell(value: str | None, goal: str) -> ValueSource | None:
    """"the phone number of Ana Silva", "Ana Silva's email": a cell to read on the page (its
    row named by the person or record, its column by the attribute) — not words to type."""
    if value is None or quoted_in(value, goal):
        return None
    text = fold(value)
    found = _CELL_OF.match(text) or _CELL_POSSESSIVE.match(text)
    if found is None:
        return None
    start, end = found.span("row")
    row = value.strip()[start:end] if len(value.strip()) == len(text) else found.group("row")
    return ValueSource(row=row.strip(" .,"), column=found.group("column"))


def quoted_in(value: str, goal: str) -> bool:
    """Whether the goal quotes exactly ``value``."""
    wanted = fold(value)
    return any(fold(quoted_text(m)) == wanted for m in QUOTED.finditer(goal))


def quoted_values(goal: str) -> list[str]:
    """The goal's quoted words, in order."""
    return [quoted_text(m) for m in QUOTED.finditer(goal)]
