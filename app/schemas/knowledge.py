"""Wire shapes of the knowledge API (camelCase on the wire)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

from app.schemas.common import ApiModel, StrictApiModel
from knowledge import canonical_url, registrable_domain
from storage import CrawlJob, KnowledgeDocument

MAX_URL_CHARS = 2048
MAX_DOMAINS = 50


def _web_url(value: str) -> str:
    if canonical_url(value) is None:
        raise ValueError("must be an absolute http:// or https:// URL")
    return value


def _domains(values: list[str]) -> list[str]:
    cleaned: list[str] = []
    for value in values:
        domain = registrable_domain(value.strip())
        if not domain:
            raise ValueError(f"{value!r} is not a domain name")
        cleaned.append(domain)
    return list(dict.fromkeys(cleaned))


WebUrl = Annotated[str, Field(min_length=1, max_length=MAX_URL_CHARS), AfterValidator(_web_url)]
Domains = Annotated[
    list[Annotated[str, Field(min_length=1, max_length=253)]],
    Field(max_length=MAX_DOMAINS),
    AfterValidator(_domains),
]


class IngestTextIn(StrictApiModel):
    text: str = Field(min_length=1, description="The document's text (Markdown is kept as structure)")
    title: str | None = Field(default=None, max_length=300, description="Its title; the first heading when absent")
    media_type: Literal["text/markdown", "text/plain", "text/html", "application/json", "text/csv"] = Field(
        default="text/markdown", description="How to read `text`"
    )
    domains: Domains = Field(
        default_factory=list,
        description="The sites it belongs to (registrable domains, e.g. `acme.com`); empty: every task of the tenant may use it",
    )


class IngestOut(ApiModel):
    document_id: str = Field(description="The stored document")
    status: Literal["created", "replaced", "unchanged"] = Field(
        description="`unchanged`: the same content was already stored under this source (nothing written)"
    )
    source: str = Field(description="`file:<name>`, `text:<title>` or the URL")
    chunks: int = Field(ge=0, description="Chunks the document was split into")


class IndexLinkIn(StrictApiModel):
    url: WebUrl = Field(description="Where the crawl starts")
    strategy: Literal["single", "sitemap", "spider"] = Field(
        default="single",
        description="`single`: this page; `sitemap`: the site's sitemaps (robots `Sitemap:` lines, else /sitemap.xml); "
        "`spider`: links followed breadth-first from the page",
    )
    max_pages: int = Field(default=50, ge=1, description="Most pages fetched (capped by STEPWISE_KNOWLEDGE_CRAWL_MAX_PAGES)")
    max_depth: int = Field(default=2, ge=0, le=10, description="`spider`: most links away from the start page")
    allowed_domains: Domains = Field(
        default_factory=list,
        description="Sites the crawl may enter (intersected with the start page's registrable domain); empty: that domain",
    )


class CrawlJobOut(ApiModel):
    job_id: str = Field(description="The job's id")
    url: str = Field(description="Where the crawl started")
    strategy: str = Field(description="`single`, `sitemap` or `spider`")
    status: Literal["queued", "running", "done", "failed", "cancelled"] = Field(
        description="`queued` (waiting for a crawl slot), `running`, then `done`, `failed` (see `error`) or `cancelled`"
    )
    pages_done: int = Field(description="Pages fetched and ingested (or found unchanged)")
    pages_total: int = Field(description="Pages the crawl has found so far (never above maxPages)")
    pages_failed: int = Field(description="Pages that could not be fetched or read (see `errors`)")
    pages_unchanged: int = Field(description="Pages the server said had not changed since the last crawl (304)")
    documents: int = Field(description="Documents created or replaced")
    errors: list[dict[str, str]] = Field(description="Per-page errors (`url`, `error`), the first 50")
    error: str | None = Field(description="Why the job failed")
    created_at: datetime = Field(description="When the job was accepted")
    started_at: datetime | None = Field(description="When the crawl began")
    finished_at: datetime | None = Field(description="When it ended")

    @classmethod
    def of(cls, job: CrawlJob) -> CrawlJobOut:
        return cls(
            job_id=job.id,
            url=job.url,
            strategy=job.strategy,
            status=job.status,
            pages_done=job.pages_done,
            pages_total=job.pages_total,
            pages_failed=job.pages_failed,
            pages_unchanged=job.pages_unchanged,
            documents=job.documents,
            errors=job.errors,
            error=job.error,
            created_at=job.created_at,
            started_at=job.started_at,
            finished_at=job.finished_at,
        )


class DocumentOut(ApiModel):
    document_id: str = Field(description="The document's id")
    source: str = Field(description="The page's URL, `file:<name>` or `text:<title>`")
    source_kind: str = Field(description="`url`, `file`, `text` or `interaction`")
    media_type: str = Field(description="How it was read (text/html, application/pdf, …)")
    title: str = Field(description="Its title")
    domains: list[str] = Field(description="The sites it belongs to; empty: tenant-wide")
    phase: int = Field(description="1: as loaded or uploaded; 2: revealed by an interaction")
    trigger_action: str = Field(description="Phase 2: the action that revealed it")
    chunks: int = Field(description="Chunks it was split into")
    size_bytes: int = Field(description="Size of what was ingested")
    created_at: datetime = Field(description="When it was first stored")
    updated_at: datetime = Field(description="When its content last changed")

    @classmethod
    def of(cls, d: KnowledgeDocument) -> DocumentOut:
        return cls(
            document_id=d.id,
            source=d.source,
            source_kind=d.source_kind,
            media_type=d.media_type,
            title=d.title,
            domains=d.domains,
            phase=d.phase,
            trigger_action=d.trigger_action,
            chunks=d.chunk_count,
            size_bytes=d.size_bytes,
            created_at=d.created_at,
            updated_at=d.updated_at,
        )


class DocumentListOut(ApiModel):
    documents: list[DocumentOut] = Field(description="This page of documents")
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page; null on the last")


class ResolvedChunkOut(ApiModel):
    chunk_id: str = Field(description="The chunk's id")
    document_id: str = Field(description="Its document")
    source: str = Field(description="Its document's source (URL, file or text title)")
    title: str = Field(description="Its document's title")
    heading_path: list[str] = Field(description="The headings above it, outermost first")
    text: str = Field(description="Its text (Markdown)")
    phase: int = Field(description="1: as loaded or uploaded; 2: revealed by an interaction (preferred when both match)")
    hidden: bool = Field(description="The text was hidden on the page when it was ingested (a closed tab, a collapsed answer)")
    score: float = Field(description="Rank score (higher is better; comparable within one answer only)")


class ResolveOut(ApiModel):
    url: str | None = Field(description="The page the request is on")
    query: str = Field(description="The goal or question")
    allowed_domains: list[str] = Field(description="The sites whose knowledge qualified (plus tenant-wide documents)")
    has_org_knowledge: bool = Field(description="The tenant's own knowledge answered the query")
    chunks: list[ResolvedChunkOut] = Field(description="Best first")
