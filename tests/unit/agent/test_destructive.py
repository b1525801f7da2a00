"""Which clicks are destructive and not asked for (agent/destructive.py): the control's label
against the goal's words and the names the policy's own contract gives its targets."""

from __future__ import annotations

import pytest

from agent.destructive import destructive_phrase, unasked
from agent.policy import understand
from verification import Action, PageElement


def el(name: str, role: str = "button", text: str | None = None) -> PageElement:
    return PageElement(id="b", role=role, name=name, text=text)


CLICK = Action(name="click", target="b")


@pytest.mark.parametrize(
    ("label", "phrase"),
    [
        ("Save and delete my account", "delete"), ("Remove card", "remove"), ("Pay now", "pay"),
        ("Place order", "place order"), ("Buy", "buy"), ("Send", "send"), ("Transfer $500", "transfer"),
        ("Cancel subscription", "cancel subscription"), ("Close account", "close account"),
        ("Unsubscribe", "unsubscribe"), ("Deactivate", "deactivate"), ("Revoke access", "revoke"),
        ("Empty trash", "empty trash"), ("Sign out of all devices", "sign out of all"),
    ],
)  # fmt: skip
def test_destructive_labels_are_recognised(label: str, phrase: str) -> None:
    assert destructive_phrase(el(label)) == phrase


@pytest.mark.parametrize("label", ["Save", "Cancel", "Close", "Submit", "OK", "Orders", "Sent items", "Removal policy"])
def test_ordinary_labels_are_not(label: str) -> None:
    assert destructive_phrase(el(label)) is None


def test_a_box_that_only_changes_a_value_is_not_destructive() -> None:
    assert destructive_phrase(el("Remove background", role="checkbox")) is None


def test_visible_text_counts_as_the_label() -> None:
    assert destructive_phrase(el("Save", text="Delete account")) == "delete"


@pytest.mark.parametrize(
    ("goal", "label"),
    [
        ("Click Save", "Save and delete my account"),
        ("Save the settings", "Save and pay"),
        ("Click the first result", "Buy now"),
        ("Open the settings", "Cancel subscription"),
    ],
)
def test_a_destructive_click_the_goal_does_not_ask_for_is_held(goal: str, label: str) -> None:
    held = unasked(CLICK, el(label), goal, understand(goal).contract)
    assert held is not None and held.label == label and held.action == 'click("b")'


@pytest.mark.parametrize(
    ("goal", "label"),
    [
        ("Delete the email from Ana", "Delete"),
        ("Delete the email from Ana", "trash"),
        ("Find the email by Ana and forward that email to Bob", "Send"),  # the forward frame's own Send
        ("Reply to Ana's email with \"Hi\"", "Send"),
        ("Buy 2 apples", "Buy"),
        ("Pay the invoice", "Pay now"),
        ("Cancel my subscription by clicking Cancel subscription", "Cancel subscription"),
        ("Deactivate Bob Stone", "Deactivate"),
        ("Removing old cards: click Remove card", "Remove card"),
    ],
)
def test_a_destructive_click_the_goal_asks_for_is_sent(goal: str, label: str) -> None:
    assert unasked(CLICK, el(label), goal, understand(goal).contract) is None


def test_a_confirmed_action_is_sent_and_other_actions_are_not_clicks() -> None:
    goal = "Click Save"
    assert unasked(CLICK, el("Save and delete"), goal, None, frozenset({'click("b")'})) is None
    assert unasked(Action(name="hover", target="b"), el("Delete"), goal, None) is None
