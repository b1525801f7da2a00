"""Frames that fill several fields with one verb, and the guard against a verb that swallows
the rest of such a list.

People say a form in one breath:

* value → field: "Type Ada into First name, Lovelace into Last name and London into City",
  'Enter "Ada" in First name, "Lovelace" in Last name', "enter Ada as the first name, …";
* field → value: "Fill in the first name with Ada, the last name with Lovelace";
* the form, then its fields: 'Fill the form: First name "Ada", Last name "Lovelace"',
  "Fill in the form with First name: Ada, Email: ada@example.com";
* options: "Choose Red in Colour, Large in Size".

Each pair becomes its own fill (or select) step, so each is its own ``field_value`` /
``choice`` clause — and a commit said after them ("… and click Submit") has them all as
preconditions. A list is read only when *every* part of it is a pair on its own: a part that
is not ("Type Tom and Jerry into Title, 5 into Age", "Fill the form with first name Ada last
name Lovelace") would be a guess at where one value ends, so the list is not read and the
goal is declined. :func:`swallowed` is the last line of that defence: whatever grammar reads
a single fill, a value or field that itself reads as more pairs is never typed.

The words (verbs, links between value and field, form nouns) are data in
:mod:`agent.policy.lexicon`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from agent.policy.frame_parts import Frame
from agent.policy.frame_parts import original as _original
from agent.policy.frame_parts import step as _step
from agent.policy.frame_parts import unquote as _unquote
from agent.policy.lexicon import (
    CHOOSE_VERBS,
    FIELD_TO_VALUE,
    FILL_VERBS,
    FORM_FILL_VERBS,
    FORM_NOUNS,
    FORM_PAIR_LINKS,
    OPTION_TO_LIST,
    VALUE_TO_FIELD,
)
from agent.policy.text import fold
from planning import PlanStep


def _words(phrases: Iterable[str]) -> str:
    return "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))


_QUOTE: Final = r"(?:\"[^\"]+\"|“[^”]+”|(?<![a-z0-9])'[^']+'(?![a-z0-9]))"
_QUOTE_SPAN: Final = re.compile(_QUOTE)
_SEPARATOR: Final = re.compile(r"\s*[,;]\s+(?:and\s+)?|\s+and\s+")
_DETERMINER: Final = re.compile(r"^(?:the|your|my|our|their|his|her)\s+")
_FILL_VERB: Final = re.compile(rf"^(?P<verb>{_words(FILL_VERBS)})\s+")
_CHOOSE_VERB: Final = re.compile(rf"^(?P<verb>{_words(CHOOSE_VERBS)})\s+")
_FORM_VERB: Final = re.compile(rf"^(?P<verb>{_words(FORM_FILL_VERBS)})\s+")
_FORM_HEAD: Final = re.compile(
    rf"^(?P<verb>{_words(FORM_FILL_VERBS)})\s+(?:(?:the|this|your|my|our)\s+)?(?P<noun>{_words(FORM_NOUNS)})\b"
    r"(?:\s+(?:below|above|here|on the page))?(?:\s*(?:with|using|as follows)\b)?\s*[:,-]?\s*"
)


def _parts(folded: str, start: int) -> list[tuple[int, int, bool]]:
    """The spans of ``folded[start:]`` between list separators (",", ";", "and"), a
    separator inside a quoted value left alone; each says whether a comma or semicolon
    came before it."""
    quoted = [m.span() for m in _QUOTE_SPAN.finditer(folded)]
    spans: list[tuple[int, int, bool]] = []
    position, comma = start, False
    for sep in _SEPARATOR.finditer(folded, start):
        if any(a <= sep.start() < b for a, b in quoted):
            continue
        spans.append((position, sep.start(), comma))
        position, comma = sep.end(), bool(re.match(r"\s*[,;]", sep.group(0)))
    spans.append((position, len(folded), comma))
    return spans


def _pair_pattern(first: str, links: Iterable[str], second: str, *, last: bool = False) -> tuple[re.Pattern[str], ...]:
    """``first LINK second`` with the first slot quoted, else unquoted (split at the first
    link — or, with ``last``, at the last one: a value may say "in", a field rarely does)."""
    link = _words(links)
    lazy = "+" if last else "+?"
    return (
        re.compile(rf"^(?P<{first}>{_QUOTE})\s+(?:{link})\s+(?P<{second}>.+)$"),
        re.compile(rf"^(?P<{first}>.{lazy})\s+(?:{link})\s+(?P<{second}>.+)$"),
    )


_INTO: Final = _pair_pattern("v", ("into",), "f")
_VALUE_FIELD: Final = _pair_pattern("v", VALUE_TO_FIELD, "f", last=True)
_OPTION_LIST: Final = _pair_pattern("v", OPTION_TO_LIST, "f", last=True)
_FIELD_VALUE: Final = _pair_pattern("f", FIELD_TO_VALUE, "v")
_FORM_PAIR: Final = (
    re.compile(rf"^(?P<f>[^\"“:=]+?)(?:\s*[:=]\s*|\s+(?:{_words(w for w in FORM_PAIR_LINKS if w.isalpha())})\s+|\s+)(?P<v>{_QUOTE})$"),
    re.compile(r"^(?P<f>[^\"“:=]+?)\s*[:=]\s*(?P<v>[^:=]+)$"),
    re.compile(r"^(?P<f>[^\"“:=]+?)\s+is\s+(?P<v>.+)$"),
)


def _pairs(raw: str, folded: str, start: int, patterns: tuple[re.Pattern[str], ...]) -> list[tuple[str, str]] | None:
    """(field, value) for each part of the list; None when a part is not a pair — or an
    empty list when the list began with pairs and a part after a comma is not one ("Fill
    in the first name with Ada, last name Lovelace"): where that value ends is a guess, and
    no other reading may type it into the first field either."""
    found: list[tuple[str, str]] = []
    for a, b, comma in _parts(folded, start):
        part = folded[a:b]
        match = next((m for p in patterns if (m := p.match(part)) is not None), None)
        if match is None:
            return [] if found and comma else None
        value = _unquote(_original(raw, folded, a + match.start("v"), a + match.end("v")))
        name = _original(raw, folded, a + match.start("f"), a + match.end("f")).strip(" ,.")
        if (determiner := _DETERMINER.match(fold(name))) is not None and len(fold(name)) == len(name):
            name = name[determiner.end() :]
        if not value.strip() or not name.strip() or _QUOTE_SPAN.search(fold(name)):
            return None
        found.append((name, value))
    return found


def _fill(pairs: list[tuple[str, str]]) -> list[PlanStep]:
    return [_step("fill", f"Enter {v!r} into {f}", target=f, value=v, criterion=f"the {f} field holds {v!r}") for f, v in pairs]


def fill_pairs(raw: str, folded: str) -> Frame | None:
    """"Type Ada into First name, Lovelace into Last name", 'enter "Ada" in First name, …'."""
    verb = _FILL_VERB.match(folded)
    if verb is None:
        return None
    declined = False
    for patterns in (_INTO, _VALUE_FIELD):
        pairs = _pairs(raw, folded, verb.end(), patterns)
        if pairs is not None and len(pairs) >= 2:
            return Frame(_fill(pairs), (verb.group("verb"),))
        declined = declined or pairs == []
    return Frame([], ()) if declined else None


def fill_with(raw: str, folded: str) -> Frame | None:
    """"Fill in the first name with Ada, the last name with Lovelace"."""
    verb = _FORM_VERB.match(folded)
    if verb is None:
        return None
    pairs = _pairs(raw, folded, verb.end(), _FIELD_VALUE)
    if pairs == []:
        return Frame([], ())
    if pairs is None or len(pairs) < 2:
        return None
    return Frame(_fill(pairs), (verb.group("verb"),))


def fill_form(raw: str, folded: str) -> Frame | None:
    """'Fill the form: First name "Ada", Last name "Lovelace"', "fill in the form with Name:
    Ann, City: Oslo". A form list whose pairs cannot be told apart ("first name Ada last name
    Lovelace") is declined: no steps, its words left unaccounted."""
    head = _FORM_HEAD.match(folded)
    if head is None or head.end() >= len(folded):
        return None
    pairs = _pairs(raw, folded, head.end(), _FORM_PAIR)
    if not pairs:
        return Frame([], ())
    return Frame(_fill(pairs), (head.group("verb"), head.group("noun")))


def choose_pairs(raw: str, folded: str) -> Frame | None:
    """"Choose Red in Colour, Large in Size", 'select "Oslo" from City and "5" from Age'."""
    verb = _CHOOSE_VERB.match(folded)
    if verb is None:
        return None
    pairs = _pairs(raw, folded, verb.end(), _OPTION_LIST)
    if pairs == []:
        return Frame([], ())
    if pairs is None or len(pairs) < 2:
        return None
    steps = [_step("select", f"Choose {v!r} in {f}", target=f, value=v, criterion=f"{v!r} is chosen in {f}") for f, v in pairs]
    return Frame(steps, (verb.group("verb"),))


_LISTED: Final = re.compile(r"(?:,|;|\band\b)\s")
_RELATION: Final = re.compile(rf"\s(?:{_words({*VALUE_TO_FIELD, *OPTION_TO_LIST, *FIELD_TO_VALUE, 'to'})})\s")
_INTO_WORD: Final = re.compile(r"\binto\b")
_MARK: Final = "\x01"  # a quoted value inside the text (folded text has no such character)


def swallowed(text: str | None, quoted: Iterable[str] = ()) -> bool:
    """Does a single fill's value (or field) read as more "X into Y" / "X in Y" / "Y with X"
    pairs — the rest of a list its verb took in? Such text is never typed (nor looked for):
    "Ada into First name, Lovelace into Last name, …, London" is not a city. A value the
    goal quotes whole is the user's own words and is typed as written."""
    if text is None or not text.strip():
        return False
    folded = fold(text)
    if folded in {fold(q) for q in quoted}:
        return False
    bare = _QUOTE_SPAN.sub(f" {_MARK} ", folded)
    if _INTO_WORD.search(bare):
        return True
    return _LISTED.search(bare) is not None and (_RELATION.search(f" {bare} ") is not None or _MARK in bare)
