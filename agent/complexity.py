"""Complexity routing: SIMPLE goals need no model at all.

A goal is SIMPLE when it is one action whose element is clearly identifiable on the page
("Click Logout", "Click the Submit button"). Everything else — several steps, form or record
tasks, ambiguous or missing targets — is COMPLEX. Pure function, no model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from agent.policy import DirectDecision, ParsedGoal, decide_single_action
from verification import PageState

SIMPLE_MIN_CONFIDENCE = 0.7


@dataclass(frozen=True)
class ComplexityResult:
    complexity: Literal["SIMPLE", "COMPLEX"]
    reason: str
    decision: DirectDecision | None = None


def classify_complexity(goal: ParsedGoal, page: PageState) -> ComplexityResult:
    if goal.multi_step_reasons:
        return ComplexityResult("COMPLEX", "multi-step goal: " + ", ".join(goal.multi_step_reasons))
    if goal.intent == "unknown":
        return ComplexityResult("COMPLEX", "the goal is not a recognised single action")
    decision = decide_single_action(goal, page)
    if not decision.decided:
        return ComplexityResult("COMPLEX", decision.reason, decision)
    if decision.confidence < SIMPLE_MIN_CONFIDENCE:
        return ComplexityResult("COMPLEX", f"weak element match ({decision.confidence:.2f})", decision)
    return ComplexityResult("SIMPLE", "single action on a clearly identified element", decision)
