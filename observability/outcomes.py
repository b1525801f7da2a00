"""Outcome signals business code emits once, each going to every place it belongs:
Prometheus counters and, inside a traced request, LangFuse scores.

    record_verification(tier=result.verification_tier, success=result.success,
                        confidence=result.confidence, goal_achieved=result.goal_achieved)
    record_correction(strategy="RETRY_WITH_SELECTOR")            # a correction was applied
    record_correction(strategy="RETRY_WITH_SELECTOR", success=True)   # …and later verified
    record_task_finished("completed")

They reach the app's metrics through the current trace: outside ``tracer.start_trace``
they do nothing, so the request's trace must be open (the ``NoopTracer`` opens one at
near-zero cost when LangFuse is off).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from observability.tracing import current_trace

VERIFICATION_SUCCESS = "verification_success"
VERIFICATION_CONFIDENCE = "verification_confidence"
CORRECTION_SUCCESS = "correction_success"


def record_verification(
    *,
    tier: int,
    success: bool,
    confidence: float,
    goal_achieved: bool | None = None,
    comment: str | None = None,
) -> None:
    """One verification verdict: ``stepwise_verifications_total{tier,result}`` and the
    ``verification_success`` (boolean) / ``verification_confidence`` (0–1) scores."""
    handle = current_trace()
    if handle is None:
        return
    if handle.metrics is not None:
        result = "goal_achieved" if goal_achieved else ("success" if success else "failure")
        handle.metrics.count_verification(tier, result)
    if handle.recording:
        handle.score(VERIFICATION_SUCCESS, success, comment)
        handle.score(VERIFICATION_CONFIDENCE, max(0.0, min(1.0, float(confidence))))


def record_correction(
    *, strategy: str, success: bool | None = None, comment: str | None = None
) -> None:
    """A correction applied (``success=None``) or its verified outcome (``True``/``False``):
    ``stepwise_corrections_total{strategy,outcome}`` and, for an outcome, the
    ``correction_success`` score."""
    handle = current_trace()
    if handle is None:
        return
    outcome = "applied" if success is None else ("succeeded" if success else "failed")
    if handle.metrics is not None:
        handle.metrics.count_correction(strategy, outcome)
    if success is not None and handle.recording:
        handle.score(CORRECTION_SUCCESS, success, comment)


def record_task_finished(status: str) -> None:
    """A task reached a final status: ``stepwise_tasks_finished_total{status}``."""
    handle = current_trace()
    if handle is not None and handle.metrics is not None:
        handle.metrics.count_task_finished(status)


def record_chain_sent(actions: int) -> None:
    """A chain of ``actions`` actions answered: ``stepwise_chains_sent_total{kind}``."""
    handle = current_trace()
    if handle is not None and handle.metrics is not None:
        handle.metrics.count_chain_sent(actions)


def record_chain_result(checks: Sequence[Any], recovery: str | None) -> None:
    """A chain verified on the next request (``checks``: its actions' LinkChecks):
    ``stepwise_chains_total{result}``, ``stepwise_chain_actions_total{status}``, the index it
    stopped at (``stepwise_chain_partial_failures_total{index}``) and the recovery chosen."""
    handle = current_trace()
    if handle is None or handle.metrics is None or not checks:
        return
    statuses = [str(c.status) for c in checks]
    stopped = next((i for i, s in enumerate(statuses) if s in ("failed", "not_run")), None)
    result = "complete" if stopped is None else ("failed" if stopped == 0 else "partial")
    handle.metrics.count_chain(result, statuses, stopped)
    if recovery is not None:
        handle.metrics.count_chain_recovery(recovery, "applied")


def record_chain_recovery(*, strategy: str, success: bool) -> None:
    """The step after a chain recovery verified (or not)."""
    handle = current_trace()
    if handle is not None and handle.metrics is not None:
        handle.metrics.count_chain_recovery(strategy, "succeeded" if success else "failed")


def record_skill_retrieval(hit: bool) -> None:
    """A decision looked for skills: ``stepwise_skill_retrievals_total{hit}`` (the hit rate)."""
    handle = current_trace()
    if handle is not None and handle.metrics is not None:
        handle.metrics.count_skill_retrieval(hit)


def record_skill_use(result: str, n: int = 1) -> None:
    """Skills applied, then judged: ``stepwise_skill_uses_total{result}`` (effectiveness =
    succeeded / (succeeded + failed))."""
    handle = current_trace()
    if handle is not None and handle.metrics is not None and n > 0:
        handle.metrics.count_skill_use(result, n)


def record_replay_step(result: str) -> None:
    """An answer's replay status: ``stepwise_replay_steps_total{result}`` (the replay hit rate)."""
    handle = current_trace()
    if handle is not None and handle.metrics is not None:
        handle.metrics.count_replay_step(result)


def record_contingency(trigger: str, handler: str) -> None:
    """A plan contingency fired: ``stepwise_contingencies_total{trigger,handler}``."""
    handle = current_trace()
    if handle is not None and handle.metrics is not None:
        handle.metrics.count_contingency(trigger, handler)


def record_memory_saved(round_trips: int, tokens: int) -> None:
    """What a replayed task saved: ``stepwise_memory_saved_total{kind}``."""
    handle = current_trace()
    if handle is not None and handle.metrics is not None:
        handle.metrics.count_memory_saved(round_trips, tokens)
