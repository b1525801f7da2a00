"""crawl(): fetch the pages a CrawlSpec names and hand each to ``on_page``; store nothing.

The spider is breadth-first *by level*: every page of depth d is fetched before any link
of depth d+1 is admitted, so a page's depth is its true shortest distance from the start
and the ``max_depth`` cut is exact even with concurrent fetches. ``max_pages`` is enforced
when a URL is admitted, so ``pages_total`` never exceeds it. A URL robots.txt disallows is
never admitted, hence never requested.

Stopping: ``cancelled()`` is polled before each fetch and every ``POLL_S`` while a level
runs; the time and byte budgets are checked at the same points. On a stop the fetches in
flight are cancelled and ``progress.stopped`` says why.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Final

import structlog
from ada_url import URL

from knowledge.crawl.links import page_links
from knowledge.crawl.politeness import HostGate
from knowledge.crawl.robots import RobotsCache, origin_and_host
from knowledge.crawl.sitemap import SitemapError, walk_sitemaps
from knowledge.crawl.types import (
    DOCUMENT_MEDIA_TYPES,
    HTML_MEDIA_TYPES,
    CrawledPage,
    CrawlProgress,
    CrawlSpec,
    Previous,
)
from knowledge.fetch import FetchFailed, FetchRefused, FetchResult, SafeFetcher
from knowledge.urls import canonical_url, registrable_domain

log = structlog.get_logger(__name__)

POLL_S: Final = 0.5  # how often a running level checks for a stop
CANCEL_POLL_S: Final = 0.25  # cancelled() is asked at most this often
MAX_RETRIES: Final = 2  # after a 429/503; then the URL is given up and recorded
MAX_BACKOFF_S: Final = 60.0
_RETRY_STATUSES: Final = frozenset({429, 503})

OnPage = Callable[[CrawledPage], Awaitable[None]]
OnProgress = Callable[[CrawlProgress], Awaitable[None]]
PreviousLookup = Callable[[str], Awaitable[Previous | None]]
Cancelled = Callable[[], Awaitable[bool]]


async def crawl(
    spec: CrawlSpec,
    fetcher: SafeFetcher,
    *,
    on_page: OnPage,
    on_progress: OnProgress | None = None,
    previous: PreviousLookup | None = None,
    cancelled: Cancelled | None = None,
) -> CrawlProgress:
    """Crawl per ``spec``; returns the final progress. Exceptions from ``on_page`` and
    ``on_progress`` propagate (the caller's storage failing is not a page error)."""
    run = _Crawl(spec, fetcher, on_page, on_progress, previous, cancelled)
    try:
        await run.run()
    finally:
        await run.robots.aclose()
    return run.progress


class _Crawl:
    def __init__(
        self,
        spec: CrawlSpec,
        fetcher: SafeFetcher,
        on_page: OnPage,
        on_progress: OnProgress | None,
        previous: PreviousLookup | None,
        cancelled: Cancelled | None,
    ) -> None:
        self.spec = spec
        self.fetcher = fetcher
        self.on_page = on_page
        self.on_progress = on_progress
        self.previous = previous
        self.cancelled = cancelled
        self.progress = CrawlProgress()
        self.gate = HostGate(
            min_delay_s=spec.min_delay_s, max_connections=spec.max_connections_per_host
        )
        self.robots = RobotsCache(fetcher, self.gate)
        self.seen: set[str] = set()
        self.deadline = asyncio.get_running_loop().time() + spec.time_budget_s
        self.domains = tuple(domain.strip().lower().rstrip(".") for domain in spec.allowed_domains)
        self.site: str | None = None
        self.last_poll = float("-inf")

    async def run(self) -> None:
        start = canonical_url(self.spec.url)
        self.site = registrable_domain(start) if start else None
        if start is None or self.site is None:
            self.progress.record_error(self.spec.url, "not an http(s) URL")
            return
        self.domains = self.domains or (self.site,)
        if not self.in_scope(start):
            self.progress.record_error(start, "the start URL is outside the allowed domains")
            return
        first = [start]
        if self.spec.strategy == "sitemap":
            first = await self.sitemap_pages(start) or first
        level = await self.admit(first, depth=0)
        last_depth = max(self.spec.max_depth, 0) if self.spec.strategy == "spider" else 0
        for depth in range(last_depth + 1):
            links = await self.run_level(level, depth)
            if depth == last_depth or self.progress.stopped:
                return
            level = await self.admit(links, depth=depth + 1)

    def in_scope(self, url: str) -> bool:
        """In the allowed domains (a host equal to one or under it); the spider further
        stays on the start URL's registrable domain."""
        host = URL(url).hostname.rstrip(".")
        if not any(host == domain or host.endswith(f".{domain}") for domain in self.domains):
            return False
        return self.spec.strategy != "spider" or registrable_domain(url) == self.site

    async def sitemap_pages(self, start: str) -> list[str]:
        rules = await self.robots.rules_for(start)
        listed = (canonical_url(sitemap) for sitemap in rules.sitemaps)
        roots = [url for url in listed if url and self.in_scope(url)]
        roots = roots or [f"{origin_and_host(start)[0]}/sitemap.xml"]

        def wanted(loc: str) -> str | None:
            page = canonical_url(loc)
            return page if page is not None and self.in_scope(page) else None

        walk = await walk_sitemaps(
            roots,
            self.fetch_sitemap,
            max_depth=self.spec.max_sitemap_depth,
            max_bytes=self.spec.max_sitemap_bytes,
            limit=self.spec.max_pages,
            wanted=wanted,
        )
        for url, why in walk.errors:
            self.progress.record_error(url, why)
        if not walk.pages and not self.progress.stopped:
            self.progress.record_error(start, "no pages in the sitemap; crawled the start URL only")
        return walk.pages

    async def fetch_sitemap(self, url: str) -> bytes:
        if await self.should_stop():
            raise SitemapError("crawl stopped")
        result = await self.fetch(url, None, max_bytes=self.spec.max_sitemap_bytes)
        if result is None:
            raise SitemapError("crawl stopped")
        if isinstance(result, str):
            raise SitemapError(result)
        self.progress.bytes += len(result.body)
        return result.body

    async def admit(self, urls: Sequence[str], *, depth: int) -> list[str]:
        """The URLs of the next level: canonical, new, in scope, allowed by robots.txt,
        within max_pages (counted here, so pages_total never exceeds it)."""
        admitted: list[str] = []
        for raw in urls:
            if self.progress.pages_total >= self.spec.max_pages or await self.should_stop():
                break
            url = canonical_url(raw)
            if url is None or url in self.seen or not self.in_scope(url):
                continue
            self.seen.add(url)
            rules = await self.robots.rules_for(url)
            if not rules.allowed(url):
                if depth == 0:
                    self.progress.record_error(url, rules.reason or "disallowed by robots.txt")
                continue
            admitted.append(url)
            self.progress.pages_total += 1
        return admitted

    async def run_level(self, urls: list[str], depth: int) -> list[str]:
        """Fetch one level concurrently (politeness limits it per host); the links found,
        in the level's order."""
        tasks = [asyncio.create_task(self.visit(url, depth)) for url in urls]
        pending: set[asyncio.Task[tuple[str, ...]]] = set(tasks)
        try:
            while pending:
                done, pending = await asyncio.wait(
                    pending, timeout=POLL_S, return_when=asyncio.FIRST_EXCEPTION
                )
                for task in done:
                    task.result()  # an on_page failure ends the crawl here
                if pending and await self.should_stop():
                    break
        finally:
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
        links: list[str] = []
        for task in tasks:
            if task.done() and not task.cancelled() and task.exception() is None:
                links.extend(task.result())
        return links

    async def should_stop(self) -> bool:
        """Cancelled (asked at most every ``CANCEL_POLL_S``: it may be a database read),
        out of time, or out of bytes?"""
        if self.progress.stopped is not None:
            return True
        now = asyncio.get_running_loop().time()
        if now >= self.deadline:
            self.progress.stopped = "time budget exhausted"
        elif self.progress.bytes >= self.spec.max_total_bytes:
            self.progress.stopped = "byte budget exhausted"
        elif self.cancelled is not None and now - self.last_poll >= CANCEL_POLL_S:
            self.last_poll = now
            if await self.cancelled():
                self.progress.stopped = "cancelled"
        return self.progress.stopped is not None

    async def visit(self, url: str, depth: int) -> tuple[str, ...]:
        if await self.should_stop():
            return ()
        before = await self.previous(url) if self.previous is not None else None
        result = await self.fetch(url, before)
        if result is None:
            return ()
        page = result if isinstance(result, str) else await self.page(url, depth, result, before)
        if isinstance(page, str):
            self.progress.pages_failed += 1
            self.progress.record_error(url, page)
        else:
            self.progress.pages_done += 1
            self.progress.pages_unchanged += int(page.fetch.not_modified)
            self.progress.bytes += len(page.fetch.body)
            await self.on_page(page)
        if self.on_progress is not None:
            await self.on_progress(self.progress.snapshot())
        return () if isinstance(page, str) or self.spec.strategy != "spider" else page.links

    async def page(
        self, url: str, depth: int, result: FetchResult, before: Previous | None
    ) -> CrawledPage | str:
        """The page to hand over, or why there is none."""
        final = canonical_url(result.url) or url
        if final != url:
            if not self.in_scope(final):
                return f"redirected outside the allowed domains to {final}"
            if final in self.seen:
                return f"redirected to {final}, already crawled"
            self.seen.add(final)
        if result.not_modified:
            return CrawledPage(final, depth, result, before.links if before else ())
        media = result.media_type
        if media in HTML_MEDIA_TYPES:
            # Parsing a large page takes tens of ms: not on the event loop.
            found = await asyncio.to_thread(page_links, result.body, final)
            return CrawledPage(final, depth, result, found)
        if media is None or media in DOCUMENT_MEDIA_TYPES:
            return CrawledPage(final, depth, result, ())
        return f"unsupported media type {media}"

    async def fetch(
        self, url: str, before: Previous | None, *, max_bytes: int | None = None
    ) -> FetchResult | str | None:
        """Fetch through the host's politeness slot, retrying a 429/503 after the
        Retry-After it gave (bounded); the result, why it failed, or ``None`` when the
        crawl stopped while this fetch waited for its slot."""
        host = origin_and_host(url)[1]
        etag = before.etag if before else None
        last_modified = before.last_modified if before else None
        for attempt in range(MAX_RETRIES + 1):
            try:
                async with self.gate.slot(host):
                    if await self.should_stop():
                        return None
                    return await self.fetcher.fetch(
                        url, etag=etag, last_modified=last_modified, max_bytes=max_bytes
                    )
            except FetchRefused as refused:
                return str(refused)
            except FetchFailed as failed:
                if failed.status not in _RETRY_STATUSES or attempt == MAX_RETRIES:
                    return str(failed) if attempt == 0 else f"{failed} (after {attempt} retries)"
                wait = failed.retry_after
                if wait is None:  # no Retry-After: exponential, from at least a second
                    wait = max(1.0, self.gate.delay(host)) * 2 ** (attempt + 1)
                wait = min(wait, MAX_BACKOFF_S)
                log.info("knowledge.crawl.backoff", url=url, status=failed.status, wait_s=wait)
                self.gate.defer(host, wait)
        raise AssertionError("unreachable: the last attempt returns")
