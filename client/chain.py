"""Action chains (spec "Task 1: Action Chaining", client side).

An answer may carry ``actions`` (``[{action, description, index, canFail}]``). The client runs
them in order with a short settle between them, stops at the first failure (unless that
action says ``canFail``), and reports what ran: ``lastExecutedActionIndex`` (the index of
the last action that succeeded) and, when the chain stopped early, ``chainPartialState``
(``executedActions``, ``totalActionsInChain``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from client.actions import TERMINAL, execute_action, to_action
from client.errors import ActionError
from client.snapshot import PageProbe
from client.stability import CHAIN_GAP, NetworkTracker, StabilityConfig, wait_for_stability


@dataclass(frozen=True)
class ChainItem:
    action: str
    index: int
    description: str = ""
    can_fail: bool = False

    @classmethod
    def from_wire(cls, raw: Mapping[str, Any], position: int) -> ChainItem:
        return cls(
            action=str(raw["action"]),
            index=int(raw.get("index", position)),
            description=str(raw.get("description") or ""),
            can_fail=bool(raw.get("canFail", False)),
        )


@dataclass
class ChainOutcome:
    total: int
    executed: list[str] = field(default_factory=list)
    last_executed_index: int | None = None
    failed_index: int | None = None
    error: str | None = None
    terminal: str | None = None  # "finish" / "fail" when the chain carried one
    terminal_action: str | None = None
    skipped_failures: list[tuple[int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.failed_index is None

    @property
    def completed(self) -> bool:
        return self.ok and len(self.executed) + len(self.skipped_failures) == self.total

    def report(self) -> dict[str, Any]:
        """The request fields that tell the server how the chain went."""
        out: dict[str, Any] = {"lastActionStatus": "success" if self.ok else "failure"}
        if self.error is not None:
            out["lastActionError"] = self.error
        if self.last_executed_index is not None:
            out["lastExecutedActionIndex"] = self.last_executed_index
        if not self.completed:
            out["chainPartialState"] = {"executedActions": list(self.executed), "totalActionsInChain": self.total}
        return out


async def run_chain(
    probe: PageProbe,
    network: NetworkTracker,
    items: Sequence[ChainItem],
    *,
    gap: StabilityConfig = CHAIN_GAP,
) -> ChainOutcome:
    """Execute ``items`` in ``index`` order; stop at the first failure that may not fail."""
    ordered = sorted(items, key=lambda item: item.index)
    outcome = ChainOutcome(total=len(ordered))
    for position, item in enumerate(ordered):
        try:
            parsed = to_action(item.action)
            if parsed.name in TERMINAL:  # not expected in a chain; honoured where it stands
                outcome.terminal = parsed.name
                outcome.terminal_action = item.action
                return outcome
            await execute_action(probe, parsed)
        except ActionError as exc:
            message = f"{item.action}: {exc.message}"
            if item.can_fail:
                outcome.skipped_failures.append((item.index, message))
                continue
            outcome.failed_index = item.index
            outcome.error = message
            return outcome
        outcome.executed.append(item.action)
        outcome.last_executed_index = item.index
        if position < len(ordered) - 1:
            await wait_for_stability(probe, network, gap)
    return outcome
