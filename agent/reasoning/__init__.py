"""Context analysis (Step 1.5): MEMORY, PAGE, WEB_SEARCH or ASK_USER, and the
``needs_user_input`` payload; the check of a model's claim that a value is missing. Also the
page data blocks the engines share."""

from agent.reasoning.analysis import (
    CONTEXT_ANALYSIS_INSTRUCTIONS,
    ContextDecision,
    analyse_context,
    context_blocks,
    needs_user_input,
    run_context_analysis,
)
from agent.reasoning.blocks import ChatMessage, element_line, element_lines, page_blocks
from agent.reasoning.interrupt import is_private, resolve_missing_info
from agent.reasoning.missing_claims import ClaimVerdict, MissingCheck, check_missing_claims, kept_claims
from agent.reasoning.rules import Missing, missing_values
from agent.reasoning.schema import ContextAnalysis, NeedsUserInput, Source

__all__ = [
    "CONTEXT_ANALYSIS_INSTRUCTIONS",
    "ChatMessage",
    "ClaimVerdict",
    "ContextAnalysis",
    "ContextDecision",
    "Missing",
    "MissingCheck",
    "NeedsUserInput",
    "Source",
    "analyse_context",
    "check_missing_claims",
    "context_blocks",
    "element_line",
    "element_lines",
    "is_private",
    "kept_claims",
    "missing_values",
    "needs_user_input",
    "page_blocks",
    "resolve_missing_info",
    "run_context_analysis",
]
