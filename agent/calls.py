"""The call context every model call of a request carries (for usage and traces)."""

from __future__ import annotations

from langgraph.runtime import Runtime

from agent.llm import CallContext
from agent.state import GraphContext, InteractState


def call_context(state: InteractState, runtime: Runtime[GraphContext]) -> CallContext:
    task = state["task"]
    request = runtime.context.request
    return CallContext(
        tenant_id=request.tenant_id,
        user_id=request.user_id,
        session_id=task.session_id,
        task_id=task.id,
        trace_id=runtime.context.trace_id,
    )
