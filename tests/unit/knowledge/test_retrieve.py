"""Retriever: RRF fusion, freshness, hidden below visible, embedder failure, empty queries."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from knowledge.embeddings import HashingEmbedder
from knowledge.retrieve import RRF_K, Retriever, rrf
from storage import ChunkHit, ChunkVector, KnowledgeChunk, KnowledgeDocument, SqliteStore

TENANT = "tenant-a"


def chunk(name: str, *, source: str = "https://shop.example/a", phase: int = 1, hidden: bool = False) -> KnowledgeChunk:
    return KnowledgeChunk(
        id=name,
        tenant_id=TENANT,
        document_id=f"doc-{source}-{phase}",
        source=source,
        ordinal=0,
        text=f"text of {name}",
        content_hash=name,
        phase=phase,
        hidden=hidden,
    )


class ScriptedRepo:
    """Returns fixed lexical and dense rankings; records what it was asked."""

    def __init__(self, lexical: Sequence[KnowledgeChunk] = (), dense: Sequence[KnowledgeChunk] = ()) -> None:
        self.lexical = list(lexical)
        self.dense = list(dense)
        self.vector_calls: list[Mapping[str, object]] = []
        self.search_calls: list[tuple[str, str, Sequence[str] | None, int]] = []
        self.knowledge_version = 1

    async def version(self, tenant_id: str) -> int:
        return self.knowledge_version

    async def search(self, tenant_id: str, query: str, domains: Sequence[str] | None, limit: int = 20) -> list[ChunkHit]:
        self.search_calls.append((tenant_id, query, domains, limit))
        return [ChunkHit(chunk=c, score=10.0 - i) for i, c in enumerate(self.lexical[:limit])]

    async def vector_search(
        self, tenant_id: str, *, model: str, dimension: int, query: Sequence[float],
        domains: Sequence[str] | None, limit: int = 20,
    ) -> list[ChunkHit]:
        self.vector_calls.append({"model": model, "dimension": dimension, "domains": domains, "limit": limit})
        return [ChunkHit(chunk=c, score=1.0 - i / 100) for i, c in enumerate(self.dense[:limit])]


class BrokenEmbedder(HashingEmbedder):
    async def embed_query(self, text: str, *, tenant_id: str) -> list[float]:
        raise ConnectionError("embedding service down")


class ShortEmbedder(HashingEmbedder):
    async def embed_query(self, text: str, *, tenant_id: str) -> list[float]:
        return [1.0]


async def ids(retriever: Retriever, query: str = "reset password", domains: Sequence[str] | None = None) -> list[str]:
    result = await retriever.retrieve(tenant_id=TENANT, query=query, allowed_domains=domains)
    return [c.id for c in result.chunks]


def test_rrf_sums_reciprocal_ranks() -> None:
    fused = rrf([["a", "b", "c"], ["c", "a"]])
    assert fused["a"] == pytest.approx(1 / (RRF_K + 1) + 1 / (RRF_K + 2))
    assert fused["c"] == pytest.approx(1 / (RRF_K + 3) + 1 / (RRF_K + 1))
    assert fused["b"] == pytest.approx(1 / (RRF_K + 2))
    assert sorted(fused, key=lambda k: -fused[k]) == ["a", "c", "b"]


async def test_fusion_favours_chunks_both_lists_agree_on() -> None:
    a, b, c, d = chunk("a"), chunk("b"), chunk("c"), chunk("d")
    repo = ScriptedRepo(lexical=[a, b, c], dense=[d, c, b])
    retriever = Retriever(repo, HashingEmbedder(16), limit=4)  # type: ignore[arg-type]
    assert await ids(retriever) == ["b", "c", "a", "d"]
    assert repo.vector_calls == [{"model": "test-hashing-bow", "dimension": 16, "domains": None, "limit": 20}]


async def test_lexical_only_without_an_embedder_and_limit_respected() -> None:
    repo = ScriptedRepo(lexical=[chunk(n) for n in "abcdefg"])
    retriever = Retriever(repo, limit=3, candidates=5)  # type: ignore[arg-type]
    assert await ids(retriever, domains=["shop.example"]) == ["a", "b", "c"]
    assert repo.search_calls == [(TENANT, "reset password", ["shop.example"], 5)]


async def test_fresh_phase_two_chunk_outranks_its_page_initial_load() -> None:
    old = chunk("old", source="https://app.example/s")
    other = chunk("other", source="https://app.example/other")
    fresh = chunk("fresh", source="https://app.example/s", phase=2)
    retriever = Retriever(ScriptedRepo(lexical=[old, other, fresh]), limit=3)  # type: ignore[arg-type]
    assert await ids(retriever) == ["fresh", "old", "other"]
    # a phase-2 chunk of another page is not lifted
    lone = chunk("lone", source="https://app.example/elsewhere", phase=2)
    retriever = Retriever(ScriptedRepo(lexical=[old, other, lone]), limit=3)  # type: ignore[arg-type]
    assert await ids(retriever) == ["old", "other", "lone"]


async def test_hidden_ranks_below_visible_of_similar_score_only() -> None:
    hidden = chunk("hidden", hidden=True)
    visible = [chunk(f"v{i}") for i in range(30)]
    retriever = Retriever(ScriptedRepo(lexical=[hidden, *visible]), limit=30, candidates=40)  # type: ignore[arg-type]
    order = await ids(retriever)
    position = order.index("hidden")
    assert order[0] == "v0"  # the next visible chunk passes it ...
    assert 1 <= position <= 15  # ... but it is not sent to the bottom


async def test_superseded_and_foreign_chunks_never_returned() -> None:
    gone = chunk("gone").model_copy(update={"superseded_by": "new"})
    foreign = chunk("foreign").model_copy(update={"tenant_id": "tenant-b"})
    retriever = Retriever(ScriptedRepo(lexical=[gone, foreign, chunk("kept")]))  # type: ignore[arg-type]
    assert await ids(retriever) == ["kept"]


async def test_embedder_failure_falls_back_to_lexical() -> None:
    repo = ScriptedRepo(lexical=[chunk("a"), chunk("b")], dense=[chunk("z")])
    for embedder in (BrokenEmbedder(8), ShortEmbedder(8)):
        result = await Retriever(repo, embedder).retrieve(tenant_id=TENANT, query="x", allowed_domains=None)  # type: ignore[arg-type]
        assert [c.id for c in result.chunks] == ["a", "b"] and result.has_org_knowledge
    assert repo.vector_calls == []


@pytest.mark.parametrize("query", ["", "   ", "\n\t"])
async def test_empty_query_returns_nothing_and_asks_nothing(query: str) -> None:
    repo = ScriptedRepo(lexical=[chunk("a")])
    result = await Retriever(repo).retrieve(tenant_id=TENANT, query=query, allowed_domains=None)  # type: ignore[arg-type]
    assert result.chunks == () and result.has_org_knowledge is False
    assert repo.search_calls == []


async def test_no_match_means_no_org_knowledge() -> None:
    result = await Retriever(ScriptedRepo()).retrieve(tenant_id=TENANT, query="x", allowed_domains=None)  # type: ignore[arg-type]
    assert result == result.__class__()


async def test_end_to_end_on_sqlite_with_the_hashing_embedder(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "k.db"))
    await store.init()
    embedder = HashingEmbedder(64)
    try:
        doc = KnowledgeDocument(
            tenant_id=TENANT, source="https://shop.example/help", source_kind="url", media_type="text/html",
            domains=["shop.example"], title="Help", content_hash="h",
        )
        texts = ["To reset your password open Settings then Security.", "Shipping takes three days.",
                 "Gift cards never expire."]
        made = [
            KnowledgeChunk(tenant_id=TENANT, document_id=doc.id, source=doc.source, title=doc.title,
                           domains=doc.domains, ordinal=i, heading_path=["Help"], text=t, content_hash=str(i))
            for i, t in enumerate(texts)
        ]
        await store.knowledge.upsert_document(doc, made)
        vectors = await embedder.embed_documents(texts, tenant_id=TENANT)
        await store.knowledge.put_vectors(TENANT, [
            ChunkVector(chunk_id=c.id, tenant_id=TENANT, model=embedder.model, dimension=embedder.dimension, vector=v)
            for c, v in zip(made, vectors, strict=True)
        ])
        retriever = Retriever(store.knowledge, embedder, limit=2)
        result = await retriever.retrieve(tenant_id=TENANT, query="how do I reset my password", allowed_domains=["shop.example"])
        assert result.has_org_knowledge and result.chunks[0].text == texts[0]
        assert result.chunks[0].heading_path == ("Help",) and result.chunks[0].title == "Help"
        outside = await retriever.retrieve(tenant_id=TENANT, query="reset password", allowed_domains=["evil.example"])
        assert outside.chunks == () and not outside.has_org_knowledge
        theirs = await retriever.retrieve(tenant_id="tenant-b", query="reset password", allowed_domains=None)
        assert theirs.chunks == ()
    finally:
        await store.close()


async def test_the_same_question_is_answered_again_until_the_knowledge_changes() -> None:
    repo = ScriptedRepo(lexical=[chunk("a"), chunk("b")])
    retriever = Retriever(repo, limit=2)  # type: ignore[arg-type]
    first = await ids(retriever, "Reset  the password", ["shop.example"])
    assert await ids(retriever, "reset the password", ["SHOP.example"]) == first
    assert len(repo.search_calls) == 1  # the second step of the task asked the store nothing new
    await ids(retriever, "reset the password", ["other.example"])  # another site: searched
    assert len(repo.search_calls) == 2
    repo.lexical = [chunk("c")]
    repo.knowledge_version = 2  # a write: the stored answer is stale
    assert await ids(retriever, "reset the password", ["shop.example"]) == ["c"]


async def test_a_lexical_fallback_is_not_kept() -> None:
    repo = ScriptedRepo(lexical=[chunk("a")], dense=[chunk("b")])
    retriever = Retriever(repo, BrokenEmbedder(16), limit=2)  # type: ignore[arg-type]
    await ids(retriever)
    await ids(retriever)
    assert len(repo.search_calls) == 2  # the embedder failed: the next request tries again
