"""Stepwise's knowledge base: ingestion, crawling and retrieval (issue 13)."""
