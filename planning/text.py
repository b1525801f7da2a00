"""Text helpers shared by the planning engines: folding, words, label matching, quoting.

Planning may not import ``agent`` (where the deterministic policy keeps its own matcher),
so the small amount of text handling the plan check and the block builders need lives here.
"""

from __future__ import annotations

import json
import re
import unicodedata
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Final

from verification import PageElement

_WORD: Final = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
# Words that describe an element rather than name it: "the Save button" names "save".
ROLE_WORDS: Final[frozenset[str]] = frozenset(
    {
        "button", "btn", "link", "field", "textbox", "input", "box", "checkbox", "radio", "dropdown",
        "drop-down", "select", "menu", "tab", "option", "icon", "control", "element", "textarea", "area",
        "form", "page", "section", "toggle", "switch", "combobox", "list", "item", "entry",
    }
)
FILLER_WORDS: Final[frozenset[str]] = frozenset(
    {"the", "a", "an", "on", "in", "into", "to", "of", "for", "with", "named", "called", "labelled", "labeled", "my"}
)
FUZZY_MATCH: Final = 0.85


@lru_cache(maxsize=8192)
def fold(text: str) -> str:
    """Lower-case, accent-free, whitespace-collapsed."""
    if text.isascii():
        return " ".join(text.lower().split())
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(stripped.lower().split())


# Element names and step targets repeat across the elements of a page and across requests:
# their words are computed once (immutable tuples, so a cached value is never changed).
@lru_cache(maxsize=8192)
def _words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(fold(text)))


@lru_cache(maxsize=8192)
def _word_set(text: str) -> frozenset[str]:
    return frozenset(_words(text))


@lru_cache(maxsize=8192)
def _label_words(label: str) -> tuple[str, ...]:
    all_words = _words(label)
    kept = tuple(w for w in all_words if w not in ROLE_WORDS and w not in FILLER_WORDS)
    return kept or all_words


def words(text: str) -> list[str]:
    return list(_words(text))


def label_words(label: str) -> list[str]:
    """The words that name an element in a step target ("the Save button" → ["save"])."""
    return list(_label_words(label))


def contains_phrase(haystack: str, needle: str) -> bool:
    """``needle``'s words appear in ``haystack`` as a contiguous run (case/accent-insensitive)."""
    hay, need = _words(haystack), _words(needle)
    if not need:
        return bool(fold(needle)) and fold(needle) in fold(haystack)
    span = len(need)
    return any(hay[i : i + span] == need for i in range(len(hay) - span + 1))


def _element_texts(element: PageElement) -> list[str]:
    texts = [element.name, element.placeholder or "", element.context or ""]
    if element.role in ("textbox", "combobox", "searchbox", "spinbutton") and element.input_type:
        texts.append(element.input_type)
    return [t for t in texts if t]


def _nearly_same(a: str, b: str) -> bool:
    """``SequenceMatcher.ratio() >= FUZZY_MATCH``, skipping difflib when lengths alone or
    the quick upper bound already rule it out (most element pairs)."""
    if not a or not b or 2 * min(len(a), len(b)) / (len(a) + len(b)) < FUZZY_MATCH:
        return False
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return matcher.quick_ratio() >= FUZZY_MATCH and matcher.ratio() >= FUZZY_MATCH


def label_matches(target: str, element: PageElement) -> bool:
    """Does a step target written in words ("Name field", "New patient") name ``element``?

    True when the target's naming words all occur in the element's name, placeholder or
    label context, when the element's whole name occurs in the target, or when the two
    are nearly the same string (typos, punctuation)."""
    wanted = _label_words(target)
    if not wanted:
        return False
    wanted_set, wanted_text = frozenset(wanted), " ".join(wanted)
    for text in _element_texts(element):
        have = _word_set(text)
        if have and wanted_set <= have:
            return True
        name_text = " ".join(_label_words(text))
        if len(name_text) >= 3 and contains_phrase(wanted_text, name_text):
            return True
        if _nearly_same(wanted_text, fold(text)):
            return True
    return False


# Characters str.splitlines() (and some tokenisers) read as a line break that json.dumps
# leaves as they are: escaped so one quoted string is always one line.
_LINE_BREAKS: Final = {ord(c): f"\\u{ord(c):04x}" for c in "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"}


def _json_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False).translate(_LINE_BREAKS)


def quote(text: str, limit: int | None = None) -> str:
    """``text`` as one JSON string literal: quotes and newlines escaped, so untrusted text can
    never close its own quotes or start a new line in a block; cut to ``limit`` characters."""
    collapsed = " ".join(text.split())
    if limit is not None and len(collapsed) > limit:
        collapsed = collapsed[: max(limit - 1, 0)].rstrip() + "…"
    return _json_string(collapsed)


def quote_exact(text: str) -> str:
    """``text`` as one JSON string literal, unchanged (a value the user gave must reach the
    model exactly, line breaks included)."""
    return _json_string(text)


def clip(text: str, limit: int) -> str:
    """Cut ``text`` to ``limit`` characters (with an ellipsis), keeping its line breaks."""
    text = text.strip()
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)].rstrip() + "…"
