"""The dynamic interrupt, end to end: the worker said a value is missing (``missing_info``,
a flag of its answer — never parsed from prose), so the action is paused and the value is
looked for, in this order, before the worker is asked again:

1. the tenant's **knowledge base**, when there is one: a retrieval targeted at the missing
   items (not the goal), scoped like the request's own;
2. **earlier user messages** of the session (the user's reply to a question asked
   mid-flight is one);
3. **web search**, when configured, for public items, filtered to the page's site and
   refined like the context analysis' search.

What was found goes to the re-generation as data blocks (``retrieved_knowledge``,
``user_messages``, ``retrieved_search``), never as instructions. A private item no message
gives (``agent.reasoning.resolve_missing_info``: the user's name, e-mail, account …), or
anything nothing found, is asked of the user (``needs_user_input``): the agent
never invents a form value. At most ``MAX_INTERRUPTS`` rounds per request.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import structlog
from langgraph.runtime import Runtime

from agent.calls import call_context
from agent.llm import DataBlock
from agent.rag import chunk_texts, request_knowledge
from agent.reasoning import needs_user_input, resolve_missing_info
from agent.search import SearchOutcome, manage_search
from agent.secret_records import conceal_text
from agent.secrets import TaskSecrets
from agent.state import GraphContext, InteractState
from storage import Message

log = structlog.get_logger(__name__)

MAX_INTERRUPTS: Final = 2
USER_MESSAGES: Final = 10


@dataclass(frozen=True)
class Interrupt:
    """What the interrupt found for the missing items (or the question to ask)."""

    blocks: tuple[DataBlock, ...] = ()
    sources: tuple[str, ...] = ()  # KNOWLEDGE, MEMORY, WEB_SEARCH: what ran and found something
    question: dict[str, Any] | None = None  # ask the user instead
    search_state: dict[str, Any] | None = None  # the search, stored with the task
    tried: tuple[str, ...] = field(default=())  # every source that ran


def user_messages(history: Sequence[Any]) -> DataBlock | None:
    """The user's own earlier messages of the session, as data."""
    texts = [m.content for m in history if m.role == "user" and m.content.strip()][-USER_MESSAGES:]
    return DataBlock("user_messages", [t[:500] for t in texts]) if texts else None


async def retrieve_missing(missing: Sequence[str], state: InteractState, runtime: Runtime[GraphContext], *, done: Sequence[str] = ()) -> Interrupt:
    """Look for ``missing`` (see the module doc); ``done``: sources already used this request."""
    context = runtime.context
    deps = context.deps
    items = [" ".join(m.split()) for m in missing if m.strip()]
    analysis = resolve_missing_info(items, history=context.history, search_available=deps.search is not None)
    blocks: list[DataBlock] = []
    found: list[str] = []
    tried: list[str] = []
    search_state: dict[str, Any] | None = None
    if deps.knowledge is not None and "KNOWLEDGE" not in done:
        tried.append("KNOWLEDGE")
        rag = await request_knowledge("; ".join(items), state["page"].url, context.request, deps)
        # Targeted at the missing items, not the goal: shown again even when the goal's own
        # retrieval had it, as what answers the question the worker asked.
        chunks = list(dict.fromkeys(chunk_texts(rag)))[:4]
        if chunks:
            blocks.append(DataBlock("retrieved_knowledge", chunks))
            found.append("KNOWLEDGE")
    if "MEMORY" not in done and (block := user_messages(context.history)) is not None:  # what the user said (a reply to a question)
        tried.append("MEMORY")
        blocks.append(block)
        found.append("MEMORY")
    if analysis.needs_web_search and "WEB_SEARCH" not in done:
        tried.append("WEB_SEARCH")
        outcome: SearchOutcome = await manage_search(
            "; ".join(items), analysis, state["page"].url, deps.search, deps.gateway, ctx=call_context(state, runtime) if deps.gateway is not None else None
        )
        if outcome.results:
            blocks.append(outcome.to_data_block("retrieved_search"))
            found.append("WEB_SEARCH")
            search_state = outcome.model_dump(mode="json")
    log.info("interrupt.retrieved", missing=len(items), source=analysis.source, tried=tried, found=found)
    if analysis.needs_user_input and not found:
        return Interrupt(question=dict(needs_user_input(analysis.missing_information)), tried=tuple(tried))
    if not found:
        return Interrupt(question=dict(needs_user_input(items)), tried=tuple(tried))
    return Interrupt(tuple(blocks), tuple(found), None, search_state, tuple(tried))


def stored_search(task_state: dict[str, Any]) -> str | None:
    """The web search an earlier request of the task ran, as a prompt's text (searches are
    stored with the task; a later step's worker needs them as much as the first)."""
    stored = task_state.get("search")
    if not stored:
        return None
    try:
        outcome = SearchOutcome.model_validate(stored)
    except ValueError:
        return None
    if not outcome.results:
        return None
    content = outcome.to_data_block().content
    return content if isinstance(content, str) else "\n".join(content)


async def note_answer(request: Any, task: Any, is_new: bool, ctx: Any, deps: Any) -> None:
    """A continuation whose ``query`` is not the task's goal is the user's reply to a
    mid-flight question: it is kept as a user message of the session, where the next
    interrupt finds it (``user_messages``)."""
    reply = (request.query or "").strip()
    if is_new or not reply or reply == task.query.strip():
        return
    await deps.store.messages.add(Message(tenant_id=task.tenant_id, session_id=task.session_id, role="user", content=conceal_text(reply, TaskSecrets.of_goal(reply)), created_at=deps.now()))
    log.info("interrupt.user_reply", chars=len(reply))
