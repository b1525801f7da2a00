"""``KnowledgeBase``: the one object the API, the CLI and the agent use — ingestion, crawl
jobs, retrieval and phase-2 learning of one deployment, built once at start-up."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import structlog

from knowledge.embeddings import Embedder
from knowledge.ingest import IngestOutcome, Ingestor
from knowledge.jobs import CrawlDefaults, CrawlJobs
from knowledge.retrieve import RagResult, Retriever
from knowledge.urls import canonical_url, registrable_domain
from storage import CrawlJob, Store

log = structlog.get_logger(__name__)

#: Phase-2 learning reads at most this much of a DOM (a page is never ingested in parts).
MAX_LEARN_DOM_CHARS = 2_000_000


@dataclass(frozen=True)
class KnowledgeLimits:
    max_crawl_pages: int = 500


class KnowledgeBase:
    def __init__(
        self,
        store: Store,
        *,
        embedder: Embedder | None = None,
        crawl: CrawlDefaults = CrawlDefaults(),
        limits: KnowledgeLimits = KnowledgeLimits(),
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.ingestor = Ingestor(store.knowledge, embedder)
        self.retriever = Retriever(store.knowledge, embedder)
        self.jobs = CrawlJobs(store, self.ingestor, crawl)
        self.limits = limits

    async def start(self) -> None:
        await self.jobs.start()

    async def stop(self) -> None:
        await self.jobs.stop()

    async def retrieve(self, tenant_id: str, url: str | None, query: str) -> RagResult:
        """The request's knowledge (spec Step 1.4): the tenant's chunks of the page's site
        and its tenant-wide documents; never another tenant's, never another site's."""
        return await self.retriever.retrieve(tenant_id=tenant_id, query=query, allowed_domains=allowed_domains(url))

    async def ingest(
        self,
        tenant_id: str,
        data: bytes,
        *,
        source: str,
        source_kind: str,
        media_type: str | None = None,
        filename: str | None = None,
        domains: Sequence[str] = (),
        title: str | None = None,
    ) -> IngestOutcome:
        return await self.ingestor.ingest_bytes(
            tenant_id=tenant_id,
            data=data,
            source=source,
            source_kind=source_kind,
            media_type=media_type,
            filename=filename,
            domains=domains,
            title=title,
        )

    async def learn(self, tenant_id: str, url: str, html: str, trigger_action: str) -> IngestOutcome | None:
        """Phase 2 (spec §B): the DOM a verified action revealed, on a page the tenant
        indexed (a phase-1 document of that URL exists). Pages the tenant never indexed are
        never ingested from interactions: they may hold a user's private data."""
        canonical = canonical_url(url)
        if canonical is None or len(html) > MAX_LEARN_DOM_CHARS:
            return None
        if await self.store.knowledge.find_document(tenant_id, canonical) is None:
            return None
        domain = registrable_domain(canonical)
        outcome = await self.ingestor.ingest_interaction(
            tenant_id=tenant_id, url=canonical, html=html, trigger_action=trigger_action, domains=[domain] if domain else []
        )
        log.info(
            "knowledge.learned",
            status=outcome.status,
            chunks=outcome.chunks,
            superseded=outcome.superseded,
            duplicates=outcome.skipped_duplicates,
        )
        return outcome

    async def index_link(self, job: CrawlJob) -> CrawlJob:
        return await self.jobs.submit(job)


def allowed_domains(url: str | None) -> list[str] | None:
    """The sites a request's knowledge may come from: the page's registrable domain. With
    no usable URL only tenant-wide documents qualify (an empty list, never "all")."""
    if not url:
        return []
    domain = registrable_domain(url)
    return [domain] if domain else []
