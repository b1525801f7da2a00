"""The knowledge base: ingest documents, crawl sites (background jobs), resolve what a
request would retrieve, list and delete documents. Every route is tenant-scoped."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from pydantic import ValidationError
from starlette.datastructures import UploadFile

from agent.errors import NotFound, StepwiseError
from app.deps import Context, KnowledgeDep, SettingsDep
from app.error_codes import AUTHENTICATED, JSON_BODY
from app.errors import error_responses
from app.json_body import decode_json
from app.schemas.knowledge import (
    CrawlJobOut,
    DocumentListOut,
    DocumentOut,
    IndexLinkIn,
    IngestOut,
    IngestTextIn,
    ResolvedChunkOut,
    ResolveOut,
)
from knowledge import ExtractionFailed, UnsupportedMediaType, allowed_domains
from storage import CrawlJob

router = APIRouter(prefix="/api/knowledge", tags=["knowledge"])
JobId = Annotated[str, Path(max_length=64, description="The job's id (`jobId` of index-link)")]
DocumentId = Annotated[str, Path(max_length=64, description="The document's id")]

_UPLOAD_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "file": {"type": "string", "format": "binary", "description": "HTML, PDF, DOCX, Markdown, TXT, JSON or CSV"},
                        "domains": {"type": "string", "description": "Comma-separated sites it belongs to; empty: tenant-wide"},
                        "title": {"type": "string"},
                    },
                    "required": ["file"],
                }
            },
            # Inline: FastAPI lists no component for a model only this extra names (a $ref to it would dangle).
            "application/json": {"schema": IngestTextIn.model_json_schema(by_alias=True)},
        },
    }
}


class DocumentNotFound(NotFound):
    code = "DOCUMENT_NOT_FOUND"


class JobNotFound(NotFound):
    code = "JOB_NOT_FOUND"


class CrawlingDisabled(StepwiseError):
    status_code = 403
    code = "CRAWLING_DISABLED"


class JobFinished(StepwiseError):
    status_code = 409
    code = "JOB_FINISHED"


def _unsupported(exc: UnsupportedMediaType) -> StepwiseError:
    return StepwiseError(str(exc), code="UNSUPPORTED_MEDIA_TYPE", status_code=415)


@router.post(
    "/ingest",
    response_model=IngestOut,
    responses=error_responses(*AUTHENTICATED, *JSON_BODY, "EXTRACTION_FAILED"),
    summary="Add a document (a file, or text) to the tenant's knowledge base",
    description="A multipart upload (`file`, optional `domains`, `title`) or a JSON body (`IngestTextIn`). The same "
    "content sent again is a no-op (`unchanged`); a changed file of the same name replaces the old one.",
    openapi_extra=_UPLOAD_BODY,
)
async def ingest(request: Request, ctx: Context, kb: KnowledgeDep, settings: SettingsDep) -> IngestOut:
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    try:
        if content_type == "multipart/form-data":
            outcome, source = await _ingest_upload(request, ctx.tenant_id, kb, settings.knowledge_max_upload_bytes)
        elif content_type == "application/json":
            outcome, source = await _ingest_text(request, ctx.tenant_id, kb)
        else:
            raise StepwiseError(
                f"Send the document as multipart/form-data (`file`) or application/json (`text`), not {content_type or 'nothing'}",
                code="UNSUPPORTED_MEDIA_TYPE",
                status_code=415,
            )
    except UnsupportedMediaType as exc:
        raise _unsupported(exc) from None
    except ExtractionFailed as exc:
        raise StepwiseError(str(exc), code="EXTRACTION_FAILED", status_code=422) from None
    return IngestOut(document_id=outcome.document_id, status=outcome.status, source=source, chunks=outcome.chunks)


async def _ingest_upload(request: Request, tenant_id: str, kb: KnowledgeDep, limit: int) -> tuple[Any, str]:
    async with request.form(max_files=1, max_fields=10) as form:
        upload = form.get("file")
        if not isinstance(upload, UploadFile) or not upload.filename:
            raise _invalid("file", "a multipart field `file` with a file name is required")
        data = await upload.read(limit + 1)
        if len(data) > limit:
            raise StepwiseError(
                f"The file is larger than {limit} bytes",
                code="PAYLOAD_TOO_LARGE",
                status_code=413,
                details={"field": "file", "limit": "knowledge_max_upload_bytes", "value": limit},
            )
        domains = _form_domains(str(form.get("domains") or ""))
        title = str(form.get("title") or "").strip() or None
        name = upload.filename.replace("\\", "/").rsplit("/", 1)[-1][:200]
        source = f"file:{name}"
        outcome = await kb.ingest(
            tenant_id, data, source=source, source_kind="file", media_type=upload.content_type, filename=name, domains=domains, title=title
        )
    return outcome, source


async def _ingest_text(request: Request, tenant_id: str, kb: KnowledgeDep) -> tuple[Any, str]:
    try:
        body = IngestTextIn.model_validate(decode_json(await request.body()))
    except json.JSONDecodeError:
        raise StepwiseError("Request body is not valid JSON", code="INVALID_JSON", status_code=400) from None
    except ValidationError as exc:
        raise StepwiseError(
            "The request body is not valid",
            code="VALIDATION_FAILED",
            status_code=422,
            details={"errors": [{"field": ".".join(map(str, e["loc"])), "message": e["msg"], "type": e["type"]} for e in exc.errors()]},
        ) from None
    title = (body.title or "").strip() or body.text.strip().splitlines()[0].lstrip("# ").strip()[:120]
    source = f"text:{title}"
    outcome = await kb.ingest(
        tenant_id, body.text.encode(), source=source, source_kind="text", media_type=body.media_type, domains=body.domains, title=title
    )
    return outcome, source


def _invalid(field: str, message: str) -> StepwiseError:
    return StepwiseError(message, code="VALIDATION_FAILED", status_code=422, details={"errors": [{"field": field, "message": message, "type": "value_error"}]})


def _form_domains(raw: str) -> list[str]:
    try:
        return IngestTextIn.model_validate({"text": "x", "domains": [d for d in raw.split(",") if d.strip()]}).domains
    except ValidationError:
        raise _invalid("domains", "`domains` must be comma-separated domain names") from None


@router.post(
    "/index-link",
    response_model=CrawlJobOut,
    status_code=202,
    responses=error_responses(*AUTHENTICATED, *JSON_BODY, "CRAWLING_DISABLED"),
    summary="Crawl a page, a sitemap or a site into the knowledge base (a background job)",
    description="Answers at once with the job; follow it with `GET /api/knowledge/jobs/{jobId}`. robots.txt is obeyed, "
    "one host gets at most 2 connections and one request per second (or its Crawl-delay), and only public addresses "
    "are fetched.",
)
async def index_link(body: IndexLinkIn, ctx: Context, kb: KnowledgeDep, settings: SettingsDep) -> CrawlJobOut:
    if not settings.knowledge_crawl_enabled:
        raise CrawlingDisabled("This deployment does not fetch URLs for clients (STEPWISE_KNOWLEDGE_CRAWL_ENABLED=false); upload the documents instead")
    job = CrawlJob(
        tenant_id=ctx.tenant_id,
        user_id=ctx.user_id,
        url=body.url,
        strategy=body.strategy,
        max_pages=min(body.max_pages, kb.limits.max_crawl_pages),
        max_depth=body.max_depth,
        domains=body.allowed_domains,
    )
    return CrawlJobOut.of(await kb.index_link(job))


@router.get("/jobs", response_model=list[CrawlJobOut], responses=error_responses(*AUTHENTICATED), summary="The tenant's newest crawl jobs")
async def list_jobs(
    ctx: Context, kb: KnowledgeDep, limit: Annotated[int, Query(ge=1, le=100, description="Most jobs answered")] = 20
) -> list[CrawlJobOut]:
    return [CrawlJobOut.of(j) for j in await kb.store.crawl_jobs.list(ctx.tenant_id, limit=limit)]


@router.get("/jobs/{job_id}", response_model=CrawlJobOut, responses=error_responses(*AUTHENTICATED, "JOB_NOT_FOUND"), summary="A crawl job's status and progress")
async def get_job(job_id: JobId, ctx: Context, kb: KnowledgeDep) -> CrawlJobOut:
    job = await kb.store.crawl_jobs.get(ctx.tenant_id, job_id)
    if job is None:
        raise JobNotFound(f"No crawl job {job_id!r}", details={"jobId": job_id})
    return CrawlJobOut.of(job)


@router.post(
    "/jobs/{job_id}/cancel",
    response_model=CrawlJobOut,
    responses=error_responses(*AUTHENTICATED, "JOB_NOT_FOUND", "JOB_FINISHED"),
    summary="Stop a crawl; what it ingested so far stays",
)
async def cancel_job(job_id: JobId, ctx: Context, kb: KnowledgeDep) -> CrawlJobOut:
    job = await kb.store.crawl_jobs.get(ctx.tenant_id, job_id)
    if job is None:
        raise JobNotFound(f"No crawl job {job_id!r}", details={"jobId": job_id})
    if job.status in ("done", "failed", "cancelled"):
        raise JobFinished(f"Crawl job {job_id!r} is already {job.status}", details={"jobId": job_id, "status": job.status})
    cancelled = await kb.jobs.cancel(ctx.tenant_id, job_id)
    return CrawlJobOut.of(cancelled or job)


@router.get(
    "/resolve",
    response_model=ResolveOut,
    responses=error_responses(*AUTHENTICATED),
    summary="What the knowledge base gives a request on this page for this goal",
    description="The same retrieval an interact request runs (spec Step 1.4): the tenant's chunks of the page's site "
    "and its tenant-wide documents, best first.",
)
async def resolve(
    ctx: Context,
    kb: KnowledgeDep,
    query: Annotated[str, Query(min_length=1, max_length=2000, description="The goal or question")],
    url: Annotated[str | None, Query(max_length=2048, description="The page the request is on")] = None,
) -> ResolveOut:
    result = await kb.retrieve(ctx.tenant_id, url, query)
    return ResolveOut(
        url=url,
        query=query,
        allowed_domains=allowed_domains(url) or [],
        has_org_knowledge=result.has_org_knowledge,
        chunks=[
            ResolvedChunkOut(
                chunk_id=c.id,
                document_id=c.document_id,
                source=c.source,
                title=c.title,
                heading_path=list(c.heading_path),
                text=c.text,
                phase=c.phase,
                hidden=c.hidden,
                score=c.score,
            )
            for c in result.chunks
        ],
    )


@router.get("/documents", response_model=DocumentListOut, responses=error_responses(*AUTHENTICATED), summary="The tenant's documents, oldest first, a page at a time")
async def list_documents(
    ctx: Context,
    kb: KnowledgeDep,
    domain: Annotated[str | None, Query(max_length=253, description="Only documents of this site")] = None,
    limit: Annotated[int, Query(ge=1, le=100, description="Documents per page")] = 50,
    cursor: Annotated[str | None, Query(max_length=64, description="`nextCursor` of the previous page")] = None,
) -> DocumentListOut:
    documents = await kb.store.knowledge.list_documents(ctx.tenant_id, domain=domain, limit=limit + 1, after=cursor)
    page = documents[:limit]
    return DocumentListOut(documents=[DocumentOut.of(d) for d in page], next_cursor=page[-1].id if len(documents) > limit else None)


@router.get("/documents/{document_id}", response_model=DocumentOut, responses=error_responses(*AUTHENTICATED, "DOCUMENT_NOT_FOUND"), summary="One document")
async def get_document(document_id: DocumentId, ctx: Context, kb: KnowledgeDep) -> DocumentOut:
    document = await kb.store.knowledge.get_document(ctx.tenant_id, document_id)
    if document is None:
        raise DocumentNotFound(f"No document {document_id!r}", details={"documentId": document_id})
    return DocumentOut.of(document)


@router.delete(
    "/documents/{document_id}",
    status_code=204,
    responses=error_responses(*AUTHENTICATED, "DOCUMENT_NOT_FOUND"),
    summary="Remove a document and its chunks",
)
async def delete_document(document_id: DocumentId, ctx: Context, kb: KnowledgeDep) -> None:
    if not await kb.store.knowledge.delete_document(ctx.tenant_id, document_id):
        raise DocumentNotFound(f"No document {document_id!r}", details={"documentId": document_id})
