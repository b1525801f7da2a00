"""Sliding-window rate limiting shared by every app instance on one database."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from storage import Store
from tests.integration.storage.backends import Backend

WINDOW = 60
# 15 s into a 60 s window (epoch 1_800_000_000 is a multiple of 60).
NOW = datetime.fromtimestamp(1_800_000_000 + 15, UTC)


async def test_two_instances_share_one_counter(backend: Backend) -> None:
    one, two = await backend.open(), await backend.open()
    decisions = []
    for i in range(12):
        instance = one if i % 2 == 0 else two
        now = NOW + timedelta(seconds=i)
        decisions.append(await instance.rate_limits.hit("key:abc", 10, WINDOW, now))
    assert [d.count for d in decisions] == list(range(1, 13))
    assert [d.allowed for d in decisions] == [True] * 10 + [False] * 2
    for refused in decisions[10:]:
        assert 1 <= refused.retry_after_seconds <= WINDOW
        assert refused.limit == 10
    assert all(d.retry_after_seconds == 0 for d in decisions[:10])


async def test_concurrent_hits_are_all_counted(backend: Backend) -> None:
    one, two = await backend.open(), await backend.open()
    hits = [s.rate_limits.hit("burst", 10, WINDOW, NOW) for s in [one, two] * 6]
    decisions = await asyncio.gather(*hits)
    assert sorted(d.count for d in decisions) == list(range(1, 13))
    assert sum(d.allowed for d in decisions) == 10


async def test_a_burst_is_not_a_fresh_allowance_at_the_window_boundary(store: Store) -> None:
    end = datetime.fromtimestamp(1_800_000_000 + WINDOW - 1, UTC)  # the last second of a window
    before = [await store.rate_limits.hit("k", 10, WINDOW, end) for _ in range(10)]
    assert all(d.allowed for d in before)
    after = [await store.rate_limits.hit("k", 10, WINDOW, end + timedelta(seconds=2)) for _ in range(10)]
    assert not any(d.allowed for d in after)  # a fixed window would have let 10 more through
    # Two windows later nothing of the burst weighs in.
    assert (await store.rate_limits.hit("k", 10, WINDOW, end + timedelta(seconds=2 * WINDOW + 2))).allowed


async def test_a_refused_request_is_told_a_wait_after_which_it_passes(store: Store) -> None:
    start = datetime.fromtimestamp(1_800_000_000, UTC)
    for key, at in (("mid-window", 62), ("full-window", 50)):
        for _ in range(10):
            await store.rate_limits.hit(key, 10, WINDOW, start + timedelta(seconds=50))
        refused = await store.rate_limits.hit(key, 10, WINDOW, start + timedelta(seconds=at))
        assert not refused.allowed and 1 <= refused.retry_after_seconds <= 2 * WINDOW, (key, refused)
        later = start + timedelta(seconds=at + refused.retry_after_seconds)
        assert (await store.rate_limits.hit(key, 10, WINDOW, later)).allowed, key


async def test_keys_are_counted_separately(store: Store) -> None:
    await store.rate_limits.hit("a", 1, WINDOW, NOW)
    assert not (await store.rate_limits.hit("a", 1, WINDOW, NOW)).allowed
    assert (await store.rate_limits.hit("b", 1, WINDOW, NOW)).allowed


async def test_retry_after_is_at_least_one_second(store: Store) -> None:
    start = datetime.fromtimestamp(1_800_000_000, UTC)
    for _ in range(100):  # a full previous window
        await store.rate_limits.hit("edge", 100, WINDOW, start - timedelta(seconds=1))
    for _ in range(49):
        assert (await store.rate_limits.hit("edge", 100, WINDOW, start + timedelta(seconds=29.97))).allowed
    decision = await store.rate_limits.hit("edge", 100, WINDOW, start + timedelta(seconds=29.97))
    assert (decision.allowed, decision.retry_after_seconds) == (False, 1)  # 0.63 s from passing


async def test_counting_works_with_a_clock_far_from_the_wall_clock(store: Store) -> None:
    # Tests (and the app's injected clock) may pass any `now`; TTL cleanup must not eat
    # the counter of the window being counted.
    past = datetime(2020, 1, 1, 0, 0, 5, tzinfo=UTC)
    counts = [(await store.rate_limits.hit("frozen", 2, WINDOW, past)).count for _ in range(3)]
    assert counts == [1, 2, 3]
