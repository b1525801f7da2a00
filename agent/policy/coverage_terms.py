"""The terms of a goal that a contract must account for (quoted values, addresses, dates,
content words), and how a word is found among the words of a clause."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

import snowballstemmer

from agent.policy.coverage_lexicon import (
    CHANGE_VERBS,
    FILLER,
    SUBMIT_VERBS,
    VERBS,
)
from agent.policy.text import QUOTED, quoted_text
from verification.contract import COMMIT_WORDS, fold, words

PART_BREAK: Final = re.compile(r"[.!?;]+(?:\s+|$)|,\s+|\s+[-–—]\s+")
VALUE_MARK: Final = re.compile(r"[0-9\"“”@$€£]|(?<![A-Za-z])['‘’]|['‘’](?![A-Za-z])")  # a digit, a quote (not an apostrophe), a currency
RAW_WORD: Final = re.compile(r"[a-z0-9]+(?:['’][a-z]+)*")
_ORDINAL: Final = re.compile(r"^\d+(?:st|nd|rd|th)$")

# An address: a scheme with "//" (or mailto:, tel:), or www. — never a search operator ("is:unread").
_URL: Final = re.compile(r"\b(?:[a-z][a-z0-9+.-]*://|mailto:|tel:|www\.)[^\s\"'<>]+", re.IGNORECASE)
_EMAIL: Final = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_DATE: Final = re.compile(r"\b\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}\b")
_TOKEN: Final = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)*|[$€£%#@&]")  # "O'Connell's" is one word

TermKind = Literal["quoted", "url", "email", "date", "word"]


@dataclass(frozen=True, slots=True)
class Term:
    """One thing the goal says that a clause must account for."""

    text: str  # as the user wrote it (quotes removed)
    kind: TermKind
    start: int


def goal_terms(goal: str) -> list[Term]:
    """Quoted values, addresses, dates, then every remaining word that is not filler."""
    terms: list[Term] = []
    taken: list[tuple[int, int]] = []
    for pattern, kind in ((QUOTED, "quoted"), (_URL, "url"), (_EMAIL, "email"), (_DATE, "date")):
        for match in pattern.finditer(goal):
            if any(match.start() < end and start < match.end() for start, end in taken):
                continue
            text = quoted_text(match) if kind == "quoted" else match.group(0)
            if text and text.strip():
                taken.append((match.start(), match.end()))
                terms.append(Term(text.strip().rstrip(".,;"), kind, match.start()))  # type: ignore[arg-type]
    for match in _TOKEN.finditer(goal):
        if any(start <= match.start() < end for start, end in taken):
            continue
        word = fold(match.group(0))
        if word in FILLER:
            continue
        terms.append(Term(match.group(0), "word", match.start()))
    return sorted(terms, key=lambda t: t.start)


def stem(word: str) -> str:
    """A word without its plain suffix ("payees" → payee, "cancelling" → cancell, "moving" → mov)."""
    for suffix in ("ing", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    if word.endswith("e") and len(word) >= 4 and word[-2] not in "aeiou":
        return word[:-1]  # "move" and "moving" meet at "mov"
    return word


def all_words(text: str) -> set[str]:
    """The words of a label, as written and canonical ("Sign in" → sign, in, login), and
    without a possessive ("John's Pizza" → john)."""
    found = set(words(text)) | set(RAW_WORD.findall(fold(text)))
    return found | {re.sub(r"['’]s?$", "", w) for w in found}


def _canonical(word: str) -> str:
    found = words(word)
    return found[0] if found else word


def word_covered(word: str, vocab: frozenset[str]) -> bool:
    if _ORDINAL.match(word) is not None and "first" in vocab:
        return True
    if any(w in vocab or stem(w) in vocab for w in (word, _canonical(word))):
        return True
    if word.isalpha() and len(word) >= _MIN_ROOT and _root(word) in _roots(vocab):
        return True  # the same word in another form ("confirmation" for "confirmed")
    # A word cut short names the label's word ("ref" for Reference, "Sept" for September).
    if len(word) < _MIN_ABBREVIATION or not word.isalpha() or word in _ACTION_WORDS:
        return False
    return any(len(v) >= len(word) + 2 and v.startswith(word) and v not in _ACTION_STEMS for v in vocab)  # a label's word, not a verb


_MIN_ABBREVIATION: Final = 3
_MIN_ROOT: Final = 4  # shorter words share roots by chance ("new", "news")
_ENGLISH: Final = snowballstemmer.stemmer("english")


@lru_cache(maxsize=4096)
def _root(word: str) -> str:
    return str(_ENGLISH.stemWord(word))


@lru_cache(maxsize=256)
def _roots(vocab: frozenset[str]) -> frozenset[str]:
    return frozenset(_root(v) for v in vocab if v.isalpha() and len(v) >= _MIN_ROOT)
_ACTION_WORDS: Final = frozenset().union(*VERBS.values(), CHANGE_VERBS, SUBMIT_VERBS, COMMIT_WORDS)  # never cut short
_ACTION_STEMS: Final = _ACTION_WORDS | {stem(w) for w in _ACTION_WORDS}
