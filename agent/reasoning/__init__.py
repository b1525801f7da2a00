"""Context analysis (Step 1.5): MEMORY, PAGE, WEB_SEARCH or ASK_USER, and the
``needs_user_input`` payload. Also the page data blocks the engines share."""

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
from agent.reasoning.rules import Missing, missing_values
from agent.reasoning.schema import ContextAnalysis, NeedsUserInput, Source

__all__ = [
    "CONTEXT_ANALYSIS_INSTRUCTIONS",
    "ChatMessage",
    "ContextAnalysis",
    "ContextDecision",
    "Missing",
    "NeedsUserInput",
    "Source",
    "analyse_context",
    "context_blocks",
    "element_line",
    "element_lines",
    "is_private",
    "missing_values",
    "needs_user_input",
    "page_blocks",
    "resolve_missing_info",
    "run_context_analysis",
]
