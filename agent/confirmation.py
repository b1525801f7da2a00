"""A destructive click the page answers with "are you sure?" is not done yet.

"Cancel subscription" that opens "Yes, cancel subscription / Keep my plan", "Delete
account" that leads to a page with "Delete account / Cancel", "Remove" that raises a
dialog with "Confirm / Cancel": the click worked and the page changed, but the thing the
goal asks for has not happened — the page is waiting for a second decision. Counting the
first click as the goal done would be a false "completed".

:func:`confirmation_asked` reads it from the page the click was issued on (its skeleton,
stored with the action) and the page after it: the clicked control's label carries a
destructive phrase of the lexicon, and the page now offers a control it did not offer
before that does the same thing — the same kind of phrase ("Delete account" after "Close
account"), the clicked verb in another form ("Confirm cancellation"), or a plain "Confirm"
/ "Yes" / "Continue", or the very label clicked, offered again ("Delete" in the dialog over
the rows' "Delete") — inside a dialog, or beside a new way back ("Cancel", "Keep my
plan", "Go back", "No"). The clause the click was for then waits for that control
(``ClauseResult.awaiting``): only a click on it, verified, with no further confirmation
behind it, proves the clause; the contingency check asks the user before sending it
(:mod:`agent.contingency.detect`). Words on the page are only matched against the
lexicon; nothing they say is followed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from agent.destructive import phrase_in
from agent.policy.lexicon import DESTRUCTIVE
from verification import PageElement, PageState
from verification.contract import fold, words

_CONTROL_ROLES: Final = frozenset({"button", "link", "menuitem"})
# A plain "yes, do it": the first word of a confirming control's label ("Yes, cancel it",
# "Confirm"), or the whole label ("OK"; "Continue shopping" is not one).
_CONFIRM_FIRST: Final = frozenset({"confirm", "yes"})
_CONFIRM_NAMES: Final = frozenset({"ok", "okay", "proceed", "continue", "i understand", "i m sure", "i am sure", "do it"})
_ANSWER_FIRST: Final = frozenset({"yes", "confirm", "continue", "proceed"})  # "Continue to cancel"
_MAX_WORDS: Final = 5  # a control's label; a longer one (an email's subject in a list) is an entry, not a choice…
_MAX_DIALOG_WORDS: Final = 12  # …except in a dialog ("I understand the consequences, delete this repository")
# A way back out of the question: the whole label, or its first word.
_BACK_NAMES: Final = frozenset(
    {"cancel", "no", "go back", "back", "never mind", "nevermind", "not now", "close", "x", "×", "✕", "dismiss", "stay", "return"}
)
_BACK_FIRST: Final = frozenset({"keep", "no", "don't", "dont", "do not", "stay", "back", "return"})  # "Back to settings"


def _label(element: PageElement) -> str:
    return element.text or element.name or (element.value or "" if element.role in _CONTROL_ROLES else "")


def _is_control(element: PageElement) -> bool:
    limit = _MAX_DIALOG_WORDS if _in_dialog(element) else _MAX_WORDS
    return 0 < len(words(_label(element))) <= limit and not element.hidden and not element.occluded and element.frame == 0 and (
        element.role in _CONTROL_ROLES or element.tag in ("button", "a") or element.input_type in ("submit", "button")
    )


def _is_way_back(label: str, phrase: str) -> bool:
    """"Cancel", "Keep my plan", "Go back", "Don't cancel"… — but a "No …" that goes on to
    do the clicked thing declines something else: "No thanks, cancel" under a retention
    offer is the confirmation."""
    said = words(label)
    folded = " ".join(said)
    if folded in _BACK_NAMES:
        return True
    if not said or not (said[0] in _BACK_FIRST or " ".join(said[:2]) in _BACK_FIRST):
        return False
    return said[0] != "no" or not _same_kind(" ".join(said[1:]), phrase)


def _same_kind(label: str, phrase: str) -> bool:
    """Does ``label`` do what ``phrase`` does: a phrase of the same family, or its verb in
    another form ("cancellation", "deletion", "removal")?"""
    other = phrase_in(label)
    if other is not None and (other == phrase or DESTRUCTIVE[other] & DESTRUCTIVE[phrase]):
        return True
    verb = phrase.split()[0]
    stem = verb[:-1] if len(verb) >= 5 else verb
    return any(word.startswith(stem) for word in words(label))


def _plain_yes(label: str) -> bool:
    said = words(label)
    return bool(said) and (said[0] in _CONFIRM_FIRST or " ".join(said) in _CONFIRM_NAMES)


def confirmation_asked(target: str | None, before: Mapping[str, Any] | None, page: PageState) -> PageElement | None:
    """The control that confirms the destructive click on ``target`` (an element id of the
    page whose skeleton is ``before``), when ``page`` — the page after the click — asks
    for a confirmation of it; else ``None``."""
    if not target or not before:
        return None
    elements = before.get("elements") or {}
    clicked = elements.get(target)
    if not isinstance(clicked, Mapping):
        return None
    phrase = phrase_in(str(clicked.get("text") or "")) or phrase_in(str(clicked.get("value") or ""))
    if phrase is None:
        return None
    offered = {fold(str(d.get("text") or "")) for d in elements.values() if isinstance(d, Mapping)}
    said = fold(str(clicked.get("text") or ""))
    controls = [e for e in page.elements if _is_control(e)]
    # New controls, and the clicked action offered again: "Delete" in the dialog over the
    # rows' "Delete", "Unsubscribe" on the page that asks "Unsubscribe from all emails?".
    new = [e for e in controls if fold(_label(e)) not in offered]
    backs = [e for e in new if _is_way_back(_label(e), phrase)]
    again = [e for e in controls if fold(_label(e)) == said and e not in new]
    ranked = sorted(
        (e for e in [*new, *again] if e not in backs and (_same_kind(_label(e), phrase) or _plain_yes(_label(e)))),
        # A dialog's first; then a control the page did not offer before (another row's
        # "Remove" is that row's own); then the one that says the same thing.
        key=lambda e: (not _in_dialog(e), e in again, not _same_kind(_label(e), phrase)),
    )
    for element in ranked:
        if _in_dialog(element) and form_to_fill([e for e in page.elements if not e.hidden and _in_dialog(e)], element):
            continue  # "Forward" opened its compose window: a form to fill, not a question
        if _in_dialog(element) or backs or _asks_outright(_label(element), phrase):
            return element
    return None


_FIELD_ROLES: Final = frozenset({"textbox", "searchbox"})


def form_to_fill(controls: Sequence[PageElement], confirms: PageElement) -> bool:
    """A dialog with a field to type in and a "Send" it already allows is a form (a compose
    window after "Forward"), not a question — filled or not: the work goes on in it (a
    recipient picked from the suggestions, a file attached), and its "Send" is pressed when the
    plan gets there, held then if the goal never asked for it. A question that wants something
    typed first is still one: its control stays disabled, or its field says it confirms ("Type
    the repository name to confirm")."""
    if "disabled" in confirms.states:
        return False
    return any(
        (c.role in _FIELD_ROLES or (c.role == "combobox" and c.tag == "input")) and not {"disabled", "readonly"} & c.states
        and "confirm" not in words(f"{c.name} {c.placeholder or ''}")
        for c in controls
    )  # fmt: skip


def _asks_outright(label: str, phrase: str) -> bool:
    """A control phrased as the answer to a question about the clicked thing is one even on a
    page with no way back: "Confirm transfer", "Confirm order" (after "Place order"), "Yes,
    delete", "Continue to cancel", "No thanks, cancel" (under a retention offer), "Send
    anyway"."""
    said = words(label)
    if len(said) < 2:
        return False
    if said[0] == "confirm" and bool(set(phrase.split()[1:]) & set(said[1:])):
        return True
    lead = 2 if said[:2] == ("no", "thanks") else 1 if said[0] in _ANSWER_FIRST else 0
    if said[-1] == "anyway":
        return _same_kind(" ".join(said[:-1]), phrase)
    return lead > 0 and len(said) > lead and _same_kind(" ".join(said[lead:]), phrase)


def _in_dialog(element: PageElement) -> bool:
    return any(c.startswith("dialog") for c in element.container)


def confirm_label(element: PageElement) -> str:
    """The confirming control's label, as the clause waits for it."""
    return _label(element)

