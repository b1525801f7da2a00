"""Knowledge-base records: documents, their chunks and chunk vectors, search hits, crawl
jobs. Every record carries ``tenant_id``; every query filters by it."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from storage.models import Record, new_id, utcnow

KnowledgeSourceKind = Literal["url", "file", "text", "interaction"]


class KnowledgeDocument(Record):
    """One ingested source. Identity: unique (tenant_id, source, phase, trigger_action)."""

    id: str = Field(default_factory=new_id)
    tenant_id: str
    source: str = Field(description='Canonical URL, or "file:<name>", or "text:<title>"')
    source_kind: KnowledgeSourceKind
    media_type: str
    domains: list[str] = Field(
        default_factory=list, description="Registrable domains it belongs to; [] = tenant-wide"
    )
    title: str = ""
    content_hash: str = Field(description="Of the extracted markdown")
    phase: int = Field(default=1, description="1 = initial load / uploaded; 2 = revealed by an interaction")
    trigger_action: str = Field(default="", description='Phase 2: the action that revealed it, e.g. "click(68)"')
    etag: str | None = None
    last_modified: str | None = None
    links: list[str] = Field(default_factory=list, description="Outgoing links (crawled pages, capped 500)")
    chunk_count: int = 0
    size_bytes: int = 0
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)


class KnowledgeChunk(Record):
    id: str = Field(default_factory=new_id)
    tenant_id: str
    document_id: str
    source: str = Field(description="Copied from the document (citations)")
    title: str = ""
    domains: list[str] = Field(default_factory=list, description="Copied from the document; [] = tenant-wide")
    ordinal: int
    heading_path: list[str] = Field(default_factory=list)
    text: str = Field(description="Markdown of the chunk (the heading path is not repeated inside)")
    content_hash: str
    phase: int = 1
    hidden: bool = Field(default=False, description="Hidden on the page; ranked below visible text")
    trigger_action: str = ""
    superseded_by: str | None = Field(
        default=None, description="Id of the fresher phase-2 chunk; a superseded chunk is never retrieved"
    )
    created_at: datetime = Field(default_factory=utcnow)


class ChunkVector(BaseModel):
    """A chunk's embedding; ``model`` and ``dimension`` are stored with it and never mixed."""

    model_config = ConfigDict(extra="forbid")

    chunk_id: str
    tenant_id: str
    model: str
    dimension: int
    vector: list[float]


CrawlJobStatus = Literal["queued", "running", "done", "failed", "cancelled"]
TERMINAL_CRAWL_STATUSES: frozenset[str] = frozenset({"done", "failed", "cancelled"})


class CrawlJob(Record):
    """A background crawl: what was asked, where it is, how it ended."""

    id: str = Field(default_factory=new_id)
    tenant_id: str
    user_id: str
    url: str
    strategy: str
    max_pages: int
    max_depth: int
    domains: list[str] = Field(default_factory=list)
    status: CrawlJobStatus = "queued"
    pages_done: int = 0
    pages_total: int = 0
    pages_failed: int = 0
    pages_unchanged: int = 0
    documents: int = 0
    bytes: int = 0
    errors: list[dict[str, str]] = Field(default_factory=list, description="{url, error}, capped 50")
    error: str | None = Field(default=None, description="Why the job failed")
    cancel_requested: bool = False
    heartbeat_at: datetime = Field(default_factory=utcnow)
    created_at: datetime = Field(default_factory=utcnow)
    started_at: datetime | None = None
    finished_at: datetime | None = None


class ChunkHit(BaseModel):
    chunk: KnowledgeChunk
    score: float
