"""Recipes: verified runs counted once per task, replays, demotion; memory settings."""

from __future__ import annotations

import asyncio

import pytest

from storage import DuplicateKey, MemorySettings, Recipe, Store, utcnow
from tests.integration.storage.backends import Backend
from tests.integration.storage.builders import TENANT_A, TENANT_B, ago

STEPS = [
    {
        "fingerprint": "0123456789abcdef",
        "action": "setValue",
        "target": {"role": "textbox", "name": "Patient name"},
        "value": {"var": "v1"},
        "chain": False,
    },
    {
        "fingerprint": "0123456789abcdef",
        "action": "click",
        "target": {"role": "button", "name": "Save"},
        "value": None,
        "chain": False,
    },
]


def recipe(
    id: str = "r1", domain: str = "emr.example", tenant_id: str = TENANT_A, **fields: object
) -> Recipe:
    return Recipe(
        id=id,
        tenant_id=tenant_id,
        domain=domain,
        template="Add patient {v1}",
        variables=["v1"],
        steps=STEPS,
        **fields,
    )


async def test_record_run_inserts_then_counts_distinct_tasks(store: Store) -> None:
    first = await store.recipes.record_run(recipe(), "task-1", ago(minutes=2))
    assert (first.verified_runs, first.evidence, first.status) == (1, ["task-1"], "candidate")
    assert first.steps == STEPS and first.variables == ["v1"]
    again = await store.recipes.record_run(recipe(), "task-1", ago(minutes=1))
    assert (again.verified_runs, again.evidence) == (1, ["task-1"])
    now = utcnow()
    second = await store.recipes.record_run(recipe(), "task-2", now)
    assert (second.verified_runs, second.evidence, second.last_used) == (2, ["task-1", "task-2"], now)
    assert await store.recipes.get(TENANT_A, "r1") == second


async def test_concurrent_runs_lose_no_update(backend: Backend) -> None:
    one, two = await backend.open(), await backend.open()
    tasks = [f"task-{n}" for n in range(5)]
    await asyncio.gather(
        *(st.recipes.record_run(recipe(), t, utcnow()) for t in tasks for st in (one, two))
    )
    stored = await two.recipes.get(TENANT_A, "r1")
    assert stored is not None and stored.verified_runs == len(tasks)


async def test_another_tenants_id_is_refused(store: Store) -> None:
    theirs = await store.recipes.record_run(recipe(tenant_id=TENANT_B), "task-b", ago(days=1))
    with pytest.raises(DuplicateKey):
        await store.recipes.record_run(recipe(), "task-a", utcnow())
    assert await store.recipes.get(TENANT_B, "r1") == theirs
    assert await store.recipes.count(TENANT_A) == 0


async def test_record_replay_counts_and_a_failure_demotes(store: Store) -> None:
    await store.recipes.record_run(recipe(), "task-1", ago(days=2))
    await store.recipes.set_status(TENANT_A, "r1", "promoted")
    now = utcnow()
    await store.recipes.record_replay(TENANT_A, "r1", True, now)
    stored = await store.recipes.get(TENANT_A, "r1")
    assert stored is not None
    assert (stored.replays, stored.failed_runs, stored.status, stored.last_used) == (1, 0, "promoted", now)
    await store.recipes.record_replay(TENANT_B, "r1", False, now)  # other tenant: no effect
    await store.recipes.record_replay(TENANT_A, "r1", False, now)
    stored = await store.recipes.get(TENANT_A, "r1")
    assert stored is not None
    assert (stored.replays, stored.failed_runs, stored.status, stored.verified_runs) == (2, 1, "demoted", 0)
    again = await store.recipes.record_run(recipe(), "task-9", utcnow())
    assert (again.status, again.verified_runs) == ("demoted", 1)  # runs after the failure count afresh


