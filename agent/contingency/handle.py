"""Which contingency answers a blocker, and the action its handler takes — within its run
budget, which the task keeps across requests (:class:`ContingencyLog`).

A handler acts only on a control whose *name* is in a fixed lexicon (close, ×, cancel,
not now, reject all, accept necessary only, skip…), or presses Escape, or waits; it never
acts on a control because the overlay's text names it. When the goal itself names one of
the overlay's controls, the overlay is the goal's business and no contingency fires.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from agent.contingency.detect import DISMISS_ORDER, REJECT_COOKIE_NAMES, Blocker, goal_confirms, goal_names_overlay
from planning.contingency import Contingency, applicable
from verification import Action, Contract, PageElement, format_action
from verification.contract import fold

MAX_FIRED_KEPT: Final = 20  # the task keeps the newest fired contingencies for its detail

Kind = Literal["act", "ask_user", "none"]


@dataclass(frozen=True)
class Handling:
    """What the contingency check decided: an action to send (``act``), a question to the
    user (``ask_user``: the ``control`` to confirm), or nothing (``none``, with why)."""

    kind: Kind
    reason: str
    contingency: Contingency | None = None
    action: Action | None = None
    control: PageElement | None = None
    trigger: str | None = None

    def record(self, step_index: int, when: str) -> dict[str, Any]:
        """How the task's state and the answer show it."""
        assert self.contingency is not None
        return {
            "step": step_index,
            "when": when,
            "id": self.contingency.id,
            "trigger": self.trigger or self.contingency.trigger,
            "handler": self.contingency.handler,
            "source": self.contingency.source,
            "action": format_action(self.action) if self.action is not None else None,
            "control": (self.control.name or self.control.text or self.control.id) if self.control is not None else None,
        }


@dataclass
class ContingencyLog:
    """The task's contingency runs (``task.state["contingencies"]``): a count per
    contingency id, and the newest runs."""

    counts: dict[str, int] = field(default_factory=dict)
    fired: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def load(cls, raw: Any) -> ContingencyLog:
        if not isinstance(raw, dict):
            return cls()
        counts = {str(k): int(v) for k, v in (raw.get("counts") or {}).items() if isinstance(v, int)}
        fired = [f for f in raw.get("fired") or [] if isinstance(f, dict)]
        return cls(counts, fired)

    def runs(self, contingency: Contingency) -> int:
        return self.counts.get(contingency.id, 0)

    def add(self, entry: dict[str, Any]) -> ContingencyLog:
        counts = {**self.counts, entry["id"]: self.counts.get(entry["id"], 0) + 1}
        return ContingencyLog(counts, [*self.fired, entry][-MAX_FIRED_KEPT:])

    def stored(self) -> dict[str, Any]:
        return {"counts": dict(self.counts), "fired": list(self.fired)}

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def _pick(controls: Sequence[PageElement], names: Sequence[str]) -> PageElement | None:
    """The control whose name comes first in ``names``; of two with that name, the first
    (both close the same overlay)."""
    by_name: dict[str, list[PageElement]] = {}
    for element in controls:
        for label in (element.name, element.text or ""):
            if label:
                by_name.setdefault(fold(label), []).append(element)
    for name in names:
        if found := by_name.get(name):
            return found[0]
    return None


def _handler_action(contingency: Contingency, blocker: Blocker, last_sent: str | None) -> tuple[Action | None, PageElement | None]:
    """The handler's action on this blocker. When the same action was just sent for it and
    the overlay is still there, Escape is tried instead (once it too was sent: nothing)."""
    control: PageElement | None = None
    if contingency.handler == "reject_cookies":
        control = _pick(blocker.controls, REJECT_COOKIE_NAMES) or _pick(blocker.controls, DISMISS_ORDER)
    elif contingency.handler == "dismiss":
        control = _pick(blocker.controls, DISMISS_ORDER)
    elif contingency.handler == "wait":
        return Action(name="wait", seconds=1.0), None
    if control is not None:
        action = Action(name="click", target=control.id)
        if format_action(action) != last_sent:
            return action, control
    escape = Action(name="press", value="Escape")
    # Escape: the plan's own choice, a dialog's way out when it has no close control, or
    # what follows a close that did not close — never a guess on a cover with no closer.
    allowed = contingency.handler == "escape" or blocker.in_dialog or control is not None
    if allowed and contingency.handler in ("dismiss", "reject_cookies", "escape") and format_action(escape) != last_sent:
        return escape, None
    return None, None


def choose(
    blocker: Blocker,
    goal: str,
    contract: Contract | None,
    plan_contingencies: Sequence[Contingency],
    log: ContingencyLog,
) -> Handling:
    """The contingency that answers ``blocker`` and its action, or why none does."""
    if blocker.trigger not in ("confirm_destructive", "session_expired") and (named := goal_names_overlay(blocker, goal)) is not None:
        return Handling("none", f"the goal names the overlay's {named.name!r}: answering it is the goal's business")
    last_sent = log.fired[-1].get("action") if log.fired else None
    spent = False
    for contingency in applicable(blocker.trigger, plan_contingencies):
        if log.runs(contingency) >= contingency.max_runs:
            spent = True
            continue
        if contingency.handler == "ask_user":
            control = None
            if blocker.trigger == "confirm_destructive":
                control = blocker.confirms or goal_confirms(blocker.controls, goal, contract)
            return Handling("ask_user", contingency.description, contingency, control=control, trigger=blocker.trigger)
        action, control = _handler_action(contingency, blocker, last_sent)
        if action is not None:
            return Handling("act", contingency.description, contingency, action=action, control=control, trigger=blocker.trigger)
    if spent:
        return Handling("none", f"the {blocker.trigger} contingency has run as often as it may in this task")
    return Handling("none", f"no safe way past the {blocker.trigger}")


def missing_element(target: str | None, plan_contingencies: Sequence[Contingency], log: ContingencyLog) -> Handling:
    """A model's ``element_missing`` contingency for the step's target (wait for it), when
    the failed step's target is the one it expects and its budget is not spent."""
    if not target:
        return Handling("none", "no target")
    for contingency in plan_contingencies:
        if contingency.trigger != "element_missing" or log.runs(contingency) >= contingency.max_runs:
            continue
        if contingency.target and fold(contingency.target) in fold(target):
            return Handling("act", contingency.description or "wait for the expected element", contingency,
                            action=Action(name="wait", seconds=1.0), trigger="element_missing")  # fmt: skip
    return Handling("none", "no element_missing contingency for this target")
