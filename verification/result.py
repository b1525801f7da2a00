"""Settings, the verification result, and the one place thresholds turn a verdict into flags.

Routing reads ``goal_achieved`` and ``success`` only:

* ``success = action_succeeded and confidence >= success_threshold`` (0.70)
* ``goal_achieved = task_completed and confidence >= goal_threshold`` (0.70); a completion in
  the band below ``low_confidence_band_top`` (0.85) is logged as
  ``verification.low_confidence_completion`` and still completes.
* ``goal_achieved`` stays ``None`` (unset) on the no-change and model-error paths, so an
  error can never complete a task.
* A missing **required** next goal caps the confidence at ``next_goal_cap`` (0.5).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel
from structlog.typing import FilteringBoundLogger

from verification.actions import Action, format_action
from verification.lookahead import NextGoal, NextGoalCheck
from verification.metrics import VerificationRecord
from verification.observations import ObservationList
from verification.finding import ErrorCategory
from verification.chain import LinkCheck

SUMMARY_LIMIT = 300
DecidedBy = Literal["rules", "model", "synthetic"]


@dataclass(frozen=True)
class VerificationSettings:
    success_threshold: float = 0.70
    goal_threshold: float = 0.70
    low_confidence_band_top: float = 0.85
    no_change_confidence: float = 0.2
    observation_limit: int = 40
    tier2_max_observations: int = 5
    next_goal_cap: float = 0.5
    model_error_confidence: float = 0.5
    rules_changed_confidence: float = 0.75
    rules_unchanged_confidence: float = 0.3
    page_neutral_confidence: float = 0.75
    model_timeout_seconds: float = 30.0


class VerificationResult(BaseModel):
    """The outcome of verifying one action. Route on ``goal_achieved`` and ``success`` only."""

    success: bool
    confidence: float
    reason: str
    action_succeeded: bool
    task_completed: bool
    goal_achieved: bool | None
    semantic_summary: str
    observations: list[str]
    meaningful_content_change: bool
    url_changed: bool
    client_witness_override: bool
    verification_tier: Literal[1, 2, 3]
    tokens_saved: int
    model_called: bool
    decided_by: DecidedBy
    next_goal_check: NextGoalCheck | None
    error_category: ErrorCategory | None
    duration_ms: float
    chain: list[LinkCheck] | None = None  # a chain's actions, each judged on the page (verification.chain)
    # When a model decided: what the rules alone would have concluded from the same page
    # (None when the rules decided). Memory records such a step only when they agree it worked.
    rules_success: bool | None = None

    def to_record(self, *, action: str | Action, goal: str) -> VerificationRecord:
        check = self.next_goal_check
        return VerificationRecord(
            tier=self.verification_tier,
            decided_by=self.decided_by,
            action=format_action(action) if isinstance(action, Action) else action,
            goal=goal,
            action_succeeded=self.action_succeeded,
            task_completed=self.task_completed,
            goal_achieved=self.goal_achieved,
            success=self.success,
            confidence=self.confidence,
            observations=list(self.observations),
            error_category=self.error_category,
            duration_ms=self.duration_ms,
            model_called=self.model_called,
            tokens_saved=self.tokens_saved,
            next_goal_found=check.found if check is not None and check.evaluated else None,
        )


@dataclass
class Draft:
    """A verdict before thresholds, caps and bookkeeping are applied."""

    action_succeeded: bool
    task_completed: bool
    confidence: float
    reason: str
    tier: Literal[1, 2, 3]
    decided_by: DecidedBy
    model_called: bool = False
    tokens_saved: int = 0
    category: ErrorCategory | None = None
    goal_unset: bool = False  # leave goal_achieved as None (no-change and error paths)


@dataclass(frozen=True)
class Finisher:
    """Everything about the step that does not depend on who decided the verdict."""

    obs: ObservationList
    observations: list[str]
    witness: bool
    next_goal: NextGoal | None
    next_check: NextGoalCheck | None
    settings: VerificationSettings
    started: float
    log: FilteringBoundLogger

    def _required_goal_missing(self) -> bool:
        check = self.next_check
        goal = self.next_goal
        return (
            goal is not None
            and goal.required
            and check is not None
            and check.evaluated
            and not check.found
        )

    def _confidence(self, draft: Draft) -> float:
        """The draft's confidence, capped when a required next target is missing."""
        confidence = max(0.0, min(1.0, draft.confidence))
        if self._required_goal_missing() and self.next_goal is not None:
            confidence = min(confidence, self.settings.next_goal_cap)
        return confidence

    def succeeds(self, draft: Draft) -> bool:
        """Whether ``draft`` would be a successful verdict (no logging, no result)."""
        return draft.action_succeeded and self._confidence(draft) >= self.settings.success_threshold

    def __call__(self, draft: Draft, *, rules_success: bool | None = None) -> VerificationResult:
        settings = self.settings
        confidence = self._confidence(draft)
        reason = draft.reason
        missing = self._required_goal_missing()
        if missing and self.next_goal is not None and draft.confidence > settings.next_goal_cap:
            reason = f"{reason}. Required next target missing: {self.next_goal.description}"
            self.log.info(
                "verification.next_goal_missing",
                detail=self.next_check.detail if self.next_check else "",
            )
        success = draft.action_succeeded and confidence >= settings.success_threshold
        goal_achieved = (
            None
            if draft.goal_unset
            else draft.task_completed and confidence >= settings.goal_threshold
        )
        if goal_achieved and confidence < settings.low_confidence_band_top:
            self.log.info("verification.low_confidence_completion", confidence=round(confidence, 3))
        category = draft.category
        if not success and category is None:
            category = (
                "not_achieved"
                if not draft.action_succeeded
                else "next_goal_missing"
                if missing
                else "low_confidence"
            )
        result = VerificationResult(
            success=success,
            confidence=confidence,
            reason=reason,
            action_succeeded=draft.action_succeeded,
            task_completed=draft.task_completed,
            goal_achieved=goal_achieved,
            semantic_summary=reason[:SUMMARY_LIMIT],
            observations=self.observations,
            meaningful_content_change=self.obs.meaningful_content_change,
            url_changed=self.obs.url_changed,
            client_witness_override=self.witness,
            verification_tier=draft.tier,
            tokens_saved=max(draft.tokens_saved, 0),
            model_called=draft.model_called,
            decided_by=draft.decided_by,
            next_goal_check=self.next_check,
            # set when the step failed, and whenever the model errored (even if page evidence passed it)
            error_category=category if not success or category == "model_error" else None,
            duration_ms=round((time.perf_counter() - self.started) * 1000, 3),
            rules_success=rules_success,
        )
        self.log.info(
            "verification.completed",
            tier=result.verification_tier,
            decided_by=result.decided_by,
            success=result.success,
            confidence=round(result.confidence, 3),
            goal_achieved=result.goal_achieved,
            error_category=result.error_category,
            model_called=result.model_called,
            duration_ms=result.duration_ms,
        )
        return result
