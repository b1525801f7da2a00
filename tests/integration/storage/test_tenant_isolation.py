"""A tenant never sees or changes another tenant's records."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from storage import (
    ApiKey,
    DuplicateKey,
    FinalizeBatch,
    KnowledgeChunk,
    KnowledgeDocument,
    MemorySettings,
    Recipe,
    Skill,
    Store,
    Task,
    TaskConflict,
    utcnow,
)
from tests.integration.storage.builders import (
    TENANT_A,
    TENANT_B,
    USER,
    ago,
    next_step,
    start_task,
    usage,
)


@dataclass
class TenantA:
    task: Task
    key: ApiKey
    skill: Skill
    recipe: Recipe
    document: KnowledgeDocument


@pytest.fixture
async def tenant_a(store: Store) -> TenantA:
    t = await start_task(store, TENANT_A, updated_at=ago(hours=2))
    batch = next_step(t)
    batch.usage = [usage(task_id=t.id, cost_usd=0.01)]
    t = await store.finalize(batch)
    key = ApiKey(tenant_id=TENANT_A, user_id=USER, key_hash="hash-a", prefix="sk-a")
    await store.api_keys.create(key)
    skill = Skill(tenant_id=TENANT_A, domain="shop.example", goal="checkout")
    skill = await store.skills.learn(skill, t.id, utcnow())
    recipe = Recipe(tenant_id=TENANT_A, domain="shop.example", template="checkout {v1}", variables=["v1"])
    recipe = await store.recipes.record_run(recipe, t.id, utcnow())
    await store.memory_settings.put(MemorySettings(tenant_id=TENANT_A, skills=False, replay=False))
    domain = "shop.example"
    doc = KnowledgeDocument(
        tenant_id=TENANT_A,
        source=f"https://{domain}/",
        source_kind="url",
        media_type="text/html",
        domains=[domain],
        content_hash="h",
    )
    chunk = KnowledgeChunk(
        tenant_id=TENANT_A,
        document_id=doc.id,
        source=doc.source,
        domains=[domain],
        ordinal=0,
        text="checkout help",
        content_hash="c",
    )
    await store.knowledge.upsert_document(doc, [chunk])
    return TenantA(task=t, key=key, skill=skill, recipe=recipe, document=doc)


async def test_tenant_b_reads_nothing_of_tenant_a(store: Store, tenant_a: TenantA) -> None:
    t = tenant_a.task
    assert await store.sessions.get(TENANT_B, t.session_id) is None
    assert await store.sessions.list(TENANT_B, USER) == []
    assert await store.messages.list(TENANT_B, t.session_id) == []
    assert await store.tasks.get(TENANT_B, t.id) is None
    assert await store.tasks.list(TENANT_B) == []
    assert await store.tasks.list(TENANT_B, t.session_id) == []
    assert await store.tasks.find_active(TENANT_B, t.session_id) is None
    assert await store.actions.list(TENANT_B, t.id) == []
    assert await store.actions.last(TENANT_B, t.id) is None
    assert await store.corrections.list(TENANT_B, t.id) == []
    assert await store.verifications.list(TENANT_B, t.id) == []
    assert await store.verifications.list_since(TENANT_B, ago(days=1)) == []
    assert await store.usage.list_for_task(TENANT_B, t.id) == []
    far = utcnow().replace(year=2100)
    assert await store.usage.totals(TENANT_B, ago(days=1), far, "task") == []
    assert await store.api_keys.list(TENANT_B) == []
    assert await store.skills.for_domain(TENANT_B, "shop.example") == []
    assert await store.skills.get(TENANT_B, tenant_a.skill.id) is None
    assert await store.skills.list(TENANT_B) == []
    assert await store.skills.list(TENANT_B, "shop.example") == []
    assert await store.skills.total(TENANT_B) == 0
    assert await store.skills.count(TENANT_B) == 0
    assert await store.recipes.find(TENANT_B, "shop.example") == []
    assert await store.recipes.get(TENANT_B, tenant_a.recipe.id) is None
    assert await store.recipes.list(TENANT_B, "shop.example") == []
    assert await store.recipes.count(TENANT_B) == 0
    assert await store.memory_settings.get(TENANT_B) is None
    assert await store.knowledge.get_document(TENANT_B, tenant_a.document.id) is None
    assert await store.knowledge.list_documents(TENANT_B) == []
    assert await store.knowledge.search(TENANT_B, "checkout", None) == []
    assert await store.knowledge.find_document(TENANT_B, tenant_a.document.source) is None
    assert await store.knowledge.list_chunks(TENANT_B, source=tenant_a.document.source) == []
    assert await store.knowledge.count_chunks(TENANT_B) == 0


async def test_tenant_b_changes_nothing_of_tenant_a(store: Store, tenant_a: TenantA) -> None:
    t = tenant_a.task
    updated = await store.messages.update_last_action_status(TENANT_B, t.session_id, "failure", "x")
    assert updated is False
    assert await store.tasks.expire_stale(TENANT_B, t.session_id, utcnow()) == 0
    with pytest.raises(TaskConflict):
        await store.tasks.fail(TENANT_B, t.id, t.version, "X", "hijack")
    hijack = next_step(t).task.model_copy(update={"tenant_id": TENANT_B, "status": "failed"})
    with pytest.raises(TaskConflict):
        await store.finalize(FinalizeBatch(task=hijack, expected_version=t.version))
    with pytest.raises(TaskConflict):
        await store.finalize(FinalizeBatch(task=hijack, expected_version=None))
    assert await store.api_keys.revoke(TENANT_B, tenant_a.key.id, utcnow()) is False
    await store.skills.record_outcome(TENANT_B, tenant_a.skill.id, False, utcnow())
    await store.skills.set_status(TENANT_B, tenant_a.skill.id, "admitted")
    assert await store.skills.delete(TENANT_B, tenant_a.skill.id) is False
    assert await store.skills.delete_all(TENANT_B) == 0
    assert await store.skills.evict(TENANT_B, [tenant_a.skill.id]) == 0
    with pytest.raises(DuplicateKey):
        await store.skills.learn(tenant_a.skill.model_copy(update={"tenant_id": TENANT_B}), "t-b", utcnow())
    await store.recipes.record_replay(TENANT_B, tenant_a.recipe.id, False, utcnow())
    await store.recipes.set_status(TENANT_B, tenant_a.recipe.id, "promoted")
    assert await store.recipes.delete(TENANT_B, tenant_a.recipe.id) is False
    assert await store.recipes.delete_all(TENANT_B, "shop.example") == 0
    assert await store.recipes.evict(TENANT_B, [tenant_a.recipe.id]) == 0
    with pytest.raises(DuplicateKey):
        await store.recipes.record_run(tenant_a.recipe.model_copy(update={"tenant_id": TENANT_B}), "t-b", utcnow())
    await store.memory_settings.put(MemorySettings(tenant_id=TENANT_B))
    assert await store.knowledge.delete_document(TENANT_B, tenant_a.document.id) is False
    [chunk] = await store.knowledge.list_chunks(TENANT_A, source=tenant_a.document.source)
    assert await store.knowledge.supersede(TENANT_B, {chunk.id: "other"}) == 0

    assert await store.tasks.get(TENANT_A, t.id) == t
    messages = await store.messages.list(TENANT_A, t.session_id)
    assert [m.action_status for m in messages if m.role == "assistant"] == [None, None]
    key = await store.api_keys.get_by_hash("hash-a")
    assert key is not None and key.revoked_at is None
    assert await store.skills.get(TENANT_A, tenant_a.skill.id) == tenant_a.skill
    assert await store.recipes.get(TENANT_A, tenant_a.recipe.id) == tenant_a.recipe
    mine = await store.memory_settings.get(TENANT_A)
    assert mine is not None and (mine.skills, mine.replay) == (False, False)
    hits = await store.knowledge.search(TENANT_A, "checkout", None)
    assert [h.chunk.superseded_by for h in hits] == [None]
