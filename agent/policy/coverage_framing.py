"""Goal words that frame a request rather than ask for something: the parts that only say why,
the words that only say "I want", the word that names a record's kind after its name, a
verb's particle, the word that says what kind of value follows. Used by
:func:`agent.policy.coverage.unaccounted`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from agent.policy.coverage_lexicon import (
    BETWEEN_USER_AND_REQUEST,
    COLLECTION_NOUNS,
    FILLER,
    FIRST_PERSON,
    MY,
    NEGATIONS,
    NUMBER_ABBREVIATIONS,
    OFFER_VERBS,
    PHRASAL_VERBS,
    PRONOUN_OBJECTS,
    REQUEST_WORDS,
    SECOND_PERSON,
    THIRD_PERSON,
    VALUE_LABELS,
    WRONG,
)
from agent.policy.coverage_terms import PART_BREAK, RAW_WORD, VALUE_MARK, Term, stem, word_covered
from verification.contract import fold
from verification.contract.wording import RECORD_NOUNS


def context_spans(goal: str) -> list[tuple[int, int]]:
    """The parts of ``goal`` that only say why — a sentence or a comma's clause with the user
    as its subject, no request word and no value ("I got married! Please change my last name
    to …", "remove the nursery, we don't need it anymore") — as (start, end) offsets. A goal
    that is all such parts has none: then it is the request."""
    parts: list[tuple[int, int]] = []
    start = 0
    for brk in PART_BREAK.finditer(goal):
        parts.append((start, brk.start()))
        start = brk.end()
    parts.append((start, len(goal)))
    parts = [(a, b) for a, b in parts if goal[a:b].strip()]
    spans = []
    for a, b in parts:
        text = goal[a:b]
        found = RAW_WORD.findall(fold(text).replace("’", "'"))
        if not found or VALUE_MARK.search(text) or _asks(found):
            continue
        if found[0] in FIRST_PERSON or found[0] in THIRD_PERSON or _mine_is_wrong(found):
            spans.append((a, b))
    return spans if len(spans) < len(parts) else []


def _mine_is_wrong(found: list[str]) -> bool:
    """"my birthday is wrong", "on the check your answers page my date of birth is wrong": the
    user's own record, then a word saying it is wrong."""
    mine = next((i for i, w in enumerate(found) if w in MY), None)
    return mine is not None and any(w in WRONG for w in found[mine + 1 :])


def _asks(found: list[str]) -> bool:
    """Does a part hold a request word — other than one negated about what the request already
    names ("we don't need *it* anymore")?"""
    for i, word in enumerate(found):
        if word not in REQUEST_WORDS:
            continue
        negated = i > 0 and found[i - 1] in NEGATIONS
        about_it = i + 1 < len(found) and found[i + 1] in PRONOUN_OBJECTS
        if not (negated and about_it):
            return True
    return False


def labels_value_after(goal: str, word: str, terms: Sequence[Term], respelled: Sequence[tuple[int, int]], missing: Sequence[str]) -> bool:
    """A word that says what kind of value comes right after it ("born 14 March 1985",
    "expires 09/29", "phone (617) 555-0142"): accounted for with that value."""
    if fold(word) not in VALUE_LABELS:
        return False
    at = next(t for t in terms if t.text == word)
    rest = goal[at.start + len(at.text) :]
    start = at.start + len(at.text) + len(rest) - len(rest.lstrip(" :=-("))
    if any(a == start for a, _b in respelled):
        return True
    following = next((t for t in terms if t.start == start), None)
    return following is not None and (following.kind != "word" or any(ch.isdigit() for ch in following.text)) and following.text not in missing


_PHRASAL_REACH: Final = 5  # words between a verb and its particle ("take the Ember down jacket off")


def phrasal_covered(goal: str, term: Term, vocab: frozenset[str]) -> bool:
    """A verb whose particle follows in its part ("take … off", "send it off"), or that
    particle: accounted for when what the pair means is ("take … off" is done with "Remove")."""
    word = fold(term.text)
    part_end = next((m.start() for m in PART_BREAK.finditer(goal, term.start)), len(goal))
    if word in PHRASAL_VERBS:
        after = RAW_WORD.findall(fold(goal[term.start + len(term.text) : part_end]))[:_PHRASAL_REACH]
        return any(_covers_any(PHRASAL_VERBS[word].get(w, frozenset()), vocab) for w in after)
    part_start = max((m.end() for m in PART_BREAK.finditer(goal[: term.start])), default=0)
    before = RAW_WORD.findall(fold(goal[part_start : term.start]))[-_PHRASAL_REACH - 1 :]
    return any(word in PHRASAL_VERBS.get(head, {}) and (_covers_any(PHRASAL_VERBS[head][word], vocab) or word_covered(head, vocab)) for head in before)


def _covers_any(meanings: frozenset[str], vocab: frozenset[str]) -> bool:
    return any(word_covered(meaning, vocab) for meaning in meanings)


def where_records_are(word: str, terms: Sequence[Term], missing: Sequence[str]) -> bool:
    """A collection noun beside an accounted word ("my list of payees", "the payee list")."""
    if fold(word) not in COLLECTION_NOUNS:
        return False
    at = next(i for i, t in enumerate(terms) if t.text == word)
    beside = [terms[i] for i in (at - 1, at + 1) if 0 <= i < len(terms)]
    return any(t.kind == "word" and t.text not in missing and t.text[0].isalnum() for t in beside)


def says_nothing_here(goal: str, term: Term) -> bool:
    """A word that, where it stands, only frames the request: "I need" / "we'd like" (a request
    word after the user as subject), "you sell" / "you have" (the site's own catalogue), and
    "no" for "number" right before one ("acc no 11223344")."""
    word = fold(term.text)
    before = RAW_WORD.findall(fold(goal[: term.start]).replace("’", "'"))
    if word in OFFER_VERBS and before and before[-1] in SECOND_PERSON:
        return True
    if word in REQUEST_WORDS:
        while before and before[-1] in BETWEEN_USER_AND_REQUEST:
            before.pop()
        return bool(before) and before[-1] in FIRST_PERSON
    if word in NUMBER_ABBREVIATIONS:
        return re.match(r"\.?\s*#?\d", goal[term.start + len(term.text) :]) is not None
    return False


def names_its_kind(goal: str, term: Term, before: Term | None, missing: list[str]) -> bool:
    """A record noun right after the words that name the record ("the ferry fares *post*",
    "Ben Carter's intro *email*") says only what kind of record it is: accounted for with
    them. After the verb that opens its part of the goal ("delete the post") it is what to
    act on, and stays a requirement."""
    word = fold(term.text)
    if term.kind != "word" or (word not in RECORD_NOUNS and stem(word) not in RECORD_NOUNS) or before is None:
        return False
    if before.kind != "word" or before.text in missing or fold(before.text) in RECORD_NOUNS:
        return False
    opening = goal[: before.start]
    breaks = list(PART_BREAK.finditer(opening)) + list(re.finditer(r"\band\b|\bthen\b", opening))
    part = opening[max((b.end() for b in breaks), default=0) :]
    return any(w not in FILLER for w in RAW_WORD.findall(fold(part)))  # a word before it: it is not the verb
