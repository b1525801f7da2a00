"""How much a remembered skill is trusted: a cautious success rate that fades with disuse.

The rate is the Wilson score lower bound at z = 1 (one-sided ≈ 84 %): 2 successes of 2 →
0.67, 1 of 1 → 0.5, 2 of 3 → 0.39. A skill is injected only at or above the spec's 50 %
gate; ranking multiplies the bound by a 30-day half-life decay of the last use.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Final

GATE: Final = 0.5  # spec: never inject a skill below a 50 % success rate
Z: Final = 1.0
HALF_LIFE_DAYS: Final = 30.0
_DAY: Final = 86_400.0


def lower_bound(successes: int, failures: int, z: float = Z) -> float:
    """Wilson score interval's lower bound of the success rate (0.0 with no evidence)."""
    successes, failures = max(successes, 0), max(failures, 0)
    n = successes + failures
    if n == 0:
        return 0.0
    p = successes / n
    z2 = z * z
    centre = p + z2 / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, (centre - margin) / (1 + z2 / n))


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def decay(last_used: datetime, now: datetime) -> float:
    """``0.5 ** (age_days / HALF_LIFE_DAYS)``; 1.0 for a use in the future (clock skew).
    A naive datetime is taken as UTC."""
    age_days = (_aware(now) - _aware(last_used)).total_seconds() / _DAY
    return 0.5 ** (max(age_days, 0.0) / HALF_LIFE_DAYS)


def skill_score(successes: int, failures: int, last_used: datetime, now: datetime) -> float:
    """The ranking key: lower bound × decay."""
    return lower_bound(successes, failures) * decay(last_used, now)


def passes_gate(successes: int, failures: int) -> bool:
    """The success rate's lower bound is at least :data:`GATE` (2/0 and 1/0 pass, 2/1 does
    not). Admission also needs ≥ 2 verified successes — the caller's rule."""
    return lower_bound(successes, failures) >= GATE


__all__ = ["GATE", "HALF_LIFE_DAYS", "Z", "decay", "lower_bound", "passes_gate", "skill_score"]
