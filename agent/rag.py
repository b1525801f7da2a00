"""The request's knowledge (spec Step 1.4): retrieved once per interact request, before
anything is decided, and handed to context analysis, planning and action prompts as
untrusted data. Knowledge never breaks a request: a store or embedding failure, or a
retrieval slower than its budget, is logged and the request goes on without it."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import structlog

from agent.context import AgentDeps, RequestContext
from knowledge import KnowledgeBase, RagResult, RetrievedChunk
from observability import redact_text
from verification import VerificationResult

log = structlog.get_logger(__name__)

#: Retrieval (with the query's embedding) gets this long; the step goes on without it after.
RETRIEVAL_BUDGET_S = 3.0
#: Characters of one chunk handed to a prompt.
CHUNK_PROMPT_CHARS = 1500


async def request_knowledge(query: str, url: str | None, ctx: RequestContext, deps: AgentDeps) -> RagResult:
    """``query`` is searched with the task's secrets masked: the query is embedded by the
    model provider, and a password in a goal must never leave for it."""
    if deps.knowledge is None or not query.strip():
        return RagResult()
    query = redact_text(query)
    try:
        async with asyncio.timeout(RETRIEVAL_BUDGET_S):
            result = await deps.knowledge.retrieve(ctx.tenant_id, url, query)
    except TimeoutError:
        log.warning("knowledge.retrieval_timeout", budget_s=RETRIEVAL_BUDGET_S)
        return RagResult()
    except Exception:  # the store or the embedder: the step goes on without knowledge
        log.exception("knowledge.retrieval_failed")
        return RagResult()
    log.info("knowledge.retrieved", chunks=len(result.chunks), has_org_knowledge=result.has_org_knowledge)
    return result


def chunk_texts(result: RagResult) -> list[str]:
    """The chunks as prompt data: where each comes from, then its text. Hidden-on-the-page
    text says so (it may not be what the user sees)."""
    return [_describe(chunk) for chunk in result.chunks]


def _describe(chunk: RetrievedChunk) -> str:
    where = " › ".join([chunk.title or chunk.source, *chunk.heading_path]) if chunk.heading_path or chunk.title else chunk.source
    notes = [n for n in ("hidden on the page when ingested" if chunk.hidden else "", "seen after an interaction" if chunk.phase == 2 else "") if n]
    head = f"[{where}]" + (f" ({'; '.join(notes)})" if notes else "")
    return f"{head}\n{chunk.text[:CHUNK_PROMPT_CHARS]}"


def knowledge_words(result: RagResult) -> Sequence[str]:
    """All retrieved text, for the deterministic context analysis's coverage check."""
    return [chunk.text for chunk in result.chunks]


class Learning:
    """Phase-2 ingestion fed from interact (spec §B): after an action the page proved
    (verification ``success`` with a meaningful change), the DOM it revealed is ingested
    in the background, tagged with that action — for tenants that enabled it, and only on
    pages they indexed (``KnowledgeBase.learn``). At most ``MAX_PENDING`` run at once per
    worker; more are dropped (it is a cache refresh, never needed for the answer)."""

    MAX_PENDING = 4

    def __init__(self) -> None:
        self._pending: set[asyncio.Task[None]] = set()

    def after_step(
        self,
        deps: AgentDeps,
        ctx: RequestContext,
        *,
        url: str,
        dom: str | None,
        previous_action: str | None,
        verification: VerificationResult | None,
    ) -> bool:
        if deps.knowledge is None or dom is None or previous_action is None or verification is None:
            return False
        if not (verification.success and verification.action_succeeded and verification.meaningful_content_change):
            return False
        if not ("*" in deps.learn_tenants or ctx.tenant_id.lower() in deps.learn_tenants):
            return False
        if len(self._pending) >= self.MAX_PENDING:
            log.info("knowledge.learn_skipped", reason="busy")
            return False
        # The page may show what the task typed (a password in a field's value): the task's
        # secrets are masked now, while the request's masker holds them.
        task = asyncio.create_task(self._learn(deps.knowledge, ctx.tenant_id, url, redact_text(dom), redact_text(previous_action)))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)
        return True

    async def _learn(self, kb: KnowledgeBase, tenant_id: str, url: str, dom: str, action: str) -> None:
        try:
            await kb.learn(tenant_id, url, dom, action)
        except Exception:  # background refresh: logged, never raised into a request
            log.exception("knowledge.learn_failed")

    async def drain(self) -> None:
        """Wait for the learning in flight (tests, shutdown)."""
        if self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)


LEARNING = Learning()
