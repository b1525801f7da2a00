"""Two requests on one task step: exactly one wins, the other is 409 and writes nothing."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from tests.integration.api.conftest import Api, ApiFactory
from tests.support.pages import save_form

URL = "https://clinic.example/"


async def test_concurrent_continuations_one_wins_one_conflicts(api: Api) -> None:
    first = (await api.interact({"url": URL, "query": "click the Save button", "dom": save_form()})).json()
    body = {"url": URL, "taskId": first["taskId"], "dom": save_form(toast="Saved")}

    # Hold both requests after they loaded the task, so both decide from the same version.
    barrier = asyncio.Barrier(2)
    actions = api.store.actions
    real_list = actions.list

    async def list_after_both_loaded(tenant_id: str, task_id: str):  # type: ignore[no-untyped-def]
        found = await real_list(tenant_id, task_id)
        await asyncio.wait_for(barrier.wait(), timeout=5)
        return found

    actions.list = list_after_both_loaded  # type: ignore[method-assign]
    try:
        responses = await asyncio.gather(api.interact(body), api.interact(body))
    finally:
        actions.list = real_list  # type: ignore[method-assign]
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200, 409], [r.text for r in responses]
    loser = next(r for r in responses if r.status_code == 409)
    assert loser.json()["error"]["code"] == "TASK_CONFLICT"

    actions = await api.store.actions.list("tenant-a", first["taskId"])
    assert len(actions) == 2
    messages = await api.store.messages.list("tenant-a", first["sessionId"])
    assert len(messages) == 3  # user goal, first action, the winner's finish


async def test_rate_limit_is_shared_by_two_app_instances_on_one_database(make_api: ApiFactory) -> None:
    one = await make_api(rate_limit_per_minute=10)
    two = await make_api(rate_limit_per_minute=10)
    # One fixed window for the whole test: the limit counts per clock minute.
    noon = datetime(2026, 11, 22, 12, 0, 30, tzinfo=UTC)
    one.set_clock(lambda: noon)
    two.set_clock(lambda: noon)
    key = one.key_a
    statuses = []
    for n in range(12):
        instance = one if n % 2 == 0 else two
        response = await instance.interact({"url": URL, "query": "click the Save button", "dom": save_form()}, key=key)
        statuses.append(response.status_code)
        if response.status_code == 429:
            assert 1 <= int(response.headers["Retry-After"]) <= 60
            assert response.json()["error"]["code"] == "RATE_LIMITED"
    assert statuses.count(200) == 10
    assert statuses.count(429) == 2
    assert statuses[-2:] == [429, 429]
