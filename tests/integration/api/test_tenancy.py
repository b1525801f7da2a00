"""Every query is tenant-scoped: another tenant's ids are simply not found."""

from __future__ import annotations

from tests.integration.api.conftest import Api
from tests.support.pages import save_form

URL = "https://clinic.example/"


async def test_another_tenants_ids_are_404_on_every_route(api: Api) -> None:
    first = (await api.interact({"url": URL, "query": "click the Save button", "dom": save_form()})).json()
    task_id, session_id = first["taskId"], first["sessionId"]
    b = api.headers(api.key_b)

    continued = await api.interact({"url": URL, "taskId": task_id, "dom": save_form(toast="Saved")}, key=api.key_b)
    assert continued.status_code == 404
    with_session = await api.interact({"url": URL, "query": "click Save", "sessionId": session_id, "dom": save_form()}, key=api.key_b)
    assert with_session.status_code == 404
    for path in (
        f"/api/tasks/{task_id}",
        f"/api/session/{session_id}",
        f"/api/session/{session_id}/messages",
        f"/api/session/{session_id}/tasks",
        f"/api/session/{session_id}/task/active",
    ):
        response = await api.client.get(path, headers=b)
        assert response.status_code == 404, path
        # Nothing of tenant A's data comes back (the id the caller sent may be echoed).
        assert "click the Save button" not in response.text
        assert '"status":"active"' not in response.text

    # Tenant A still sees everything, untouched by B's attempts.
    detail = (await api.client.get(f"/api/tasks/{task_id}", headers=api.headers())).json()
    assert detail["status"] == "active"
    assert len(detail["steps"]) == 1


async def test_task_of_another_session_is_404(api: Api) -> None:
    first = (await api.interact({"url": URL, "query": "click the Save button", "dom": save_form()})).json()
    other = await api.client.post("/api/session", json={"url": URL}, headers=api.headers())
    assert other.status_code == 201
    response = await api.interact(
        {"url": URL, "taskId": first["taskId"], "sessionId": other.json()["sessionId"], "dom": save_form(toast="Saved")}
    )
    assert response.status_code == 404
