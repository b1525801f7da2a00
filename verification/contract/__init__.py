"""The goal contract: what "done" means for a task, as clauses Stepwise checks itself on the
page and on the verified action log — never a model's or a policy's claim. See
``docs/verification.md`` (The goal contract)."""

from verification.contract.checks import (
    PreviousStep,
    all_unproven,
    baseline_count,
    clause_hits,
    evaluate,
    satisfied_lines,
    start,
    unmet,
    value_matches,
)
from verification.contract.model import (
    ActivationKind,
    Clause,
    ClauseKind,
    ClauseMode,
    ClauseResult,
    ClauseStatus,
    ContainerKind,
    Contract,
    ControlState,
    ElementRef,
    Evidence,
    RefRole,
)
from verification.contract.refs import COMMIT_WORDS, Resolution, describe_element, fold, matches, perceivable, resolve, words, words_within

__all__ = [
    "COMMIT_WORDS",
    "ActivationKind",
    "Clause",
    "ClauseKind",
    "ClauseMode",
    "ClauseResult",
    "ClauseStatus",
    "ContainerKind",
    "Contract",
    "ControlState",
    "ElementRef",
    "Evidence",
    "PreviousStep",
    "RefRole",
    "Resolution",
    "all_unproven",
    "baseline_count",
    "clause_hits",
    "describe_element",
    "evaluate",
    "fold",
    "matches",
    "perceivable",
    "resolve",
    "satisfied_lines",
    "start",
    "unmet",
    "value_matches",
    "words",
    "words_within",
]
