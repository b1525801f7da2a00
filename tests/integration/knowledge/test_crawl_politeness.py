"""Politeness and stopping: per-host concurrency and delay (read from the server's own
log, loosely — not a speed test), 429/503 back-off, conditional re-crawl, cancellation
and the time budget."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from knowledge.crawl import CrawledPage, CrawlSpec, Previous, crawl
from knowledge.fetch import FetchPolicy, SafeFetcher
from tests.support.sites import Hit, Page, Recorder, Site, html, links

LOCAL = frozenset({"127.0.0.1", "localhost"})


def spec(site: Site, **overrides: object) -> CrawlSpec:
    values: dict[str, object] = {"strategy": "spider", "min_delay_s": 0.01, "max_depth": 3, "max_pages": 100}
    values.update(overrides)
    return CrawlSpec(url=site.url("/"), **values)  # type: ignore[arg-type]


@pytest.fixture
async def fetcher() -> AsyncIterator[SafeFetcher]:
    safe = SafeFetcher(FetchPolicy(allow_private_hosts=LOCAL, timeout_s=5))
    yield safe
    await safe.aclose()


def fan_out(n: int) -> dict[str, Page]:
    pages: dict[str, Page] = {"/": links(*[f"/p{i}" for i in range(n)])}
    pages.update({f"/p{i}": html(f"page {i}") for i in range(n)})
    return pages


def start_gaps(site: Site) -> list[float]:
    starts = sorted(hit.started for hit in site.hits)
    return [later - earlier for earlier, later in zip(starts, starts[1:])]


async def test_never_more_than_max_connections_per_host_at_once(fetcher: SafeFetcher) -> None:
    with Site(fan_out(12), delay_s=0.15) as site:
        progress = await crawl(spec(site, max_connections_per_host=2), fetcher, on_page=Recorder().on_page)
    assert progress.pages_done == 13
    assert site.max_active == 2  # used, and never exceeded


async def test_the_delay_between_request_starts_is_respected(fetcher: SafeFetcher) -> None:
    with Site(fan_out(5)) as site:
        await crawl(spec(site, min_delay_s=0.2, max_connections_per_host=4), fetcher, on_page=Recorder().on_page)
    assert len(site.hits) == 7  # robots.txt + 6 pages
    gaps = start_gaps(site)  # 0.2 s asked; server-side timestamps jitter by tens of ms
    assert min(gaps) >= 0.1
    assert sum(gaps) >= 0.2 * len(gaps) * 0.9


async def test_crawl_delay_from_robots_txt_raises_the_delay(fetcher: SafeFetcher) -> None:
    pages = fan_out(3) | {"/robots.txt": Page("User-agent: *\nCrawl-delay: 0.3\n", headers={"Content-Type": "text/plain"})}
    with Site(pages) as site:
        await crawl(spec(site, min_delay_s=0.01), fetcher, on_page=Recorder().on_page)
    page_starts = sorted(hit.started for hit in site.hits if hit.path != "/robots.txt")
    gaps = [b - a for a, b in zip(page_starts, page_starts[1:])]
    assert min(gaps) >= 0.2
    assert sum(gaps) >= 0.3 * len(gaps) * 0.9


async def test_429_with_retry_after_is_retried_after_the_wait(fetcher: SafeFetcher) -> None:
    def busy_once(hit: Hit, count: int) -> Page:
        return Page("slow down", 429, {"Retry-After": "1"}) if count == 1 else html("finally")

    with Site({"/": links("/busy"), "/busy": busy_once}) as site:
        recorder = Recorder()
        progress = await crawl(spec(site), fetcher, on_page=recorder.on_page)
    busy = site.hits_for("/busy")
    assert len(busy) == 2
    assert busy[1].started - busy[0].started >= 0.9
    assert recorder.urls == [site.url("/"), site.url("/busy")]
    assert progress.errors == [] and progress.pages_failed == 0


async def test_a_url_still_unavailable_after_two_retries_is_given_up(fetcher: SafeFetcher) -> None:
    with Site({"/": links("/down", "/ok"), "/down": Page("later", 503, {"Retry-After": "0"}),
               "/ok": html("ok")}) as site:
        recorder = Recorder()
        progress = await crawl(spec(site), fetcher, on_page=recorder.on_page)
    assert len(site.hits_for("/down")) == 3
    assert progress.errors == [{"url": site.url("/down"), "error": "HTTP 503 (after 2 retries)"}]
    assert progress.pages_failed == 1 and site.url("/ok") in recorder.urls


async def test_a_huge_retry_after_is_bounded_and_the_budget_still_applies(fetcher: SafeFetcher) -> None:
    with Site({"/": Page("no", 429, {"Retry-After": "86400"})}) as site:
        started = time.monotonic()
        progress = await crawl(spec(site, time_budget_s=1.0), fetcher, on_page=Recorder().on_page)
    assert time.monotonic() - started < 5
    assert progress.stopped == "time budget exhausted"
    assert len(site.hits_for("/")) == 1


async def test_recrawl_sends_validators_and_a_304_page_still_feeds_the_spider(fetcher: SafeFetcher) -> None:
    def home(hit: Hit, count: int) -> Page:
        if hit.headers.get("if-none-match") == '"home-v1"':
            return Page(b"", 304, {"ETag": '"home-v1"'})
        return Page(links("/child").body, headers={"Content-Type": "text/html", "ETag": '"home-v1"'})

    with Site({"/": home, "/child": html("child")}) as site:
        first = Recorder()
        await crawl(spec(site), fetcher, on_page=first.on_page)
        stored = {p.url: Previous(p.fetch.etag, p.fetch.last_modified, p.links) for p in first.pages}

        async def previous(url: str) -> Previous | None:
            return stored.get(url)

        second = Recorder()
        progress = await crawl(spec(site), fetcher, on_page=second.on_page, previous=previous)
    home_hits = site.hits_for("/")
    assert "if-none-match" not in home_hits[0].headers
    assert home_hits[1].headers["if-none-match"] == '"home-v1"'
    assert second.pages[0].fetch.not_modified and second.pages[0].fetch.body == b""
    assert second.pages[0].links == (site.url("/child"),)
    assert second.urls == [site.url("/"), site.url("/child")]  # followed from Previous.links
    assert progress.pages_unchanged == 1 and progress.pages_done == 2


async def test_cancellation_stops_the_crawl_quickly(fetcher: SafeFetcher) -> None:
    recorder = Recorder()

    async def cancelled() -> bool:
        return len(recorder.pages) >= 3

    with Site(fan_out(30), delay_s=0.05) as site:
        started = time.monotonic()
        progress = await crawl(spec(site, min_delay_s=0.1, max_connections_per_host=1), fetcher,
                               on_page=recorder.on_page, cancelled=cancelled)
    assert progress.stopped == "cancelled"
    # cancelled() is asked at most every 0.25 s, so a page or two more may start
    assert 3 <= progress.pages_done <= 6
    assert len([p for p in site.paths() if p.startswith("/p")]) <= 6
    assert time.monotonic() - started < 3


async def test_cancellation_is_noticed_while_waiting_for_a_long_crawl_delay(fetcher: SafeFetcher) -> None:
    flag = asyncio.Event()
    pages = fan_out(3) | {"/robots.txt": Page("User-agent: *\nCrawl-delay: 30\n", headers={"Content-Type": "text/plain"})}

    async def on_page(page: CrawledPage) -> None:
        flag.set()

    async def cancelled() -> bool:
        return flag.is_set()

    with Site(pages) as site:
        started = time.monotonic()
        progress = await crawl(spec(site), fetcher, on_page=on_page, cancelled=cancelled)
    assert progress.stopped == "cancelled"
    assert time.monotonic() - started < 5  # not 30 s
    assert [p for p in site.paths() if p.startswith("/p")] == []


async def test_time_budget_stops_cleanly(fetcher: SafeFetcher) -> None:
    with Site(fan_out(20), delay_s=0.1) as site:
        recorder = Recorder()
        progress = await crawl(spec(site, time_budget_s=0.6, min_delay_s=0.1, max_connections_per_host=1), fetcher,
                               on_page=recorder.on_page, on_progress=recorder.on_progress)
    assert progress.stopped == "time budget exhausted"
    assert 1 <= progress.pages_done < 21
    assert len(recorder.progress) == progress.pages_done + progress.pages_failed


async def test_an_on_page_failure_ends_the_crawl(fetcher: SafeFetcher) -> None:
    async def on_page(page: CrawledPage) -> None:
        raise RuntimeError("storage is down")

    with Site(fan_out(3)) as site:
        with pytest.raises(RuntimeError, match="storage is down"):
            await crawl(spec(site), fetcher, on_page=on_page)
