"""What Tier 1 found for one step: failure and success evidence, with their confidence."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

ErrorCategory = Literal[
    "no_change",
    "error_message",
    "value_mismatch",
    "next_goal_missing",
    "model_error",
    "low_confidence",
    "not_achieved",
    "sign_in_refused",
]


@dataclass
class Tier1Finding:
    failures: list[tuple[float, str, ErrorCategory]] = field(default_factory=list)
    successes: list[tuple[float, str]] = field(default_factory=list)
    completion: bool = False
    expected_seen: bool = False  # the predicted success text or elements appeared
    notes: list[str] = field(default_factory=list)  # evidence lines, also shown to a model

    @property
    def action_succeeded(self) -> bool | None:
        if self.failures:
            return False
        return True if self.successes else None

    @property
    def confidence(self) -> float:
        if self.failures:
            return max(c for c, _r, _k in self.failures)
        return max((c for c, _r in self.successes), default=0.0)

    @property
    def reason(self) -> str:
        if self.failures:
            return "; ".join(r for _c, r, _k in self.failures)
        return "; ".join(r for _c, r in self.successes)

    @property
    def error_category(self) -> ErrorCategory | None:
        return max(self.failures)[2] if self.failures else None

    def fail(self, confidence: float, reason: str, category: ErrorCategory) -> None:
        self.failures.append((confidence, reason, category))
        self.notes.append(reason)

    def succeed(self, confidence: float, reason: str) -> None:
        self.successes.append((confidence, reason))
        self.notes.append(reason)
