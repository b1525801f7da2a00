"""Verifying a chain of actions from the one page that followed it.

A chain (``actions`` in an answer: a form's fields, then maybe its submit) runs on the
client without a round trip between its actions, so the server sees the page before the
first and the page after the last. Each action is judged on that page by what it should
have left there:

* a ``setValue``/``select``: its field holds the value (found by id, or — after a
  re-render — the one element with the role and name it had);
* a click on a checkbox, radio or switch: the control is in the state the click leaves;
* a click on an item of a popup list (an option, a menu item) that is gone — the list closes
  on a pick and takes its items with it: verified when the control whose list was open
  before the chain, and that no action of the chain set, now shows another value or label
  (the pick filled it); else unproven;
* the last action that ran, when it is anything else (a submit): the full verifier, with
  the page as it should have been just before it (:func:`predicted_before`), so that the
  fields the chain filled are never mistaken for an effect of the submit.

A field that is gone because the chain's submit moved the page on was read back by the
client right before the submit (its guard), which is the only time it can be seen; a
field that still shows another value was undone by a later action, and fails.
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from verification.actions import Action, format_action
from verification.diff import quote
from verification.elements import PageElement, collapse, normalize_role
from verification.observations import BeforeState
from verification.page import PageState
from verification.skeleton import TEXT_LIMIT, VALUE_LIMIT
from verification.tiers import readable_skeleton, taken_as_items, value_holds

LinkStatus = Literal["verified", "failed", "unproven", "not_run", "skipped"]
TOGGLES = frozenset({"checkbox", "switch", "menuitemcheckbox"})
PICKS = frozenset({"radio", "option", "menuitemradio"})
POPUP_ITEMS = frozenset({"option", "menuitem", "menuitemradio", "menuitemcheckbox"})  # their list closes on a pick


class LinkCheck(BaseModel):
    """One action of a chain as the page after the chain shows it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    index: int = Field(ge=0)
    action: str
    status: LinkStatus
    reason: str
    ran: bool = Field(default=True, description="The client executed it")


@dataclass(frozen=True)
class Expect:
    """The target of a chain action as it was when the chain was decided."""

    role: str
    name: str

    def matches(self, element: PageElement) -> bool:
        return normalize_role(element.role) == normalize_role(self.role) and _folded(element.name) == _folded(self.name)


def _folded(text: str | None) -> str:
    return collapse(text or "").casefold()


def locate(action: Action, expect: Expect | None, page: PageState) -> PageElement | None:
    """The action's element on ``page``: by id while it still is the element the chain
    meant, else the one element with the role and name it had (a re-render renumbers)."""
    element = page.element(action.target) if action.target else None
    if element is not None and (expect is None or expect.matches(element)):
        return element
    return relocate(expect, page) if expect is not None else None


def relocate(expect: Expect, page: PageState) -> PageElement | None:
    """The one visible element with the role and name ``expect`` describes, if exactly one."""
    same = [e for e in page.elements if not e.hidden and expect.matches(e)]
    return same[0] if len(same) == 1 else None


