"""Stepwise knowledge base: ingestion, crawling, safe fetching and retrieval (issue 13)."""
