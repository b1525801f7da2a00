"""The tenant's tasks, listed and filtered a page at a time, and cancelled."""

from __future__ import annotations

from tests.integration.api.conftest import Api
from tests.support.pages import v3_tree

URL = "https://clinic.example/patients/new"


async def _task(api: Api, goal: str, session_id: str | None = None) -> dict:  # type: ignore[type-arg]
    body = {"url": URL, "query": goal, "interactiveTree": v3_tree(), **({"sessionId": session_id} if session_id else {})}
    return (await api.interact(body)).json()


async def test_tasks_are_listed_newest_first_filtered_and_paged(api: Api) -> None:
    first = await _task(api, "Click the Save button")
    second = await _task(api, "Click the Cancel button", first["sessionId"])
    third = await _task(api, "Click Patients")
    declined = await _task(api, "blorp the frobnicator")
    assert declined["status"] == "failed"

    listed = (await api.client.get("/api/tasks", headers=api.headers())).json()
    assert [t["taskId"] for t in listed["tasks"]] == [declined["taskId"], third["taskId"], second["taskId"], first["taskId"]]
    assert listed["nextCursor"] is None

    failed = (await api.client.get("/api/tasks", params={"status": "failed"}, headers=api.headers())).json()
    assert [t["taskId"] for t in failed["tasks"]] == [declined["taskId"]]
    assert failed["tasks"][0]["failureCode"] == "GOAL_NOT_UNDERSTOOD"
    session = (await api.client.get("/api/tasks", params={"sessionId": first["sessionId"]}, headers=api.headers())).json()
    assert {t["taskId"] for t in session["tasks"]} == {first["taskId"], second["taskId"]}

    page_one = (await api.client.get("/api/tasks", params={"limit": 3}, headers=api.headers())).json()
    assert len(page_one["tasks"]) == 3 and page_one["nextCursor"] == page_one["tasks"][-1]["taskId"]
    page_two = (await api.client.get("/api/tasks", params={"limit": 3, "cursor": page_one["nextCursor"]}, headers=api.headers())).json()
    assert [t["taskId"] for t in page_two["tasks"]] == [first["taskId"]] and page_two["nextCursor"] is None
    foreign = await api.client.get("/api/tasks", params={"cursor": first["taskId"]}, headers=api.headers(api.key_b))
    assert foreign.status_code == 422 and foreign.json()["error"]["details"] == {"cursor": first["taskId"]}

    other_tenant = (await api.client.get("/api/tasks", headers=api.headers(api.key_b))).json()
    assert other_tenant["tasks"] == []
    bad = await api.client.get("/api/tasks", params={"status": "nonsense", "limit": 0}, headers=api.headers())
    assert bad.status_code == 422


async def test_a_cancelled_task_fails_with_cancelled_and_takes_no_more_steps(api: Api) -> None:
    task = await _task(api, "Click the Save button")
    ids = {"taskId": task["taskId"], "sessionId": task["sessionId"]}
    cancelled = await api.client.post(f"/api/tasks/{task['taskId']}/cancel", headers=api.headers())
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json()["status"] == "failed" and cancelled.json()["failureCode"] == "CANCELLED"
    again = await api.client.post(f"/api/tasks/{task['taskId']}/cancel", headers=api.headers())
    assert again.status_code == 409 and again.json()["error"]["code"] == "TASK_FINISHED"
    step = await api.interact({"url": URL, "interactiveTree": v3_tree(), **ids})
    assert step.status_code == 409
    missing = await api.client.post("/api/tasks/nope/cancel", headers=api.headers())
    assert missing.status_code == 404
    foreign = await api.client.post(f"/api/tasks/{task['taskId']}/cancel", headers=api.headers(api.key_b))
    assert foreign.status_code == 404
