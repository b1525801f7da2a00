from __future__ import annotations

from typing import Any

import structlog
from langgraph.runtime import Runtime

from agent.secret_records import conceal_text
from agent.state import GraphContext, InteractState
from storage import Message

log = structlog.get_logger(__name__)


async def ask_user(state: InteractState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """The goal lacks information only the user has. No task is created; the question is
    kept in the session's message log so the next request can answer from memory."""
    ctx = runtime.context
    question = state.get("needs_user_input") or {"message": "I need more information to do this.", "missing": []}
    store = ctx.deps.store
    session = ctx.session
    now = ctx.deps.now()
    if ctx.session_is_new:
        await store.sessions.create(session.model_copy(update={"url": state["page"].url}))
    if not state["is_new_task"]:  # a running task's worker asks mid-flight: the task waits, unchanged
        question = {**question, "taskId": state["task"].id}
    else:
        await store.messages.add(Message(tenant_id=session.tenant_id, session_id=session.id, role="user", content=conceal_text(state["task"].query, ctx.secrets), created_at=now))
    await store.messages.add(Message(tenant_id=session.tenant_id, session_id=session.id, role="assistant", content=conceal_text(str(question["message"]), ctx.secrets), created_at=now))
    log.info("graph.ask_user", missing=len(question.get("missing", [])))
    return {"needs_user_input": question, "stored_task": None}
