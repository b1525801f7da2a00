"""The deterministic policy: goal parsing, decomposition into a plan, element matching,
step refinement into actions, and completion evidence. It serves SIMPLE goals with zero
model calls and is the fallback of every engine."""

from agent.policy.completion import Evidence, completion_evidence
from agent.policy.decompose import build_plan, split_clauses
from agent.policy.direct import DirectDecision, decide_single_action
from agent.policy.goal import ParsedGoal, TargetRef, parse_goal, parse_target
from agent.policy.matching import Match, MatchResult, match_elements
from agent.policy.refine import StepDecision, refine_step

__all__ = [
    "DirectDecision",
    "Evidence",
    "Match",
    "MatchResult",
    "ParsedGoal",
    "StepDecision",
    "TargetRef",
    "build_plan",
    "completion_evidence",
    "decide_single_action",
    "match_elements",
    "parse_goal",
    "parse_target",
    "refine_step",
    "split_clauses",
]
