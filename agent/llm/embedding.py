"""The knowledge base's embedder, on the one gateway: ``gemini-embedding-001`` with the
retrieval task types (documents are embedded as ``RETRIEVAL_DOCUMENT``, the request's
query as ``RETRIEVAL_QUERY``), a fixed output dimension, usage billed as ``EMBEDDING``.

It satisfies ``knowledge.Embedder`` (a protocol: nothing here imports ``knowledge``). The
model and dimension travel with every stored vector, so a change of either never mixes
vectors of two spaces: the old ones are simply not searched until re-embedded.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent.llm.contract import CallContext
from agent.llm.gemini import EMBED_BATCH, GeminiGateway

DEFAULT_EMBEDDING_MODEL = "gemini-embedding-001"
DEFAULT_EMBEDDING_DIMENSION = 768
"""``gemini-embedding-001`` is trained with Matryoshka representation learning: 768 of its
3072 dimensions keep nearly all of its retrieval quality at a quarter of the storage."""

#: Characters of one text sent for embedding (the model reads 2,048 tokens).
MAX_EMBED_CHARS = 8_000


class GatewayEmbedder:
    def __init__(
        self,
        gateway: GeminiGateway,
        *,
        model: str = DEFAULT_EMBEDDING_MODEL,
        dimension: int = DEFAULT_EMBEDDING_DIMENSION,
    ) -> None:
        self._gateway = gateway
        self._model = model
        self._dimension = dimension

    @property
    def model(self) -> str:
        return self._model

    @property
    def dimension(self) -> int:
        return self._dimension

    async def embed_documents(self, texts: Sequence[str], *, tenant_id: str) -> list[list[float]]:
        vectors: list[list[float]] = []
        ctx = CallContext(tenant_id=tenant_id)
        for start in range(0, len(texts), EMBED_BATCH):
            batch = [t[:MAX_EMBED_CHARS] for t in texts[start : start + EMBED_BATCH]]
            vectors += await self._gateway.embed(
                batch, model=self._model, task_type="RETRIEVAL_DOCUMENT", dimension=self._dimension, ctx=ctx
            )
        return vectors

    async def embed_query(self, text: str, *, tenant_id: str) -> list[float]:
        [vector] = await self._gateway.embed(
            [text[:MAX_EMBED_CHARS]],
            model=self._model,
            task_type="RETRIEVAL_QUERY",
            dimension=self._dimension,
            ctx=CallContext(tenant_id=tenant_id),
        )
        return vector
