"""Tasks, their actions, corrections and verification records."""

from __future__ import annotations

import pytest

from storage import CorrectionRecord, FinalizeBatch, Store, TaskConflict, utcnow
from tests.integration.storage.builders import (
    TENANT_A,
    TENANT_B,
    action,
    ago,
    next_step,
    session,
    start_task,
    task,
    verification,
)


async def _new(store: Store, session_id: str, **fields: object) -> None:
    t = task(session_id=session_id, **fields)
    await store.finalize(FinalizeBatch(task=t, expected_version=None))


async def test_get_unknown_task_is_none(store: Store) -> None:
    assert await store.tasks.get(TENANT_A, "nope") is None


async def test_list_is_newest_first_and_filters_by_session(store: Store) -> None:
    s1, s2 = session(), session()
    for minutes, sid in ((30, s1.id), (20, s2.id), (10, s1.id)):
        await _new(store, sid, query=f"{minutes}", created_at=ago(minutes=minutes))
    assert [t.query for t in await store.tasks.list(TENANT_A)] == ["10", "20", "30"]
    assert [t.query for t in await store.tasks.list(TENANT_A, s1.id)] == ["10", "30"]
    assert [t.query for t in await store.tasks.list(TENANT_A, limit=1)] == ["10"]


async def test_list_filters_by_status_and_pages_after_a_task(store: Store) -> None:
    s = session()
    for minutes, status in ((40, "failed"), (30, "active"), (20, "completed"), (10, "failed")):
        await _new(store, s.id, query=f"{minutes}", status=status, created_at=ago(minutes=minutes))
    newest = await store.tasks.list(TENANT_A)
    assert [t.query for t in await store.tasks.list(TENANT_A, status="failed")] == ["10", "40"]
    assert [t.query for t in await store.tasks.list(TENANT_A, after=newest[0].id)] == ["20", "30", "40"]
    assert [t.query for t in await store.tasks.list(TENANT_A, s.id, 1, status="failed", after=newest[0].id)] == ["40"]
    assert await store.tasks.list(TENANT_B, status="failed") == []
    assert await store.tasks.list(TENANT_B, after=newest[0].id) == []  # another tenant's task anchors nothing


async def test_pages_never_skip_or_repeat_tasks_created_in_the_same_instant(store: Store) -> None:
    s, instant = session(), ago(minutes=5)
    for number in range(7):
        await _new(store, s.id, query=str(number), created_at=instant)
    seen: list[str] = []
    after: str | None = None
    while page := await store.tasks.list(TENANT_A, limit=3, after=after):
        seen.extend(t.query for t in page)
        after = page[-1].id
    assert sorted(seen) == [str(n) for n in range(7)] and len(seen) == 7
    assert seen == [t.query for t in await store.tasks.list(TENANT_A)]


async def test_find_active_returns_the_most_recently_updated_active_task(store: Store) -> None:
    s = session()
    await _new(store, s.id, query="old", updated_at=ago(minutes=5))
    await _new(store, s.id, query="new", updated_at=ago(minutes=1), url="https://b.example/")
    await _new(store, s.id, query="done", status="completed")
    await _new(store, session().id, query="other session")

    found = await store.tasks.find_active(TENANT_A, s.id)
    assert found is not None and found.query == "new"
    on_url = await store.tasks.find_active(TENANT_A, s.id, url="https://shop.example/cart")
    assert on_url is not None and on_url.query == "old"
    assert await store.tasks.find_active(TENANT_A, s.id, url="https://none.example/") is None
    assert await store.tasks.find_active(TENANT_A, "no-session") is None


async def test_expire_stale_interrupts_only_old_active_tasks_of_that_session(store: Store) -> None:
    s = session()
    await _new(store, s.id, query="zombie", updated_at=ago(minutes=45))
    await _new(store, s.id, query="zombie2", updated_at=ago(minutes=31))
    await _new(store, s.id, query="fresh", updated_at=ago(minutes=5))
    await _new(store, s.id, query="old but done", status="completed", updated_at=ago(hours=3))
    await _new(store, session().id, query="other session zombie", updated_at=ago(hours=3))

    assert await store.tasks.expire_stale(TENANT_A, s.id, older_than=ago(minutes=30)) == 2
    by_query = {t.query: t for t in await store.tasks.list(TENANT_A)}
    assert by_query["zombie"].status == "interrupted"
    assert by_query["zombie"].version == 2  # a status change moves the version guard
    assert by_query["zombie2"].status == "interrupted"
    assert by_query["fresh"].status == "active"
    assert by_query["old but done"].status == "completed"
    assert by_query["other session zombie"].status == "active"
    assert await store.tasks.expire_stale(TENANT_A, s.id, older_than=ago(minutes=30)) == 0
    found = await store.tasks.find_active(TENANT_A, s.id)
    assert found is not None and found.query == "fresh"


