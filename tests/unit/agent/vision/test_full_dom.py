"""When to ask for the full DOM."""

from __future__ import annotations

import dataclasses

import pytest

from agent.vision import FullDomFacts, should_ask_full_dom, target_in_text_only
from agent.vision.full_dom import target_words, tree_empty
from verification import PageElement, PageState

BASE = FullDomFacts(
    page_from_tree=True, full_dom_sent=False, step_unresolved=True, tree_empty=False, tree_truncated=False,
    target_in_text_only=True, asks=0, max_asks=2,
)  # fmt: skip


def test_an_unresolved_target_the_page_shows_is_asked_for() -> None:
    assert should_ask_full_dom(BASE)


@pytest.mark.parametrize("signal", ["tree_empty", "tree_truncated", "target_in_text_only"])
def test_each_sign_that_the_full_page_holds_more_is_enough(signal: str) -> None:
    facts = dataclasses.replace(BASE, **{"target_in_text_only": False, signal: True})
    assert should_ask_full_dom(facts)


@pytest.mark.parametrize(
    "change",
    [
        {"page_from_tree": False},  # the page is HTML already
        {"full_dom_sent": True},  # this request has it
        {"step_unresolved": False},  # the target was found
        {"asks": 2},  # bounded
        {"target_in_text_only": False},  # no sign the full page holds more
        {"covered": True},  # an overlay or dialog covers the page: its contingency first, the full DOM would not uncover it
    ],
)
def test_no_ask_otherwise(change: dict[str, object]) -> None:
    assert not should_ask_full_dom(dataclasses.replace(BASE, **change))  # type: ignore[arg-type]


def page(text: str, *names: str) -> PageState:
    elements = tuple(PageElement(id=str(i), role="button", name=n) for i, n in enumerate(names, 1))
    return dataclasses.replace(PageState(url="https://x.example/", elements=elements), text_summary=text)


def test_target_in_text_only() -> None:
    assert target_words("the 'Archive' button") == ("archive",)
    assert target_in_text_only("the Archive button", page("Inbox\nReply · Archive", "Reply"))
    assert not target_in_text_only("the Archive button", page("Inbox\nReply · Archive", "Reply", "Archive"))
    assert not target_in_text_only("the Archive button", page("Inbox\nReply", "Reply"))
    assert not target_in_text_only(None, page("Archive"))
    assert not target_in_text_only("the button", page("button"))


def test_tree_empty_counts_only_actionable_elements() -> None:
    assert tree_empty(page(""))
    hidden = PageState(url="https://x.example/", elements=(PageElement(id="1", role="button", name="Go", hidden=True),))
    assert tree_empty(hidden)
    assert not tree_empty(page("", "Go"))


def test_a_covered_page_or_an_open_dialog_is_covered() -> None:
    from agent.vision.full_dom import page_covered

    plain = PageState.from_elements([PageElement(id="1", role="checkbox", name="HF2")], url="https://x.test/")
    assert not page_covered(plain)
    under = PageState.from_elements([PageElement(id="1", role="checkbox", name="HF2", occluded=True)], url="https://x.test/")
    assert page_covered(under)
    dialog = PageState.from_elements(
        [PageElement(id="1", role="checkbox", name="HF2"), PageElement(id="2", role="button", name="Close", container=("dialog: Offer",))],
        url="https://x.test/",
    )
    assert page_covered(dialog)
