"""The deterministic policy: goal parsing, decomposition into a plan and a goal contract
(with what of the goal it could not read), element matching, step refinement into actions.
It serves SIMPLE goals with zero model calls and is the fallback of every engine."""

from agent.policy.coverage import goal_terms, grounded, unaccounted
from agent.policy.decompose import build_plan, split_clauses
from agent.policy.direct import DirectDecision, decide_single_action
from agent.policy.goal import ParsedGoal, TargetRef, parse_goal, parse_target
from agent.policy.matching import Match, MatchResult, match_elements
from agent.policy.refine import StepDecision, form_opened, refine_step
from agent.policy.understand import Understanding, understand

__all__ = [
    "DirectDecision",
    "Match",
    "MatchResult",
    "ParsedGoal",
    "StepDecision",
    "Understanding",
    "TargetRef",
    "build_plan",
    "decide_single_action",
    "match_elements",
    "parse_goal",
    "parse_target",
    "form_opened",
    "refine_step",
    "goal_terms",
    "grounded",
    "split_clauses",
    "unaccounted",
    "understand",
]
