"""Does a contract account for the whole goal? Every quoted value, number, date, address,
proper name and content word of the goal must be bound to a clause (or to a phrase that
says *how* the work is done: "navigate through the file tree", "by clicking …").

The same rule judges the policy's contract and a model's: what no clause accounts for is
**unaccounted**, and a contract with unaccounted words cannot prove the goal. A clause must
also be **grounded** in the goal: its names and values come from the goal's own words,
never invented.

The lexicon is data (:mod:`agent.policy.coverage_lexicon`): the words that express a clause
(its verbs, the element kinds, ordinals, the words of a row or section reference) and the
function words that carry no content of their own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from agent.policy.coverage_framing import context_spans, labels_value_after, names_its_kind, phrasal_covered, says_nothing_here, where_records_are
from agent.policy.coverage_lexicon import (
    CHANGE_VERBS,
    CONTAINER_NOUNS,
    ELEMENT_NOUNS,
    FILLER,
    KEEP_WORDS,
    MOVE_ON_VERBS,
    MOVE_ON_WORDS,
    NAME_MARKERS,
    ORDINAL_WORDS,
    ROLE_NOUNS,
    SAME_INTENT,
    SUBMIT_VERBS,
    VERBS,
)
from agent.policy.coverage_terms import Term, all_words, goal_terms, stem, word_covered
from agent.policy.date_parts import dates_in_parts, goal_dates, part_of
from agent.policy.lexicon import QUANTITY_WORDS
from verification.contract import COMMIT_WORDS, Clause, ElementRef, date_readings, fold, parse_date, parse_month_day, parse_time, words


def clause_words(clause: Clause) -> frozenset[str]:
    """Every word that expresses ``clause`` in a goal: its verbs, its element's name, role,
    container and ordinal, and its value."""
    out: set[str] = set()
    key = clause.state if clause.kind == "control" else (clause.action if clause.kind == "activated" else clause.kind)
    out |= VERBS.get(key or "", frozenset())
    if clause.kind in ("field_value", "choice"):
        out |= VERBS[clause.kind]
    if clause.kind in ("field_value", "choice", "control") or (clause.kind == "activated" and clause.effect):
        out |= CHANGE_VERBS  # a press with an effect changes something too ("make the menu public")
    target = clause.target
    if clause.kind == "activated" and clause.effect and target is not None and _commit_label(target.name):
        # A press that keeps for later ("Save draft") saves; it never sends, submits or pays.
        # One that only moves on ("Continue", "Next") submits nothing yet: it says none of them.
        said = set(words(target.name))
        if KEEP_WORDS & said:
            out |= {"save"}
        elif (said & COMMIT_WORDS) - MOVE_ON_WORDS:
            out |= SUBMIT_VERBS
        else:
            out |= MOVE_ON_VERBS
    if target is not None:
        out |= all_words(target.name) | ELEMENT_NOUNS | ORDINAL_WORDS
        if target.name.strip():
            out |= NAME_MARKERS
        out |= ROLE_NOUNS.get(target.role or "", frozenset()) if target.role else set().union(*ROLE_NOUNS.values())
        if target.container or target.container_kind:
            out |= all_words(target.container or "") | CONTAINER_NOUNS
    out |= all_words(clause.value or "")
    if clause.read is not None:  # a value read on the page: the words that say where
        out |= all_words(f"{clause.read.row or ''} {clause.read.column or ''}")
    if clause.kind == "activated" and clause.action == "press" and clause.value:
        out |= {fold(clause.value)}
    return frozenset(stem(w) for w in out) | frozenset(out)


def _quoted_covered(text: str, clause: Clause) -> bool:
    wanted = fold(text)
    names = [clause.value or ""]
    if clause.target is not None:
        names += [clause.target.name, clause.target.container or ""]
        if clause.target.any and not clause.target.name:  # 'a "checkbox" widget': the quote names the kind
            return wanted in _kind_words(clause.target)
    return any(wanted and (wanted == fold(n) or wanted in fold(n)) for n in names if n)


def _kind_words(target: ElementRef) -> frozenset[str]:
    if target.field_kind == "textarea":
        return frozenset({"textarea", "text area"})
    if target.field_kind == "line":
        return frozenset({"text", "textbox", "text box", "text field", "text input"})
    return ROLE_NOUNS.get(target.role or "", frozenset()) | ({"radio button"} if target.role == "radio" else frozenset())


def _symbol_covered(symbol: str, clauses: Sequence[Clause]) -> bool:
    texts = [c.value or "" for c in clauses] + [c.target.name for c in clauses if c.target is not None]
    texts += [c.target.container or "" for c in clauses if c.target is not None]  # "@" of "the post by @leo"
    return any(symbol in text for text in texts)


def _labels_value(goal: str, term: Term, following: Term | None, clauses: Sequence[Clause]) -> bool:
    """A noun right before a quoted value it describes: "the password "x"", "username "y"" —
    accounted for by the clause that types or chooses that value."""
    if following is None or following.kind != "quoted":
        return False
    between = goal[term.start + len(term.text) : following.start]
    if between.strip(" :=\"“'") != "":
        return False
    return any(c.kind in ("field_value", "choice") and _quoted_covered(following.text, c) for c in clauses)


_WORD_SPAN: Final = re.compile(r"[A-Za-z0-9]+")
# Counts in words ("three adults"); never "one" or "a", which say far more often "the blue one".
_NUMBER_WORDS: Final = {word: digits for word, digits in QUANTITY_WORDS.items() if digits != "1"}


def respelled_values(goal: str, clauses: Sequence[Clause]) -> list[tuple[int, int]]:
    """The goal's numbers and dates a clause holds in another spelling ("£2,000" as 2000,
    "1 Dec 2026" as 01/12/2026), as (start, end) offsets: the clause accounts for them."""
    values = [c.value for c in clauses if c.value]
    if not values:
        return []
    spans = [(m.start(), m.end()) for m in _NUMBER.finditer(goal) if re.search(r"\d", m.group()) and any(same_number(v, m.group()) for v in values)]
    held = {v.strip() for v in values}
    spans += [(m.start(), m.end()) for m in _WORD_SPAN.finditer(goal) if _NUMBER_WORDS.get(m.group().lower()) in held]  # "three" held as 3
    times = {t for v in values if (t := parse_time(v)) is not None}
    if times:  # "6 pm" held as 18:00
        tokens = list(_WORD_SPAN.finditer(goal))
        for i in range(len(tokens)):
            for j in range(min(len(tokens), i + 3) - 1, i - 1, -1):
                if parse_time(goal[tokens[i].start() : tokens[j].end()]) in times:
                    spans.append((tokens[i].start(), tokens[j].end()))
                    break
    dates = {d for v in values for d in (*date_readings(v), parse_date(v)) if d is not None}  # 01/12/2026 may be either
    in_parts, part_days = dates_in_parts(clauses)  # Day, Month, Year fields
    dates |= in_parts
    if dates or part_days:
        days = {(d.month, d.day) for d in dates} | part_days  # "20 December": the goal leaves the year to the page
        tokens = list(_WORD_SPAN.finditer(goal))
        for i in range(len(tokens)):
            for j in range(min(len(tokens), i + 5) - 1, i, -1):
                said = goal[tokens[i].start() : tokens[j].end()]
                if parse_date(said) in dates or parse_month_day(said) in days:
                    spans.append((tokens[i].start(), tokens[j].end()))
                    break
    return spans


def unaccounted(goal: str, clauses: Sequence[Clause], means: Iterable[str] = ()) -> tuple[str, ...]:
    """The goal's terms no clause (and no "how" phrase) accounts for, in goal order; the
    parts that only say why (:func:`context_spans`) ask for nothing."""
    vocab = _with_same_intent(frozenset().union(*(clause_words(c) for c in clauses))) if clauses else frozenset()
    means = tuple(means)
    means_words = frozenset(w for phrase in means for w in all_words(phrase))
    means_words = _with_same_intent(means_words | frozenset(stem(w) for w in means_words))
    missing: list[str] = []
    respelled = respelled_values(goal, clauses)
    skip = context_spans(goal) + respelled
    terms = [t for t in goal_terms(goal) if not any(a <= t.start < b for a, b in skip)]
    for position, term in enumerate(terms):
        following = terms[position + 1] if position + 1 < len(terms) else None
        if term.kind == "word" and not term.text[0].isalnum():
            covered = _symbol_covered(term.text, clauses) or any(term.text in phrase for phrase in means)
        elif term.kind == "word" and _labels_value(goal, term, following, clauses):
            covered = True
        elif term.kind == "quoted":
            covered = any(_quoted_covered(term.text, c) for c in clauses)
        elif term.kind in ("url", "email", "date"):
            covered = any(fold(term.text) in fold(c.value or "") or (c.target and fold(term.text) in fold(c.target.name)) for c in clauses)
        else:
            word = re.sub(r"['’]s?$", "", fold(term.text))  # "Wei's" is "Wei"
            covered = word_covered(word, vocab) or word_covered(word, means_words) or says_nothing_here(goal, term)
            covered = covered or phrasal_covered(goal, term, vocab)
        if not covered and names_its_kind(goal, term, terms[position - 1] if position else None, missing):
            covered = True
        if not covered and term.text not in missing:
            missing.append(term.text)
    missing = [w for w in missing if not labels_value_after(goal, w, terms, respelled, missing)]
    return tuple(w for w in missing if not where_records_are(w, terms, missing))


def grounded(clause: Clause, goal: str, page_texts: Iterable[str] = ()) -> bool:
    """The clause names and values only what the goal says — or what the page shows, when the
    clause still shares a content word with the goal: the page supplies the vocabulary ("Save
    limits", the option "Easy Saver (7730)", the row "September 2026 · PDF · CSV"), the goal
    the values and the intent. A value may also be the goal's number in another spelling
    (£1,500 = 1500). Nothing that is neither in the goal nor on the page is grounded."""
    goal_vocab = set(_with_same_intent(frozenset(words(goal))))
    goal_vocab |= {stem(w) for w in goal_vocab}
    folded_goal = fold(goal)
    shown = [f" {fold(t)} " for t in page_texts if t and t.strip()]
    texts = [clause.value or ""]
    if clause.target is not None:
        texts += [clause.target.name, clause.target.container or ""]
    shared = False
    for position, text in enumerate(texts):
        if not text.strip():
            continue
        own = [w for w in words(text) if w not in FILLER]
        shared = shared or any(w in goal_vocab or stem(w) in goal_vocab for w in own)
        if position == 0 and part_of(clause, goal_dates(goal)):
            shared = True  # the day, month or year of the goal's date, in a field of its own
            continue
        if fold(text) in folded_goal or all(w in goal_vocab or stem(w) in goal_vocab for w in words(text)):
            continue
        if position == 0 and (same_number(text, goal) or respelled_values(goal, [clause])):
            shared = True
            continue
        if not any(f" {fold(text)} " in t for t in shown):
            return False
        if position == 1 and clause.kind == "activated" and _commit_label(text):
            shared = True  # the page's own way to commit ("Continue", "Confirm payment") is part of any change
    return shared or not shown


def _with_same_intent(vocab: frozenset[str]) -> frozenset[str]:
    return vocab.union(*(group for group in SAME_INTENT if group & vocab))


def _commit_label(text: str) -> bool:
    """A short label that commits ("Continue", "Confirm payment", "Place order")."""
    said = [w for w in words(text) if w not in FILLER]  # "Accept and send application"
    return 0 < len(said) <= _COMMIT_LABEL_WORDS and bool(set(said) & COMMIT_WORDS)


_COMMIT_LABEL_WORDS: Final = 3
_NUMBER: Final = re.compile(r"[$€£]?\s?\d[\d,]*(?:\.\d+)?")


def same_number(value: str, goal: str) -> bool:
    """``value`` is one of the goal's numbers, spelled another way (£1,500 → 1500)."""
    wanted = _NUMBER.fullmatch(value.strip())
    if wanted is None:
        return False
    number = float(re.sub(r"[^\d.]", "", wanted.group()))
    return any(float(re.sub(r"[^\d.]", "", m.group())) == number for m in _NUMBER.finditer(goal) if re.search(r"\d", m.group()))
