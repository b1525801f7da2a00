"""Observation-based verification: did the previous browser action work, is the goal done?

Pure functions over a normalised page (:class:`PageState`); the verification model is an
injected async callable (:data:`VerdictModel`). No web framework, database driver or LLM
SDK is imported here. See ``docs/verification.md``.
"""

from verification.actions import (
    ACTION_NAMES,
    Action,
    ActionName,
    ActionSyntaxError,
    format_action,
    parse_action,
)
from verification.contract import (
    Clause,
    ClauseResult,
    Contract,
    ElementRef,
    Evidence,
    PreviousStep,
    clause_hits,
    describe_element,
)
from verification.contract import all_unproven as contract_unproven
from verification.contract import evaluate as check_contract
from verification.contract import resolve as resolve_ref
from verification.contract import start as start_contract
from verification.contract import unmet as unmet_clauses
from verification.diff import MESSAGE_APPEARED, diff_skeletons
from verification.elements import (
    MessageKind,
    PageElement,
    PageInputError,
    PageMessage,
    normalize_role,
)
from verification.engine import verify_action_with_observations
from verification.hashing import DEFAULT_VOLATILE_ATTRIBUTES, canonical_json, dom_hash
from verification.html_extract import extract_semantic_skeleton
from verification.lookahead import ExpectedOutcome, NextGoal, NextGoalCheck, check_next_goal
from verification.metrics import VerificationMetrics, VerificationRecord
from verification.observations import (
    BeforeState,
    ClientObservations,
    ObservationList,
    build_observation_list,
)
from verification.full_dom import dom_only_elements
from verification.page import PageState
from verification.result import VerificationResult, VerificationSettings
from verification.skeleton import Skeleton, SkeletonError
from verification.finding import ErrorCategory
from verification.verdict import (
    STEP_TASK_LEVEL_CONTRACT,
    STEP_TASK_LEVEL_EXAMPLE,
    VERDICT_INSTRUCTIONS_TIER2,
    VERDICT_INSTRUCTIONS_TIER3,
    StepHint,
    VerdictModel,
    VerdictModelError,
    VerdictRequest,
    VerificationVerdict,
)
from verification.urls import WebUrl, same_origin_or_upgrade, web_url

__all__ = [
    "ACTION_NAMES",
    "DEFAULT_VOLATILE_ATTRIBUTES",
    "STEP_TASK_LEVEL_CONTRACT",
    "STEP_TASK_LEVEL_EXAMPLE",
    "VERDICT_INSTRUCTIONS_TIER2",
    "VERDICT_INSTRUCTIONS_TIER3",
    "Action",
    "ActionName",
    "ActionSyntaxError",
    "BeforeState",
    "Clause",
    "ClauseResult",
    "Contract",
    "ElementRef",
    "Evidence",
    "PreviousStep",
    "ClientObservations",
    "ErrorCategory",
    "ExpectedOutcome",
    "MessageKind",
    "NextGoal",
    "NextGoalCheck",
    "ObservationList",
    "PageElement",
    "PageInputError",
    "PageMessage",
    "PageState",
    "dom_only_elements",
    "Skeleton",
    "SkeletonError",
    "StepHint",
    "VerdictModel",
    "VerdictModelError",
    "VerdictRequest",
    "VerificationMetrics",
    "VerificationRecord",
    "VerificationResult",
    "VerificationSettings",
    "VerificationVerdict",
    "build_observation_list",
    "MESSAGE_APPEARED",
    "check_contract",
    "clause_hits",
    "contract_unproven",
    "describe_element",
    "canonical_json",
    "WebUrl",
    "same_origin_or_upgrade",
    "web_url",
    "check_next_goal",
    "diff_skeletons",
    "dom_hash",
    "extract_semantic_skeleton",
    "format_action",
    "normalize_role",
    "parse_action",
    "resolve_ref",
    "start_contract",
    "unmet_clauses",
    "verify_action_with_observations",
]
