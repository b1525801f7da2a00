"""Tier-1 rules that read the page as a whole rather than the action's target: messages that
appeared (an error or a success), and a sign-in the page refused."""

from __future__ import annotations

from collections import Counter

from verification.actions import Action
from verification.diff import quote
from verification.finding import Tier1Finding
from verification.page import PageState
from verification.skeleton import TEXT_LIMIT, Skeleton, message_kind

def new_messages(before: Skeleton, after: PageState, kind: str) -> list[str]:
    remaining = Counter(before["messages"].values())
    out = []
    for key, text in after.skeleton["messages"].items():
        if remaining[text] > 0:
            remaining[text] -= 1
        elif message_kind(key) == kind:
            out.append(text)
    return out


def message_rules(found: Tier1Finding, before: Skeleton | None, after: PageState) -> None:
    if after.verification_passed is False:
        found.fail(0.85, "The extension's own check reports the action failed", "not_achieved")
    elif after.verification_passed is True:
        found.succeed(0.9, "The extension's own check reports the action passed")
    if before is None:
        return  # without the earlier skeleton an old banner cannot be told from a new one
    for text in new_messages(before, after, "error"):
        found.fail(0.9, f"An error message appeared: {quote(text, 120)}", "error_message")
    for text in new_messages(before, after, "success"):
        found.succeed(0.9, f"A success message appeared: {quote(text, 120)}")
        found.completion = True


def refused_sign_in_rule(
    found: Tier1Finding, action: Action, before: Skeleton | None, after: PageState, url_changed: bool
) -> None:
    """A click after which a password field that held a value is still on the page, emptied,
    at the same address, with no success message: how a refused sign-in looks on nearly every
    site (an accepted one leaves its form). Whatever else changed, it is not the click's proof."""
    if action.name != "click" or url_changed or before is None or found.completion:
        return
    for element in after.elements:
        if element.input_type != "password" or (element.value or "") != "" or element.hidden:
            continue
        old = before["elements"].get(element.id)
        if old is None or old.get("text") != element.name[:TEXT_LIMIT].rstrip():
            # The page came back as a new document (its ids renumbered): the same field by its name.
            old = next((d for d in before["elements"].values() if d.get("value") and d.get("text") == element.name[:TEXT_LIMIT].rstrip()
                        and d.get("role") == element.role), old)  # fmt: skip
        if old is not None and old.get("value"):
            found.fail(
                0.85,
                f"The password field {quote(element.name or element.id)} was emptied and its form is still shown: "
                "the sign-in was refused",
                "sign_in_refused",
            )
            return
