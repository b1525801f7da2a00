"""Embedders: the protocol retrieval and ingestion code to, plus a deterministic test embedder.

A real embedder (Gemini ``gemini-embedding-001``) lives with the LLM gateway; this module
only says what one looks like, so ``knowledge`` never imports the agent. The hashed
bag-of-words embedder needs no model and no network: tests and benches use it to exercise
the dense path with vectors of any dimension.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np

from storage import STOP_WORDS

_WORD = re.compile(r"\w+", re.UNICODE)


@runtime_checkable
class Embedder(Protocol):
    """Texts → vectors of one model and one dimension (stored with every vector)."""

    @property
    def model(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    async def embed_documents(self, texts: Sequence[str], *, tenant_id: str) -> list[list[float]]: ...

    async def embed_query(self, text: str, *, tenant_id: str) -> list[float]: ...


def normalise(vector: Sequence[float]) -> list[float]:
    """Unit length (cosine = dot product); a zero vector stays zero."""
    norm = math.sqrt(sum(v * v for v in vector))
    return [v / norm for v in vector] if norm else [0.0 for _ in vector]


class HashingEmbedder:
    """Deterministic hashed bag-of-words vectors (the "hashing trick"), L2-normalised.

    Each lower-case word adds ±1 to one of ``dimension`` buckets chosen by a keyed hash,
    so texts sharing words get a high cosine. Not a semantic model: for tests and benches.
    """

    def __init__(self, dimension: int = 256, *, model: str = "test-hashing-bow") -> None:
        if dimension < 1:
            raise ValueError(f"dimension must be >= 1, got {dimension!r}")
        self._dimension = dimension
        self._model = model

    @property
    def model(self) -> str:
        return self._model

    @property
    def dimension(self) -> int:
        return self._dimension

    def vector(self, text: str) -> list[float]:
        out = np.zeros(self._dimension, dtype=np.float32)
        words = _WORD.findall(text.lower())
        content = [w for w in words if w not in STOP_WORDS]  # "how", "the": every text has them
        for word in content or words:
            digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
            value = int.from_bytes(digest, "little")
            out[value % self._dimension] += 1.0 if (value >> 63) & 1 else -1.0
        norm = float(np.linalg.norm(out))
        if norm:
            out /= norm
        return [float(v) for v in out]

    async def embed_documents(self, texts: Sequence[str], *, tenant_id: str) -> list[list[float]]:
        return [self.vector(text) for text in texts]

    async def embed_query(self, text: str, *, tenant_id: str) -> list[float]:
        return self.vector(text)
