"""A chain's actions as the server keeps them (``TaskAction.actions``) and sends them.

The stored form keeps what the next request needs to verify and recover: the plan step
each action is for, the target as it was seen (``expect``), the values the commit re-reads
(``require_values``) and the precondition clauses that read-back proves (``attests``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from verification import Action, ActionSyntaxError, PageElement, parse_action
from verification.chain import Expect

Requirement = tuple[str, str | None, bool | None]  # (element id, value it holds, checked or not)


@dataclass(frozen=True)
class ChainLink:
    index: int
    action: Action
    text: str
    description: str
    can_fail: bool = False
    commit: bool = False  # the chain's last action submits/saves what the chain filled
    plan_step: int | None = None
    completes_step: bool = True
    expect: Expect | None = None
    requires: tuple[Requirement, ...] = ()  # (element id, value, checked) re-read just before this action
    attests: tuple[str, ...] = ()  # precondition clauses the commit's read-back proves held when it ran
    clause_hits: tuple[str, ...] = field(default=())  # event clauses this action would satisfy once verified
    target: str | None = None  # the target as a person would name it

    def stored(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "action": self.text,
            "description": self.description,
            "can_fail": self.can_fail,
            "commit": self.commit,
            "plan_step": self.plan_step,
            "completes_step": self.completes_step,
            "expect": {"role": self.expect.role, "name": self.expect.name} if self.expect else None,
            "require_values": _requirements(self.requires),
            "attests": list(self.attests),
            "clause_hits": list(self.clause_hits),
            "target": self.target,
        }

    @classmethod
    def from_stored(cls, raw: dict[str, Any]) -> ChainLink | None:
        try:
            action = parse_action(str(raw["action"]))
        except (ActionSyntaxError, KeyError):
            return None
        expect = raw.get("expect")
        step = raw.get("plan_step")
        return cls(
            index=int(raw.get("index", 0)),
            action=action,
            text=str(raw["action"]),
            description=str(raw.get("description") or ""),
            can_fail=bool(raw.get("can_fail")),
            commit=bool(raw.get("commit")),
            plan_step=step if isinstance(step, int) else None,
            completes_step=bool(raw.get("completes_step", True)),
            expect=Expect(str(expect["role"]), str(expect["name"])) if isinstance(expect, dict) else None,
            requires=tuple((str(r["target"]), r.get("value"), r.get("checked")) for r in raw.get("require_values") or ()),
            attests=tuple(raw.get("attests") or ()),
            clause_hits=tuple(raw.get("clause_hits") or ()),
            target=raw.get("target"),
        )

    def wire(self) -> dict[str, Any]:
        """One item of the answer's ``actions`` (the edge camel-cases the keys)."""
        stored = self.stored()
        return {key: stored[key] for key in _WIRE_KEYS}


_WIRE_KEYS = ("index", "action", "description", "can_fail", "commit", "expect", "require_values")


def _requirements(requires: tuple[Requirement, ...]) -> list[dict[str, Any]]:
    """``{"target", "value"}`` for a field, ``{"target", "checked"}`` for a box."""
    return [{"target": t, "value": v} if checked is None else {"target": t, "checked": checked} for t, v, checked in requires]


def expect_of(element: PageElement | None) -> Expect | None:
    return Expect(element.role, element.name) if element is not None else None


def stored_chain(raw: list[dict[str, Any]] | None) -> list[ChainLink]:
    """A stored chain, or ``[]`` when there is none (or it no longer parses)."""
    links = [ChainLink.from_stored(item) for item in raw or ()]
    return [link for link in links if link is not None] if all(links) else []


# A person fills a field in well under a second; the client settles briefly between actions.
_MS_PER_ACTION = 300


def chain_metadata(links: list[ChainLink]) -> dict[str, Any]:
    return {"total_actions": len(links), "safe_to_chain": True, "estimated_duration": _MS_PER_ACTION * len(links)}
