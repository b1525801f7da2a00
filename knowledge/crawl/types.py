"""What a crawl is asked to do, what it hands over per page, and how far it got."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from knowledge.fetch import FetchResult

MAX_ERRORS: Final = 50

HTML_MEDIA_TYPES: Final = frozenset({"text/html", "application/xhtml+xml"})
# What knowledge.extract can read besides HTML: passed to on_page, never parsed for links.
DOCUMENT_MEDIA_TYPES: Final = frozenset(
    {
        "application/pdf",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "text/markdown",
        "text/x-markdown",
        "text/plain",
        "application/json",
        "text/csv",
    }
)


@dataclass(frozen=True)
class CrawlSpec:
    url: str
    strategy: Literal["single", "sitemap", "spider"] = "single"
    max_pages: int = 50
    max_depth: int = 2
    allowed_domains: tuple[str, ...] = ()  # the tenant's; () = the start URL's registrable domain
    max_total_bytes: int = 200_000_000
    time_budget_s: float = 600.0
    min_delay_s: float = 1.0  # per host; effective delay = max(Crawl-delay, min_delay_s)
    max_connections_per_host: int = 2
    max_sitemap_depth: int = 3
    max_sitemap_bytes: int = 50_000_000  # decompressed, per sitemap file


@dataclass(frozen=True)
class Previous:
    """What is stored for a URL from an earlier crawl (conditional re-fetch)."""

    etag: str | None
    last_modified: str | None
    links: tuple[str, ...]  # the page's outgoing links, so a 304 page still feeds the spider


@dataclass(frozen=True)
class CrawledPage:
    url: str  # canonical final URL
    depth: int
    fetch: FetchResult  # body is the page (not_modified → body b"")
    # canonical absolute http(s) links the spider may follow (or Previous.links on a 304)
    links: tuple[str, ...]


@dataclass
class CrawlProgress:
    pages_done: int = 0  # fetched and handed to on_page (304s included)
    pages_total: int = 0  # admitted to the crawl; never exceeds max_pages
    pages_failed: int = 0
    pages_unchanged: int = 0  # 304 Not Modified
    bytes: int = 0  # body bytes fetched (pages and sitemaps)
    errors: list[dict[str, str]] = field(default_factory=list)  # {"url", "error"}, at most 50
    stopped: str | None = None  # why the crawl stopped early: cancelled, time or byte budget

    def record_error(self, url: str, error: str) -> None:
        if len(self.errors) < MAX_ERRORS:
            self.errors.append({"url": url, "error": error})

    def snapshot(self) -> CrawlProgress:
        return CrawlProgress(
            self.pages_done, self.pages_total, self.pages_failed, self.pages_unchanged,
            self.bytes, list(self.errors), self.stopped,
        )
