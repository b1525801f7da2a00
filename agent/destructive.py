"""Destructive actions the goal did not ask for are never sent: the user is asked first.

A click on a control whose label (its name, its visible text, a button's value) carries a
phrase of :data:`~agent.policy.lexicon.DESTRUCTIVE` — delete, pay, send, cancel a
subscription, close an account… — is *asked for* when the goal's own words, or the names
the policy's contract gives its targets (a frame's implied step: the Send of "Forward the
email …"), include a word that asks for it. Anything else ("Click Save" landing on "Save and
delete my account", a model proposing "Delete account" for "tidy my profile") is held: the
answer is ``needs_user_input`` with a question naming the control, the action is not sent,
and the task waits for the user's ``confirm`` (true: the action is sent on the next request,
if the control is still there; false: the task fails, ``USER_DECLINED``). Both the policy's
and a model's actions pass through here (``action_validation``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from agent.policy.coverage import FILLER
from agent.policy.coverage_lexicon import NEGATIONS
from agent.policy.lexicon import DESTRUCTIVE
from verification import Action, Contract, PageElement, PageState, format_action
from verification.contract import fold, words

_WORD: Final = re.compile(r"[a-z0-9]+")
# Controls that change a value, not commit something: ticking "Remove background" deletes nothing.
_STATE_ROLES: Final = frozenset({"checkbox", "radio", "switch", "textbox", "searchbox", "combobox", "listbox", "spinbutton", "slider", "option", "tab"})
_RECORD_KINDS: Final = ("row", "item", "card")  # a record: one of many alike, named by its content
_PHRASES: Final = sorted(((tuple(p.split()), p) for p in DESTRUCTIVE), key=lambda item: -len(item[0]))


@dataclass(frozen=True)
class Held:
    """A destructive action held for the user's confirmation."""

    action: str  # the action as sent once confirmed
    label: str  # the control, as a person reads it
    phrase: str  # what it would do (the lexicon's phrase)
    element_id: str

    @property
    def message(self) -> str:
        return (
            f"The next step would click {self.label!r}, which would {self.phrase} — the goal does not ask for that. "
            "Send confirm: true to do it, or confirm: false to stop."
        )

    def question(self) -> dict[str, Any]:
        """The ``needsUserInput`` payload."""
        return {
            "message": self.message,
            "missing": [],
            "confirm": {"action": self.action, "element": self.label, "elementId": self.element_id, "what": self.phrase},
        }

    def pending(self, *, thought: str, decided_by: str, plan_step: int | None, completes_step: bool) -> dict[str, Any]:
        """What the task keeps while it waits (``task.state["confirm"]``): the question, and how
        to send the action once confirmed (agent/service.py)."""
        return {"question": self.question(), "thought": thought, "decided_by": decided_by, "plan_step": plan_step, "completes_step": completes_step}


def _words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(fold(text)))


def _bases(word: str) -> set[str]:
    """A goal word and its plain forms ("deleting" → delete, "orders" → order)."""
    out = {word}
    for suffix, repl in (("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e"), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            out.add(word[: -len(suffix)] + repl)
    return out


def _labels(element: PageElement) -> list[str]:
    labels = [element.name, element.text or ""]
    if element.value and element.role in ("button", "link", "menuitem"):
        labels.append(element.value)
    return [label for label in labels if label]


def destructive_phrase(element: PageElement) -> str | None:
    """The destructive phrase the control's label carries, or ``None``."""
    if element.role in _STATE_ROLES:
        return None
    for label in _labels(element):
        if (phrase := phrase_in(label)) is not None:
            return phrase
    return None


def phrase_in(text: str, *, inflected: bool = False) -> str | None:
    """The destructive phrase (whole words, longest first) a text carries, or ``None``: a
    control's label, or — ``inflected``, each word also read in its plain forms ("deleted",
    "removing") — the sentence of a native ``confirm()`` ("Order 42 will be deleted. OK?")."""
    seen = _words(text)
    forms = [_bases(word) if inflected else {word} for word in seen]
    for phrase_words, phrase in _PHRASES:
        n = len(phrase_words)
        if any(all(phrase_words[j] in forms[i + j] for j in range(n)) for i in range(len(seen) - n + 1)):
            return phrase
    return None




def asked_words(goal: str, contract: Contract | None) -> frozenset[str]:
    """The words that ask for something: the goal's, and the names the policy's contract
    gives its targets (never a model's clauses: a model cannot ask on the user's behalf)."""
    found: set[str] = set()
    said = list(_words(goal))
    for position, word in enumerate(said):
        if NEGATIONS & set(said[max(0, position - 2) : position]):
            continue  # "don't send it yet", "without deleting": asks for the opposite
        found |= _bases(word)
    if contract is not None:
        for clause in contract.clauses:
            if clause.source == "policy" and clause.target is not None:
                for word in _words(clause.target.name):
                    found |= _bases(word)
    return frozenset(found)


def unasked(action: Action, element: PageElement | None, goal: str, contract: Contract | None, confirmed: frozenset[str] = frozenset()) -> Held | None:
    """The click to hold for confirmation, or ``None`` when it may be sent."""
    if action.name != "click" or element is None:
        return None
    phrase = destructive_phrase(element)
    if phrase is None or DESTRUCTIVE[phrase] & asked_words(goal, contract):
        return None
    label = element.text or element.name or element.id  # what the user sees on it
    text = format_action(action)
    if text in confirmed:
        return None
    return Held(action=text, label=label, phrase=phrase, element_id=element.id)


def other_record(action: Action, element: PageElement | None, goal: str, page: PageState) -> str | None:
    """A destructive click on the wrong record: the goal names a record on the page (a row,
    list item or card whose text carries words of the goal), and the click lands on the same
    control of another one ("Remove" in the *production* row for "Remove the key named
    staging"). Returns the record the goal names, or ``None`` (not destructive, not in a
    record, or the goal names none of the page's records — "delete the first order")."""
    if action.name != "click" or element is None or destructive_phrase(element) is None:
        return None
    mine = _record(element)
    if mine is None:
        return None
    kind, text = mine
    phrase_words = {w for p in DESTRUCTIVE for w in p.split()}
    wanted = {w for w in words(goal) if len(w) > 2 and w not in FILLER and w not in phrase_words}
    label = fold(element.name)
    best, best_score = None, _score(wanted, text)
    for other in page.elements:
        record = _record(other)
        if record is None or record[0] != kind or record[1] == text or fold(other.name) != label or other.hidden:
            continue
        if (score := _score(wanted, record[1])) > best_score:
            best, best_score = record[1], score
    return best


def _record(element: PageElement) -> tuple[str, str] | None:
    for container in element.container:
        kind, _, text = container.partition(": ")
        if kind in _RECORD_KINDS and text:
            return kind, text
    return None


def _score(wanted: set[str], text: str) -> int:
    return len(wanted & set(words(text)))
