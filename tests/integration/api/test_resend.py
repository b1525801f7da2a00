"""A continuation re-sent after its answer was lost is answered again, never stepped twice;
a stale or mismatched one is a 409 that changes nothing."""

from __future__ import annotations

from typing import Any

from tests.integration.api.conftest import Api
from tests.support.pages import v3_tree

URL = "https://clinic.example/patients/new"


def save_form(name: str = "", toast: str | None = None) -> list[dict[str, Any]]:
    nodes = v3_tree()
    nodes[2] = {**nodes[2], "v": name}
    return nodes + ([{"i": "msg1", "r": "status", "n": toast}] if toast else [])


async def _steps(api: Api, task_id: str) -> list[dict[str, Any]]:
    detail = (await api.client.get(f"/api/tasks/{task_id}", headers=api.headers())).json()
    return detail["steps"] if "steps" in detail else detail["actions"]


async def _start(api: Api) -> tuple[dict[str, Any], dict[str, Any]]:
    goal = 'Type "Jas" into Name and click Save'
    first = (await api.interact({"url": URL, "query": goal, "interactiveTree": save_form()})).json()
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    return first, ids


async def test_a_resent_continuation_gets_the_same_answer_and_no_new_step(api: Api) -> None:
    first, ids = await _start(api)
    page = {"url": URL, "interactiveTree": save_form(name="Jas"), "lastActionStatus": "success", "stepIndex": first["stepIndex"], **ids}
    second = (await api.interact(page)).json()
    assert second["stepIndex"] == first["stepIndex"] + 1 and not second["replayed"]
    steps_before = len(await _steps(api, ids["taskId"]))

    again = await api.interact(page)  # the client never saw `second` and sends the same request
    assert again.status_code == 200, again.text
    replay = again.json()
    assert replay["replayed"] is True
    for key in ("action", "thought", "status", "stepIndex", "decidedBy", "contract", "verification", "failureCode"):
        assert replay[key] == second[key], key
    assert replay["usage"]["modelCalls"] == 0
    assert len(await _steps(api, ids["taskId"])) == steps_before

    # The next real continuation carries the newest stepIndex and steps on.
    done = (await api.interact({"url": URL, "interactiveTree": save_form(name="Jas", toast="Saved"), "stepIndex": second["stepIndex"], **ids})).json()
    assert done["status"] == "completed" and not done["replayed"]


async def test_a_resent_request_that_ended_the_task_is_answered_again(api: Api) -> None:
    first = (await api.interact({"url": URL, "query": "click the Save button", "interactiveTree": save_form()})).json()
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    page = {"url": URL, "interactiveTree": save_form(toast="Saved"), "stepIndex": first["stepIndex"], **ids}
    done = (await api.interact(page)).json()
    assert done["status"] == "completed"
    again = await api.interact(page)
    assert again.status_code == 200 and again.json()["replayed"] and again.json()["status"] == "completed"
    without_marker = await api.interact({k: v for k, v in page.items() if k != "stepIndex"})
    assert without_marker.status_code == 409  # an old client: the task is finished, as before


async def test_a_stale_or_mismatched_step_is_a_conflict_that_changes_nothing(api: Api) -> None:
    first, ids = await _start(api)
    second = (await api.interact({"url": URL, "interactiveTree": save_form(name="Jas"), "stepIndex": first["stepIndex"], **ids})).json()
    steps = len(await _steps(api, ids["taskId"]))
    for body in (
        # the step before the newest, but another page: not a re-send of what was answered
        {"url": URL, "interactiveTree": save_form(name="Someone else"), "stepIndex": first["stepIndex"], **ids},
        # a step that does not exist yet
        {"url": URL, "interactiveTree": save_form(name="Jas"), "stepIndex": second["stepIndex"] + 5, **ids},
    ):
        response = await api.interact(body)
        assert response.status_code == 409, response.text
        error = response.json()["error"]
        assert error["code"] == "TASK_CONFLICT" and error["details"]["newestStepIndex"] == second["stepIndex"]
    assert len(await _steps(api, ids["taskId"])) == steps


async def test_a_step_s_message_says_how_its_action_went_once_verified(api: Api) -> None:
    first, ids = await _start(api)
    await api.interact({"url": URL, "interactiveTree": save_form(name="Jas"), "stepIndex": first["stepIndex"], **ids})
    messages = (await api.client.get(f"/api/session/{ids['sessionId']}/messages", headers=api.headers())).json()["messages"]
    assistant = [m for m in messages if m["role"] == "assistant"]
    assert [m["actionStatus"] for m in assistant] == ["success", "pending"]  # the newest step is not verified yet
