"""Crawl jobs: create, progress, cancel, abandoned-worker sweep, tenant isolation."""

from __future__ import annotations

import pytest

from storage import CrawlJob, DuplicateKey, Store, utcnow
from tests.integration.storage.builders import TENANT_A, TENANT_B, USER, ago


def job(tenant_id: str = TENANT_A, **fields: object) -> CrawlJob:
    fields.setdefault("url", "https://shop.example/")
    return CrawlJob(tenant_id=tenant_id, user_id=USER, strategy="spider", max_pages=50, max_depth=2, **fields)


async def test_create_get_update_list(store: Store) -> None:
    first = job(domains=["shop.example"])
    second = job(url="https://docs.example/")
    await store.crawl_jobs.create(first)
    await store.crawl_jobs.create(second)
    assert await store.crawl_jobs.get(TENANT_A, first.id) == first
    with pytest.raises(DuplicateKey):
        await store.crawl_jobs.create(first)

    started = utcnow()
    errors = [{"url": f"https://shop.example/{i}", "error": "HTTP 500"} for i in range(60)]
    updated = await store.crawl_jobs.update(
        TENANT_A, first.id, status="running", started_at=started, pages_done=3, pages_total=9, bytes=1234, errors=errors
    )
    assert updated is not None
    assert (updated.status, updated.pages_done, updated.pages_total, updated.bytes) == ("running", 3, 9, 1234)
    assert updated.started_at == started
    assert len(updated.errors) == 50  # capped
    assert await store.crawl_jobs.get(TENANT_A, first.id) == updated
    assert [j.id for j in await store.crawl_jobs.list(TENANT_A)] == [second.id, first.id]
    assert [j.id for j in await store.crawl_jobs.list(TENANT_A, limit=1)] == [second.id]


async def test_update_refuses_unknown_fixed_or_ill_typed_fields(store: Store) -> None:
    made = job()
    await store.crawl_jobs.create(made)
    for bad in ({"tenant_id": TENANT_B}, {"nope": 1}, {"status": "exploded"}, {"pages_done": "many"}):
        with pytest.raises(ValueError):
            await store.crawl_jobs.update(TENANT_A, made.id, **bad)
    assert await store.crawl_jobs.get(TENANT_A, made.id) == made
    assert await store.crawl_jobs.update(TENANT_A, "no-such-job", status="done") is None


async def test_cancel_a_queued_job_ends_it_a_running_one_is_asked(store: Store) -> None:
    queued, running, done = job(), job(status="running"), job(status="done")
    for made in (queued, running, done):
        await store.crawl_jobs.create(made)

    cancelled = await store.crawl_jobs.request_cancel(TENANT_A, queued.id)
    assert cancelled is not None
    assert (cancelled.status, cancelled.cancel_requested, cancelled.finished_at is not None) == ("cancelled", True, True)
    asked = await store.crawl_jobs.request_cancel(TENANT_A, running.id)
    assert asked is not None and (asked.status, asked.cancel_requested) == ("running", True)
    finished = await store.crawl_jobs.request_cancel(TENANT_A, done.id)
    assert finished == done  # a finished job is left as it ended
    assert await store.crawl_jobs.request_cancel(TENANT_A, "no-such-job") is None


async def test_fail_abandoned_fails_only_stale_active_jobs(store: Store) -> None:
    stale_running = job(status="running", heartbeat_at=ago(minutes=10))
    stale_queued = job(tenant_id=TENANT_B, heartbeat_at=ago(minutes=10))
    fresh = job(status="running")
    old_done = job(status="done", heartbeat_at=ago(hours=1))
    for made in (stale_running, stale_queued, fresh, old_done):
        await store.crawl_jobs.create(made)

    assert await store.crawl_jobs.fail_abandoned(ago(minutes=2)) == 2
    assert await store.crawl_jobs.fail_abandoned(ago(minutes=2)) == 0
    failed = await store.crawl_jobs.get(TENANT_A, stale_running.id)
    assert failed is not None and failed.status == "failed"
    assert failed.error == "the worker running this job stopped" and failed.finished_at is not None
    other = await store.crawl_jobs.get(TENANT_B, stale_queued.id)
    assert other is not None and other.status == "failed"
    assert await store.crawl_jobs.get(TENANT_A, fresh.id) == fresh
    assert await store.crawl_jobs.get(TENANT_A, old_done.id) == old_done


async def test_another_tenant_neither_sees_nor_changes_a_job(store: Store) -> None:
    made = job()
    await store.crawl_jobs.create(made)
    assert await store.crawl_jobs.get(TENANT_B, made.id) is None
    assert await store.crawl_jobs.list(TENANT_B) == []
    assert await store.crawl_jobs.update(TENANT_B, made.id, status="done") is None
    assert await store.crawl_jobs.request_cancel(TENANT_B, made.id) is None
    assert await store.crawl_jobs.get(TENANT_A, made.id) == made
