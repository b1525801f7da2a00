"""Verification records (one per verified step, stored) and their aggregate metrics.

Metrics follow the layered-verification practice: pass rate overall and per tier (with
average duration), counts per error category, a confidence histogram, how often a model
was called, how many tokens Tier 1/2 saved, and the look-ahead hit rate.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

HISTOGRAM_BUCKETS = 10


def _now() -> datetime:
    return datetime.now(UTC)


class VerificationRecord(BaseModel):
    """What one verification decided, in a storable, JSON-serialisable form."""

    tier: Literal[1, 2, 3]
    decided_by: Literal["rules", "model", "synthetic"]
    action: str
    goal: str
    action_succeeded: bool
    task_completed: bool
    goal_achieved: bool | None
    success: bool
    confidence: float
    observations: list[str]
    error_category: str | None
    duration_ms: float
    model_called: bool
    tokens_saved: int
    next_goal_found: bool | None = None
    created_at: datetime = Field(default_factory=_now)


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


class VerificationMetrics:
    """In-memory aggregator: ``add`` records, read ``summary()``."""

    def __init__(self) -> None:
        self._records: list[VerificationRecord] = []

    def add(self, record: VerificationRecord) -> None:
        self._records.append(record)

    def __len__(self) -> int:
        return len(self._records)

    def summary(self) -> dict[str, Any]:
        records = self._records
        total = len(records)
        passed = sum(r.success for r in records)
        by_tier: dict[int, dict[str, float | int]] = {}
        for tier in (1, 2, 3):
            group = [r for r in records if r.tier == tier]
            ok = sum(r.success for r in group)
            by_tier[tier] = {
                "total": len(group),
                "passed": ok,
                "failed": len(group) - ok,
                "pass_rate": _rate(ok, len(group)),
                "avg_duration_ms": round(sum(r.duration_ms for r in group) / len(group), 3)
                if group
                else 0.0,
            }
        histogram = [0] * HISTOGRAM_BUCKETS
        for r in records:
            histogram[min(int(r.confidence * HISTOGRAM_BUCKETS), HISTOGRAM_BUCKETS - 1)] += 1
        looked_ahead = [r.next_goal_found for r in records if r.next_goal_found is not None]
        return {
            "total": total,
            "passed": passed,
            "failed": total - passed,
            "pass_rate": _rate(passed, total),
            "goal_achieved": sum(r.goal_achieved is True for r in records),
            "by_tier": by_tier,
            "by_decided_by": dict(Counter(r.decided_by for r in records)),
            "by_error_category": dict(
                Counter(r.error_category for r in records if r.error_category)
            ),
            "confidence_histogram": histogram,
            "model_call_rate": _rate(sum(r.model_called for r in records), total),
            "tokens_saved": sum(r.tokens_saved for r in records),
            "lookahead": {
                "checked": len(looked_ahead),
                "found": sum(looked_ahead),
                "hit_rate": _rate(sum(looked_ahead), len(looked_ahead)),
            },
        }
