from __future__ import annotations

import pytest

from planning import PlanCheckCalibration


def test_no_data_means_no_metrics() -> None:
    calibration = PlanCheckCalibration()
    assert calibration.snapshot() == {
        "checks": 0,
        "retries": 0,
        "catch_rate": None,
        "false_positive_rate": None,
        "retry_success": None,
        "correlation": None,
    }
    assert calibration.alerts() == []


def test_metrics_follow_the_spec_definitions() -> None:
    calibration = PlanCheckCalibration()
    for _ in range(6):
        calibration.record(0.9, "PASS", succeeded=True)
    calibration.record(0.8, "PASS", succeeded=False)  # missed failure
    calibration.record(0.6, "RETRY", succeeded=False)  # caught
    calibration.record(0.4, "FAIL", succeeded=False)  # caught
    calibration.record(0.55, "RETRY", succeeded=True)  # false rejection
    calibration.record_retry(passed=True)
    calibration.record_retry(passed=True)
    calibration.record_retry(passed=False)
    assert calibration.total == 10
    assert calibration.catch_rate == pytest.approx(2 / 3)
    assert calibration.false_positive_rate == pytest.approx(0.1)
    assert calibration.retry_success == pytest.approx(2 / 3)
    assert calibration.correlation is not None and calibration.correlation > 0.5
    assert calibration.alerts() == []


def test_alerts_fire_on_bad_calibration() -> None:
    calibration = PlanCheckCalibration()
    calibration.record(0.9, "PASS", succeeded=False)
    calibration.record(0.9, "PASS", succeeded=False)
    calibration.record(0.4, "FAIL", succeeded=True)
    calibration.record_retry(passed=False)
    assert calibration.alerts() == ["low_catch_rate", "high_false_positive_rate", "low_retry_success"]
    assert calibration.correlation == pytest.approx(-1.0)


def test_correlation_needs_variation() -> None:
    calibration = PlanCheckCalibration()
    calibration.record(0.9, "PASS", succeeded=True)
    assert calibration.correlation is None
    calibration.record(0.8, "PASS", succeeded=True)
    assert calibration.correlation is None  # every plan succeeded


def test_perfect_separation_correlates_fully() -> None:
    calibration = PlanCheckCalibration()
    calibration.record(1.0, "PASS", succeeded=True)
    calibration.record(0.0, "FAIL", succeeded=False)
    assert calibration.correlation == pytest.approx(1.0)
