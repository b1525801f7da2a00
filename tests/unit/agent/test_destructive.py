"""Which clicks are destructive and not asked for (agent/destructive.py): the control's label
against the goal's words and the names the policy's own contract gives its targets."""

from __future__ import annotations

import pytest

from agent.destructive import destructive_phrase, other_record, unasked
from agent.policy import understand
from verification import Action, PageElement, PageState


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


def _rows(*rows: str, label: str = "Remove") -> PageState:
    return PageState(url="https://app.example/keys", elements=tuple(
        PageElement(id=str(i), role="button", name=label, container=(f"row: {row}",)) for i, row in enumerate(rows)))


@pytest.mark.parametrize(
    ("goal", "clicked", "named"),
    [
        ("Remove the key named staging", "0", "staging · created 2026-01-02"),  # the production row: wrong record
        ("Remove the key named staging", "1", None),  # the row the goal names
        ("Remove the first key", "0", None),  # the goal names no record by its content
        ("Remove production", "0", None),
    ],
)
def test_a_destructive_click_on_another_record_than_the_goal_names_is_caught(goal: str, clicked: str, named: str | None) -> None:
    page = _rows("production · created 2025-11-01", "staging · created 2026-01-02")
    assert other_record(Action(name="click", target=clicked), page.element(clicked), goal, page) == named


def test_a_harmless_click_or_a_control_outside_any_record_is_never_caught() -> None:
    page = _rows("production", "staging", label="Details")
    assert other_record(Action(name="click", target="0"), page.element("0"), "Open the details of staging", page) is None
    lone = PageState(url="https://app.example/", elements=(PageElement(id="0", role="button", name="Delete account"),))
    assert other_record(Action(name="click", target="0"), lone.element("0"), "Delete my staging account", lone) is None
