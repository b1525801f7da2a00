"""What the client says about the chain it ran (the request's chain fields), checked
against the chain that was sent."""

from __future__ import annotations

from dataclasses import dataclass

from agent.chaining.links import ChainLink
from agent.inputs import InteractInput
from verification import ActionSyntaxError, format_action, parse_action


@dataclass(frozen=True)
class ChainReport:
    ran_through: int  # the last action the client executed successfully (-1: none)
    failed_index: int | None  # the action that stopped the chain
    failure_kind: str | None  # target_changed, target_missing, covered, url_changed, value_mismatch, …
    error: str | None
    skipped: frozenset[int]  # canFail actions that failed and were passed over
    consistent: bool  # the account matches the chain sent (else: judged from the page alone)
    legacy: bool  # no chain fields: a client that ran only `action`

    @property
    def complete(self) -> bool:
        return self.failed_index is None


def _canonical(text: str) -> str:
    try:
        return format_action(parse_action(text))
    except ActionSyntaxError:
        return text.strip()


def read_report(request: InteractInput, links: list[ChainLink]) -> ChainReport:
    n = len(links)
    index = request.last_executed_action_index
    executed = request.chain_executed_actions
    skipped = frozenset(request.chain_skipped)
    if index is None and not executed and request.chain_total_actions is None:
        ran = -1 if request.last_action_status == "failure" else 0
        return ChainReport(ran, 0 if ran < 0 else None, "error" if ran < 0 else None, request.last_action_error, frozenset(), True, True)
    ran = index if index is not None else -1
    consistent = -1 <= ran < n and request.chain_total_actions in (None, n) and all(0 <= i < n for i in skipped)
    if consistent and executed:
        expected = [links[i].text for i in range(ran + 1) if i not in skipped]
        consistent = [_canonical(t) for t in executed] == [_canonical(t) for t in expected]
    failed = request.chain_failed_index
    if failed is None and request.last_action_status == "failure" and ran + 1 < n:
        failed = ran + 1
    if failed is not None and not ran < failed < n:
        consistent = False
    kind = request.chain_failure_kind or ("error" if failed is not None else None)
    return ChainReport(ran, failed, kind, request.last_action_error, skipped, consistent, False)
