"""Is the dialog on the page the task's own — opened, or worked in, by its last action?

A person leaves alone a dialog their own click just brought up ("Delete user" opens its
"type the name to confirm", "Change role" its role picker, "Publish" its "Publish now?"):
the work goes on in it. They close only what was there before they acted, or what came up
on its own (a cookie banner on load, a newsletter on a timer). Read from the page before the
last action (the skeleton stored with it) and the page after it, never from the dialog's
prose as an instruction. The last action must be the task's own (no contingency's
dismissal); then the dialog is the task's when

* none of its elements was on the page before the action (the client stamps an element's id
  once and never gives it to another, so an id seen before is the same element), the client
  ran the action — a click, or a key pressed on a control — and the dialog answers what was
  acted on: it repeats a word of that control's name (beyond words that only close things)
  or of the row or section it sat in ("Cancel standing order to Easy Saver?" after that row's
  "Cancel"; "Cancel standing order?" after a "Cancel" under "Your standing orders"),
  or the control now says it expanded (``aria-expanded``). A promotion a timer puts up just
  after an unrelated click shares neither, and is still closed;
* or the action worked in it (the name typed into the confirmation the click before opened;
  a "+" in a cart drawer that re-draws itself, its controls under new ids).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from agent.contingency.detect import DISMISS, Blocker
from agent.policy.coverage import FILLER, stem
from storage import TaskAction
from verification import Action, ActionSyntaxError, PageElement, PageState, parse_action
from verification.contract import fold, words

OPENERS: Final = frozenset({"click", "press"})  # actions that can bring a dialog up


def task_opened(blocker: Blocker, page: PageState, last: TaskAction, *, ran: bool) -> bool:
    """Did ``last`` (the task's previous action, on the page its ``before_state`` holds; ``ran``:
    the client could run it) open the dialog ``blocker`` is on ``page``, or work in it?"""
    if last.metrics.get("contingency") is not None:
        return False  # what follows a dismissal came up on its own
    before = (last.before_state or {}).get("skeleton")
    within = [str(c) for c in last.metrics.get("within") or ()]
    record = " ".join(c.partition(": ")[2] for c in within) or _record_of(str(last.metrics.get("target") or ""))
    return isinstance(before, Mapping) and opened_by(blocker, page, _actions(last), before, ran=ran, record=record, within=within)


def _record_of(described: str) -> str:
    """The row or item a described target sat in ("button 'Cancel' in row: Easy Saver · £200")."""
    _, found, rest = described.partition(" in ")
    kind, _, text = rest.partition(": ")
    return text.rstrip("…") if found and kind in ("row", "item", "listitem", "card", "article") else ""


def opened_by(
    blocker: Blocker,
    page: PageState,
    actions: Sequence[Action],
    before: Mapping[str, Any],
    *,
    ran: bool = True,
    record: str = "",
    within: Sequence[str] = (),
) -> bool:
    """Did ``actions``, sent on the page whose skeleton is ``before``, open the dialog
    ``blocker`` is on ``page`` (the page after them), or work in it? ``record``: the text of
    the row or item the clicked control sat in — a dialog about that record ("Cancel standing
    order to Easy Saver?" after a row's "Cancel") answers the click too."""
    if blocker.trigger != "modal" or not blocker.in_dialog:
        return False
    seen = before.get("elements") or {}
    dialog = [e for e in page.elements if not e.hidden and _in_dialog(e)]
    if not dialog:
        return False
    if any(e.id in seen for e in dialog):
        # It was there before the action: the task's only when the action worked in it (the
        # name typed into the confirmation it opened one step earlier).
        # The control may be gone: a dialog that re-draws itself ("+" in a cart drawer) gives
        # it a new id, but the action remembers the dialog it was in.
        inside = {e.id for e in dialog}
        boxes = {c for e in dialog for c in e.container if c.startswith("dialog")}
        return any(a.target in inside for a in actions) or bool(boxes.intersection(within))
    if not ran:
        return False  # the client could not run it: it opened nothing
    said = _dialog_words(dialog)
    for action in actions:
        acted = seen.get(action.target) if action.name in OPENERS and action.target is not None else None
        if not isinstance(acted, Mapping):
            continue
        if (_content(str(acted.get("text") or "")) | _content(record)) & said or _expanded(page, action.target):
            return True
    return False


def _actions(last: TaskAction) -> list[Action]:
    """The actions the previous request sent: its chain's, else its one."""
    texts = [str(link.get("action") or "") for link in last.actions or ()] or [last.action]
    out = []
    for text in texts:
        try:
            out.append(parse_action(text))
        except ActionSyntaxError:
            continue
    return out


def _in_dialog(element: PageElement) -> bool:
    return any(c.startswith("dialog") for c in element.container)


def _content(text: str) -> frozenset[str]:
    """The words of a label that say what it is about (no filler, no closing words)."""
    if fold(text) in DISMISS:
        return frozenset()
    return frozenset(stem(w) for w in words(text) if w not in FILLER and w not in DISMISS)


def _dialog_words(dialog: list[PageElement]) -> frozenset[str]:
    """What the dialog is about: its title and its elements' names."""
    labels = [e.name or e.text or "" for e in dialog]
    labels += [c.partition(": ")[2] for e in dialog for c in e.container if c.startswith("dialog")]
    return frozenset().union(*(_content(label) for label in labels))


def _expanded(page: PageState, element_id: str | None) -> bool:
    return any(e.id == element_id and "expanded" in e.states for e in page.elements)
