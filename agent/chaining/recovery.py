"""After a chain stopped early: retry, skip or regenerate — chosen by rule (spec
"Server-Side Recovery Logic").

* The client's account does not match the chain sent (an index past its end, other
  actions): **regenerate** from the page; nothing it says is trusted.
* The action that stopped the chain may fail (``canFail``): **skip** it; its plan step is
  passed over and the rest is decided from the page.
* Its target was re-rendered (gone, or another element under its id) and exactly one
  usable element now has the role and name it had: **retry** the same action there.
* Anything else (covered, a value the field refused, a navigation): **regenerate** the
  rest from the current page — the policy or the model decides again; what the chain
  already did is on the page and is not redone.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from agent.chaining.links import ChainLink
from agent.chaining.report import ChainReport
from verification import Action, PageState
from verification.chain import LinkCheck, relocate

Strategy = Literal["retry", "skip", "regenerate"]
_RELOCATABLE = frozenset({"target_changed", "target_missing"})


@dataclass(frozen=True)
class Recovery:
    strategy: Strategy
    index: int  # the chain action it is about
    reason: str
    retry: Action | None = None  # retry: the action on the element that now has the target's role and name
    plan_step: int | None = None

    def stored(self) -> dict[str, object]:
        return {"strategy": self.strategy, "index": self.index, "reason": self.reason}


def choose_recovery(report: ChainReport, links: list[ChainLink], checks: list[LinkCheck], page: PageState) -> Recovery | None:
    """``None`` when the chain ran through and every action holds, or when none holds (the
    first action's failure is corrected like a single action's)."""
    if not report.consistent:
        return Recovery("regenerate", max(report.ran_through + 1, 0), "the client's account of the chain does not match the chain sent")
    stopped = next((c for c in checks if c.status in ("failed", "not_run")), None)
    if stopped is None or stopped.index == 0 and not any(c.status == "verified" for c in checks):
        return None  # ran through; or nothing held: corrected like a single action
    link = links[stopped.index]
    if link.can_fail:
        return Recovery("skip", link.index, f"{link.text} may fail; passed over", plan_step=link.plan_step)
    if report.failure_kind in _RELOCATABLE or stopped.status == "failed" and page.element(link.action.target or "") is None:
        element = relocate(link.expect, page) if link.expect else None
        if element is not None and element.actionable and element.id != link.action.target:
            retry = dataclasses.replace(link.action, target=element.id)
            return Recovery("retry", link.index, f"its element was re-rendered as {element.id!r}", retry=retry, plan_step=link.plan_step)
    return Recovery("regenerate", link.index, f"stopped at {link.text}: {report.failure_kind or stopped.reason}")
