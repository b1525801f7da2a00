"""Tier 1: deterministic verification from clear page evidence (zero tokens).

Each rule reads structural facts — URLs, element values and states, message *kinds*,
client flags — never free text written by a model. A rule either finds evidence that the
action failed, evidence that it worked, or nothing (then a model, or the no-model
fallback, decides). Failure evidence wins over success evidence.

Failure: a new error-kind message (or hasErrors flipping on); the extension's own check
reporting failure (``verification_passed`` false); a typed or selected value that did not
land (see :func:`_value_rule` for when a mismatch counts).

Success: the extension's check passing; a new success-kind message; the expected success
text or expected elements appearing; a typed or selected value now in its field; a
navigation reaching its URL (or another one after a redirect); a click on a link followed
by a URL change; a clicked element changing state (checked, expanded, selected).

Completion evidence (may decide ``task_completed`` on a final step): a new success-kind
message, or the expected success text appearing.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from verification.actions import Action
from verification.contract.values import match_for, value_matches
from verification.diff import quote
from verification.elements import PageElement, collapse, shows_item, typed_items
from verification.finding import Tier1Finding
from verification.lookahead import ExpectedOutcome, find_elements, page_has_text
from verification.observations import BeforeState
from verification.page_rules import message_rules, refused_sign_in_rule
from verification.page import PageState
from verification.selectors import TAG_ROLES, SelectorError
from verification.skeleton import (
    VALUE_LIMIT,
    Skeleton,
    SkeletonError,
    validate_skeleton,
)

# "#save", ".toast", "[role=dialog]", "form#new", "button:contains(…)" — or an element tag
# ("button", "input", "a" …); any other entry ("Save", "submit") is visible text.
_SELECTOR_START = re.compile(r"^(?:[#.\[]|[a-z][a-z0-9]*[#.\[:])")
_NOT_WORD = re.compile(r"\W+")


def readable_skeleton(before: BeforeState) -> Skeleton | None:
    if before.skeleton is None:
        return None
    try:
        return validate_skeleton(before.skeleton)
    except SkeletonError:
        return None


def _norm(text: str | None) -> str:
    return collapse(text or "").casefold()


def value_holds(wanted: str, actual: str) -> bool:
    w, a = _norm(wanted), _norm(actual)
    if a == w or (w and w in a):
        return True
    how = match_for(wanted)
    if how in ("date", "time", "number") and value_matches(wanted, actual, how):
        return True  # 9:37 PM typed into a time input shows 21:37
    digits_w, digits_a = _NOT_WORD.sub("", w), _NOT_WORD.sub("", a)
    return bool(digits_w) and digits_w == digits_a  # input masks: 5551234 vs (555) 123-4


def taken_as_items(wanted: str, before: Skeleton | None, after: PageState) -> str | None:
    """A tags or recipients box turns what is typed into items ("harbour, people," → two
    chips) and empties itself: each part now shown as an item more than before, quoted."""
    parts = typed_items(wanted)
    if before is None or not parts:
        return None
    for part in parts:
        said = part.casefold()
        was = sum(1 for d in before["elements"].values() if (text := str(d.get("text", "")).casefold()) == said or text.endswith(f" {said}"))
        if sum(1 for e in after.elements if shows_item(e, part)) <= was:
            return None
    return ", ".join(quote(part) for part in parts)


def _value_rule(
    found: Tier1Finding, action: Action, target: PageElement, before: Skeleton | None, after: PageState
) -> None:
    """A mismatch counts as failure when the value is live (V3 ``v``), or when the HTML
    ``value`` attribute did change but to something else; an unchanged attribute may just
    be a snapshot that does not mirror typed text, so it decides nothing."""
    wanted = action.value or ""
    actual = target.value
    if actual is None:
        return
    source = after.source
    verb = "typed text" if action.name == "setValue" else "selected option"
    if value_holds(wanted, actual):
        found.succeed(0.95, f"Element {quote(target.id)} now holds the {verb} {quote(actual)}")
        return
    if action.name == "setValue" and not actual.strip() and (items := taken_as_items(wanted, before, after)):
        found.succeed(0.85, f"Element {quote(target.id)} took {items} as items of their own (shown beside it; the box is empty again)")
        return
    previous: Any = None
    if before is not None and target.id in before["elements"]:
        previous = before["elements"][target.id].get("value", "")
    if source == "v3" or (previous is not None and previous != actual[:VALUE_LIMIT]):
        found.fail(
            0.8,
            f"Element {quote(target.id)} holds {quote(actual)}, not the {verb} {quote(wanted)}",
            "value_mismatch",
        )
    else:
        found.notes.append(f"Element {quote(target.id)} value still shows {quote(actual)}")


def _host_path(url: str) -> tuple[str, str]:
    text = url.strip()
    parts = urlsplit(text if "//" in text else f"https://{text}")
    host = parts.netloc.lower().removeprefix("www.")
    return host, parts.path.rstrip("/") or "/"


def _url_rules(
    found: Tier1Finding,
    action: Action,
    before: Skeleton | None,
    after: PageState,
    url_changed: bool,
) -> None:
    if not url_changed:
        return
    if action.name == "navigate" and action.value:
        if _host_path(action.value) == _host_path(after.url):
            found.succeed(0.95, f"Navigated to {quote(after.url, 120)} as requested")
        else:
            found.succeed(
                0.85,
                f"Navigation landed on {quote(after.url, 120)} (a redirect from the requested URL)",
            )
    elif action.name == "goBack":
        found.succeed(0.9, f"Went back to {quote(after.url, 120)}")
    elif action.name == "click" and before is not None and action.target:
        desc: dict[str, Any] = before["elements"].get(action.target, {})
        if desc.get("role") == "link" or desc.get("tag") == "a":
            found.succeed(
                0.9,
                f"Clicked link {quote(action.target)} and the page navigated to {quote(after.url, 120)}",
            )


def _state_rule(
    found: Tier1Finding, action: Action, target: PageElement, before: Skeleton | None
) -> None:
    if before is None or action.name not in ("click", "press"):
        return
    desc = before["elements"].get(target.id)
    if desc is None:
        return
    pairs = (
        ("checked", desc.get("checked") is True, "checked" in target.states),
        ("expanded", desc.get("ariaExpanded") == "true", "expanded" in target.states),
        ("selected", desc.get("selected") is True, "selected" in target.states),
    )
    for name, old, new in pairs:
        if old != new:
            found.succeed(0.85, f"Element {quote(target.id)} became {'' if new else 'not '}{name}")


def focus_landed(action: Action | None, before: BeforeState, after: PageState) -> bool:
    """The clicked element now has the keyboard focus and did not before: the page itself
    shows the click landed, even when the click changes nothing else (a button whose only
    effect is server-side, a field the goal only asks to focus)."""
    if action is None or action.name != "click" or action.target is None:
        return False
    return after.focused_element_id == action.target and before.active_element != action.target


def _focus_rule(found: Tier1Finding, action: Action, target: PageElement, before: BeforeState) -> None:
    if action.name == "click" and "focused" in target.states and before.active_element != target.id:
        found.succeed(0.75, f"Focus moved to the clicked element {quote(target.id)}")


def _present(entry: str, before: Skeleton | None, after: PageState) -> bool | None:
    """Did an expected element (selector or text) appear? ``None`` if it cannot be checked."""
    if _SELECTOR_START.match(entry) or entry in TAG_ROLES:
        try:
            matched = find_elements(after, selector=entry)
        except SelectorError:
            return None
        return any(before is None or e.id not in before["elements"] for e in matched)
    return page_has_text(after, entry) and not _skeleton_has_text(before, entry)


def _skeleton_has_text(skeleton: Skeleton | None, text: str) -> bool:
    if skeleton is None:
        return False
    needle = _norm(text)
    texts = list(skeleton["messages"].values()) + [
        str(d.get("text", "")) for d in skeleton["elements"].values()
    ]
    return any(needle in _norm(t) for t in texts)


def _expected_rules(
    found: Tier1Finding,
    expected: ExpectedOutcome,
    before: Skeleton | None,
    after: PageState,
    url_changed: bool,
) -> None:
    if (
        expected.success_text
        and page_has_text(after, expected.success_text)
        and not _skeleton_has_text(before, expected.success_text)
    ):
        found.succeed(0.9, f"The expected success text {quote(expected.success_text)} appeared")
        found.completion = True
        found.expected_seen = True
    if expected.elements_to_appear:
        checks = [_present(entry, before, after) for entry in expected.elements_to_appear]
        if all(checks):
            names = ", ".join(quote(e) for e in expected.elements_to_appear)
            found.succeed(0.85, f"Every expected element appeared: {names}")
            found.expected_seen = True
    if expected.url_should_change and url_changed:
        found.succeed(0.85, "The URL changed as expected")


def evaluate_tier1(
    *,
    before: BeforeState,
    after: PageState,
    action: Action | None,
    expected: ExpectedOutcome | None,
    url_changed: bool,
) -> Tier1Finding:
    """All Tier-1 evidence for one step (see the module doc)."""
    found = Tier1Finding()
    skeleton = readable_skeleton(before)
    same_source = skeleton is not None and skeleton["source"] == after.source
    element_skeleton = skeleton if same_source else None
    message_rules(found, skeleton, after)
    if action is not None:
        _url_rules(found, action, element_skeleton, after, url_changed)
        target = after.element(action.target) if action.target else None
        if target is not None:
            if action.name in ("setValue", "select"):
                _value_rule(found, action, target, element_skeleton, after)
            _state_rule(found, action, target, element_skeleton)
            _focus_rule(found, action, target, before)
        refused_sign_in_rule(found, action, element_skeleton, after, url_changed)
    if expected is not None:
        _expected_rules(found, expected, element_skeleton, after, url_changed)
    return found
