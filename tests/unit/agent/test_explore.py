"""Looking for a target that is not on the page yet: each move decided from the page and the
moves already made for the step, bounded, never repeated, never a commit."""

from __future__ import annotations

import pytest

from collections.abc import Callable

from agent.policy.explore import MAX_WAITS, Move, dismiss_control, next_page_control, reveal, wait_until_enabled
from verification import PageElement, PageState

URL = "https://app.example/"


def page(*elements: PageElement) -> PageState:
    return PageState.from_elements(elements, url=URL)


def el(i: str, role: str, name: str, *states: str, occluded: bool = False) -> PageElement:
    return PageElement(id=i, role=role, name=name, states=frozenset(states), occluded=occluded)


def explore(pages: Callable[[list[str]], PageState], target: str, n: int) -> list[Move]:
    """``n`` moves in a row, each on the page ``pages`` shows after the moves made so far
    (the keys the plan step keeps)."""
    explored: list[str] = []
    made: list[Move] = []
    for _ in range(n):
        move = reveal(pages(explored), target, explored)
        made.append(move)
        explored.extend(move.keys)
    return made


def targets(moves: list[Move]) -> list[tuple[str, str | None] | None]:
    return [(m.action.name, m.action.target) if m.action else None for m in moves]


@pytest.mark.parametrize("close", ["×", "Close", "No thanks", "Not now"])
def test_a_popup_covering_the_page_is_closed_first(close: str) -> None:
    covered = page(el("1", "button", "Edit", occluded=True), el("2", "button", "Subscribe"), el("3", "button", close))
    move = reveal(covered, "Delete")
    assert move.action is not None and (move.action.name, move.action.target) == ("click", "3")


def test_a_close_button_with_nothing_covered_is_not_a_popup() -> None:
    assert dismiss_control(page(el("1", "button", "Edit"), el("3", "button", "Close"))) is None


def test_each_tab_is_opened_once_then_the_search_moves_on() -> None:
    tabs = page(el("t1", "tab", "Profile", "selected"), el("t2", "tab", "Billing"), el("t3", "tab", "Security"))
    moves = targets(explore(lambda _done: tabs, "Delete account", 3))
    assert moves[:2] == [("click", "t2"), ("click", "t3")]
    assert ("click", "t1") not in moves  # the open tab is not clicked again


@pytest.mark.parametrize("next_name", ["Next", "›", "»", "Next page"])
def test_a_paged_list_is_turned_page_by_page_with_a_bound(next_name: str) -> None:
    paged = page(el("p1", "link", "1"), el("p2", "link", "2"), el("p3", "link", "3"), el("n", "link", next_name))
    moves = targets(explore(lambda _done: paged, "Zoe", 30))
    assert moves[0] == ("click", "n")
    assert 1 <= moves.count(("click", "n")) <= 10 and moves[-1] is None


def test_a_wizards_next_button_is_not_a_pager() -> None:
    wizard = page(el("f", "textbox", "Name"), el("n", "button", "Next"))
    assert next_page_control(wizard) is None
    assert all(m is None or m[1] != "n" for m in targets(explore(lambda _done: wizard, "Zoe", 10)))


def test_a_late_target_is_scrolled_for_then_waited_for_then_reported() -> None:
    empty = page(el("1", "button", "Other"))
    moves = explore(lambda _done: empty, "Go", 10)
    names = [m.action.name if m.action else None for m in moves]
    assert names[:2] == ["scroll", "scroll"] and names[2 : 2 + MAX_WAITS] == ["wait"] * MAX_WAITS
    assert names[2 + MAX_WAITS] is None
    assert "not on the page" in moves[-1].reason


def test_a_disabled_target_is_waited_for_then_reported() -> None:
    button = el("b", "button", "Submit", "disabled")
    assert wait_until_enabled(button, 0).action is not None and wait_until_enabled(button, 0).action.name == "wait"
    assert wait_until_enabled(button, MAX_WAITS).action is None
    assert "stays disabled" in wait_until_enabled(button, MAX_WAITS).reason


def _accordion(closes_others: bool, role: str = "button") -> Callable[[list[str]], PageState]:
    """Three sections; each move that opened one expanded it — and, where opening one closes
    the others, collapsed the one open before."""

    def shown(done: list[str]) -> PageState:
        opened = [k for k in done if k.startswith("open|")]
        names = ["Section #1", "Section #2", "Section #3"]
        is_open = [any(f":{n.lower()}:" in k for k in opened) for n in names]
        if closes_others and opened:
            last = opened[-1]
            is_open = [f":{n.lower()}:" in last for n in names]
        return page(*(el(f"s{i + 1}", role, n, "expanded" if o else "collapsed") for i, (n, o) in enumerate(zip(names, is_open))))

    return shown


@pytest.mark.parametrize("role", ["button", "tab"])
def test_an_accordion_that_closes_the_open_section_is_opened_section_by_section_never_twice(role: str) -> None:
    moves = targets(explore(_accordion(closes_others=True, role=role), "euismod", 12))
    assert moves[:3] == [("click", "s1"), ("click", "s2"), ("click", "s3")]
    assert [m for m in moves[3:] if m is not None and m[0] == "click"] == []  # then scroll, wait, give up
    assert moves[-1] is None


def test_independent_sections_are_each_opened_once() -> None:
    moves = targets(explore(_accordion(closes_others=False), "euismod", 12))
    assert moves[:3] == [("click", "s1"), ("click", "s2"), ("click", "s3")]
    assert moves.count(("click", "s1")) == 1


def test_a_header_whose_state_never_changes_is_still_clicked_once() -> None:
    stuck = page(el("h1", "button", "More", "collapsed"), el("h2", "button", "Details", "collapsed"))
    moves = targets(explore(lambda _done: stuck, "Zoe", 6))
    assert moves[:2] == [("click", "h1"), ("click", "h2")] and moves.count(("click", "h1")) == 1


def test_aria_tabs_are_each_opened_once_wherever_the_selection_moves() -> None:
    names = ["Tab #1", "Tab #2", "Tab #3"]

    def shown(done: list[str]) -> PageState:
        opened = [k for k in done if k.startswith("open|")]
        current = next((n for n in names if opened and f":{n.lower()}:" in opened[-1]), "Tab #1")
        return page(*(el(f"t{i + 1}", "tab", n, "selected" if n == current else "") for i, n in enumerate(names)))

    moves = targets(explore(shown, "aliquet", 5))
    assert moves[:2] == [("click", "t2"), ("click", "t3")] and ("click", "t1") not in moves


def test_a_popup_that_stays_is_not_closed_forever() -> None:
    covered = page(el("1", "button", "Edit", occluded=True), el("3", "button", "Close"))
    moves = targets(explore(lambda _done: covered, "Delete", 12))
    assert moves.count(("click", "3")) == 2 and moves[-1] is None
