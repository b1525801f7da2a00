"""Skills: counted once per verified task, tenant + domain scoped, listed, deleted, swept."""

from __future__ import annotations

import asyncio

import pytest

from storage import EVIDENCE_LIMIT, DuplicateKey, Skill, Store, utcnow
from tests.integration.storage.backends import Backend
from tests.integration.storage.builders import TENANT_A, TENANT_B, ago


def skill(
    goal: str = "Add patient {v1}",
    domain: str = "emr.example",
    tenant_id: str = TENANT_A,
    **fields: object,
) -> Skill:
    return Skill(
        tenant_id=tenant_id,
        domain=domain,
        goal=goal,
        failed_state={"action": "click", "target": {"role": "button", "name": "Save"}},
        successful_action={
            "action": "click",
            "target": {"role": "button", "name": "Save patient"},
            "strategy": "ALTERNATIVE_SELECTOR",
        },
        **fields,
    )


async def test_learn_inserts_with_one_success_and_the_task_as_evidence(store: Store) -> None:
    now = utcnow()
    stored = await store.skills.learn(skill(id="k1", last_used=ago(days=3)), "task-1", now)
    assert (stored.id, stored.success_count, stored.failure_count) == ("k1", 1, 0)
    assert (stored.evidence, stored.status, stored.last_used) == (["task-1"], "candidate", now)
    assert await store.skills.get(TENANT_A, "k1") == stored


async def test_learn_is_idempotent_per_task_and_counts_distinct_tasks(store: Store) -> None:
    s = skill(id="k1")
    first = await store.skills.learn(s, "task-1", ago(minutes=3))
    again = await store.skills.learn(s, "task-1", ago(minutes=2))
    assert again.success_count == 1 and again.evidence == ["task-1"]
    assert again.created_at == first.created_at
    later = utcnow()
    second = await store.skills.learn(s, "task-2", later)
    assert (second.success_count, second.evidence, second.last_used) == (2, ["task-1", "task-2"], later)
    assert await store.skills.count(TENANT_A) == 1


async def test_learn_keeps_the_stored_fields_and_status(store: Store) -> None:
    s = skill(id="k1")
    await store.skills.learn(s, "task-1", utcnow())
    await store.skills.set_status(TENANT_A, "k1", "admitted")
    changed = s.model_copy(update={"goal": "other", "status": "candidate", "success_count": 99})
    stored = await store.skills.learn(changed, "task-2", utcnow())
    assert (stored.goal, stored.status, stored.success_count) == (s.goal, "admitted", 2)


async def test_evidence_keeps_the_last_tasks(store: Store) -> None:
    s = skill(id="k1")
    for n in range(EVIDENCE_LIMIT + 5):
        stored = await store.skills.learn(s, f"task-{n}", utcnow())
    assert stored.success_count == EVIDENCE_LIMIT + 5
    assert stored.evidence == [f"task-{n}" for n in range(5, EVIDENCE_LIMIT + 5)]


async def test_concurrent_learns_lose_no_update(backend: Backend) -> None:
    one, two = await backend.open(), await backend.open()
    s = skill(id="k1")
    tasks = [f"task-{n}" for n in range(6)]
    await asyncio.gather(
        *(st.skills.learn(s, t, utcnow()) for t in tasks for st in (one, two))
    )
    stored = await one.skills.get(TENANT_A, "k1")
    assert stored is not None and stored.success_count == len(tasks)
    assert sorted(stored.evidence) == sorted(tasks)


async def test_learning_another_tenants_id_is_refused_and_changes_nothing(store: Store) -> None:
    theirs = await store.skills.learn(skill(id="k1", tenant_id=TENANT_B), "task-b", ago(days=1))
    with pytest.raises(DuplicateKey):
        await store.skills.learn(skill(id="k1"), "task-a", utcnow())
    assert await store.skills.get(TENANT_B, "k1") == theirs
    assert await store.skills.get(TENANT_A, "k1") is None
    assert await store.skills.count(TENANT_A) == 0


async def test_for_domain_is_the_tenants_domain_newest_first(store: Store) -> None:
    old = await store.skills.learn(skill(id="old"), "t", ago(days=5))
    new = await store.skills.learn(skill(id="new"), "t", ago(days=1))
    await store.skills.learn(skill(id="elsewhere", domain="other.example"), "t", utcnow())
    await store.skills.learn(skill(id="theirs", tenant_id=TENANT_B), "t", utcnow())
    found = await store.skills.for_domain(TENANT_A, "emr.example")
    assert [s.id for s in found] == [new.id, old.id]
    assert [s.id for s in await store.skills.for_domain(TENANT_A, "emr.example", limit=1)] == ["new"]
    assert await store.skills.for_domain(TENANT_A, "nowhere.example") == []


