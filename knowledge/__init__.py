"""Stepwise's knowledge base: ingestion, crawling, safe fetching and retrieval.

Documents (HTML, PDF, DOCX, Markdown, TXT, JSON, CSV, crawled pages) become Markdown,
then chunks with their heading path, stored per tenant (``storage``); each interact request
retrieves once (BM25, fused with vectors when embeddings are configured) from the tenant's
chunks of the page's site. See docs/knowledge.md.
"""

from knowledge.crawl import CrawledPage, CrawlProgress, CrawlSpec, Previous, crawl
from knowledge.embeddings import Embedder
from knowledge.extract import Block, Extracted, ExtractionFailed, UnsupportedMediaType, extract
from knowledge.fetch import FetchFailed, FetchPolicy, FetchRefused, FetchResult, SafeFetcher, vet_address
from knowledge.ingest import IngestOutcome, Ingestor
from knowledge.jobs import CrawlDefaults, CrawlJobs
from knowledge.retrieve import RagResult, RetrievedChunk, Retriever
from knowledge.service import KnowledgeBase, KnowledgeLimits, allowed_domains
from knowledge.urls import canonical_url, registrable_domain

__all__ = [
    "Block",
    "CrawlDefaults",
    "CrawlJobs",
    "CrawlProgress",
    "CrawlSpec",
    "CrawledPage",
    "Embedder",
    "Extracted",
    "ExtractionFailed",
    "FetchFailed",
    "FetchPolicy",
    "FetchRefused",
    "FetchResult",
    "IngestOutcome",
    "Ingestor",
    "KnowledgeBase",
    "KnowledgeLimits",
    "Previous",
    "RagResult",
    "RetrievedChunk",
    "Retriever",
    "SafeFetcher",
    "UnsupportedMediaType",
    "allowed_domains",
    "canonical_url",
    "crawl",
    "extract",
    "registrable_domain",
    "vet_address",
]
