"""SDK contract tests of embeddings: the real google-genai client against the local fake
Gemini's ``batchEmbedContents``, through the gateway and the knowledge base's embedder."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from agent.llm import CallContext, GeminiGateway, LLMOutputInvalid, LLMRequestRejected, MemoryUsageSink
from agent.llm.embedding import GatewayEmbedder
from cost.pricing import model_price
from tests.support.fake_gemini import FakeGemini, embedding_responder, embeddings, http_error

CTX = CallContext(tenant_id="t1")


@pytest.fixture
async def gateway(fake_gemini: FakeGemini) -> AsyncIterator[tuple[GeminiGateway, MemoryUsageSink]]:
    sink = MemoryUsageSink()
    gw = GeminiGateway(
        api_key="test-key",
        model="gemini-test-flash",
        base_url=fake_gemini.base_url,
        timeout_s=5,
        backoff_base_s=0.01,
        backoff_cap_s=0.02,
        retry_after_cap_s=0.05,
        usage_sink=sink,
    )
    yield gw, sink
    await gw.aclose()


async def test_documents_and_query_use_their_task_types_and_dimension(fake_gemini: FakeGemini, gateway: tuple[GeminiGateway, MemoryUsageSink]) -> None:
    gw, sink = gateway
    fake_gemini.responder = embedding_responder
    embedder = GatewayEmbedder(gw, dimension=16)
    docs = await embedder.embed_documents(["Refunds take ten days.", "Reset a password from Settings."], tenant_id="t1")
    query = await embedder.embed_query("how long does a refund take", tenant_id="t1")
    assert [len(v) for v in docs] == [16, 16] and len(query) == 16
    first, second = fake_gemini.requests
    assert first.path.split("?")[0].endswith("/models/gemini-embedding-001:batchEmbedContents")
    assert first.embed_texts == ["Refunds take ten days.", "Reset a password from Settings."]
    assert first.embed_task_types == ["RETRIEVAL_DOCUMENT", "RETRIEVAL_DOCUMENT"]
    assert second.embed_task_types == ["RETRIEVAL_QUERY"] and second.embed_dimension == 16
    assert [e.purpose for e in sink.events] == ["EMBEDDING", "EMBEDDING"]
    assert sink.events[0].input_tokens > 0 and sink.events[0].output_tokens == 0
    assert sink.events[0].ctx.tenant_id == "t1"
    assert model_price(sink.events[0].model) is not None  # billed, never an unknown model


async def test_many_texts_are_sent_in_batches_of_at_most_100(fake_gemini: FakeGemini, gateway: tuple[GeminiGateway, MemoryUsageSink]) -> None:
    gw, _ = gateway
    fake_gemini.responder = embedding_responder
    vectors = await GatewayEmbedder(gw, dimension=8).embed_documents([f"text {i}" for i in range(230)], tenant_id="t1")
    assert len(vectors) == 230
    assert [len(r.embed_texts) for r in fake_gemini.requests] == [100, 100, 30]


async def test_a_transient_error_is_retried_then_answered(fake_gemini: FakeGemini, gateway: tuple[GeminiGateway, MemoryUsageSink]) -> None:
    gw, sink = gateway
    fake_gemini.enqueue(http_error(503), embeddings([[0.5, 0.5]]))
    assert await gw.embed(["x"], model="gemini-embedding-001", task_type="RETRIEVAL_QUERY", dimension=2, ctx=CTX) == [[0.5, 0.5]]
    assert len(fake_gemini.requests) == 2 and len(sink.events) == 1


@pytest.mark.parametrize(
    "vectors",
    [
        [[0.1, 0.2]],  # one vector for two texts
        [[0.1, 0.2], [0.3]],  # a wrong dimension
        [[0.1, 0.2], [0.0, 0.0]],  # an all-zero vector
    ],
)
async def test_an_unusable_answer_is_a_typed_error(fake_gemini: FakeGemini, gateway: tuple[GeminiGateway, MemoryUsageSink], vectors: list[list[float]]) -> None:
    gw, sink = gateway
    fake_gemini.enqueue(embeddings(vectors))
    with pytest.raises(LLMOutputInvalid):
        await gw.embed(["a", "b"], model="gemini-embedding-001", task_type="RETRIEVAL_DOCUMENT", dimension=2, ctx=CTX)
    assert sink.events[0].success is False  # billed, and recorded as failed


async def test_a_rejected_request_is_not_retried(fake_gemini: FakeGemini, gateway: tuple[GeminiGateway, MemoryUsageSink]) -> None:
    gw, _ = gateway
    fake_gemini.enqueue(http_error(400))
    with pytest.raises(LLMRequestRejected):
        await gw.embed(["a"], model="gemini-embedding-001", task_type="RETRIEVAL_DOCUMENT", dimension=2, ctx=CTX)
    assert len(fake_gemini.requests) == 1