async def test_list_filters_pages_and_totals(store: Store) -> None:
    for n, domain in enumerate(["a.example", "b.example", "a.example", "a.example"]):
        await store.skills.learn(skill(id=f"s{n}", domain=domain), "t", ago(days=10 - n))
    await store.skills.set_status(TENANT_A, "s2", "admitted")
    await store.skills.learn(skill(id="theirs", domain="a.example", tenant_id=TENANT_B), "t", utcnow())
    assert [s.id for s in await store.skills.list(TENANT_A)] == ["s3", "s2", "s1", "s0"]
    assert [s.id for s in await store.skills.list(TENANT_A, "a.example")] == ["s3", "s2", "s0"]
    assert [s.id for s in await store.skills.list(TENANT_A, "a.example", 1, 1)] == ["s2"]
    assert [s.id for s in await store.skills.list(TENANT_A, status="admitted")] == ["s2"]
    assert await store.skills.list(TENANT_A, "a.example", 10, 3) == []
    assert await store.skills.total(TENANT_A) == 4
    assert await store.skills.total(TENANT_A, "a.example") == 3
    assert await store.skills.total(TENANT_A, "b.example", status="admitted") == 0
    assert await store.skills.total(TENANT_A, status="candidate") == 3


async def test_delete_and_delete_all_with_and_without_domain(store: Store) -> None:
    for n, domain in enumerate(["a.example", "b.example", "a.example", "c.example"]):
        await store.skills.learn(skill(id=f"s{n}", domain=domain), "t", utcnow())
    await store.skills.learn(skill(id="theirs", domain="a.example", tenant_id=TENANT_B), "t", utcnow())
    assert await store.skills.delete(TENANT_A, "s1") is True
    assert await store.skills.delete(TENANT_A, "s1") is False
    assert await store.skills.delete_all(TENANT_A, "a.example") == 2
    assert [s.id for s in await store.skills.list(TENANT_A)] == ["s3"]
    assert await store.skills.delete_all(TENANT_A) == 1
    assert await store.skills.count(TENANT_A) == 0
    assert await store.skills.count(TENANT_B) == 1


async def test_count_and_evict(store: Store) -> None:
    for n in range(4):
        await store.skills.learn(skill(id=f"s{n}"), "t", utcnow())
    await store.skills.learn(skill(id="theirs", tenant_id=TENANT_B), "t", utcnow())
    assert await store.skills.count(TENANT_A) == 4
    assert await store.skills.evict(TENANT_A, ["s0", "s2", "s2", "theirs", "missing"]) == 2
    assert await store.skills.evict(TENANT_A, []) == 0
    assert sorted(s.id for s in await store.skills.list(TENANT_A)) == ["s1", "s3"]
    assert await store.skills.count(TENANT_B) == 1


async def test_record_outcome_counts_and_touches_last_used(store: Store) -> None:
    s = await store.skills.learn(skill(id="k1"), "t", ago(days=10))
    now = utcnow()
    await store.skills.record_outcome(TENANT_A, s.id, True, now)
    await store.skills.record_outcome(TENANT_A, s.id, False, now)
    await store.skills.record_outcome(TENANT_B, s.id, True, now)  # other tenant: no effect
    stored = await store.skills.get(TENANT_A, s.id)
    assert stored is not None
    assert (stored.success_count, stored.failure_count, stored.last_used) == (2, 1, now)


async def test_set_status(store: Store) -> None:
    await store.skills.learn(skill(id="k1"), "t", utcnow())
    await store.skills.set_status(TENANT_A, "k1", "admitted")
    stored = await store.skills.get(TENANT_A, "k1")
    assert stored is not None and stored.status == "admitted"


async def test_upsert_replaces_but_keeps_created_at(store: Store) -> None:
    original = skill(id="k1", created_at=ago(days=3))
    await store.skills.upsert(original)
    changed = original.model_copy(update={"goal": "sign in", "success_count": 4, "created_at": utcnow()})
    await store.skills.upsert(changed)
    stored = await store.skills.get(TENANT_A, "k1")
    assert stored is not None and (stored.goal, stored.success_count) == ("sign in", 4)
    assert stored.created_at == original.created_at
    with pytest.raises(DuplicateKey):
        await store.skills.upsert(original.model_copy(update={"tenant_id": TENANT_B}))


async def test_ttl_sweep_spans_tenants(store: Store) -> None:
    await store.skills.learn(skill(id="unused"), "t", ago(days=20))
    await store.skills.learn(skill(id="used"), "t", ago(days=1))
    await store.skills.learn(skill(id="theirs", tenant_id=TENANT_B), "t", ago(days=20))
    assert (await store.skills.count(TENANT_A), await store.skills.count(TENANT_B)) == (2, 1)
    assert await store.skills.delete_unused_since(ago(days=10)) == 2
    assert [s.id for s in await store.skills.list(TENANT_A)] == ["used"]
    assert await store.skills.count(TENANT_B) == 0
