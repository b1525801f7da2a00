"""The one action a single-action goal implies on this page, or why there is none."""

from __future__ import annotations

from dataclasses import dataclass

from agent.policy.goal import ParsedGoal
from agent.policy.matching import MatchResult, match_elements
from verification import Action, PageState

_TEXT_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton"})
_SELECT_ROLES = frozenset({"combobox", "listbox"})
_CHECK_ROLES = frozenset({"checkbox", "switch", "radio"})


@dataclass(frozen=True)
class DirectDecision:
    action: Action | None
    thought: str
    confidence: float
    reason: str = ""

    @property
    def decided(self) -> bool:
        return self.action is not None


def _undecided(reason: str) -> DirectDecision:
    return DirectDecision(action=None, thought="", confidence=0.0, reason=reason)


def _pick(result: MatchResult, what: str) -> tuple[str, float] | str:
    if result.best is None:
        return f"no visible element matches {what!r}"
    if not result.unique:
        names = ", ".join(repr(m.element.name) for m in result.candidates[:3])
        return f"{what!r} is ambiguous on this page ({names})"
    return result.best.element.id, result.best.score


def decide_single_action(goal: ParsedGoal, page: PageState) -> DirectDecision:
    """Map a single-action goal onto the page. Never invents an element id."""
    if not goal.is_single_action:
        return _undecided("the goal is not a single action")
    if goal.intent == "navigate" and goal.url:
        return DirectDecision(Action(name="navigate", target=None, value=goal.url, seconds=None), f"Open {goal.url}.", 0.95)
    if goal.intent == "back":
        return DirectDecision(Action(name="goBack", target=None, value=None, seconds=None), "Go back to the previous page.", 0.95)
    if goal.intent == "scroll" and goal.target is None:
        direction = goal.direction or "down"
        return DirectDecision(Action(name="scroll", target=None, value=direction, seconds=None), f"Scroll {direction}.", 0.9)
    if goal.target is None:
        return _undecided("the goal names no element")

    roles = None
    if goal.intent == "type":
        roles = _TEXT_ROLES
    elif goal.intent == "select":
        roles = _SELECT_ROLES
    elif goal.intent in ("check", "uncheck"):
        roles = _CHECK_ROLES
    picked = _pick(match_elements(page, goal.target, roles=roles), goal.target.text)
    if isinstance(picked, str):
        return _undecided(picked)
    element_id, score = picked
    element = page.element(element_id)
    assert element is not None
    label = element.name or element.placeholder or element_id

    match goal.intent:
        case "click" | "scroll" | "hover":
            name = "click" if goal.intent == "click" else goal.intent
            if goal.intent == "scroll":
                return DirectDecision(Action(name="scroll", target=element_id, value=None, seconds=None), f"Scroll {label!r} into view.", score)
            return DirectDecision(Action(name=name, target=element_id, value=None, seconds=None), f"{name.capitalize()} {label!r}.", score)
        case "type":
            if goal.value is None:
                return _undecided("no text to type")
            return DirectDecision(Action(name="setValue", target=element_id, value=goal.value, seconds=None), f"Type {goal.value!r} into {label!r}.", score)
        case "select":
            if goal.value is None:
                return _undecided("no option to select")
            return DirectDecision(Action(name="select", target=element_id, value=goal.value, seconds=None), f"Select {goal.value!r} in {label!r}.", score)
        case "check" | "uncheck":
            want_checked = goal.intent == "check"
            if ("checked" in element.states) == want_checked:
                return _undecided(f"{label!r} is already {'checked' if want_checked else 'unchecked'}")
            return DirectDecision(Action(name="click", target=element_id, value=None, seconds=None), f"{goal.intent.capitalize()} {label!r}.", score)
        case "press":
            return DirectDecision(Action(name="press", target=element_id, value=goal.key or "Enter", seconds=None), f"Press {goal.key} in {label!r}.", score)
    return _undecided(f"intent {goal.intent!r} is not a single page action")
