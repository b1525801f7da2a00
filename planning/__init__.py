"""Planning: the model planner, step refinement, the plan check, re-planning on page change,
and rolling summarisation of a task's history. See ``docs/planner.md``.

Each model-facing engine is an output schema (pydantic, ``extra="forbid"``), an
instructions constant (trusted text), a ``*_blocks`` builder of untrusted data blocks
(``(name, content)`` pairs the agent wraps in ``DataBlock``) and a pure function that turns
the answer into something the agent can use. Nothing here calls a model.
"""

from planning.blocks import Block, VerificationInput, VerificationSummary, element_line, page_blocks
from planning.calibration import PlanCheckCalibration
from planning.check import (
    MAX_PLAN_RETRIES,
    PASS_THRESHOLD,
    RETRY_THRESHOLD,
    ROUTES,
    WEIGHTS,
    PlanCheck,
    Verdict,
    check_plan,
    feedback_block,
    verdict_for,
)
from planning.contingency import (
    BUILTIN_CONTINGENCIES,
    Contingency,
    ContingencyDraft,
    HandlerKind,
    TriggerKind,
    contingencies_from_drafts,
)
from planning.errors import PlanInvalid, PlanningError, RefinementInvalid
from planning.goal_values import GoalValue, goal_values, implies_submission
from planning.model_planner import (
    MAX_PLAN_STEPS,
    PLANNER_INSTRUCTIONS,
    ClauseDraft,
    DraftStep,
    clauses_from_drafts,
    PlanDraft,
    plan_from_draft,
    planning_blocks,
    steps_from_drafts,
)
from planning.plan import Plan, PlanStep, PlanStepStatus, StepKind, SuggestionPick
from planning.refinement import (
    REFINEMENT_INSTRUCTIONS,
    ChainedAction,
    ChainItem,
    RefinedAction,
    RefinementResult,
    refinement_blocks,
    validate_refined_action,
)
from planning.replanning import (
    REPLAN_INSTRUCTIONS,
    PlanValidation,
    ReplanAction,
    ReplanReason,
    ReplanTrigger,
    adopt_regenerated,
    apply_modification,
    decide_replan_action,
    refresh_signatures,
    replan_blocks,
    should_replan,
)
from planning.similarity import (
    REPLAN_THRESHOLD,
    Similarity,
    page_signatures,
    page_similarity,
    similarity_to_signatures,
    url_key,
)
from planning.summary import KEEP_LAST, HistoryWindow, summarise_history
from planning.text import fold

__all__ = [
    "BUILTIN_CONTINGENCIES",
    "Contingency",
    "ContingencyDraft",
    "HandlerKind",
    "TriggerKind",
    "contingencies_from_drafts",
    "fold",
    "KEEP_LAST",
    "MAX_PLAN_RETRIES",
    "MAX_PLAN_STEPS",
    "PASS_THRESHOLD",
    "PLANNER_INSTRUCTIONS",
    "REFINEMENT_INSTRUCTIONS",
    "REPLAN_INSTRUCTIONS",
    "REPLAN_THRESHOLD",
    "RETRY_THRESHOLD",
    "ROUTES",
    "WEIGHTS",
    "Block",
    "ChainItem",
    "ChainedAction",
    "ClauseDraft",
    "DraftStep",
    "GoalValue",
    "HistoryWindow",
    "Plan",
    "PlanCheck",
    "PlanCheckCalibration",
    "PlanDraft",
    "PlanInvalid",
    "PlanStep",
    "PlanStepStatus",
    "SuggestionPick",
    "PlanValidation",
    "PlanningError",
    "RefinedAction",
    "RefinementInvalid",
    "RefinementResult",
    "ReplanAction",
    "ReplanReason",
    "ReplanTrigger",
    "Similarity",
    "StepKind",
    "Verdict",
    "VerificationInput",
    "VerificationSummary",
    "adopt_regenerated",
    "apply_modification",
    "check_plan",
    "clauses_from_drafts",
    "decide_replan_action",
    "element_line",
    "feedback_block",
    "goal_values",
    "implies_submission",
    "page_blocks",
    "page_signatures",
    "page_similarity",
    "plan_from_draft",
    "planning_blocks",
    "refinement_blocks",
    "refresh_signatures",
    "replan_blocks",
    "should_replan",
    "similarity_to_signatures",
    "steps_from_drafts",
    "summarise_history",
    "url_key",
    "validate_refined_action",
    "verdict_for",
]

# Hierarchical plans (sub-tasks): see planning/subtasks.py.
from planning.model_planner import SubTaskDraft  # noqa: E402
from planning.subtask_model import SubTask, SubTaskStatus  # noqa: E402
from planning.subtasks import MAX_SUBTASKS, decompose, merge_tiny, navigating_clauses, relink, subtasks_from_drafts  # noqa: E402

__all__ += ["MAX_SUBTASKS", "SubTask", "SubTaskDraft", "SubTaskStatus", "decompose", "merge_tiny", "navigating_clauses", "relink", "subtasks_from_drafts"]
