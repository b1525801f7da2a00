"""The words of a label, as references compare them: folded (lower-case, accent-free),
canonical ("Sign in" = "log in" = ``login``, "×" = "close" = ``x``), and how well one label
carries another's words (plural/singular and small typos allowed). Synonyms are data."""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Final

_FUZZY: Final = 0.85

# Synonyms are data: words (after phrase canonicalisation) that name the same thing on a control.
_PHRASES: Final[tuple[tuple[re.Pattern[str], str], ...]] = tuple(
    (re.compile(rf"(?<![a-z0-9]){pattern}(?![a-z0-9])"), replacement)
    for pattern, replacement in (
        (r"(?:log|sign)[\s-]?in", "login"),
        (r"(?:log|sign)[\s-]?out", "logout"),
        (r"e-mail", "email"),
        (r"check[\s-]?out", "checkout"),
    )
)
_GLYPHS: Final = str.maketrans({"×": " x ", "✕": " x ", "✖": " x ", "╳": " x ", "✗": " x "})
_EQUIVALENT: Final[dict[str, str]] = {"close": "x", "dismiss": "x", "trash": "delete"}
_WORD: Final = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")

# Nouns that say what kind of record a name belongs to ("Chen Wei's account", "the file
# report.pdf", "project Gemini"). A list of records of one kind rarely repeats the kind in each
# entry — the table's heading or the page's title says it once — so a record named with its kind
# is also looked for by its name alone (:func:`record_names`).
RECORD_NOUNS: Final[frozenset[str]] = frozenset(
    "account profile record entry row card item message email mail post comment order user contact file ticket thread "
    "conversation note review task issue project invoice document folder product customer member event booking "
    "story piece article photo picture pic image".split()
)
# The labels of a control that runs a search ("Search", "Go", "Find"): a form's submit never is one.
SEARCH_WORDS: Final[frozenset[str]] = frozenset({"search", "go", "find"})


@lru_cache(maxsize=8192)
def fold(text: str) -> str:
    """Lower-case, accent-free, whitespace-collapsed."""
    if not text.isascii():
        text = "".join(ch for ch in unicodedata.normalize("NFKD", text.translate(_GLYPHS)) if not unicodedata.combining(ch))
    return " ".join(text.lower().split())


@lru_cache(maxsize=8192)
def words(text: str) -> tuple[str, ...]:
    """The words of a label, canonical: "Sign in" → ("login",), "×" → ("x",)."""
    folded = fold(text)
    for pattern, replacement in _PHRASES:
        folded = pattern.sub(replacement, folded)
    return tuple(_EQUIVALENT.get(w, w) for w in _WORD.findall(folded))


def _near_word(wanted: str, seen: tuple[str, ...], present: frozenset[str]) -> float:
    """How close the nearest word of a label is to a word it does not carry as such:
    plural/singular (0.97), a small typo in a longer word (0.9), else 0."""
    stem = wanted[:-1] if wanted.endswith("s") else wanted
    if {stem, stem + "s", stem + "es"} & present or (wanted.endswith("es") and wanted[:-2] in present):
        return 0.97
    if len(wanted) < 5:
        return 0.0
    for other in seen:
        if len(other) >= 5 and abs(len(other) - len(wanted)) <= 2 and other[0] == wanted[0]:
            matcher = SequenceMatcher(None, wanted, other, autojunk=False)
            if matcher.quick_ratio() >= _FUZZY and matcher.ratio() >= _FUZZY:
                return 0.9
    return 0.0


@lru_cache(maxsize=8192)
def _word_set(text: str) -> frozenset[str]:
    return frozenset(words(text))


def words_within(wanted: tuple[str, ...], text: str) -> float:
    """How well ``text`` carries every word of ``wanted`` (0 when one is missing): the
    share of ``text`` the wanted words make up, lowered slightly for inexact words."""
    seen = words(text)
    if not wanted or not seen:
        return 0.0
    present = _word_set(text)
    quality = 1.0
    for word in wanted:
        if word in present:
            continue
        best = _near_word(word, seen, present)
        if best == 0.0:
            return 0.0
        quality = min(quality, best)
    return quality * min(1.0, len(wanted) / len(seen))


def record_names(wanted: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The ways an entry may carry a record's name: all its words, or, when it starts with the
    record's kind ("file report.pdf"), the name without it ("report.pdf")."""
    if len(wanted) > 1 and wanted[0] in RECORD_NOUNS:
        return (wanted, wanted[1:])
    return (wanted,)
