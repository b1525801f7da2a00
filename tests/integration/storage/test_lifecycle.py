"""init, ping, close, durability and the values that come back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from storage import FinalizeBatch, Session, Store
from tests.integration.storage.builders import TENANT_A, action, start_task, task
from tests.integration.storage.backends import Backend


async def test_init_is_idempotent_and_keeps_data(backend: Backend) -> None:
    store = await backend.open()
    first = await start_task(store)
    await store.init()
    again = await backend.open()  # a second process starting on the same database
    assert await again.tasks.get(TENANT_A, first.id) == first


async def test_ping(store: Store) -> None:
    assert await store.ping() is True


async def test_data_survives_close_and_reopen(backend: Backend) -> None:
    store = await backend.open()
    first = await start_task(store)
    await store.close()
    reopened = await backend.open()
    assert await reopened.tasks.get(TENANT_A, first.id) == first
    assert len(await reopened.actions.list(TENANT_A, first.id)) == 1


async def test_datetimes_come_back_aware_utc_in_milliseconds(store: Store) -> None:
    local = timezone(timedelta(hours=5, minutes=30))
    created = datetime(2026, 3, 1, 17, 30, 45, 123987, tzinfo=local)
    naive = datetime(2026, 3, 1, 12, 0, 0, 456789)  # naive means UTC
    t = task(created_at=created, updated_at=naive)
    returned = await store.finalize(FinalizeBatch(task=t, expected_version=None))
    stored = await store.tasks.get(TENANT_A, t.id)
    assert stored is not None and returned == stored
    assert stored.created_at == datetime(2026, 3, 1, 12, 0, 45, 123000, tzinfo=UTC)
    assert stored.created_at.utcoffset() == timedelta(0)
    assert stored.updated_at == datetime(2026, 3, 1, 12, 0, 0, 456000, tzinfo=UTC)


async def test_json_fields_round_trip_as_json(store: Store) -> None:
    state = {
        "counters": {"retries": 2, "ratio": 0.5, "done": False, "none": None},
        "history": [["click", 1], {"ünïcødé": "✓ 漢字"}],
        "when": datetime(2026, 3, 1, tzinfo=UTC),  # JSON mode: stored as ISO text
    }
    t = task(state=state, plan={"steps": ()})
    step = action(t, 0, metrics={"ms": 12.5})
    batch = FinalizeBatch(task=t, expected_version=None, actions=[step])
    returned = await store.finalize(batch)
    stored = await store.tasks.get(TENANT_A, t.id)
    assert stored is not None and returned == stored
    assert stored.state == {
        "counters": {"retries": 2, "ratio": 0.5, "done": False, "none": None},
        "history": [["click", 1], {"ünïcødé": "✓ 漢字"}],
        "when": "2026-03-01T00:00:00Z",
    }
    assert stored.plan == {"steps": []}
    [a] = await store.actions.list(TENANT_A, t.id)
    assert a.metrics == {"ms": 12.5}


async def test_session_fields_round_trip(store: Store) -> None:
    s = Session(
        tenant_id=TENANT_A, user_id="u", status="completed", url="https://x.example/", title="X"
    )
    await store.sessions.create(s)
    assert await store.sessions.get(TENANT_A, s.id) == s
