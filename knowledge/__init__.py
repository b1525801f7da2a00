"""Stepwise's knowledge base: ingestion, crawling, retrieval (issue 13)."""
