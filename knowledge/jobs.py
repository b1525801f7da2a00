"""Crawl jobs: an ``index-link`` request becomes a job that runs in the background of the
worker that accepted it, with its status and progress in the store (so any replica can
answer ``GET /api/knowledge/jobs/{id}``) and cancellable from any replica.

A job's worker writes a heartbeat with its progress; a job whose heartbeat stops (the
worker was killed) is failed by the next worker that starts, never left "running" for ever.
Each worker runs at most ``concurrency`` crawls at once; more wait, queued.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

import structlog

from knowledge.crawl import CrawlProgress, CrawlSpec, CrawledPage, Previous, crawl
from knowledge.fetch import FetchPolicy, SafeFetcher
from knowledge.extract import ExtractionFailed, UnsupportedMediaType
from knowledge.ingest import IngestOutcome, Ingestor
from knowledge.urls import registrable_domain
from storage import CrawlJob, Store, utcnow

log = structlog.get_logger(__name__)

#: A running job writes its heartbeat at least this often …
HEARTBEAT_S = 10.0
#: … and one silent for this long belongs to a worker that stopped.
ABANDONED_AFTER = timedelta(minutes=2)
#: Progress is written at most this often (and at the end).
PROGRESS_EVERY_S = 0.5
#: How often a running crawl asks the store whether it was cancelled from another replica.
CANCEL_POLL_S = 1.0


@dataclass(frozen=True)
class CrawlDefaults:
    """Per-deployment crawl knobs (built from Settings at the edge)."""

    policy: FetchPolicy = FetchPolicy()
    min_delay_s: float = 1.0
    time_budget_s: float = 1800.0
    concurrency: int = 2


class CrawlJobs:
    def __init__(
        self,
        store: Store,
        ingestor: Ingestor,
        defaults: CrawlDefaults = CrawlDefaults(),
        *,
        clock: Callable[[], datetime] = utcnow,
    ) -> None:
        self._store = store
        self._ingestor = ingestor
        self._defaults = defaults
        self._clock = clock
        self._slots = asyncio.Semaphore(defaults.concurrency)
        self._running: dict[str, asyncio.Task[None]] = {}

    async def start(self) -> int:
        """Fail the jobs a stopped worker left behind; returns how many."""
        failed = await self._store.crawl_jobs.fail_abandoned(self._clock() - ABANDONED_AFTER)
        if failed:
            log.warning("crawl.jobs_abandoned", jobs=failed)
        return failed

    async def stop(self) -> None:
        """Cancel this worker's crawls (each ends ``failed``: the server stopped)."""
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def submit(self, job: CrawlJob) -> CrawlJob:
        """Store ``job`` (queued) and run it in the background."""
        await self._store.crawl_jobs.create(job)
        self._running[job.id] = asyncio.create_task(self._run(job), name=f"crawl:{job.id}")
        self._running[job.id].add_done_callback(lambda _t: self._running.pop(job.id, None))
        log.info("crawl.queued", job_id=job.id, url=job.url, strategy=job.strategy, max_pages=job.max_pages)
        return job

    async def run(self, job: CrawlJob, on_progress: Callable[[CrawlJob], None] | None = None) -> CrawlJob:
        """Store ``job`` and run it to its end here (the CLI); ``on_progress`` sees each update."""
        await self._store.crawl_jobs.create(job)
        await self._run(job, on_progress)
        return await self._store.crawl_jobs.get(job.tenant_id, job.id) or job

    async def cancel(self, tenant_id: str, job_id: str) -> CrawlJob | None:
        job = await self._store.crawl_jobs.request_cancel(tenant_id, job_id)
        task = self._running.get(job_id)
        if job is not None and task is not None and job.status == "cancelled":
            task.cancel()  # it was still queued: nothing to stop cleanly
        return job

    async def _run(self, job: CrawlJob, on_progress: Callable[[CrawlJob], None] | None = None) -> None:
        structlog.contextvars.bind_contextvars(job_id=job.id, tenant_id=job.tenant_id)
        try:
            async with self._slots:
                await self._crawl(job, on_progress)
        except asyncio.CancelledError:
            await self._finish(job, "cancelled" if await self._cancel_requested(job) else "failed", "the server stopped")
            raise
        except Exception as exc:  # a crawl's bug must end its job, never leave it "running"
            log.exception("crawl.crashed")
            await self._finish(job, "failed", f"the crawl stopped on an internal error ({type(exc).__name__})")

    async def _crawl(self, job: CrawlJob, on_progress: Callable[[CrawlJob], None] | None) -> None:
        if await self._cancel_requested(job):
            await self._finish(job, "cancelled", None)
            return
        await self._update(job, status="running", started_at=self._clock(), heartbeat_at=self._clock())
        spec = CrawlSpec(
            url=job.url,
            strategy=job.strategy,  # type: ignore[arg-type]  # validated at the edge
            max_pages=job.max_pages,
            max_depth=job.max_depth,
            allowed_domains=tuple(job.domains),
            time_budget_s=self._defaults.time_budget_s,
            min_delay_s=self._defaults.min_delay_s,
        )
        run = _Run(self, job, on_progress)
        fetcher = SafeFetcher(self._defaults.policy)
        try:
            progress = await crawl(spec, fetcher, on_page=run.page, on_progress=run.progress, previous=run.previous, cancelled=run.cancelled)
        finally:
            await fetcher.aclose()
        await run.flush(progress)
        if progress.stopped == "cancelled" or run.was_cancelled:
            await self._finish(job, "cancelled", None)
        elif progress.pages_done - run.unreadable == 0 and (progress.pages_failed or progress.errors or run.unreadable):
            errors = [*progress.errors, *run.unreadable_errors]
            first = errors[0]["error"] if errors else "no page could be fetched"
            await self._finish(job, "failed", first)
        else:  # a budget that ran out ends the job done, with why it stopped early
            await self._finish(job, "done", f"stopped early: {progress.stopped}" if progress.stopped else None)

    async def _cancel_requested(self, job: CrawlJob) -> bool:
        current = await self._store.crawl_jobs.get(job.tenant_id, job.id)
        return current is None or current.cancel_requested or current.status == "cancelled"

    async def _update(self, job: CrawlJob, **fields: object) -> CrawlJob | None:
        return await self._store.crawl_jobs.update(job.tenant_id, job.id, **fields)

    async def _finish(self, job: CrawlJob, status: str, error: str | None) -> None:
        now = self._clock()
        await asyncio.shield(self._update(job, status=status, error=error, finished_at=now, heartbeat_at=now))
        log.info("crawl.finished", status=status, error=error)


