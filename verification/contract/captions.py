"""Elements named by a caption in the page text, and the record they belong to.

A details card often shows its values as links under captions that are plain text::

    Casie
    Phone: 531-159-6223
    Email: casie@example.org
    Address: 645 Stephenson Loop

The address link is named "645 Stephenson Loop"; a person calls it "the address" — the
caption on its line — and "Casie's address" when the name above the captioned lines is
Casie. This reads both from the page text the client sends (one block per line): a line
``<caption>: <element's own text>`` captions that element, and the record is the first line
above it that is not captioned. A record that is not that line is never guessed: the
element then is not Casie's, whatever else the page shows (the goal's own text included).

Two more names a page gives a control its label does not: the caption its form row opens
with ("First payment date" over a box named by its placeholder), and its form's own field
name (``name="declaration"``). References fall back on them only when no label matches.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from verification.elements import PageElement
from verification.page import PageState

_CAPTIONED: Final = re.compile(r"^(?P<caption>[^:·|]{1,40}?)\s*:\s*(?P<value>\S.*)$")
MAX_CAPTIONED_LINES: Final = 12  # captioned lines a record may have above the element's

Words = Callable[[str], tuple[str, ...]]
Within = Callable[[tuple[str, ...], str], float]


def caption_of(element: PageElement, lines: list[str]) -> tuple[str, int] | None:
    """The caption on the element's line and that line's index, when the line is
    ``<caption>: <the element's text>``."""
    own = " ".join(element.name.split()).casefold()
    if not own:
        return None
    for index, line in enumerate(lines):
        match = _CAPTIONED.match(line)
        if match is not None and " ".join(match.group("value").split()).casefold() == own:
            return match.group("caption"), index
    return None


def record_line(lines: list[str], index: int) -> str | None:
    """The first line above ``index`` that is not captioned (the record's title)."""
    for back in range(index - 1, max(-1, index - 1 - MAX_CAPTIONED_LINES), -1):
        if _CAPTIONED.match(lines[back]) is None:
            return lines[back]
    return None


def shown_under_caption(page: PageState, caption: str) -> str | None:
    """The value the page text shows under ``caption`` — on its line (``City: Bergen``) or,
    for a line that is the caption alone (a ``<dt>``), the line after it — when the caption
    is shown exactly once; else ``None`` (never a guess between two)."""
    wanted = " ".join(caption.split()).casefold().rstrip(":")
    if not wanted:
        return None
    lines = [line.strip() for line in page.text_summary.splitlines() if line.strip()]
    found: list[str] = []
    for index, line in enumerate(lines):
        match = _CAPTIONED.match(line)
        if match is not None and " ".join(match.group("caption").split()).casefold() == wanted:
            found.append(match.group("value").strip())
        elif " ".join(line.split()).casefold().rstrip(":") == wanted:
            following = lines[index + 1] if index + 1 < len(lines) else ""
            if following and _CAPTIONED.match(following) is None:
                found.append(following)
            else:
                return None  # a caption with nothing readable under it: not a record's value
    return found[0] if len(found) == 1 else None


def named_by_caption(
    name_words: tuple[str, ...],
    record: str | None,
    page: PageState,
    candidates: list[tuple[int, PageElement]],
    *,
    words: Words,
    within: Within,
) -> list[tuple[float, int, PageElement]]:
    """Candidates (page order, element) whose caption carries ``name_words`` ("phone number"
    for "Phone:", "email" for "E-mail address:"), in the record named ``record`` when one is
    given — scored like names."""
    lines = [line.strip() for line in page.text_summary.splitlines() if line.strip()]
    if len(lines) < 2 or not name_words:
        return []
    found: list[tuple[float, int, PageElement]] = []
    for order, element in candidates:
        captioned = caption_of(element, lines)
        if captioned is None:
            continue
        caption, index = captioned
        score = max(within(name_words, caption), within(words(caption), " ".join(name_words)))
        if score == 0.0:
            continue
        if record is not None:
            title = record_line(lines, index)
            if title is None or within(words(record), title) == 0.0:
                continue
        found.append((score * 0.9, order, element))
    return found


# A form row a field sits in alone: "First payment date · Must be at least one day from today".
_FIELD_ROWS: Final = ("item:", "listitem:", "group:")
ROW_CAPTION_SCORE: Final = 0.85


def named_by_row_caption(
    name_words: tuple[str, ...], fields: list[tuple[int, PageElement]], *, words: Words
) -> list[tuple[float, int, PageElement]]:
    """A field captioned by a text its label is not tied to: the only one of ``fields`` in its
    form row, the row's text opening with the name ("First payment date" over a box whose own
    name is its placeholder "DD/MM/YYYY")."""
    rows: dict[str, list[tuple[int, PageElement]]] = {}
    for order, element in fields:
        if element.container and element.container[0].startswith(_FIELD_ROWS):
            rows.setdefault(element.container[0], []).append((order, element))
    found = []
    for row, members in rows.items():
        if len(members) == 1 and words(row.partition(":")[2])[: len(name_words)] == name_words:
            found.append((ROW_CAPTION_SCORE, *members[0]))
    return found


FIELD_NAME_SCORE: Final = 0.8


def named_by_field_name(
    name_words: tuple[str, ...], pool: list[tuple[int, PageElement]], *, words: Words
) -> list[tuple[float, int, PageElement]]:
    """A control no label names as the goal does, that the page's form names so: the check box
    under "Tick the declaration" is ``name="declaration"`` ("send_copy", "sendCopy": send copy)."""
    return [
        (FIELD_NAME_SCORE, order, element) for order, element in pool
        if element.field_name and words(re.sub(r"[_\-.\[\]]+|(?<=[a-z])(?=[A-Z])", " ", element.field_name)) == name_words
    ]  # fmt: skip
