"""Ingestion: bytes → markdown → chunks → the tenant's knowledge store (and vectors).

One Ingestor serves uploads, URL ingestion, crawls (phase 1) and interactions (phase 2). It
owns the store-side rules: a document's identity is (tenant, source, phase, trigger action);
re-ingesting the same content is a no-op found by hash, changed content replaces the old
chunks; extraction is CPU work and runs in a worker thread so one large PDF never stalls the
event loop serving interact requests; embeddings are best effort — the lexical document is
written first and an embedder failure is logged, never loses it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import structlog

from knowledge import spa
from knowledge.chunking import Chunk, chunk_blocks, content_hash
from knowledge.embeddings import Embedder
from knowledge.extract import HTML, Extracted, extract
from storage import (
    ChunkVector,
    KnowledgeChunk,
    KnowledgeDocument,
    KnowledgeRepository,
    KnowledgeSourceKind,
    new_id,
    utcnow,
)

log = structlog.get_logger(__name__)

MAX_LINKS = 500
EMBED_BATCH = 96
"""Texts per embed call: below the batch limit of hosted embedding APIs (Gemini: 100)."""

IngestStatus = Literal["created", "replaced", "unchanged"]


@dataclass(frozen=True)
class IngestOutcome:
    document_id: str
    status: IngestStatus
    chunks: int
    superseded: int = 0
    """Phase 2: phase-1 chunks it superseded."""
    skipped_duplicates: int = 0
    """Phase 2: chunks dropped as (near-)duplicates of phase 1."""
    timings_ms: Mapping[str, float] = field(default_factory=dict)
    """Where the time went (extract, chunk, store, embed): read by bench/knowledge_quality.py."""


@dataclass(frozen=True)
class _Prepared:
    extracted: Extracted
    chunks: list[Chunk]
    content_hash: str
    extract_ms: float
    chunk_ms: float


def normalise_domains(domains: Sequence[str]) -> list[str]:
    """Lower-case, stripped, de-duplicated, sorted: the same set always compares equal."""
    return sorted({d.strip().lower().rstrip(".") for d in domains if d.strip()})


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0


class Ingestor:
    def __init__(
        self,
        repo: KnowledgeRepository,
        embedder: Embedder | None = None,
        *,
        max_chars: int = 1200,
        overlap: int = 150,
    ) -> None:
        self._repo = repo
        self._embedder = embedder
        self._max_chars = max_chars
        self._overlap = overlap

    async def ingest_bytes(
        self,
        *,
        tenant_id: str,
        data: bytes,
        source: str,
        source_kind: KnowledgeSourceKind,
        media_type: str | None = None,
        filename: str | None = None,
        domains: Sequence[str] = (),
        title: str | None = None,
        etag: str | None = None,
        last_modified: str | None = None,
        links: Sequence[str] = (),
    ) -> IngestOutcome:
        """Phase 1: an upload, a URL, a crawled page. Raises the extractor's
        UnsupportedMediaType / ExtractionFailed for content it cannot read."""
        url = source if source_kind == "url" else None
        prepared = await asyncio.to_thread(
            self._prepare, data, media_type=media_type, filename=filename, url=url, keep_hidden=True
        )
        started = time.perf_counter()
        existing = await self._repo.find_document(tenant_id, source)
        now = utcnow()
        document = KnowledgeDocument(
            id=existing.id if existing else new_id(),
            tenant_id=tenant_id,
            source=source,
            source_kind=source_kind,
            media_type=prepared.extracted.media_type,
            domains=normalise_domains(domains),
            title=title or prepared.extracted.title or filename or source,
            content_hash=prepared.content_hash,
            etag=etag,
            last_modified=last_modified,
            links=list(dict.fromkeys(links))[:MAX_LINKS],
            chunk_count=len(prepared.chunks),
            size_bytes=len(data),
            created_at=existing.created_at if existing else now,
            updated_at=now,
        )
        if existing is not None and existing.content_hash == prepared.content_hash:
            refreshed = await self._refresh_unchanged(existing, document)
            timings = self._timings(prepared, store=_ms(started))
            if refreshed:
                timings["embed"] = await self._embed(tenant_id, refreshed)
            return IngestOutcome(existing.id, "unchanged", existing.chunk_count, timings_ms=timings)

        chunks = self._records(document, prepared.chunks)
        await self._repo.upsert_document(document, chunks)
        superseded = await spa.reapply_phase2(self._repo, document, chunks)
        store_ms = _ms(started)
        embed_ms = await self._embed(tenant_id, chunks)
        log.info("knowledge.ingested", tenant_id=tenant_id, document_id=document.id, source=source,
                 chunks=len(chunks), replaced=existing is not None)
        return IngestOutcome(
            document.id,
            "replaced" if existing else "created",
            len(chunks),
            superseded=superseded,
            timings_ms=self._timings(prepared, store=store_ms, embed=embed_ms),
        )

    async def ingest_interaction(
        self,
        *,
        tenant_id: str,
        url: str,
        html: str,
        trigger_action: str,
        domains: Sequence[str] = (),
    ) -> IngestOutcome:
        """Phase 2: the DOM after ``trigger_action`` on ``url`` (rules in knowledge/spa.py).
        Without ``domains`` the phase-1 document's domains are used, so both phases of a page
        answer the same tasks (with neither, the document is tenant-wide)."""
        if not trigger_action:
            raise ValueError("a phase-2 document needs the trigger action that revealed it")
        data = html.encode("utf-8")
        prepared = await asyncio.to_thread(
            self._prepare, data, media_type=HTML, filename=None, url=url, keep_hidden=False
        )
        started = time.perf_counter()
        existing = await self._repo.find_document(
            tenant_id, url, phase=2, trigger_action=trigger_action
        )
        if existing is not None and existing.content_hash == prepared.content_hash:
            timings = self._timings(prepared, store=_ms(started))
            return IngestOutcome(existing.id, "unchanged", existing.chunk_count, timings_ms=timings)

        phase1_doc = await self._repo.find_document(tenant_id, url)
        phase1 = await self._repo.list_chunks(tenant_id, source=url, phase=1)
        replaced_ids: frozenset[str] = frozenset()
        if existing is not None:
            phase2 = await self._repo.list_chunks(tenant_id, source=url, phase=2)
            replaced_ids = frozenset(c.id for c in phase2 if c.document_id == existing.id)
        plan = spa.plan_phase2(
            [spa.stored_view(c) for c in phase1],
            [spa.NewChunk(c.heading_path, c.text, content_hash(c.text)) for c in prepared.chunks],
            replaced_ids=replaced_ids,
        )
        now = utcnow()
        kept = [prepared.chunks[i] for i in plan.keep]
        document = KnowledgeDocument(
            id=existing.id if existing else new_id(),
            tenant_id=tenant_id,
            source=url,
            source_kind="interaction",
            media_type=HTML,
            domains=normalise_domains(domains) if domains else list(phase1_doc.domains if phase1_doc else []),
            title=prepared.extracted.title or (phase1_doc.title if phase1_doc else "") or url,
            content_hash=prepared.content_hash,
            phase=2,
            trigger_action=trigger_action,
            chunk_count=len(kept),
            size_bytes=len(data),
            created_at=existing.created_at if existing else now,
            updated_at=now,
        )
        chunks = self._records(document, kept)
        await self._repo.upsert_document(document, chunks)
        new_ids = {index: chunk.id for index, chunk in zip(plan.keep, chunks, strict=True)}
        pairs = {old: new_ids[index] for old, index in plan.supersede.items()}
        rewritten = await spa.apply_supersession(
            self._repo, tenant_id, phase1_doc, phase1, pairs, plan.clear
        )
        store_ms = _ms(started)
        embed_ms = await self._embed(tenant_id, [*chunks, *rewritten])
        log.info(
            "knowledge.interaction_ingested",
            tenant_id=tenant_id,
            document_id=document.id,
            trigger_action=trigger_action,
            chunks=len(chunks),
            superseded=len(pairs),
            duplicates=plan.duplicates,
            cleared=len(plan.clear),
        )
        return IngestOutcome(
            document.id,
            "replaced" if existing else "created",
            len(chunks),
            superseded=len(pairs),
            skipped_duplicates=plan.duplicates,
            timings_ms=self._timings(prepared, store=store_ms, embed=embed_ms),
        )

    # -- steps -------------------------------------------------------------------------

    def _prepare(
        self,
        data: bytes,
        *,
        media_type: str | None,
        filename: str | None,
        url: str | None,
        keep_hidden: bool,
    ) -> _Prepared:
        """Extract and chunk (CPU-bound: called through asyncio.to_thread)."""
        started = time.perf_counter()
        extracted = extract(
            data, media_type=media_type, filename=filename, url=url, keep_hidden=keep_hidden
        )
        extract_ms = _ms(started)
        started = time.perf_counter()
        chunks = chunk_blocks(extracted.blocks, max_chars=self._max_chars, overlap=self._overlap)
        return _Prepared(extracted, chunks, content_hash(extracted.markdown), extract_ms, _ms(started))

    @staticmethod
    def _records(document: KnowledgeDocument, chunks: Sequence[Chunk]) -> list[KnowledgeChunk]:
        return [
            KnowledgeChunk(
                tenant_id=document.tenant_id,
                document_id=document.id,
                source=document.source,
                title=document.title,
                domains=list(document.domains),
                ordinal=chunk.ordinal,
                heading_path=list(chunk.heading_path),
                text=chunk.text,
                content_hash=content_hash(chunk.text),
                phase=document.phase,
                hidden=chunk.hidden,
                trigger_action=document.trigger_action,
                created_at=document.updated_at,
            )
            for chunk in chunks
        ]

    async def _refresh_unchanged(
        self, existing: KnowledgeDocument, fresh: KnowledgeDocument
    ) -> list[KnowledgeChunk]:
        """Same content: write nothing, unless what describes it changed (validators, links,
        domains, title) — then rewrite the document with its chunks as they are (same ids,
        same supersession) and return them so their vectors can be re-made."""
        keep = existing.model_copy(
            update={
                "etag": fresh.etag,
                "last_modified": fresh.last_modified,
                "links": fresh.links,
                "domains": fresh.domains,
                "title": fresh.title,
            }
        )
        if keep == existing:
            return []
        keep.updated_at = fresh.updated_at
        chunks = [
            c.model_copy(update={"domains": list(keep.domains), "title": keep.title})
            for c in await self._repo.list_chunks(existing.tenant_id, source=existing.source, phase=1)
        ]
        await self._repo.upsert_document(keep, chunks)
        return [c for c in chunks if c.superseded_by is None]

    async def _embed(self, tenant_id: str, chunks: Sequence[KnowledgeChunk]) -> float:
        """Vectors for ``chunks``; returns the milliseconds spent. Best effort."""
        if self._embedder is None or not chunks:
            return 0.0
        started = time.perf_counter()
        embedder = self._embedder
        try:
            vectors: list[ChunkVector] = []
            for start in range(0, len(chunks), EMBED_BATCH):
                batch = chunks[start : start + EMBED_BATCH]
                values = await embedder.embed_documents(
                    [embedding_text(c) for c in batch], tenant_id=tenant_id
                )
                if len(values) != len(batch):
                    raise ValueError(f"embedder returned {len(values)} vectors for {len(batch)} texts")
                vectors.extend(
                    ChunkVector(
                        chunk_id=c.id,
                        tenant_id=tenant_id,
                        model=embedder.model,
                        dimension=embedder.dimension,
                        vector=list(v),
                    )
                    for c, v in zip(batch, values, strict=True)
                )
            await self._repo.put_vectors(tenant_id, vectors)
        # The embedder is a remote model behind the LLM gateway: whatever it raises, the
        # lexical document is already stored and must stay; retrieval falls back to lexical.
        except Exception as error:  # noqa: BLE001 — logged, not swallowed silently
            log.warning(
                "knowledge.embed_failed", tenant_id=tenant_id, chunks=len(chunks), error=repr(error)
            )
        return _ms(started)

    @staticmethod
    def _timings(prepared: _Prepared, **more: float) -> dict[str, float]:
        return {"extract": prepared.extract_ms, "chunk": prepared.chunk_ms, **more}


def embedding_text(chunk: KnowledgeChunk) -> str:
    """What a chunk's vector is made from: its title and heading path give the chunk's text
    the context a reader has (the chunk itself does not repeat its headings)."""
    heading = " / ".join(chunk.heading_path)
    return "\n".join(part for part in (chunk.title, heading, chunk.text) if part)