class _Run:
    """One crawl's callbacks: pages into the knowledge base, progress into the job."""

    def __init__(self, jobs: CrawlJobs, job: CrawlJob, on_progress: Callable[[CrawlJob], None] | None) -> None:
        self._jobs = jobs
        self._job = job
        self._on_progress = on_progress
        self._documents = 0
        self._unreadable: list[dict[str, str]] = []  # fetched, but no text could be read from it
        self._written_at = 0.0
        self._polled_at = 0.0
        self.was_cancelled = False

    @property
    def unreadable(self) -> int:
        return len(self._unreadable)

    @property
    def unreadable_errors(self) -> list[dict[str, str]]:
        return list(self._unreadable)

    async def page(self, page: CrawledPage) -> None:
        if page.fetch.not_modified:
            return
        domain = registrable_domain(page.url)
        try:
            outcome = await self._ingest(page, domain)
        except (UnsupportedMediaType, ExtractionFailed) as exc:  # one unreadable page, not the crawl
            self._unreadable.append({"url": page.url, "error": str(exc)[:300]})
            return
        if outcome.status != "unchanged":
            self._documents += 1

    async def _ingest(self, page: CrawledPage, domain: str | None) -> IngestOutcome:
        return await self._jobs._ingestor.ingest_bytes(
            tenant_id=self._job.tenant_id,
            data=page.fetch.body,
            source=page.url,
            source_kind="url",
            media_type=page.fetch.media_type,
            domains=[domain] if domain else [],
            etag=page.fetch.etag,
            last_modified=page.fetch.last_modified,
            links=page.links,
        )

    async def previous(self, url: str) -> Previous | None:
        document = await self._jobs._store.knowledge.find_document(self._job.tenant_id, url)
        if document is None:
            return None
        return Previous(etag=document.etag, last_modified=document.last_modified, links=tuple(document.links))

    async def cancelled(self) -> bool:
        now = time.monotonic()
        if not self.was_cancelled and now - self._polled_at >= CANCEL_POLL_S:
            self._polled_at = now
            self.was_cancelled = await self._jobs._cancel_requested(self._job)
        return self.was_cancelled

    async def progress(self, progress: CrawlProgress) -> None:
        if time.monotonic() - self._written_at >= min(PROGRESS_EVERY_S, HEARTBEAT_S):
            await self.flush(progress)

    async def flush(self, progress: CrawlProgress) -> None:
        self._written_at = time.monotonic()
        updated = await self._jobs._update(
            self._job,
            pages_done=progress.pages_done - len(self._unreadable),
            pages_total=progress.pages_total,
            pages_failed=progress.pages_failed + len(self._unreadable),
            pages_unchanged=progress.pages_unchanged,
            bytes=progress.bytes,
            documents=self._documents,
            errors=[*progress.errors, *self._unreadable][:50],
            heartbeat_at=self._jobs._clock(),
        )
        if updated is not None and self._on_progress is not None:
            self._on_progress(updated)
