"""finalize: one atomic write under the task's version guard."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from storage import (
    CorrectionRecord,
    DuplicateKey,
    FinalizeBatch,
    StorageError,
    Store,
    TaskConflict,
    utcnow,
)
from tests.integration.storage.builders import (
    TENANT_A,
    TENANT_B,
    action,
    message,
    next_step,
    session,
    start_task,
    task,
    usage,
    verification,
)
from tests.integration.storage.backends import Backend


async def _snapshot(
    store: Store, tenant_id: str, task_id: str, session_id: str
) -> tuple[object, ...]:
    return (
        await store.tasks.get(tenant_id, task_id),
        await store.actions.list(tenant_id, task_id),
        await store.messages.list(tenant_id, session_id),
        await store.verifications.list(tenant_id, task_id),
        await store.corrections.list(tenant_id, task_id),
        await store.usage.list_for_task(tenant_id, task_id),
        await store.sessions.get(tenant_id, session_id),
    )


async def test_new_task_is_stored_with_version_1_and_everything_in_the_batch(store: Store) -> None:
    s = session(url="https://shop.example/", title="Shop")
    t = task(
        session_id=s.id,
        plan={"steps": [{"n": 1, "do": "open cart"}]},
        state={"counters": {"retries": 0}},
    )
    before = {"url": t.url, "dom_hash": "abc", "skeleton": ["a", "b"]}
    stored = await store.finalize(
        FinalizeBatch(
            task=t,
            expected_version=None,
            session=s,
            actions=[action(t, 0, before_state=before)],
            messages=[message(t, "buy shoes", role="user"), message(t, "clicking cart")],
            verifications=[verification(t, 0)],
            usage=[usage(task_id=t.id, cost_usd=0.001)],
        )
    )
    assert stored.version == 1
    assert stored.model_dump(exclude={"version"}) == t.model_dump(exclude={"version"})
    assert await store.tasks.get(TENANT_A, t.id) == stored
    [a] = await store.actions.list(TENANT_A, t.id)
    assert a.before_state == before
    messages = await store.messages.list(TENANT_A, s.id)
    assert [m.content for m in messages] == ["buy shoes", "clicking cart"]
    assert len(await store.verifications.list(TENANT_A, t.id)) == 1
    assert len(await store.usage.list_for_task(TENANT_A, t.id)) == 1
    assert await store.sessions.get(TENANT_A, s.id) == s


async def test_continuation_bumps_version_and_applies_updates(store: Store) -> None:
    first = await start_task(store)
    [step0] = await store.actions.list(TENANT_A, first.id)
    batch = next_step(first, state={"consecutive_successes": 1}, metrics={"steps": 2})
    batch.action_updates = [(step0.id, {"verification": {"success": True, "confidence": 0.8}})]
    batch.corrections = [
        CorrectionRecord(
            tenant_id=TENANT_A,
            task_id=first.id,
            step_index=1,
            attempt=1,
            strategy="ALTERNATIVE_SELECTOR",
            reason="not clickable",
            original_action="click(10)",
            corrected_action="click(11)",
        )
    ]
    stored = await store.finalize(batch)

    assert stored.version == 2
    assert stored.step_index == 1
    assert stored.state == {"consecutive_successes": 1}
    assert await store.tasks.get(TENANT_A, first.id) == stored
    steps = await store.actions.list(TENANT_A, first.id)
    assert [a.step_index for a in steps] == [0, 1]
    assert steps[0].verification == {"success": True, "confidence": 0.8}
    corrections = await store.corrections.list(TENANT_A, first.id)
    assert [c.corrected_action for c in corrections] == ["click(11)"]


async def test_continuation_keeps_the_fields_fixed_at_creation(store: Store) -> None:
    first = await start_task(store)
    batch = next_step(first)
    batch.task = batch.task.model_copy(
        update={
            "session_id": "elsewhere",
            "user_id": "someone",
            "created_at": datetime(2000, 1, 1, tzinfo=UTC),
        }
    )
    stored = await store.finalize(batch)
    assert (stored.session_id, stored.user_id, stored.created_at) == (
        first.session_id,
        first.user_id,
        first.created_at,
    )


async def test_session_upsert_updates_status_and_keeps_url_when_not_given(store: Store) -> None:
    first = await start_task(store)  # its session has no url
    stored = await store.sessions.get(TENANT_A, first.session_id)
    assert stored is not None and stored.url is None

    batch = next_step(first)
    batch.session = stored.model_copy(update={"url": "https://shop.example/"})
    second = await store.finalize(batch)
    done = next_step(second, status="completed")
    done.session = stored.model_copy(update={"status": "completed", "updated_at": utcnow()})
    await store.finalize(done)

    final = await store.sessions.get(TENANT_A, first.session_id)
    assert final is not None
    assert (final.status, final.url, final.created_at) == (
        "completed",
        "https://shop.example/",
        stored.created_at,
    )


async def test_new_task_twice_is_a_conflict(store: Store) -> None:
    first = await start_task(store)
    again = FinalizeBatch(task=first.model_copy(update={"version": 0}), expected_version=None)
    with pytest.raises(TaskConflict) as caught:
        await store.finalize(again)
    assert caught.value.task_id == first.id
    assert caught.value.expected_version is None


async def test_stale_version_is_a_conflict_and_writes_nothing(store: Store) -> None:
    first = await start_task(store)
    await store.finalize(next_step(first))
    before = await _snapshot(store, TENANT_A, first.id, first.session_id)
    with pytest.raises(TaskConflict):
        await store.finalize(next_step(first))  # still expects version 1
    assert await _snapshot(store, TENANT_A, first.id, first.session_id) == before


async def test_duplicate_step_in_one_batch_fails_entirely(store: Store) -> None:
    first = await start_task(store)
    before = await _snapshot(store, TENANT_A, first.id, first.session_id)
    batch = next_step(first)
    t = batch.task
    batch.actions = [action(t, 1), action(t, 1)]
    batch.session = session(id=first.session_id, status="completed")
    batch.verifications = [verification(t, 0)]
    batch.usage = [usage(task_id=t.id)]
    with pytest.raises(DuplicateKey):
        await store.finalize(batch)
    assert await _snapshot(store, TENANT_A, first.id, first.session_id) == before


async def test_step_already_stored_fails_entirely(store: Store) -> None:
    first = await start_task(store)
    before = await _snapshot(store, TENANT_A, first.id, first.session_id)
    batch = next_step(first)
    batch.actions = [action(batch.task, 0)]  # step 0 exists
    with pytest.raises(DuplicateKey):
        await store.finalize(batch)
    assert await _snapshot(store, TENANT_A, first.id, first.session_id) == before


async def test_update_of_an_unknown_action_fails_entirely(store: Store) -> None:
    first = await start_task(store)
    before = await _snapshot(store, TENANT_A, first.id, first.session_id)
    batch = next_step(first)
    batch.action_updates = [("no-such-action", {"verification": {"success": False}})]
    with pytest.raises(StorageError):
        await store.finalize(batch)
    assert await _snapshot(store, TENANT_A, first.id, first.session_id) == before


async def test_concurrent_finalize_one_wins(store: Store) -> None:
    first = await start_task(store)
    results = await asyncio.gather(
        store.finalize(next_step(first)), store.finalize(next_step(first)), return_exceptions=True
    )
    wins = [r for r in results if not isinstance(r, BaseException)]
    conflicts = [r for r in results if isinstance(r, TaskConflict)]
    assert len(wins) == 1 and len(conflicts) == 1, results
    assert [a.step_index for a in await store.actions.list(TENANT_A, first.id)] == [0, 1]
    # the two messages of the first request + the winner's
    assert len(await store.messages.list(TENANT_A, first.session_id)) == 3
    stored = await store.tasks.get(TENANT_A, first.id)
    assert stored is not None and stored.version == 2


async def test_concurrent_finalize_from_two_instances_one_wins(backend: Backend) -> None:
    one, two = await backend.open(), await backend.open()
    first = await start_task(one)
    results = await asyncio.gather(
        one.finalize(next_step(first)), two.finalize(next_step(first)), return_exceptions=True
    )
    assert sorted(type(r).__name__ for r in results) == ["Task", "TaskConflict"], results
    assert len(await two.actions.list(TENANT_A, first.id)) == 2


async def test_concurrent_new_task_with_one_id_one_wins(store: Store) -> None:
    s = session()
    t = task(session_id=s.id)
    batches = [
        FinalizeBatch(task=t, expected_version=None, actions=[action(t, 0)]) for _ in range(2)
    ]
    results = await asyncio.gather(*(store.finalize(b) for b in batches), return_exceptions=True)
    assert sorted(type(r).__name__ for r in results) == ["Task", "TaskConflict"], results
    assert len(await store.actions.list(TENANT_A, t.id)) == 1


async def test_batch_pointing_at_another_tenant_is_refused(store: Store) -> None:
    t = task()
    foreign = FinalizeBatch(task=t, expected_version=None, messages=[message(task(TENANT_B), "x")])
    with pytest.raises(ValueError):
        await store.finalize(foreign)
    other_task = FinalizeBatch(task=t, expected_version=None, actions=[action(task(), 0)])
    with pytest.raises(ValueError):
        await store.finalize(other_task)
    assert await store.tasks.get(TENANT_A, t.id) is None


async def test_action_update_may_only_set_action_fields(store: Store) -> None:
    first = await start_task(store)
    [step0] = await store.actions.list(TENANT_A, first.id)
    batch = next_step(first)
    batch.action_updates = [(step0.id, {"tenant_id": TENANT_B})]
    with pytest.raises(ValueError):
        await store.finalize(batch)


async def test_session_of_another_tenant_is_never_touched(store: Store) -> None:
    theirs = await start_task(store, TENANT_B)
    t = task(TENANT_A, session_id=theirs.session_id)
    hijack = FinalizeBatch(
        task=t,
        expected_version=None,
        session=session(TENANT_A, id=theirs.session_id, status="failed"),
    )
    with pytest.raises(StorageError):
        await store.finalize(hijack)
    assert await store.tasks.get(TENANT_A, t.id) is None
    kept = await store.sessions.get(TENANT_B, theirs.session_id)
    assert kept is not None and kept.status == "active"
