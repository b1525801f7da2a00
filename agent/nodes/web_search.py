from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.calls import call_context
from agent.reasoning import needs_user_input
from agent.search import manage_search
from agent.state import GraphContext, InteractState

log = structlog.get_logger(__name__)


async def web_search(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """Tavily search, domain-filtered to the page's site, refined up to three times. Results
    reach later prompts only as untrusted data."""
    deps = runtime.context.deps
    analysis = state["context_analysis"]
    outcome = await manage_search(
        state["task"].query,
        analysis,
        state["page"].url,
        deps.search,
        deps.gateway,
        ctx=call_context(state, runtime) if deps.gateway is not None else None,
    )
    log.info("graph.web_search", attempts=outcome.attempts, solved=outcome.solved, results=len(outcome.results), unavailable=outcome.unavailable)
    if outcome.should_ask_user and not outcome.solved:
        missing = analysis.missing_information or [f"information the web search could not find: {analysis.search_query or 'the answer'}"]
        return {"context_source": "ASK_USER", "needs_user_input": dict(needs_user_input(missing))}
    block = outcome.to_data_block()
    content = block.content if isinstance(block.content, str) else "\n".join(block.content)
    return {"search_summary": content, "search_state": outcome.model_dump(mode="json")}
