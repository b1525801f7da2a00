"""Idempotency-Key records: one claim wins, completion rides on the step's transaction."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest

from storage import FinalizeBatch, IdempotencyCompletion, IdempotencyConflict, IdempotencyRecord, Store, utcnow
from tests.integration.storage.backends import Backend
from tests.integration.storage.builders import TENANT_A, TENANT_B, USER, action, message, session, task

DAY = timedelta(hours=24)
LEASE = timedelta(seconds=120)


def claim_of(key: str = "key-1", fingerprint: str = "f" * 64, *, now: datetime | None = None, tenant_id: str = TENANT_A, user_id: str = USER) -> IdempotencyRecord:
    now = now or utcnow()
    return IdempotencyRecord(
        tenant_id=tenant_id, user_id=user_id, key=key, fingerprint=fingerprint, locked_until=now + LEASE, created_at=now, expires_at=now + DAY
    )


def done_of(record: IdempotencyRecord, **fields: object) -> IdempotencyCompletion:
    return IdempotencyCompletion(tenant_id=record.tenant_id, user_id=record.user_id, key=record.key, token=record.token, **fields)  # type: ignore[arg-type]


def first_step(record: IdempotencyRecord, **done: object) -> FinalizeBatch:
    s = session(TENANT_A)
    t = task(TENANT_A, session_id=s.id)
    return FinalizeBatch(
        task=t,
        expected_version=None,
        session=s,
        actions=[action(t, 0)],
        messages=[message(t, t.query, role="user")],
        idempotency=done_of(record, task_id=t.id, step_index=0, **done),
    )


async def test_a_free_key_is_claimed_and_a_held_key_is_returned(store: Store) -> None:
    first = claim_of()
    assert await store.idempotency.claim(first, utcnow()) is None
    held = await store.idempotency.claim(claim_of(), utcnow())
    assert held is not None and held.token == first.token and held.state == "in_flight"
    assert (await store.idempotency.get(TENANT_A, USER, "key-1")) == held


async def test_keys_are_scoped_per_tenant_and_user(store: Store) -> None:
    assert await store.idempotency.claim(claim_of(), utcnow()) is None
    assert await store.idempotency.claim(claim_of(tenant_id=TENANT_B), utcnow()) is None
    assert await store.idempotency.claim(claim_of(user_id="user-2"), utcnow()) is None
    assert await store.idempotency.get(TENANT_B, "user-2", "key-1") is None


async def test_concurrent_claims_of_one_key_on_two_instances_one_wins(backend: Backend) -> None:
    one, two = await backend.open(), await backend.open()
    claims = [claim_of() for _ in range(6)]
    results = await asyncio.gather(*[(one if i % 2 else two).idempotency.claim(c, utcnow()) for i, c in enumerate(claims)])
    winners = [c for c, r in zip(claims, results, strict=True) if r is None]
    assert len(winners) == 1
    assert all(r is not None and r.token == winners[0].token for r in results if r is not None)


async def test_finalize_completes_the_claim_with_the_step(store: Store) -> None:
    record = claim_of()
    await store.idempotency.claim(record, utcnow())
    batch = first_step(record)
    stored = await store.finalize(batch)
    done = await store.idempotency.get(TENANT_A, USER, "key-1")
    assert done is not None and done.state == "completed"
    assert (done.task_id, done.step_index, done.status_code) == (stored.id, 0, 200)


async def test_finalize_writes_nothing_when_the_claim_is_not_held(store: Store) -> None:
    record = claim_of()
    await store.idempotency.claim(record, utcnow())
    stranger = record.model_copy(update={"token": "not-the-holder"})
    batch = first_step(stranger)
    with pytest.raises(IdempotencyConflict):
        await store.finalize(batch)
    assert await store.tasks.get(TENANT_A, batch.task.id) is None  # the step rolled back with it
    assert await store.actions.list(TENANT_A, batch.task.id) == []
    held = await store.idempotency.get(TENANT_A, USER, "key-1")
    assert held is not None and held.state == "in_flight" and held.task_id is None


async def test_a_completed_claim_cannot_be_completed_again(store: Store) -> None:
    record = claim_of()
    await store.idempotency.claim(record, utcnow())
    await store.finalize(first_step(record))
    with pytest.raises(IdempotencyConflict):
        await store.finalize(first_step(record))


async def test_complete_without_a_step_keeps_the_answer(store: Store) -> None:
    record = claim_of()
    await store.idempotency.claim(record, utcnow())
    answer = {"status": "needs_user_input", "thought": "Which size?", "nested": {"a": [1, 2]}}
    assert await store.idempotency.complete(done_of(record, response=answer))
    assert not await store.idempotency.complete(done_of(record, response=answer))  # already completed
    done = await store.idempotency.get(TENANT_A, USER, "key-1")
    assert done is not None and done.response == answer and done.task_id is None


async def test_release_frees_the_key_only_for_its_holder(store: Store) -> None:
    record = claim_of()
    await store.idempotency.claim(record, utcnow())
    assert not await store.idempotency.release(TENANT_A, USER, "key-1", "someone-else")
    assert await store.idempotency.release(TENANT_A, USER, "key-1", record.token)
    assert await store.idempotency.claim(claim_of(), utcnow()) is None


async def test_a_completed_key_is_never_released(store: Store) -> None:
    record = claim_of()
    await store.idempotency.claim(record, utcnow())
    await store.finalize(first_step(record))
    assert not await store.idempotency.release(TENANT_A, USER, "key-1", record.token)
    assert (await store.idempotency.get(TENANT_A, USER, "key-1")) is not None


async def test_an_expired_key_is_free_again(store: Store) -> None:
    now = utcnow()
    record = claim_of(now=now)
    await store.idempotency.claim(record, now)
    await store.finalize(first_step(record))
    fresh = claim_of(fingerprint="e" * 64, now=now + DAY)
    assert await store.idempotency.claim(fresh, now + DAY) is None
    again = await store.idempotency.get(TENANT_A, USER, "key-1")
    assert again is not None and again.token == fresh.token and again.state == "in_flight"


async def test_an_abandoned_claim_is_taken_over_by_the_same_request_only(store: Store) -> None:
    now = utcnow()
    record = claim_of(now=now)
    await store.idempotency.claim(record, now)
    later = now + LEASE + timedelta(seconds=1)
    other = await store.idempotency.claim(claim_of(fingerprint="e" * 64, now=later), later)
    assert other is not None and other.token == record.token  # another body: still refused
    within = await store.idempotency.claim(claim_of(now=now + timedelta(seconds=5)), now + timedelta(seconds=5))
    assert within is not None and within.token == record.token  # lease running: in flight
    retry = claim_of(now=later)
    assert await store.idempotency.claim(retry, later) is None
    with pytest.raises(IdempotencyConflict):  # the abandoned holder can no longer complete it
        await store.finalize(first_step(record))
    await store.finalize(first_step(retry))
