"""Values the goal points at instead of giving: read on the page, once, with evidence.

"Copy the text of the 2nd text area and paste it into the text input", "type the 5th word
of the paragraph": the clause that checks the destination field has a :class:`ValueSource`
instead of a value. The first page on which the source can be read fixes the value (a
source that changes later does not move the goal), and the read is recorded in
``Contract.reads`` — what was read, from which element, on which step.

"The paragraph" is the page's one long block of text, from the page text the client sends
one block per line (``pageText``): when several blocks of similar length could be it, or the
text has no blocks, nothing is read (the goal then cannot be proven; it is never guessed).
"""

from __future__ import annotations

import re
from typing import Final

from verification.contract.model import Contract, Evidence, ValueSource
from verification.contract.refs import describe_element, resolve, words, words_within
from verification.page import PageState

_WORD: Final = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
_PARAGRAPH_WORDS: Final = 4  # fewer words is a label, not a paragraph
_CELL: Final = " · "  # between the cells of a table row in the page text
_CLEAR_LEAD: Final = 2.0  # the longest block must be this many times the next to be "the" paragraph
# Columns that a key-value table does not title: "the value of Last name" is the cell beside
# the key "Last name" (or the text after "Last name:"), where no header names a "value" column.
_VALUE_COLUMNS: Final = frozenset({"value", "entry"})
_CAPTION: Final = re.compile(r"^(?P<key>[^:·|]{1,60}?)\s*:\s*(?P<value>\S.*)$")


def _paragraph(page: PageState, goal: str) -> str | None:
    if "\n" not in page.text_summary.strip():
        return None  # text without its blocks (server-side HTML text is one run): no paragraph to point at
    # A page that shows the goal itself (a task's instructions) does not mean that text.
    said = _words(goal)
    blocks = [
        line.strip() for line in page.text_summary.splitlines()
        if len(line.split()) >= _PARAGRAPH_WORDS and not (said and _words(line) == said)
    ]  # fmt: skip
    if not blocks:
        return None
    blocks.sort(key=len, reverse=True)
    if len(blocks) == 1 or len(blocks[0]) >= _CLEAR_LEAD * len(blocks[1]):
        return blocks[0]
    return None


def _words(text: str) -> tuple[str, ...]:
    return tuple(w.lower() for w in _WORD.findall(text))


def _cell(page: PageState, row: str, column: str) -> tuple[str, str] | None:
    """The cell of a table row in a column, from the page text (one row per line, cells
    joined by " · "): the one row with a cell carrying every word of ``row``, and the one
    cell of the header line above it carrying every word of ``column``. Anything less
    certain — two such rows, no header, rows and header of different widths — reads nothing."""
    lines = [[cell.strip() for cell in line.split(_CELL)] for line in page.text_summary.splitlines()]
    row_words, column = words(row), set(words(column))
    rows = [n for n, cells in enumerate(lines) if len(cells) > 1 and any(words_within(row_words, c) > 0 for c in cells)]
    if len(rows) != 1:
        return None
    cells = lines[rows[0]]
    for header in reversed(lines[: rows[0]]):  # the nearest line above that names the column
        if len(header) != len(cells):
            continue
        named = [n for n, title in enumerate(header) if _names_column(set(words(title)), column)]
        if not named:
            continue
        if len(named) == 1 and cells[named[0]]:
            return cells[named[0]], f"the {header[named[0]]!r} cell of the row for {row!r}"
        return None
    return None


def _keyed(page: PageState, key: str) -> tuple[str, str] | None:
    """The value beside a key in a key-value layout: a two-cell row whose first cell is the
    key ("Last name · Reynolds") or a line ``Last name: Reynolds`` — one such line, with the
    key exactly (not a longer key that contains it), or nothing."""
    wanted = words(key)
    found: list[tuple[str, str]] = []
    for line in page.text_summary.splitlines():
        cells = [cell.strip() for cell in line.split(_CELL)]
        if len(cells) == 2:
            pair = cells[0], cells[1]
        elif len(cells) == 1 and (caption := _CAPTION.match(cells[0])) is not None:
            pair = caption.group("key"), caption.group("value").strip()
        else:
            continue
        if pair[1] and words(pair[0]) == wanted:
            found.append(pair)
    if len(found) != 1:
        return None
    return found[0][1], f"the value beside {found[0][0]!r}"


def _names_column(title: set[str], column: set[str]) -> bool:
    """"Phone" names the column "phone number", and "E-mail address" the column "email"."""
    return bool(title) and bool(column) and (title <= column or column <= title)


def _source_text(source: ValueSource, page: PageState, goal: str) -> tuple[str, str] | None:
    if source.row is not None and source.column is not None:
        found = _cell(page, source.row, source.column)
        if found is None and set(words(source.column)) <= _VALUE_COLUMNS:
            found = _keyed(page, source.row)
        return found
    if source.element is None:
        text = _paragraph(page, goal)
        return (text, "the paragraph") if text else None
    found = resolve(source.element, page)
    if not found.found:
        return None
    element = found.elements[0]
    text = element.value if element.value is not None else (element.text or element.name)
    return (text, describe_element(element)) if text and text.strip() else None


def read_value(source: ValueSource, page: PageState, goal: str = "") -> tuple[str, str] | None:
    """(the value, where it was read) — or ``None`` when the page does not show it (yet).
    ``goal``: the goal's own text, which a page may show and which is never the source."""
    found = _source_text(source, page, goal)
    if found is None:
        return None
    text, where = found
    # A field's text is copied as it is — spacing included, as a paste would; a paragraph's
    # words are read from its collapsed text. A value the page cut short ("…") is not read.
    exact = source.element is not None or source.row is not None
    if exact and text.endswith("…"):
        return None
    value = text if exact and source.word is None else " ".join(text.split())
    if source.word is not None:
        found_words = _WORD.findall(text)
        index = source.word - 1 if source.word > 0 else len(found_words) + source.word
        if not 0 <= index < len(found_words):
            return None
        value = found_words[index]
        where = f"word {index + 1} of {where}"
    if source.case == "upper":
        value = value.upper()
    elif source.case == "lower":
        value = value.lower()
    return value, where


def read_values(contract: Contract, page: PageState, step: int) -> Contract:
    """Fix the value of every clause whose source can now be read (once)."""
    pending = [c for c in contract.clauses if c.read is not None and c.id not in contract.reads]
    if not pending:
        return contract
    clauses = list(contract.clauses)
    reads = dict(contract.reads)
    for position, clause in enumerate(clauses):
        if clause not in pending or clause.read is None:
            continue
        found = read_value(clause.read, page, contract.goal)
        if found is None:
            continue
        value, where = found
        clauses[position] = clause.model_copy(update={"value": value})
        reads[clause.id] = Evidence(step=step, observation=f"read {value!r} from {where}", element=where, value=value)
    return contract.model_copy(update={"clauses": tuple(clauses), "reads": reads})