async def test_a_request_that_loaded_a_task_before_it_expired_gets_a_conflict(store: Store) -> None:
    first = await start_task(store, updated_at=ago(hours=1))
    await store.tasks.expire_stale(TENANT_A, first.session_id, older_than=ago(minutes=30))
    with pytest.raises(TaskConflict):
        await store.finalize(next_step(first))


async def test_fail_sets_status_and_reason_under_the_version_guard(store: Store) -> None:
    first = await start_task(store)
    failed = await store.tasks.fail(
        TENANT_A, first.id, first.version, "MAX_RETRIES", "gave up after 3 tries"
    )
    assert (failed.status, failed.failure_code, failed.failure_reason) == (
        "failed",
        "MAX_RETRIES",
        "gave up after 3 tries",
    )
    assert failed.version == first.version + 1
    assert failed.updated_at >= first.updated_at
    assert await store.tasks.get(TENANT_A, first.id) == failed
    with pytest.raises(TaskConflict):
        await store.tasks.fail(TENANT_A, first.id, first.version, "X", "stale version")
    with pytest.raises(TaskConflict):
        await store.tasks.fail(TENANT_A, "no-such-task", 1, "X", "unknown")


async def test_actions_are_listed_by_step_and_last_is_the_highest_step(store: Store) -> None:
    first = await start_task(store)
    assert (await store.actions.last(TENANT_A, first.id)) is not None
    t = first.model_copy(update={"step_index": 3})
    await store.finalize(
        FinalizeBatch(
            task=t,
            expected_version=1,
            actions=[action(t, 3), action(t, 1), action(t, 2, actions=[{"a": 1}])],
        )
    )
    steps = await store.actions.list(TENANT_A, first.id)
    assert [a.step_index for a in steps] == [0, 1, 2, 3]
    assert steps[2].actions == [{"a": 1}]
    last = await store.actions.last(TENANT_A, first.id)
    assert last is not None and last.step_index == 3
    assert await store.actions.last(TENANT_A, "no-such-task") is None
    assert await store.actions.list(TENANT_A, "no-such-task") == []


async def test_recent_actions_are_the_last_steps_and_only_the_newest_carries_its_page(store: Store) -> None:
    first = await start_task(store)
    t = first.model_copy(update={"step_index": 4})
    pages = {n: {"url": f"https://x.example/{n}", "skeleton": {"elements": {str(n): {"role": "button"}}}} for n in range(1, 5)}
    await store.finalize(
        FinalizeBatch(
            task=t,
            expected_version=1,
            actions=[action(t, n, before_state=pages[n], verification={"success": n % 2 == 0}) for n in (4, 2, 1, 3)],
        )
    )
    recent = await store.actions.recent(TENANT_A, first.id, 3)
    assert [a.step_index for a in recent] == [2, 3, 4]
    assert [a.before_state for a in recent] == [None, None, pages[4]]
    assert [a.verification for a in recent] == [{"success": True}, {"success": False}, {"success": True}]
    full = {a.step_index: a for a in await store.actions.list(TENANT_A, first.id)}
    assert [a.model_dump(exclude={"before_state"}) for a in recent] == [full[n].model_dump(exclude={"before_state"}) for n in (2, 3, 4)]

    assert [a.step_index for a in await store.actions.recent(TENANT_A, first.id, 50)] == [0, 1, 2, 3, 4]
    assert await store.actions.recent(TENANT_A, first.id, 0) == []
    assert await store.actions.recent(TENANT_A, "no-such-task", 5) == []
    assert await store.actions.recent(TENANT_B, first.id, 5) == []


async def test_corrections_and_verifications_are_listed_oldest_first(store: Store) -> None:
    first = await start_task(store)
    batch = next_step(first)
    t = batch.task
    batch.verifications = [
        verification(t, 0, created_at=ago(minutes=2), record={"observations": ["url changed"]}),
        verification(t, 1, success=False, goal_achieved=None, error_category="NO_CHANGE"),
    ]
    batch.corrections = [
        CorrectionRecord(
            tenant_id=TENANT_A,
            task_id=t.id,
            step_index=1,
            attempt=attempt,
            strategy="RETRY",
            reason="no change",
            original_action="click(10)",
            corrected_action=None,
        )
        for attempt in (1, 2)
    ]
    await store.finalize(batch)

    records = await store.verifications.list(TENANT_A, first.id)
    assert [(v.step_index, v.success, v.goal_achieved) for v in records] == [
        (0, True, False),
        (1, False, None),
    ]
    assert records[0].record == {"observations": ["url changed"]}
    assert [c.attempt for c in await store.corrections.list(TENANT_A, first.id)] == [1, 2]
    recent = await store.verifications.list_since(TENANT_A, ago(minutes=1))
    assert [v.step_index for v in recent] == [1]
    assert len(await store.verifications.list_since(TENANT_A, ago(hours=1))) == 2
    assert await store.verifications.list_since(TENANT_A, utcnow().replace(year=2100)) == []
