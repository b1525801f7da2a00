"""Calibration of the plan check: does its verdict predict whether a plan works?

Feed it one sample per checked plan whose real outcome is known (the task succeeded or
failed with that plan — in production the plan that ran, in a benchmark every plan), and
one sample per retry. Metrics and targets (``spec/related/verification-checkpoints.md``)::

    catch_rate          = rejected & failed / (rejected & failed + passed & failed)   ≥ 0.70
    false_positive_rate = rejected & succeeded / all checks                          ≤ 0.10
    retry_success       = retries whose next plan PASSed / retries                    ≥ 0.60
    correlation         = Pearson (point-biserial) of score vs success               ≥ 0.70

"rejected" means RETRY or FAIL. A metric with no data is ``None``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Final

from planning.check import Verdict

CATCH_RATE_ALERT: Final = 0.60
FALSE_POSITIVE_ALERT: Final = 0.15
RETRY_SUCCESS_ALERT: Final = 0.50


@dataclass
class PlanCheckCalibration:
    """A running aggregate; cheap to keep per process and to snapshot into metrics."""

    passed_succeeded: int = 0
    passed_failed: int = 0
    rejected_succeeded: int = 0
    rejected_failed: int = 0
    retries: int = 0
    retries_passed: int = 0
    # running sums for the correlation (constant memory however long the process lives)
    _n: int = field(default=0, repr=False)
    _sx: float = field(default=0.0, repr=False)
    _sy: float = field(default=0.0, repr=False)
    _sxx: float = field(default=0.0, repr=False)
    _syy: float = field(default=0.0, repr=False)
    _sxy: float = field(default=0.0, repr=False)

    def record(self, score: float, verdict: Verdict, *, succeeded: bool) -> None:
        """One checked plan and whether the task succeeded with it."""
        if verdict == "PASS":
            if succeeded:
                self.passed_succeeded += 1
            else:
                self.passed_failed += 1
        elif succeeded:
            self.rejected_succeeded += 1
        else:
            self.rejected_failed += 1
        y = 1.0 if succeeded else 0.0
        self._n += 1
        self._sx += score
        self._sy += y
        self._sxx += score * score
        self._syy += y * y
        self._sxy += score * y

    def record_retry(self, *, passed: bool) -> None:
        """One RETRY, and whether the plan made with its feedback PASSed."""
        self.retries += 1
        self.retries_passed += int(passed)

    @property
    def total(self) -> int:
        return self.passed_succeeded + self.passed_failed + self.rejected_succeeded + self.rejected_failed

    @property
    def catch_rate(self) -> float | None:
        failures = self.rejected_failed + self.passed_failed
        return self.rejected_failed / failures if failures else None

    @property
    def false_positive_rate(self) -> float | None:
        return self.rejected_succeeded / self.total if self.total else None

    @property
    def retry_success(self) -> float | None:
        return self.retries_passed / self.retries if self.retries else None

    @property
    def correlation(self) -> float | None:
        """Pearson correlation of score and success (1/0); ``None`` without variation."""
        n = self._n
        if n < 2:
            return None
        sxx = self._sxx - self._sx * self._sx / n
        syy = self._syy - self._sy * self._sy / n
        if sxx <= 1e-12 or syy <= 1e-12:
            return None
        sxy = self._sxy - self._sx * self._sy / n
        return max(-1.0, min(1.0, sxy / math.sqrt(sxx * syy)))

    def alerts(self) -> list[str]:
        """Names of the spec's alerts that fire now."""
        out: list[str] = []
        if self.catch_rate is not None and self.catch_rate < CATCH_RATE_ALERT:
            out.append("low_catch_rate")
        if self.false_positive_rate is not None and self.false_positive_rate > FALSE_POSITIVE_ALERT:
            out.append("high_false_positive_rate")
        if self.retry_success is not None and self.retry_success < RETRY_SUCCESS_ALERT:
            out.append("low_retry_success")
        return out

    def snapshot(self) -> dict[str, float | int | None]:
        return {
            "checks": self.total,
            "retries": self.retries,
            "catch_rate": self.catch_rate,
            "false_positive_rate": self.false_positive_rate,
            "retry_success": self.retry_success,
            "correlation": self.correlation,
        }
