"""Skill ranking: Wilson lower bound at z = 1, 30-day half-life, the 50 % gate."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from agent.memory.ranking import GATE, HALF_LIFE_DAYS, Z, decay, lower_bound, passes_gate, skill_score

NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def test_constants() -> None:
    assert (GATE, Z, HALF_LIFE_DAYS) == (0.5, 1.0, 30.0)


@pytest.mark.parametrize(("s", "f", "expected"), [(2, 0, 0.67), (1, 0, 0.5), (2, 1, 0.39), (0, 0, 0.0), (0, 3, 0.0), (10, 0, 0.91), (50, 50, 0.45)])
def test_lower_bound_figures(s: int, f: int, expected: float) -> None:
    assert lower_bound(s, f) == pytest.approx(expected, abs=0.005)


def test_lower_bound_is_exactly_half_for_one_of_one() -> None:
    assert lower_bound(1, 0) == 0.5


def test_lower_bound_grows_with_evidence_and_falls_with_failures() -> None:
    assert lower_bound(1, 0) < lower_bound(2, 0) < lower_bound(5, 0) < 1.0
    assert lower_bound(5, 0) > lower_bound(5, 1) > lower_bound(5, 3)
    assert lower_bound(2, 0, z=2.0) < lower_bound(2, 0)


def test_gate() -> None:
    assert passes_gate(2, 0) and passes_gate(1, 0)
    assert not passes_gate(2, 1) and not passes_gate(0, 0) and not passes_gate(3, 3)
    assert passes_gate(6, 1)


def test_a_skill_that_keeps_failing_falls_below_the_gate() -> None:
    failures = 0
    while passes_gate(4, failures):
        failures += 1
    assert failures <= 2


def test_decay_half_life() -> None:
    assert decay(NOW, NOW) == 1.0
    assert decay(NOW - timedelta(days=30), NOW) == pytest.approx(0.5)
    assert decay(NOW - timedelta(days=60), NOW) == pytest.approx(0.25)
    assert decay(NOW + timedelta(days=3), NOW) == 1.0  # clock skew


def test_decay_mixes_naive_and_aware_times() -> None:
    naive = datetime(2026, 10, 26, 12, 0)
    assert decay(naive, NOW) == pytest.approx(0.5)
    other_zone = NOW.astimezone(timezone(timedelta(hours=5)))
    assert decay(other_zone, NOW) == pytest.approx(1.0)


def test_skill_score_ranks_fresh_confident_skills_first() -> None:
    fresh = skill_score(4, 0, NOW - timedelta(days=1), NOW)
    stale = skill_score(4, 0, NOW - timedelta(days=80), NOW)
    shaky = skill_score(2, 2, NOW, NOW)
    assert fresh > stale and fresh > shaky
    assert skill_score(2, 0, NOW - timedelta(days=30), NOW) == pytest.approx(lower_bound(2, 0) / 2)
