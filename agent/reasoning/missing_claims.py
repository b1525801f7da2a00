"""A model's claim that a value is missing, checked against the goal and the page.

A model may say the task lacks a value only the user can give — context analysis'
``missing_information`` (ASK_USER), the planner's ``needs_user_input``, the worker's
``missing_info``. Like its claim of success, that is a request to check, never a fact. One
rule, for every page: **a value is missing only when the claim names a value a person could
supply, the goal does not give it, and something on the page or in the plan needs it and
nothing fills it.** In detail, a claim holds when

1. it **names a value**: a short name with content words of its own — not filler ("done",
   "none", "n/a", "the goal": nothing on a page is called that), not a sentence, not the
   goal said again;
2. **the goal does not give it**: the claim is not one of the goal's values (its quoted
   text, e-mails, addresses, dates — :func:`agent.policy.coverage.goal_terms` —, and the
   values the goal's reading, the task's contract, binds to fields), and no value of the goal
   goes into what the claim names: the reading binds one to that field, one follows the
   field's name in the goal ("code 482913"), or an e-mail / date / address is given for a
   field of that kind;
3. **the task needs it**: a field, an option group or a question on the page — or a fill or
   select step of the plan that has no value — carries the claim's words, and nothing fills
   it (an empty field, a group with nothing chosen, a list still on its first entry).

:func:`check_missing_claims` is pure and returns a typed verdict per claim;
:func:`kept_claims` is what the engines call: the claims that hold, each dropped one logged
as ``reasoning.missing_claim_dropped``. A dropped claim changes nothing: the task goes on as if
the model had not made it; a claim that holds is asked of the user as before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

import structlog

from agent.policy import goal_terms, understand
from agent.policy.coverage import ELEMENT_NOUNS, FILLER, ROLE_NOUNS
from planning import PlanStep
from verification import PageElement, PageState
from verification.contract import Clause, Contract, fold, perceivable, resolve, words, words_within
from verification.contract.refs import ROLE_FAMILIES

log = structlog.get_logger(__name__)

ClaimFault = Literal["not_a_value", "copies_goal", "goal_gives_it", "page_has_it", "nothing_needs_it"]

MAX_NAME_WORDS: Final = 8  # a longer claim is a sentence, not the name of a value
_SENTENCE_WORDS: Final = 4  # …and so is a shorter one that ends like a sentence ("The goal is complete.")
_FIELD_ROLES: Final = ROLE_FAMILIES["textbox"] | ROLE_FAMILIES["combobox"]
_CHOICE_ROLES: Final = frozenset({"radio", "menuitemradio"})
# Words that only say what kind of control something is ("field", "box", "option"): a claim
# and a label sharing only these name nothing in common.
_KIND_WORDS: Final = frozenset().union(*ROLE_NOUNS.values()) | ELEMENT_NOUNS
_VALUE_KINDS: Final = frozenset({"quoted", "email", "url", "date"})
_TYPED_KINDS: Final = frozenset({"email", "url", "date"})  # a term kind that is also an input type
_LABEL_REACH: Final = 3  # words before a value that may name its field ("one-time code 482913")
_POSSESSIVE: Final = re.compile(r"['’]s?$")
_QUESTION: Final = re.compile(r"[^.!?\n]{3,200}\?")
_SENTENCE_END: Final = re.compile(r"[.!]\s*$")


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """One claim and whether it holds: what needs it (``needs``), or why it was dropped."""

    claim: str
    holds: bool
    reason: str
    fault: ClaimFault | None = None
    needs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MissingCheck:
    verdicts: tuple[ClaimVerdict, ...]

    @property
    def kept(self) -> tuple[str, ...]:
        return tuple(v.claim for v in self.verdicts if v.holds)

    @property
    def dropped(self) -> tuple[ClaimVerdict, ...]:
        return tuple(v for v in self.verdicts if not v.holds)


@dataclass(frozen=True, slots=True)
class _Slot:
    """Something that takes a value: a field, an option group, a question, a plan step."""

    what: str
    labels: tuple[str, ...]
    filled: bool
    element: PageElement | None = None


@dataclass(frozen=True, slots=True)
class _GoalReading:
    """What the goal gives: its values, the fields the reading binds them to, the words
    before each value, and its typed values (e-mails, dates, addresses)."""

    content: frozenset[str]
    values: frozenset[str]
    bound: tuple[tuple[Clause, frozenset[str]], ...]  # a clause giving a field its value, and the ids it resolves to
    labelled: tuple[frozenset[str], ...]
    typed: tuple[tuple[str, str], ...]  # (kind, value)


def content_words(text: str) -> tuple[str, ...]:
    """The words of ``text`` that say something (canonical, possessive removed, no function
    words): "the patient's name" → ("patient", "name"); "done" → ()."""
    out: list[str] = []
    for word in words(text):
        word = _POSSESSIVE.sub("", word)
        if word and word not in FILLER:
            out.append(word)
    return tuple(dict.fromkeys(out))


def check_missing_claims(
    claims: Sequence[str],
    goal: str,
    page: PageState,
    *,
    contract: Contract | None = None,
    steps: Sequence[PlanStep] = (),
) -> MissingCheck:
    """Each claim's verdict (see the module doc). ``contract`` is the task's reading of the
    goal (derived from ``goal`` when not given); ``steps`` the task's plan."""
    reading = _read_goal(goal, contract if contract is not None else understand(goal).contract, page)
    slots = _page_slots(page) + _step_slots(steps)
    return MissingCheck(tuple(_verdict(" ".join(c.split()), goal, reading, slots) for c in claims))


