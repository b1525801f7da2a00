"""A lost tab recovers its task; zombie tasks expire lazily."""

from __future__ import annotations

from datetime import timedelta

from storage import utcnow
from tests.integration.api.conftest import Api
from tests.support.pages import save_form

URL = "https://clinic.example/patients/new"


async def test_active_task_is_recovered_by_session(api: Api) -> None:
    first = (await api.interact({"url": URL, "query": "click the Save button", "dom": save_form()})).json()
    response = await api.client.get(f"/api/session/{first['sessionId']}/task/active", params={"url": URL}, headers=api.headers())
    assert response.status_code == 200
    active = response.json()
    assert active["taskId"] == first["taskId"]
    assert active["status"] == "active"
    assert active["currentStepIndex"] == 1
    assert active["query"] == "click the Save button"

    # The tab navigated within the site (the action did that): still this task.
    moved = await api.client.get(
        f"/api/session/{first['sessionId']}/task/active", params={"url": "https://clinic.example/patients"}, headers=api.headers()
    )
    assert moved.status_code == 200 and moved.json()["taskId"] == first["taskId"]
    elsewhere = await api.client.get(
        f"/api/session/{first['sessionId']}/task/active", params={"url": "https://other.example/"}, headers=api.headers()
    )
    assert elsewhere.status_code == 404

    # The recovered id continues the task.
    done = await api.interact({"url": URL, "taskId": active["taskId"], "dom": save_form(toast="Saved")})
    assert done.json()["status"] == "completed"
    gone = await api.client.get(f"/api/session/{first['sessionId']}/task/active", headers=api.headers())
    assert gone.status_code == 404


async def test_task_idle_for_over_30_minutes_is_interrupted_and_can_resume(api: Api) -> None:
    first = (await api.interact({"url": URL, "query": "click the Save button", "dom": save_form()})).json()
    api.set_clock(lambda: utcnow() + timedelta(minutes=31))
    response = await api.client.get(f"/api/session/{first['sessionId']}/task/active", headers=api.headers())
    assert response.status_code == 404
    detail = (await api.client.get(f"/api/tasks/{first['taskId']}", headers=api.headers())).json()
    assert detail["status"] == "interrupted"

    # A client that still holds the id may resume it.
    resumed = await api.interact({"url": URL, "taskId": first["taskId"], "dom": save_form(toast="Saved")})
    assert resumed.status_code == 200
    assert resumed.json()["status"] == "completed"


async def test_recent_task_is_not_expired(api: Api) -> None:
    first = (await api.interact({"url": URL, "query": "click the Save button", "dom": save_form()})).json()
    api.set_clock(lambda: utcnow() + timedelta(minutes=29))
    response = await api.client.get(f"/api/session/{first['sessionId']}/task/active", headers=api.headers())
    assert response.status_code == 200
