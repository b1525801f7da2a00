"""Find the element a goal refers to on a ``PageState`` — no model involved.

An element is scored on its name, value, placeholder and nearby text (case- and
accent-insensitive, fuzzy; a labelled field's placeholder only when said whole), with a bonus for the role the goal names ("the Save *button*").
Hidden, occluded and disabled elements are never chosen.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from agent.policy.goal import RoleHint, TargetRef
from agent.policy.text import similarity
from verification import PageElement, PageState

MATCH_THRESHOLD = 0.6
AMBIGUITY_MARGIN = 0.05

_ROLE_FAMILIES: dict[RoleHint, frozenset[str]] = {
    "button": frozenset({"button", "menuitem", "tab", "switch"}),
    "link": frozenset({"link", "menuitem"}),
    "textbox": frozenset({"textbox", "searchbox", "combobox", "spinbutton"}),
    "checkbox": frozenset({"checkbox", "switch"}),
    "radio": frozenset({"radio"}),
    "combobox": frozenset({"combobox", "listbox"}),
    "tab": frozenset({"tab"}),
    "menuitem": frozenset({"menuitem", "link", "button"}),
    "slider": frozenset({"slider"}),
    "spinbutton": frozenset({"spinbutton", "textbox"}),
}
_CLICKABLE = frozenset({"button", "link", "menuitem", "tab", "checkbox", "radio", "switch", "option", "treeitem"})


@dataclass(frozen=True)
class Match:
    element: PageElement
    score: float


@dataclass(frozen=True)
class MatchResult:
    best: Match | None
    candidates: tuple[Match, ...]

    @property
    def unique(self) -> bool:
        """One clear winner: above threshold and ahead of the runner-up — or several
        elements that carry exactly the same label and role, which are interchangeable for
        the goal (the first in page order is taken)."""
        if self.best is None:
            return False
        if len(self.candidates) < 2:
            return True
        first, second = self.candidates[0], self.candidates[1]
        if first.score - second.score >= AMBIGUITY_MARGIN:
            return True
        return all(
            m.element.name == first.element.name and m.element.role == first.element.role
            for m in self.candidates
            if first.score - m.score < AMBIGUITY_MARGIN
        )


PLACEHOLDER_WHOLE = 0.9  # a labelled field's placeholder names it only when said whole


def _labels(element: PageElement) -> Iterable[str]:
    if element.name:
        yield element.name
    if element.placeholder and not element.labelled:
        yield element.placeholder
    if element.context:
        yield element.context
    if element.value and element.role in _CLICKABLE:
        yield element.value


def score_element(element: PageElement, target: TargetRef) -> float:
    if not target.text:  # "the button": any element of that role
        return 0.9 if target.role is not None and element.role in _ROLE_FAMILIES.get(target.role, frozenset({target.role})) else 0.0
    best = max((similarity(target.text, label) for label in _labels(element)), default=0.0)
    if element.placeholder and element.labelled:
        hint = similarity(target.text, element.placeholder)
        best = max(best, hint if hint >= PLACEHOLDER_WHOLE else 0.0)
    if best == 0.0:
        return 0.0
    if target.role is not None:
        best += 0.08 if element.role in _ROLE_FAMILIES.get(target.role, frozenset({target.role})) else -0.1
    if target.exact and target.exact == element.name.strip():
        best += 0.03  # the user's own spelling ("Eget", not "eget")
    return min(best, 1.0)


def match_elements(
    page: PageState,
    target: TargetRef,
    *,
    roles: frozenset[str] | None = None,
    threshold: float = MATCH_THRESHOLD,
) -> MatchResult:
    if not target.text and target.role is None:
        return MatchResult(None, ())
    scored: list[Match] = []
    for element in page.elements:
        if not element.actionable:
            continue
        if roles is not None and element.role not in roles:
            continue
        score = score_element(element, target)
        if score >= threshold:
            scored.append(Match(element, score))
    order = {e.id: n for n, e in enumerate(page.elements)}
    scored.sort(key=lambda m: (-m.score, order[m.element.id]))
    if target.ordinal is not None and scored:
        top = scored[0].score
        tied = [m for m in scored if top - m.score < 0.1]
        tied.sort(key=lambda m: order[m.element.id])
        index = target.ordinal - 1 if target.ordinal > 0 else len(tied) + target.ordinal
        if 0 <= index < len(tied):
            chosen = tied[index]
            return MatchResult(chosen, (chosen,))
        return MatchResult(None, tuple(scored))
    return MatchResult(scored[0] if scored else None, tuple(scored))
