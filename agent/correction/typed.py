"""Does the page hold the task's own work? (Decided here, and only here.)

A reload, a navigation or a step back throws away what the task typed into the page. The
task record already says what that is: its actions, oldest first, each with the verdict the
next request gave it (``TaskAction.verification``; a chain's actions one by one in its
``chain``), and the verdict of the newest one in hand. Walking back from the newest step,
the page the task is on now began at the last step that changed the URL (a form posted, a
link followed) or that navigated / went back (a reload is a ``navigate`` to the same URL):
what the task verified typing, choosing or ticking after it is on this page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from storage import TaskAction
from verification import Action, ActionSyntaxError, PageState, VerificationResult, normalize_role, parse_action

TYPING: Final = frozenset({"setValue", "select"})
LEAVING: Final = frozenset({"navigate", "goBack"})
TOGGLES: Final = frozenset({"checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"})


def typed_on_page(
    steps: Sequence[TaskAction], current: VerificationResult | None, page: PageState
) -> tuple[str, ...]:
    """The task's verified actions that put a value on the page it is on now — a
    ``setValue``/``select``, a click on a checkbox or radio — since the page was last
    loaded, oldest first (grammar texts). Empty: nothing of the task's is on the page.

    ``steps`` are the task's actions oldest first, the newest being the one ``current``
    verifies (its stored ``verification`` is not written yet); ``page`` gives the role of a
    clicked element when the step did not record it."""
    found: list[str] = []
    for position, step in enumerate(reversed(steps)):
        newest = position == 0
        verdict: Mapping[str, Any] | None = (
            current.model_dump(mode="json") if newest and current is not None else step.verification
        )
        moved = bool(verdict and verdict.get("url_changed"))
        sent_on = step.before_state.get("url") if newest and step.before_state else None
        if isinstance(sent_on, str):  # the URL it was sent on: a new #fragment is the same page
            moved = (moved or sent_on != page.url) and _document(sent_on) != _document(page.url)
        if moved:
            break  # what this step and the earlier ones typed was on the page it left
        links = _links(step, verdict)
        if any(action.name in LEAVING for action, _, _ in links):
            break  # the page was (re)loaded by this step: nothing earlier is on it
        found[:0] = [text for action, role, text in links if _puts_a_value(action, role, page)]
    return tuple(found)


def _document(url: str) -> str:
    return url.strip().split("#", 1)[0].rstrip("/")


def _links(step: TaskAction, verdict: Mapping[str, Any] | None) -> list[tuple[Action, str | None, str]]:
    """The step's actions that ran and that the page verified (all of them for the
    ``LEAVING`` test, which needs no verdict), with the role recorded for each."""
    out: list[tuple[Action, str | None, str]] = []
    checks = {c.get("index"): c for c in (verdict or {}).get("chain") or [] if isinstance(c, Mapping)}
    items: list[Mapping[str, Any]] = list(step.actions) if step.actions else [{"index": 0, "action": step.action}]
    for item in items:
        text = str(item.get("action") or "")
        try:
            action = parse_action(text)
        except ActionSyntaxError:
            continue
        if action.name in LEAVING:
            out.append((action, None, text))
            continue
        if step.actions:
            check = checks.get(item.get("index"))
            verified = check is not None and check.get("status") == "verified"
            expect = item.get("expect") if isinstance(item.get("expect"), Mapping) else None
            role = str(expect["role"]) if expect and expect.get("role") else None
        else:
            verified = bool(verdict) and (verdict.get("success") is True or verdict.get("action_succeeded") is True)
            target = step.metrics.get("target")
            role = str(target).split(" ", 1)[0] if target else None  # "checkbox 'Subscribe'"
        if verified:
            out.append((action, role, text))
    return out


def _puts_a_value(action: Action, role: str | None, page: PageState) -> bool:
    if action.name in TYPING:
        return True
    if action.name != "click" or action.target is None:
        return False
    if role is None:
        element = page.element(action.target)
        role = element.role if element is not None else None
    return role is not None and normalize_role(role) in TOGGLES
