"""Retrieval for one interact request: lexical BM25 fused with dense vectors (RRF), fresh first.

Why fusion by rank: BM25 scores and cosine similarities live on different scales;
reciprocal rank fusion (Cormack et al. 2009, k=60) needs only each list's order. After
fusion two page-specific rules apply: text that was hidden on the page ranks below visible
text of similar score (it is less likely what the user sees), and a chunk an interaction
revealed (phase 2) ranks above the initial-load chunks of the same page (it is fresher).
Superseded chunks never come back: the repository never returns them, and they are dropped
here again should one slip through.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import structlog

from knowledge.embeddings import Embedder
from storage import ChunkHit, KnowledgeChunk, KnowledgeRepository

log = structlog.get_logger(__name__)

#: Answers kept per worker (tenant, query, sites → the answer at one knowledge version).
ANSWER_CACHE_SIZE = 2048
#: Reciprocal rank fusion constant.
RRF_K = 60
#: A hidden chunk's fused score is multiplied by this: about two places lower than a visible
#: chunk of the same rank (RRF scores at k=60 are ~1.6 % apart per place near the top). A
#: tie-breaker, not a penalty: at 0.85 (ten places) a hidden answer ranked first fell out of the
#: top 10 — Recall@5 0.855 on the fixture questions' tune half vs 0.953 at 0.97
#: (bench/knowledge_quality.py --hidden-factor).
HIDDEN_FACTOR = 0.97
#: How far above the best initial-load chunk of its page a fresher (phase 2) chunk is lifted.
FRESHNESS_LIFT = 1e-6


@dataclass(frozen=True)
class RetrievedChunk:
    id: str
    document_id: str
    source: str
    title: str
    heading_path: tuple[str, ...]
    text: str
    phase: int
    hidden: bool
    score: float


@dataclass(frozen=True)
class RagResult:
    chunks: tuple[RetrievedChunk, ...] = ()
    has_org_knowledge: bool = False  # at least one chunk of the tenant's own knowledge in scope


def rrf(rankings: Sequence[Sequence[str]], k: int = RRF_K) -> dict[str, float]:
    """Reciprocal rank fusion: id -> sum over lists of 1 / (k + rank), ranks from 1."""
    fused: dict[str, float] = {}
    for ranking in rankings:
        for rank, chunk_id in enumerate(ranking, start=1):
            fused[chunk_id] = fused.get(chunk_id, 0.0) + 1.0 / (k + rank)
    return fused


def adjust(chunks: dict[str, KnowledgeChunk], fused: dict[str, float]) -> dict[str, float]:
    """Hidden below visible, then phase 2 above phase 1 of the same source."""
    scores = {cid: s * (HIDDEN_FACTOR if chunks[cid].hidden else 1.0) for cid, s in fused.items()}
    best_initial: dict[str, float] = {}
    for cid, score in scores.items():
        chunk = chunks[cid]
        if chunk.phase == 1:
            best_initial[chunk.source] = max(best_initial.get(chunk.source, 0.0), score)
    for cid, score in scores.items():
        chunk = chunks[cid]
        floor = best_initial.get(chunk.source)
        if chunk.phase > 1 and floor is not None and score <= floor:
            scores[cid] = floor * (1.0 + FRESHNESS_LIFT) + FRESHNESS_LIFT * score
    return scores


class Retriever:
    """Tenant-scoped retrieval filtered to the task's allowed domains."""

    def __init__(
        self,
        repo: KnowledgeRepository,
        embedder: Embedder | None = None,
        *,
        limit: int = 5,
        candidates: int = 20,
        cache_size: int = ANSWER_CACHE_SIZE,
    ) -> None:
        self._repo = repo
        self._embedder = embedder
        self._limit = limit
        self._candidates = candidates
        self._answers: OrderedDict[tuple[object, ...], tuple[int, RagResult]] = OrderedDict()
        self._cache_size = cache_size  # 0: every request searches (benchmarks of the search itself)

    async def retrieve(
        self, *, tenant_id: str, query: str, allowed_domains: Sequence[str] | None
    ) -> RagResult:
        if not query.strip() or self._limit <= 0:
            return RagResult()
        # A task's every step asks the same question on the same site: while the tenant's
        # knowledge version is unchanged, the answer is the one already computed.
        key = _answer_key(tenant_id, query, allowed_domains)
        version = await self._repo.version(tenant_id)
        known = self._answers.get(key)
        if known is not None and known[0] == version:
            self._answers.move_to_end(key)
            return known[1]
        result, complete = await self._retrieve(tenant_id, query, allowed_domains)
        if complete and self._cache_size > 0:  # a lexical-only fallback (the embedder failed) is not kept
            self._answers[key] = (version, result)
            while len(self._answers) > self._cache_size:
                self._answers.popitem(last=False)
        return result

    async def _retrieve(
        self, tenant_id: str, query: str, allowed_domains: Sequence[str] | None
    ) -> tuple[RagResult, bool]:
        started = time.perf_counter()
        # The query embedding (a network call) overlaps the lexical search.
        lexical, dense = await asyncio.gather(
            self._repo.search(tenant_id, query, allowed_domains, limit=self._candidates),
            self._dense(tenant_id, query, allowed_domains),
        )
        complete = dense is not None
        dense = dense or []
        chunks: dict[str, KnowledgeChunk] = {}
        for hit in [*lexical, *dense]:
            if hit.chunk.superseded_by is None and hit.chunk.tenant_id == tenant_id:
                chunks.setdefault(hit.chunk.id, hit.chunk)
        rankings = [[h.chunk.id for h in hits if h.chunk.id in chunks] for hits in (lexical, dense)]
        scores = adjust(chunks, rrf(rankings))
        order = {cid: i for i, cid in enumerate(dict.fromkeys([*rankings[0], *rankings[1]]))}
        best = sorted(scores, key=lambda cid: (-scores[cid], order[cid]))[: self._limit]
        result = tuple(_retrieved(chunks[cid], scores[cid]) for cid in best)
        log.debug(
            "knowledge.retrieved",
            tenant_id=tenant_id,
            lexical=len(lexical),
            dense=len(dense),
            returned=len(result),
            ms=round((time.perf_counter() - started) * 1000, 2),
        )
        return RagResult(chunks=result, has_org_knowledge=bool(result)), complete

    async def _dense(
        self, tenant_id: str, query: str, allowed_domains: Sequence[str] | None
    ) -> list[ChunkHit] | None:
        """The dense hits; ``None`` when the embedder failed (the answer is then lexical only)."""
        if self._embedder is None:
            return []
        embedder = self._embedder
        try:
            vector = await embedder.embed_query(query, tenant_id=tenant_id)
        # Any embedder failure (network, quota, a provider's own error types) must leave the
        # request with lexical results: the embedder is an optional, external dependency.
        except Exception as exc:  # noqa: BLE001 - logged, and lexical retrieval carries on
            log.warning("knowledge.embed_query_failed", tenant_id=tenant_id, model=embedder.model, error=repr(exc))
            return None
        if len(vector) != embedder.dimension:
            log.warning(
                "knowledge.embed_query_wrong_dimension",
                tenant_id=tenant_id,
                model=embedder.model,
                expected=embedder.dimension,
                got=len(vector),
            )
            return None
        return await self._repo.vector_search(
            tenant_id,
            model=embedder.model,
            dimension=embedder.dimension,
            query=vector,
            domains=allowed_domains,
            limit=self._candidates,
        )


def _answer_key(tenant_id: str, query: str, allowed_domains: Sequence[str] | None) -> tuple[object, ...]:
    domains = None if allowed_domains is None else tuple(sorted({d.strip().lower() for d in allowed_domains}))
    return (tenant_id, domains, " ".join(query.split()).casefold())


def _retrieved(chunk: KnowledgeChunk, score: float) -> RetrievedChunk:
    return RetrievedChunk(
        id=chunk.id,
        document_id=chunk.document_id,
        source=chunk.source,
        title=chunk.title,
        heading_path=tuple(chunk.heading_path),
        text=chunk.text,
        phase=chunk.phase,
        hidden=chunk.hidden,
        score=score,
    )
