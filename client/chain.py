"""Action chains (wire contract: docs/client.md "Chain guards", docs/api.md "Chains").

An answer may carry ``actions``: ``[{index, action, description, canFail, expect,
requireValues, commit}]``. The client runs them in ``index`` order with a short settle between
them, and guards every step (:mod:`client.chain_guards`):

1. before action i ≥ 1: the URL is the one the chain started on (fragment ignored) and the
   target exists, is perceivable, is not covered and has the role and name of ``expect``;
2. before an action with ``requireValues``: each listed field still holds its value;
3. an execution error stops the chain, unless the action says ``canFail`` (recorded, skipped);
4. after a ``setValue`` / ``select``: the field reads back the value typed or selected.

A failed guard stops the chain before (1, 2) or right after (4) the action; an action whose
guard failed is never executed. The report (:meth:`ChainOutcome.report`) says what ran:
``lastExecutedActionIndex`` and, always, ``chainPartialState`` (``executedActions``,
``totalActionsInChain``, ``failedIndex`` + ``failureKind`` when it stopped, ``skippedIndexes``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from client.actions import TERMINAL, execute_action, to_action
from client.chain_guards import (
    Expect,
    FailureKind,
    GuardFailure,
    check_readback,
    check_required,
    check_target,
    read,
    same_page,
)
from client.errors import ActionError
from client.snapshot import PageProbe
from client.stability import CHAIN_GAP, NetworkTracker, StabilityConfig, wait_for_stability
from verification import Action

READ_BACK = frozenset({"setValue", "select"})


@dataclass(frozen=True)
class ChainItem:
    action: str
    index: int
    description: str = ""
    can_fail: bool = False
    expect: Expect | None = None
    require_values: tuple[tuple[str, str], ...] = ()
    commit: bool = False

    @classmethod
    def from_wire(cls, raw: Mapping[str, Any], position: int) -> ChainItem:
        required = tuple(
            (str(entry["target"]), _required(entry))
            for entry in raw.get("requireValues") or ()
            if isinstance(entry, Mapping) and entry.get("target") is not None
        )
        return cls(
            action=str(raw["action"]),
            index=int(raw.get("index", position)),
            description=str(raw.get("description") or ""),
            can_fail=bool(raw.get("canFail", False)),
            expect=Expect.from_wire(raw.get("expect")),
            require_values=required,
            commit=bool(raw.get("commit", False)),
        )


def _required(entry: Mapping[str, Any]) -> str:
    """A field's value, or a box's state (``{"target", "checked": true}``) as the guards read it."""
    if entry.get("value") is None and isinstance(entry.get("checked"), bool):
        return "true" if entry["checked"] else "false"
    return str(entry.get("value") or "")


@dataclass
class ChainOutcome:
    total: int
    executed: list[str] = field(default_factory=list)
    last_executed_index: int | None = None
    failed_index: int | None = None
    failure_kind: FailureKind | None = None
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

    def stop(self, index: int, kind: FailureKind, message: str) -> ChainOutcome:
        self.failed_index, self.failure_kind, self.error = index, kind, message
        return self

    def report(self) -> dict[str, Any]:
        """The request fields that tell the server how the chain went."""
        out: dict[str, Any] = {"lastActionStatus": "success" if self.ok else "failure"}
        if self.error is not None:
            out["lastActionError"] = self.error
        if self.last_executed_index is not None:
            out["lastExecutedActionIndex"] = self.last_executed_index
        partial: dict[str, Any] = {"executedActions": list(self.executed), "totalActionsInChain": self.total}
        if self.failed_index is not None:
            partial["failedIndex"] = self.failed_index
            partial["failureKind"] = self.failure_kind or "error"
        partial["skippedIndexes"] = [index for index, _message in self.skipped_failures]
        out["chainPartialState"] = partial
        return out


async def run_chain(
    probe: PageProbe,
    network: NetworkTracker,
    items: Sequence[ChainItem],
    *,
    gap: StabilityConfig = CHAIN_GAP,
    guards: bool = True,
) -> ChainOutcome:
    """Execute ``items`` in ``index`` order, guarded; stop at the first failed guard or
    execution error that may not fail. ``guards=False`` only for measuring what they cost."""
    ordered = sorted(items, key=lambda item: item.index)
    outcome = ChainOutcome(total=len(ordered))
    start_url: str | None = None
    for position, item in enumerate(ordered):
        try:
            parsed = to_action(item.action)
        except ActionError as exc:
            if item.can_fail:
                outcome.skipped_failures.append((item.index, f"{item.action}: {exc.message}"))
                continue
            return outcome.stop(item.index, "error", f"{item.action}: {exc.message}")
        if parsed.name in TERMINAL:  # not expected in a chain; honoured where it stands
            outcome.terminal = parsed.name
            outcome.terminal_action = item.action
            return outcome
        if start_url is None:
            start_url = probe.page.url  # the URL when the first action runs
        if guards:
            failure = await guard_before(probe, item, parsed, start_url, first=position == 0)
            if failure is not None:
                return outcome.stop(item.index, failure.kind, f"{item.action}: {failure.message}")
        try:
            await execute_action(probe, parsed)
        except ActionError as exc:
            message = f"{item.action}: {exc.message}"
            if not item.can_fail:
                return outcome.stop(item.index, "error", message)
            outcome.skipped_failures.append((item.index, message))
        else:
            if guards and parsed.name in READ_BACK and parsed.target:
                failure = await guard_after(probe, parsed)
                if failure is not None:
                    return outcome.stop(item.index, failure.kind, f"{item.action}: {failure.message}")
            outcome.executed.append(item.action)
            outcome.last_executed_index = item.index
        if position < len(ordered) - 1:
            await wait_for_stability(probe, network, gap)
    return outcome


async def guard_before(probe: PageProbe, item: ChainItem, action: Action, start_url: str, *, first: bool) -> GuardFailure | None:
    """Guards 1 and 2 (guard 1 from the second action on: the server has just seen the page
    the first one acts on). One page evaluation per frame for the target and ``requireValues``."""
    target = action.target if not first else None
    if not first and not same_page(start_url, probe.page.url):
        return GuardFailure("url_changed", f"page changed: the chain started on {start_url}, the page is now {probe.page.url}")
    ids = ([target] if target else []) + [element_id for element_id, _value in item.require_values]
    if not ids:
        return None
    readings = await read(probe, ids, reveal=target)
    if target:
        failure = check_target(target, readings[target], item.expect)
        if failure is not None:
            return failure
    return check_required(item.require_values, readings)


async def guard_after(probe: PageProbe, action: Action) -> GuardFailure | None:
    """Guard 4: the field reads back what ``setValue`` / ``select`` put into it."""
    assert action.target is not None
    readings = await read(probe, [action.target])
    return check_readback(action.target, readings[action.target], action.value or "")
