"""Skills library: tenant + domain scoped, ranked by goal, swept after disuse."""

from __future__ import annotations

import pytest

from storage import DuplicateKey, Skill, Store, utcnow
from tests.integration.storage.builders import TENANT_A, TENANT_B, ago


def skill(
    goal: str, domain: str = "emr.example", tenant_id: str = TENANT_A, **fields: object
) -> Skill:
    return Skill(
        tenant_id=tenant_id,
        domain=domain,
        goal=goal,
        failed_state={"action": "click(68)", "elementDescription": "Patient menu"},
        successful_action={"action": "click(79)", "strategy": "ALTERNATIVE_SELECTOR"},
        **fields,
    )


async def test_find_ranks_by_goal_words_within_tenant_and_domain(store: Store) -> None:
    best = skill("Add a new patient record")
    partial = skill("Add an appointment")
    unrelated = skill("Export billing report")
    for s in (
        best,
        partial,
        unrelated,
        skill("Add a new patient record", domain="other.example"),
        skill("Add a new patient record", tenant_id=TENANT_B),
    ):
        await store.skills.upsert(s)
    found = await store.skills.find(TENANT_A, "emr.example", "add new patient")
    assert [s.id for s in found] == [best.id, partial.id]
    top = await store.skills.find(TENANT_A, "emr.example", "add new patient", limit=1)
    assert [s.id for s in top] == [best.id]
    assert await store.skills.find(TENANT_A, "nowhere.example", "add new patient") == []


async def test_equal_goals_rank_by_success_rate_then_recency(store: Store) -> None:
    reliable = skill("login", success_count=9, failure_count=1, last_used=ago(days=5))
    flaky = skill("login", success_count=1, failure_count=9, last_used=ago(days=1))
    recent = skill("login", success_count=9, failure_count=1, last_used=ago(days=1))
    for s in (reliable, flaky, recent):
        await store.skills.upsert(s)
    assert [s.id for s in await store.skills.find(TENANT_A, "emr.example", "login")] == [
        recent.id,
        reliable.id,
        flaky.id,
    ]


async def test_upsert_replaces_but_keeps_created_at(store: Store) -> None:
    original = skill("login", created_at=ago(days=3))
    await store.skills.upsert(original)
    changed = original.model_copy(
        update={"goal": "sign in", "success_count": 4, "created_at": utcnow()}
    )
    await store.skills.upsert(changed)
    [stored] = await store.skills.find(TENANT_A, "emr.example", "sign in")
    assert stored.goal == "sign in" and stored.success_count == 4
    assert stored.created_at == original.created_at
    assert await store.skills.count(TENANT_A) == 1


async def test_upsert_of_another_tenants_skill_id_is_refused(store: Store) -> None:
    theirs = skill("login", tenant_id=TENANT_B)
    await store.skills.upsert(theirs)
    with pytest.raises(DuplicateKey):
        await store.skills.upsert(theirs.model_copy(update={"tenant_id": TENANT_A}))
    [kept] = await store.skills.find(TENANT_B, "emr.example", "login")
    assert kept.tenant_id == TENANT_B


async def test_record_outcome_counts_and_touches_last_used(store: Store) -> None:
    s = skill("login", last_used=ago(days=10))
    await store.skills.upsert(s)
    now = utcnow()
    await store.skills.record_outcome(TENANT_A, s.id, True, now)
    await store.skills.record_outcome(TENANT_A, s.id, True, now)
    await store.skills.record_outcome(TENANT_A, s.id, False, now)
    await store.skills.record_outcome(TENANT_B, s.id, True, now)  # other tenant: no effect
    [stored] = await store.skills.find(TENANT_A, "emr.example", "login")
    assert (stored.success_count, stored.failure_count, stored.last_used) == (2, 1, now)


async def test_count_and_ttl_sweep(store: Store) -> None:
    unused = skill("old", last_used=ago(days=20))
    used = skill("new", last_used=ago(days=1))
    theirs = skill("old", tenant_id=TENANT_B, last_used=ago(days=20))
    for s in (unused, used, theirs):
        await store.skills.upsert(s)
    assert (await store.skills.count(TENANT_A), await store.skills.count(TENANT_B)) == (2, 1)
    assert await store.skills.delete_unused_since(ago(days=10)) == 2  # a sweep spans tenants
    assert (await store.skills.count(TENANT_A), await store.skills.count(TENANT_B)) == (1, 0)
    assert [s.id for s in await store.skills.find(TENANT_A, "emr.example", "")] == [used.id]
