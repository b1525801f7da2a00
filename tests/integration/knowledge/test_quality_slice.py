"""A CI-sized slice of bench/knowledge_quality.py: the fixture corpus ingested through the
Ingestor into SQLite, 20 answerable questions (every sixth by id, so every format is in it)
and the isolation questions. Recall@5 must stay ≥ 0.8 and nothing may leak across tenants
or allowed domains; the full bench reports the real figures."""

from __future__ import annotations

from bench.knowledge_quality import contains, first_hit, ingest_corpus, leaks, load_questions, recall_at
from knowledge.ingest import Ingestor
from knowledge.retrieve import Retriever
from storage import Store
from tests.integration.knowledge.ingest_support import sqlite_store  # noqa: F401

SLICE = 20


async def test_quality_slice(sqlite_store: Store) -> None:
    docs, _ = await ingest_corpus(Ingestor(sqlite_store.knowledge))
    retriever = Retriever(sqlite_store.knowledge, limit=5)
    questions = load_questions()
    answerable = [q for q in questions if q.answer_contains is not None][::6][:SLICE]
    isolation = [q for q in questions if q.answer_contains is None]
    assert len(answerable) == SLICE and len(isolation) >= 15

    ranks: list[int | None] = []
    misses: list[str] = []
    for q in answerable:
        result = await retriever.retrieve(tenant_id=q.tenant, query=q.question, allowed_domains=q.domains)
        assert leaks(q, result.chunks, docs) == (0, 0)
        answer = q.answer_contains or ""
        rank = first_hit([c.source == q.source and contains(c.text, answer) for c in result.chunks])
        ranks.append(rank)
        if rank is None:
            misses.append(f"{q.id}: {q.question}")
    for q in isolation:
        result = await retriever.retrieve(tenant_id=q.tenant, query=q.question, allowed_domains=q.domains)
        assert leaks(q, result.chunks, docs) == (0, 0), q.id
        assert all(c.source != q.forbidden_source for c in result.chunks), q.id
    assert recall_at(ranks, 5) >= 0.8, misses
