"""Ingestion throughput end to end through the real crawl path: a local site on 127.0.0.1 is
crawled by a crawl job (robots.txt, sitemap, the SSRF-safe fetcher, per-host politeness of
at most 2 connections, extraction in worker threads, chunking, SQLite writes) — what
``POST /api/knowledge/index-link`` runs. Issue 13 target: >= 30 HTML pages/s.

    .venv/bin/python -m bench.knowledge_crawl_speed [--pages 300] [--runs 3]

The politeness delay is set to 0 (``STEPWISE_KNOWLEDGE_CRAWL_MIN_DELAY_S=0``, as a
self-hosted deployment crawling its own docs may): with the default 1 s a crawl of one host
is one page per second by design.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

import structlog

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.knowledge_quality import serve_directory, write_site  # noqa: E402
from knowledge import CrawlDefaults, FetchPolicy, KnowledgeBase  # noqa: E402
from storage import CrawlJob, SqliteStore  # noqa: E402


def _sitemap(base: str, names: list[str]) -> str:
    urls = "".join(f"<url><loc>{base}/{name}</loc></url>" for name in names)
    return f'<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>'


async def one_run(pages: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        site = tmp / "site"
        site.mkdir()
        names = write_site(site, pages)
        (site / "robots.txt").write_text("User-agent: *\nAllow: /\n")
        store = SqliteStore.from_url(f"sqlite:///{tmp}/crawl.db")
        await store.init()
        defaults = CrawlDefaults(policy=FetchPolicy(allow_private_hosts=frozenset({"127.0.0.1"})), min_delay_s=0.0)
        kb = KnowledgeBase(store, crawl=defaults)
        try:
            with serve_directory(site) as base:
                (site / "sitemap.xml").write_text(_sitemap(base, names))
                job = CrawlJob(tenant_id="speed", user_id="bench", url=base + "/", strategy="sitemap", max_pages=pages, max_depth=0)
                started = time.perf_counter()
                done = await kb.jobs.run(job)
                elapsed = time.perf_counter() - started
        finally:
            await kb.stop()
            await store.close()
    if done.status != "done" or done.pages_done != pages:
        raise RuntimeError(f"the crawl did not fetch every page: {done.status} {done.pages_done}/{pages} {done.errors[:3]}")
    return {"seconds": elapsed, "pages_per_s": pages / elapsed, "documents": done.documents}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    runs = [asyncio.run(one_run(args.pages)) for _ in range(args.runs)]
    rates = [r["pages_per_s"] for r in runs]
    print(f"crawl of {args.pages} HTML pages on 127.0.0.1 (sitemap, 2 connections, no delay): "
          f"median {statistics.median(rates):.1f} pages/s  (runs: {', '.join(f'{r:.1f}' for r in rates)})")


if __name__ == "__main__":
    main()
