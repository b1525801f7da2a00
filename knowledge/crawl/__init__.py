"""The crawler: robots.txt, sitemaps, a breadth-first spider, per-host politeness, caps."""

from knowledge.crawl.crawler import crawl
from knowledge.crawl.robots import USER_AGENT_TOKEN
from knowledge.crawl.types import (
    DOCUMENT_MEDIA_TYPES,
    HTML_MEDIA_TYPES,
    CrawledPage,
    CrawlProgress,
    CrawlSpec,
    Previous,
)

__all__ = [
    "DOCUMENT_MEDIA_TYPES",
    "HTML_MEDIA_TYPES",
    "USER_AGENT_TOKEN",
    "CrawlProgress",
    "CrawlSpec",
    "CrawledPage",
    "Previous",
    "crawl",
]