def kept_claims(
    claims: Sequence[str],
    goal: str,
    page: PageState,
    *,
    engine: str,
    contract: Contract | None = None,
    steps: Sequence[PlanStep] = (),
) -> tuple[str, ...]:
    """The claims that hold; every dropped one is logged (``reasoning.missing_claim_dropped``)."""
    check = check_missing_claims(claims, goal, page, contract=contract, steps=steps)
    for verdict in check.dropped:
        log.info("reasoning.missing_claim_dropped", engine=engine, claim=verdict.claim[:200], fault=verdict.fault, reason=verdict.reason)
    return check.kept


def _verdict(claim: str, goal: str, reading: _GoalReading, slots: Sequence[_Slot]) -> ClaimVerdict:
    said = content_words(claim)
    specific = tuple(w for w in said if w not in _KIND_WORDS)
    if not specific:
        return ClaimVerdict(claim, False, "it names no value (no word of its own)", "not_a_value")
    if len(words(claim)) > MAX_NAME_WORDS or (_SENTENCE_END.search(claim) and len(words(claim)) >= _SENTENCE_WORDS):
        return ClaimVerdict(claim, False, "it is a sentence, not the name of a value", "not_a_value")
    if set(said) == reading.content or fold(goal) in fold(claim):
        return ClaimVerdict(claim, False, "it repeats the goal", "copies_goal")
    if _as_values(claim) & reading.values:
        return ClaimVerdict(claim, False, "the goal gives this value", "goal_gives_it")
    named = [s for s in slots if _names(specific, s)]
    if not named:
        return ClaimVerdict(claim, False, "no field, option group, question or plan step needs it", "nothing_needs_it")
    open_slots = [s for s in named if not s.filled]
    if not open_slots:
        return ClaimVerdict(claim, False, "the page already holds it: " + ", ".join(s.what for s in named[:3]), "page_has_it")
    needed = [s for s in open_slots if not _given(s, specific, reading)]
    if not needed:
        return ClaimVerdict(claim, False, "the goal gives the value of " + ", ".join(s.what for s in open_slots[:3]), "goal_gives_it")
    needs = tuple(s.what for s in needed)
    return ClaimVerdict(claim, True, "nothing gives " + ", ".join(needs[:3]), None, needs)


# --- the goal ------------------------------------------------------------------------------


def _read_goal(goal: str, contract: Contract, page: PageState) -> _GoalReading:
    terms = goal_terms(goal)
    values = {fold(t.text) for t in terms if t.kind in _VALUE_KINDS}
    bound = tuple(
        (c, frozenset(e.id for e in resolve(c.target, page).elements))
        for c in contract.clauses
        if c.kind in ("field_value", "choice") and c.read is None and (c.value or "").strip() and c.target is not None
    )  # fmt: skip
    values |= {fold(c.value or "") for c, _ in bound}
    labelled: list[frozenset[str]] = []
    for position, term in enumerate(terms):
        if not _value_like(term.kind, term.text):
            continue
        before: list[str] = []
        for earlier in reversed(terms[max(0, position - _LABEL_REACH) : position]):
            if _value_like(earlier.kind, earlier.text):
                break
            before.extend(content_words(earlier.text))
        if before:
            labelled.append(frozenset(before))
    typed = tuple((t.kind, t.text) for t in terms if t.kind in _TYPED_KINDS)
    return _GoalReading(frozenset(content_words(goal)), frozenset(values), bound, tuple(labelled), typed)