async def test_find_is_the_domains_recipes_newest_first(store: Store) -> None:
    await store.recipes.record_run(recipe("old"), "t", ago(days=3))
    await store.recipes.record_run(recipe("new"), "t", ago(days=1))
    await store.recipes.record_run(recipe("demoted"), "t", utcnow())
    await store.recipes.record_run(recipe("elsewhere", domain="other.example"), "t", utcnow())
    await store.recipes.record_run(recipe("theirs", tenant_id=TENANT_B), "t", utcnow())
    await store.recipes.set_status(TENANT_A, "old", "promoted")
    await store.recipes.set_status(TENANT_A, "demoted", "demoted")
    found = await store.recipes.find(TENANT_A, "emr.example")
    assert [(r.id, r.status) for r in found] == [("demoted", "demoted"), ("new", "candidate"), ("old", "promoted")]
    assert [r.id for r in await store.recipes.find(TENANT_A, "emr.example", limit=1)] == ["demoted"]
    assert await store.recipes.find(TENANT_A, "nowhere.example") == []


async def test_list_delete_evict_and_sweep(store: Store) -> None:
    for n, domain in enumerate(["a.example", "b.example", "a.example"]):
        await store.recipes.record_run(recipe(f"r{n}", domain=domain), "t", ago(days=20 - n * 5))
    await store.recipes.record_run(recipe("theirs", domain="a.example", tenant_id=TENANT_B), "t", ago(days=20))
    await store.recipes.set_status(TENANT_A, "r0", "promoted")
    assert [r.id for r in await store.recipes.list(TENANT_A)] == ["r2", "r1", "r0"]
    assert [r.id for r in await store.recipes.list(TENANT_A, "a.example")] == ["r2", "r0"]
    assert [r.id for r in await store.recipes.list(TENANT_A, offset=1, limit=1)] == ["r1"]
    assert [r.id for r in await store.recipes.list(TENANT_A, status="promoted")] == ["r0"]
    assert await store.recipes.total(TENANT_A, "a.example") == 2
    assert await store.recipes.total(TENANT_A, status="candidate") == 2
    assert await store.recipes.delete_unused_since(ago(days=12)) == 3  # r0, r1 and theirs
    assert [r.id for r in await store.recipes.list(TENANT_A)] == ["r2"]
    await store.recipes.record_run(recipe("r3", domain="b.example"), "t", utcnow())
    assert await store.recipes.evict(TENANT_A, ["r3", "missing"]) == 1
    assert await store.recipes.delete(TENANT_A, "r2") is True
    assert await store.recipes.delete(TENANT_A, "r2") is False
    await store.recipes.record_run(recipe("r4", domain="b.example"), "t", utcnow())
    await store.recipes.record_run(recipe("r5", domain="c.example"), "t", utcnow())
    assert await store.recipes.delete_all(TENANT_A, "b.example") == 1
    assert await store.recipes.delete_all(TENANT_A) == 1
    assert await store.recipes.count(TENANT_A) == 0


async def test_upsert_replaces_but_keeps_created_at(store: Store) -> None:
    original = recipe(created_at=ago(days=3))
    await store.recipes.upsert(original)
    await store.recipes.upsert(original.model_copy(update={"status": "promoted", "created_at": utcnow()}))
    stored = await store.recipes.get(TENANT_A, "r1")
    assert stored is not None and stored.status == "promoted"
    assert stored.created_at == original.created_at


async def test_memory_settings_are_per_tenant_and_replaced(store: Store) -> None:
    assert await store.memory_settings.get(TENANT_A) is None
    first = MemorySettings(tenant_id=TENANT_A, skills=False, updated_at=ago(minutes=1))
    await store.memory_settings.put(first)
    assert await store.memory_settings.get(TENANT_A) == first
    assert await store.memory_settings.get(TENANT_B) is None
    second = MemorySettings(tenant_id=TENANT_A, skills=True, replay=False)
    await store.memory_settings.put(second)
    assert await store.memory_settings.get(TENANT_A) == second