def check_link(
    index: int,
    action: Action,
    expect: Expect | None,
    before: BeforeState,
    after: PageState,
    *,
    read_back: bool,
    chained: Collection[str] = (),
) -> LinkCheck:
    """A field or control action of a chain, judged on ``after``. ``read_back``: the client
    ran the chain's submit after its guard re-read this field, which held then: what the field
    shows afterwards (gone, cleared by a form that resets, emptied by a refused sign-in) is the
    submit's doing, and the submit is judged for it. ``chained``: the ids the chain's actions
    target (a control one of them set shows that action's value, not a pick's)."""
    text = format_action(action)

    def verdict(status: LinkStatus, reason: str) -> LinkCheck:
        return LinkCheck(index=index, action=text, status=status, reason=reason)

    element = locate(action, expect, after)
    moved_on = not _same_page(before.url, after.url)
    if read_back:
        if element is None or moved_on:
            return verdict("verified", "the client read it back just before the submit; the page has moved on since")
        return verdict("verified", "the client read it back just before the submit (what the form shows now is the submit's doing)")
    if element is None:
        if moved_on:
            return verdict("unproven", "the page moved on; the element is no longer there to check")
        if action.name == "click" and expect is not None and normalize_role(expect.role) in POPUP_ITEMS:
            if (filled := _pick_shown(before, after, chained)) is not None:
                return verdict("verified", f"its list closed after the pick; {filled}")
            return verdict("unproven", "its list closed after the pick; the item is no longer there to check")
        return verdict("failed", "its element is no longer on the page")
    if action.name in ("setValue", "select"):
        wanted = action.value or ""
        actual = element.value
        if actual is None:
            return verdict("unproven", "the page does not show the field's value")
        if value_holds(wanted, actual):
            return verdict("verified", f"the field holds {quote(actual)}")
        if _masked(actual, wanted):
            return verdict("verified", "the field holds a masked value of the typed length")
        if action.name == "setValue" and not actual.strip() and (items := taken_as_items(wanted, readable_skeleton(before), after)):
            return verdict("verified", f"the box took {items} as items of their own")
        return verdict("failed", f"the field holds {quote(actual)}, not {quote(wanted)} (a later action may have undone it)")
    if action.name == "click":
        role = normalize_role(element.role)
        checked = "checked" in element.states or "selected" in element.states
        was = _was_checked(before, action.target)
        if role in PICKS:
            return verdict("verified", "it is selected") if checked else verdict("failed", "it is not selected")
        if role in TOGGLES:
            if was is None:
                return verdict("unproven", "its state before the chain is unknown")
            if checked != was:
                return verdict("verified", f"it is now {'on' if checked else 'off'}")
            return verdict("failed", f"it is still {'on' if checked else 'off'} (a later action may have undone it)")
    return verdict("unproven", f"{action.name}() leaves nothing to check on the field itself")


def _pick_shown(before: BeforeState, after: PageState, chained: Collection[str]) -> str | None:
    """How the page shows a pick from a popup list that has closed: the control that was
    expanded before the chain (the list was its), set by no action of the chain, now shows
    another value — or, read live (V3), another label ("Sort: Price" on a menu button)."""
    skeleton = readable_skeleton(before)
    if skeleton is None or skeleton["source"] != after.source:
        return None
    for key, was in skeleton["elements"].items():
        element = after.element(key)
        if was.get("ariaExpanded") != "true" or key in chained or element is None:
            continue
        value, label = (element.value or "")[:VALUE_LIMIT], element.name[:TEXT_LIMIT].rstrip()
        if value != str(was.get("value") or ""):
            return f"{element.role} {quote(element.name or key)} now holds {quote(value)}"
        if after.source == "v3" and label != str(was.get("text") or ""):
            return f"the {element.role} that listed it now reads {quote(label)}"
    return None


def _masked(actual: str, wanted: str) -> bool:
    """A password field the page reports as bullets (V3 masks what the agent did not type)."""
    return bool(actual) and set(actual) <= {"•", "*", "●"} and len(actual) == min(len(wanted), 32)


def _was_checked(before: BeforeState, target: str | None) -> bool | None:
    skeleton = readable_skeleton(before)
    if skeleton is None or not target or target not in skeleton["elements"]:
        return None
    return bool(skeleton["elements"][target].get("checked"))


def _same_page(a: str, b: str) -> bool:
    return a.split("#", 1)[0].rstrip("/") == b.split("#", 1)[0].rstrip("/")


def predicted_before(before: BeforeState, done: Sequence[Action]) -> BeforeState:
    """The page as it should have been after ``done`` (values typed and selected, boxes
    toggled), before the chain's next action: what that action's own effect is measured
    from. The DOM hash is unknown for such a page; the skeleton decides."""
    skeleton = readable_skeleton(before)
    if skeleton is None or not done:
        return before
    predicted = copy.deepcopy(skeleton)
    elements = predicted["elements"]
    for action in done:
        desc = elements.get(action.target or "")
        if desc is None:
            continue
        if action.name in ("setValue", "select"):
            value = (action.value or "")[:VALUE_LIMIT]
            if value:
                desc["value"] = value
            else:
                desc.pop("value", None)
        elif action.name == "click" and desc.get("role") in TOGGLES:
            if desc.get("checked"):
                desc.pop("checked", None)
            else:
                desc["checked"] = True
        elif action.name == "click" and desc.get("role") in PICKS:
            desc["checked"] = True
    return before.model_copy(update={"skeleton": predicted, "dom_hash": f"predicted:{before.dom_hash}"})
