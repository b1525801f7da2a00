"""Dense retrieval switched on by settings alone: with a Gemini key the app embeds chunks
(RETRIEVAL_DOCUMENT) and queries (RETRIEVAL_QUERY) through the one gateway — here the real
google-genai client against the local fake Gemini — bills them as EMBEDDING, and keeps
working on BM25 when the embedding service fails."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.integration.api.conftest import ApiFactory
from tests.support.fake_gemini import FakeGemini, FakeReply, RecordedRequest, embedding_responder, http_error

GUIDE = (
    "# Shipping\n\nOrders leave our warehouse within two working days. Parcels to islands take longer, "
    "and tracking numbers are e-mailed the moment the carrier scans the parcel.\n\n"
    "# Returns\n\nUnworn items can be sent back within 60 days; the label is printed from the orders page.\n"
)


@pytest.fixture
def gemini() -> Iterator[FakeGemini]:
    with FakeGemini() as server:
        yield server


async def test_chunks_and_queries_are_embedded_and_billed(make_api: ApiFactory, gemini: FakeGemini) -> None:
    gemini.responder = embedding_responder
    api = await make_api(gemini_api_key="test-key", gemini_base_url=gemini.base_url, knowledge_embedding_dimension=64)
    assert api.app.state.knowledge.embedder is not None
    created = await api.client.post("/api/knowledge/ingest", json={"text": GUIDE, "title": "Help"}, headers=api.headers())
    assert created.status_code == 200, created.text
    found = await api.client.get("/api/knowledge/resolve", params={"query": "when can I send unworn items back"}, headers=api.headers())
    assert "60 days" in found.json()["chunks"][0]["text"]
    documents = [r for r in gemini.requests if r.is_embedding and r.embed_task_types[0] == "RETRIEVAL_DOCUMENT"]
    queries = [r for r in gemini.requests if r.is_embedding and r.embed_task_types[0] == "RETRIEVAL_QUERY"]
    assert documents and queries and queries[-1].embed_texts == ["when can I send unworn items back"]
    assert all(r.embed_dimension == 64 for r in gemini.requests)
    assert await api.store.knowledge.vector_search(
        "tenant-a", model="gemini-embedding-001", dimension=64, query=[1.0] + [0.0] * 63, domains=None
    )
    usage = (await api.client.get("/api/usage", params={"groupBy": "actionType"}, headers=api.headers())).json()
    assert "EMBEDDING" in [g["key"] for g in usage["groups"]]


async def test_a_failing_embedding_service_leaves_bm25_working(make_api: ApiFactory, gemini: FakeGemini) -> None:
    def broken(request: RecordedRequest) -> FakeReply:
        return http_error(500)

    gemini.responder = broken
    api = await make_api(gemini_api_key="test-key", gemini_base_url=gemini.base_url)
    created = await api.client.post("/api/knowledge/ingest", json={"text": GUIDE, "title": "Help"}, headers=api.headers())
    assert created.status_code == 200 and created.json()["status"] == "created"
    found = await api.client.get("/api/knowledge/resolve", params={"query": "unworn items returns"}, headers=api.headers())
    assert found.status_code == 200 and "60 days" in found.json()["chunks"][0]["text"]
    gemini.unscripted = 0
