"""Counters a task carries between requests (stored in ``Task.state``): the loop-safety
and correction limits are decided from these, not from memory of a process."""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from verification import PageState, canonical_json

FINGERPRINT_WINDOW = 12


class TaskProgress(BaseModel):
    model_config = ConfigDict(extra="ignore")

    consecutive_failures: int = Field(default=0, ge=0, description="Failed verifications in a row")
    retries_on_step: int = Field(default=0, ge=0, description="Corrections issued for the current plan step")
    successes_without_progress: int = Field(
        default=0, ge=0, description="Successful verifications in a row that completed no plan step"
    )
    rejected_finishes: int = Field(default=0, ge=0, description="finish() proposals the contract did not back up")
    fingerprints: list[str] = Field(default_factory=list, description="action@page-hash of recent actions")
    loop_corrections: int = Field(default=0, ge=0, description="Corrections triggered by the repeated-action detector")
    evidence_waits: int = Field(default=0, ge=0, description="Waits issued for the page to show a result after the last step")
    target_waits: int = Field(default=0, ge=0, description="Waits issued for a step's element to appear (a field rendered late)")
    verified_steps: int = 0
    failed_steps: int = 0

    @classmethod
    def from_task_state(cls, state: dict[str, Any]) -> TaskProgress:
        return cls.model_validate(state.get("progress", {}))

    def fingerprint_count(self, fingerprint: str) -> int:
        return Counter(self.fingerprints)[fingerprint]

    def with_fingerprint(self, fingerprint: str) -> TaskProgress:
        prints = [*self.fingerprints, fingerprint][-FINGERPRINT_WINDOW:]
        return self.model_copy(update={"fingerprints": prints})


def page_fingerprint(page: PageState) -> str:
    """What the user can see and do on the page (its semantic skeleton), not its bytes: a
    ticking clock or a rotating ad does not make a page "different"."""
    return hashlib.sha1(canonical_json(page.skeleton)).hexdigest()[:16]


def fingerprint(action: str, page: PageState) -> str:
    return f"{action}@{page_fingerprint(page)}"
