"""The hashing test embedder: deterministic, unit length, similar texts closer."""

from __future__ import annotations

import math

import pytest

from knowledge.embeddings import Embedder, HashingEmbedder, normalise


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


async def test_vectors_are_deterministic_unit_length_and_of_the_dimension() -> None:
    embedder = HashingEmbedder(768)
    assert isinstance(embedder, Embedder)
    [a, b] = await embedder.embed_documents(["Reset your password", "Reset your password"], tenant_id="t")
    assert a == b == await HashingEmbedder(768).embed_query("reset YOUR password", tenant_id="t")
    assert len(a) == 768 and math.isclose(math.fsum(v * v for v in a), 1.0, rel_tol=1e-5)
    assert await embedder.embed_query("  ", tenant_id="t") == [0.0] * 768


async def test_shared_words_mean_higher_cosine() -> None:
    embedder = HashingEmbedder(256)
    query = await embedder.embed_query("reset the account password", tenant_id="t")
    near, far = await embedder.embed_documents(["To reset a password open the account page", "Shipping is free"], tenant_id="t")
    assert cosine(query, near) > cosine(query, far)


def test_bad_dimension_and_normalise() -> None:
    with pytest.raises(ValueError):
        HashingEmbedder(0)
    assert normalise([3.0, 4.0]) == [0.6, 0.8]
    assert normalise([0.0, 0.0]) == [0.0, 0.0]
