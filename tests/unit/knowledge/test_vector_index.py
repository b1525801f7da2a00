"""The in-memory vector index both stores use: cosine top-k by domain blocks, a bounded cache."""

from __future__ import annotations

import numpy as np

from storage._knowledge import VectorCache, VectorMatrix


def matrix(version: int = 1) -> VectorMatrix:
    rows = [
        ("a", ["shop.example"], np.array([1.0, 0.0], np.float32)),
        ("b", [], np.array([0.0, 2.0], np.float32)),  # tenant-wide; not unit length
        ("c", ["Docs.Example", "shop.example"], np.array([0.7, 0.7], np.float32)),
        ("d", ["docs.example"], np.array([0.9, 0.1], np.float32)),
        ("e", ["shop.example"], np.array([0.0, 0.0], np.float32)),  # a zero vector scores 0
    ]
    return VectorMatrix.build(version, rows, 2)


def test_top_is_cosine_ordered_and_follows_the_domain_rule() -> None:
    m = matrix()
    everything = m.top([1.0, 0.0], None, 10)
    assert [k for k, _ in everything][:3] == ["a", "d", "c"]
    assert {k for k, _ in everything[3:]} == {"b", "e"}  # both orthogonal: score 0
    assert abs(everything[0][1] - 1.0) < 1e-6 and all(abs(s) < 1e-6 for _, s in everything[3:])
    assert [k for k, _ in m.top([1.0, 0.0], ["docs.example"], 10)] == ["d", "c", "b"]
    assert [k for k, _ in m.top([1.0, 0.0], ["SHOP.example"], 2)] == ["a", "c"]
    assert [k for k, _ in m.top([1.0, 0.0], [], 10)] == ["b"]
    assert m.top([0.0, 0.0], None, 10) == [] and m.top([1.0, 0.0], None, 0) == []
    assert VectorMatrix.build(1, [], 2).top([1.0, 0.0], None, 5) == []


def test_cache_is_per_version_and_bounded_by_bytes() -> None:
    one = matrix().matrix.nbytes
    cache = VectorCache(max_bytes=2 * one)
    cache.put("t1", "m", 2, matrix(1))
    cache.put("t2", "m", 2, matrix(1))
    assert cache.get("t1", "m", 2, 1) is not None  # t1 is now the most recently used
    assert cache.get("t1", "m", 2, 2) is None  # another version: stale
    assert cache.get("t1", "other", 2, 1) is None and cache.get("t1", "m", 3, 1) is None
    cache.put("t3", "m", 2, matrix(1))  # over budget: t2 (least recently used) goes
    assert cache.get("t2", "m", 2, 1) is None
    assert cache.get("t1", "m", 2, 1) is not None and cache.get("t3", "m", 2, 1) is not None
