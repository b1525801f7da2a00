"""Looking for a target that is not on the page yet: each move decided from the page and the
step's attempt count, bounded, never repeated, never a commit."""

from __future__ import annotations

import pytest

from agent.policy.explore import MAX_WAITS, dismiss_control, next_page_control, reveal, wait_until_enabled
from verification import PageElement, PageState

URL = "https://app.example/"


def page(*elements: PageElement) -> PageState:
    return PageState.from_elements(elements, url=URL)


def el(i: str, role: str, name: str, *states: str, occluded: bool = False) -> PageElement:
    return PageElement(id=i, role=role, name=name, states=frozenset(states), occluded=occluded)


@pytest.mark.parametrize("close", ["×", "Close", "No thanks", "Not now"])
def test_a_popup_covering_the_page_is_closed_first(close: str) -> None:
    covered = page(el("1", "button", "Edit", occluded=True), el("2", "button", "Subscribe"), el("3", "button", close))
    move = reveal(covered, "Delete", attempts=0)
    assert move.action is not None and (move.action.name, move.action.target) == ("click", "3")


def test_a_close_button_with_nothing_covered_is_not_a_popup() -> None:
    assert dismiss_control(page(el("1", "button", "Edit"), el("3", "button", "Close"))) is None


def test_each_tab_is_opened_once_then_the_search_moves_on() -> None:
    tabs = page(el("t1", "tab", "Profile", "selected"), el("t2", "tab", "Billing"), el("t3", "tab", "Security"))
    moves = [reveal(tabs, "Delete account", attempts=n).action for n in range(3)]
    assert [(m.name, m.target) if m else None for m in moves][1:] == [("click", "t2"), ("click", "t3")]
    assert moves[0] is None or moves[0].target != "t1"  # the open tab is not clicked again


@pytest.mark.parametrize("next_name", ["Next", "›", "»", "Next page"])
def test_a_paged_list_is_turned_page_by_page_with_a_bound(next_name: str) -> None:
    paged = page(el("p1", "link", "1"), el("p2", "link", "2"), el("p3", "link", "3"), el("n", "link", next_name))
    move = reveal(paged, "Zoe", attempts=3)
    assert move.action is not None and move.action.target == "n"
    assert reveal(paged, "Zoe", attempts=50).action is None or reveal(paged, "Zoe", attempts=50).action.name != "click"


def test_a_wizards_next_button_is_not_a_pager() -> None:
    wizard = page(el("f", "textbox", "Name"), el("n", "button", "Next"))
    assert next_page_control(wizard) is None
    assert all((m.action is None or m.action.target != "n") for m in (reveal(wizard, "Zoe", attempts=k) for k in range(10)))


def test_a_late_target_is_scrolled_for_then_waited_for_then_reported() -> None:
    empty = page(el("1", "button", "Other"))
    kinds = [(reveal(empty, "Go", attempts=n).action or None) for n in range(10)]
    names = [a.name if a else None for a in kinds]
    assert names[:2] == ["scroll", "scroll"] and names[2 : 2 + MAX_WAITS] == ["wait"] * MAX_WAITS
    assert names[2 + MAX_WAITS] is None
    assert "not on the page" in reveal(empty, "Go", attempts=9).reason


def test_a_disabled_target_is_waited_for_then_reported() -> None:
    button = el("b", "button", "Submit", "disabled")
    assert wait_until_enabled(button, 0).action is not None and wait_until_enabled(button, 0).action.name == "wait"
    assert wait_until_enabled(button, MAX_WAITS).action is None
    assert "stays disabled" in wait_until_enabled(button, MAX_WAITS).reason