def _as_values(claim: str) -> set[str]:
    """The claim as a value: itself, or the one value or word it holds ('"Jas"' → jas)."""
    terms = goal_terms(claim)
    return {fold(claim).rstrip(" ."), *([fold(terms[0].text)] if len(terms) == 1 else [])}


def _value_like(kind: str, text: str) -> bool:
    """A term that is a value rather than a word about one: quoted, an address, a date, or a
    word with a digit in it ("482913", "hunter2")."""
    return kind in _VALUE_KINDS or any(ch.isdigit() for ch in text)


def _given(slot: _Slot, claim: Sequence[str], reading: _GoalReading) -> bool:
    """Does a value of the goal go into ``slot``?"""
    label_words = {w for label in slot.labels for w in content_words(label)} - _KIND_WORDS
    for clause, found in reading.bound:
        if slot.element is not None and slot.element.id in found:
            return True
        name = set(content_words(clause.target.name if clause.target is not None else ""))
        if name and any(name == set(content_words(label)) for label in slot.labels):
            return True
    if any(before & (label_words | set(claim)) for before in reading.labelled):
        return True
    for kind, value in reading.typed:
        kind_named = kind in label_words or kind in claim or (slot.element is not None and slot.element.input_type == kind)
        if kind_named and not _bound_elsewhere(value, slot, reading):
            return True
    return False


def _bound_elsewhere(value: str, slot: _Slot, reading: _GoalReading) -> bool:
    """The reading puts ``value`` into another field than ``slot``."""
    return any(
        fold(clause.value or "") == fold(value) and found and (slot.element is None or slot.element.id not in found)
        for clause, found in reading.bound
    )


# --- what takes a value --------------------------------------------------------------------


def _names(specific: Sequence[str], slot: _Slot) -> bool:
    """The claim names the slot: a word of the claim that is more than a kind of control
    ("code", "vat", "phone") is in one of the slot's labels (plural, small typos allowed)."""
    return any(words_within((word,), label) > 0.0 for word in specific for label in slot.labels if label)


def _page_slots(page: PageState) -> list[_Slot]:
    visible = [e for e in page.elements if perceivable(e, page) and not e.disabled]
    slots = [_Slot(f"{e.role} {_label(e)!r}", _labels(e), _holds_value(e), e) for e in visible if e.role in _FIELD_ROLES and "readonly" not in e.states]
    slots += _option_groups(visible)
    if any(not s.filled for s in slots):  # a question on the page is open while something there is empty
        slots += [_Slot(f"question {q!r}", (q,), False) for q in _questions(page)]
    return slots


def _label(element: PageElement) -> str:
    return element.name or element.placeholder or element.field_name or element.id


def _labels(element: PageElement) -> tuple[str, ...]:
    return tuple(label for label in (element.name, element.placeholder or "", element.field_name or "") if label.strip())


def _holds_value(element: PageElement) -> bool:
    """A field holds a value; a list does once someone moved it off its first entry."""
    value = (element.value or "").strip()
    if not value:
        return False
    if element.role in ROLE_FAMILIES["combobox"] and element.options:
        return fold(value) != fold(element.options[0])
    return True


def _option_groups(elements: Iterable[PageElement]) -> list[_Slot]:
    """Radio buttons grouped by their form name (else the container they sit in): the group
    is named by that name and container, and filled when one of them is chosen."""
    groups: dict[str, list[PageElement]] = {}
    for element in elements:
        if element.role in _CHOICE_ROLES:
            key = element.field_name or (element.container[0] if element.container else "")
            if key:
                groups.setdefault(key, []).append(element)
    slots: list[_Slot] = []
    for key, members in groups.items():
        first = members[0]
        labels = tuple(dict.fromkeys([first.field_name or "", *(c.partition(":")[2] for c in first.container)]))
        slots.append(_Slot(f"option group {key!r}", tuple(label for label in labels if label.strip()), any("checked" in m.states for m in members)))
    return slots


def _questions(page: PageState) -> list[str]:
    texts = [page.text_summary, *(m.text for m in page.messages)]
    return list(dict.fromkeys(" ".join(q.split()) for text in texts if text for q in _QUESTION.findall(text)))


def _step_slots(steps: Sequence[PlanStep]) -> list[_Slot]:
    """Fill and select steps of the plan still to do that have no value: the task needs one."""
    return [
        _Slot(f"plan step {s.index + 1} {s.target!r}", (s.target,), False)
        for s in steps
        if s.kind in ("fill", "select") and s.target and not (s.value or "").strip() and s.status not in ("completed", "skipped")
    ]
