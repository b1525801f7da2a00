"""When to ask the client for the full DOM (spec Mode Priority level 5: "ONLY on explicit
backend request"): the compact page (the V3 element list) cannot resolve the current step's
target, and the full page might.

Pure. The facts are structural — a step with no action from the policy or the model, an
empty or cut tree, the target's words on the page's text but on no element — and the asks
are bounded per task, so a client that never sends the DOM costs at most that many round
trips."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from verification import PageState

#: Words of a step's target that name a kind of control, not the control itself.
_KIND_WORDS: Final = frozenset(
    "the a an button link field box input tab menu item option icon checkbox radio dropdown select text area "
    "on in of to for with named called labelled labeled".split()
)
_WORD: Final = re.compile(r"[^\W_]+", re.UNICODE)


@dataclass(frozen=True, slots=True)
class FullDomFacts:
    page_from_tree: bool  # the page came as a V3 tree (not HTML)
    full_dom_sent: bool  # this request already carries the full DOM
    step_unresolved: bool  # a plan step is current and neither the policy nor the model has an action for it
    tree_empty: bool  # no element one could act on
    tree_truncated: bool  # the client cut its tree (node cap, viewport pruning)
    target_in_text_only: bool  # the step's target is in the page's text but on no element
    asks: int  # full-DOM requests already made in this task
    max_asks: int
    covered: bool = False  # something covers the page (an overlay, a dialog): its contingency comes first


def page_covered(page: PageState) -> bool:
    """A visible element is covered, or a dialog is open: what the list misses is under the
    cover, not left out by the client — the full DOM would not uncover it."""
    return any(not e.hidden and (e.occluded or any(c.startswith("dialog") for c in e.container)) for e in page.elements)


def should_ask_full_dom(facts: FullDomFacts) -> bool:
    """Ask when the tree could not resolve the step and the full page may hold its target."""
    if not facts.page_from_tree or facts.full_dom_sent or not facts.step_unresolved:
        return False
    if facts.asks >= facts.max_asks or facts.covered:
        return False
    return facts.tree_empty or facts.tree_truncated or facts.target_in_text_only


def target_words(target: str | None) -> tuple[str, ...]:
    """The words that name the target itself ("the 'Archive' button" → archive)."""
    if not target:
        return ()
    return tuple(w for w in (m.group().casefold() for m in _WORD.finditer(target)) if w not in _KIND_WORDS)


def target_in_text_only(target: str | None, page: PageState) -> bool:
    """Every word of the target is in the page's visible text, yet no element's name or
    text holds them all: the page shows it, the element list does not have it."""
    words = target_words(target)
    if not words:
        return False
    text = {m.group().casefold() for m in _WORD.finditer(page.text_summary)}
    if not all(w in text for w in words):
        return False
    for element in page.elements:
        label = {m.group().casefold() for m in _WORD.finditer(f"{element.name} {element.text or ''} {element.value or ''}")}
        if all(w in label for w in words):
            return False
    return True


def tree_empty(page: PageState) -> bool:
    return not any(element.actionable for element in page.elements)
