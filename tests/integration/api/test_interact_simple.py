"""The SIMPLE path end to end: one deterministic action, verified on the next request."""

from __future__ import annotations

import json

from tests.integration.api.conftest import Api
from tests.support.pages import save_form, v3_tree

URL = "https://clinic.example/patients/new"


async def test_single_action_goal_is_answered_without_a_model_and_completes_once_verified(api: Api) -> None:
    first = await api.interact({"url": URL, "query": "Click the Save button", "dom": save_form()})
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["action"] == 'click("4")'
    assert body["actionDetails"] == {"name": "click", "target": "4", "value": None, "seconds": None}
    assert body["status"] == "active"
    assert body["decidedBy"] == "policy"
    assert body["stepIndex"] == 0
    assert body["verification"] is None
    task_id, session_id = body["taskId"], body["sessionId"]

    second = await api.interact(
        {"url": URL, "taskId": task_id, "sessionId": session_id, "dom": save_form(toast="Patient saved")}
    )
    assert second.status_code == 200, second.text
    done = second.json()
    assert done["action"] == "finish()"
    assert done["actionDetails"]["name"] == "finish"
    assert done["status"] == "completed"
    assert done["verification"]["success"] is True
    assert done["verification"]["tier"] == 1
    assert any("Patient saved" in line for line in done["verification"]["observations"])

    detail = await api.client.get(f"/api/tasks/{task_id}", headers=api.headers())
    assert detail.status_code == 200
    steps = detail.json()["steps"]
    assert [s["action"] for s in steps] == ['click("4")', "finish()"]
    assert steps[0]["verification"]["success"] is True
    assert steps[1]["verification"] is None
    assert detail.json()["status"] == "completed"


async def test_v3_tree_request_is_served_by_element_id(api: Api) -> None:
    response = await api.interact(
        {"url": URL, "query": "click Cancel", "domMode": "semantic_v3", "interactiveTree": v3_tree(), "pageTitle": "New patient"}
    )
    assert response.status_code == 200, response.text
    assert response.json()["action"] == 'click("5")'


async def test_action_that_never_changes_the_page_is_corrected_then_fails_with_a_code(api: Api) -> None:
    first = (await api.interact({"url": URL, "query": "click the Save button", "dom": save_form()})).json()
    responses = []
    for minute in range(1, 12):
        # The clock ticks, nothing else changes: never a meaningful change.
        body = (await api.interact({"url": URL, "taskId": first["taskId"], "dom": save_form(clock=f"10:{minute:02d}")})).json()
        responses.append(body)
        if body["status"] != "active":
            break
    final = responses[-1]
    assert final["status"] == "failed"
    assert final["action"].startswith("fail(")
    assert all(r["verification"]["goalAchieved"] is not True for r in responses if r.get("verification"))
    detail = (await api.client.get(f"/api/tasks/{first['taskId']}", headers=api.headers())).json()
    assert detail["failureCode"] in {"MAX_RETRIES_EXCEEDED", "MAX_CONSECUTIVE_FAILURES", "LOOP_DETECTED", "NO_RECOVERY"}
    assert detail["corrections"], "each failed verification is answered by a recorded correction"


async def test_completed_task_takes_no_more_steps(api: Api) -> None:
    first = (await api.interact({"url": URL, "query": "click the Save button", "dom": save_form()})).json()
    await api.interact({"url": URL, "taskId": first["taskId"], "dom": save_form(toast="Saved")})
    again = await api.interact({"url": URL, "taskId": first["taskId"], "dom": save_form(toast="Saved")})
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "TASK_FINISHED"


async def test_max_steps_fails_the_task(make_api) -> None:  # type: ignore[no-untyped-def]
    api = await make_api(max_steps=1, rate_limit_per_minute=1000)
    first = (await api.interact({"url": URL, "query": "click the Save button", "dom": save_form()})).json()
    response = await api.interact({"url": URL, "taskId": first["taskId"], "dom": save_form(toast="Saved")})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "MAX_STEPS_EXCEEDED"
    detail = (await api.client.get(f"/api/tasks/{first['taskId']}", headers=api.headers())).json()
    assert detail["status"] == "failed"
    assert detail["failureCode"] == "MAX_STEPS_EXCEEDED"
    assert len(detail["steps"]) == 1


async def test_unknown_task_is_404(api: Api) -> None:
    response = await api.interact({"url": URL, "taskId": "no-such-task", "dom": save_form()})
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "TASK_NOT_FOUND"


async def test_session_message_log_records_the_exchange(api: Api) -> None:
    first = (await api.interact({"url": URL, "query": "click the Save button", "dom": save_form()})).json()
    response = await api.client.get(f"/api/session/{first['sessionId']}/messages", headers=api.headers())
    assert response.status_code == 200
    messages = response.json()["messages"]
    assert [(m["role"], m["action"]) for m in messages] == [("user", None), ("assistant", 'click("4")')]
    assert messages[0]["content"] == "click the Save button"


async def test_text_cut_inside_an_emoji_is_kept_with_a_replacement_character(api: Api) -> None:
    """JavaScript cut a label between the two halves of an emoji: the JSON carries a lone
    surrogate escape. The request is answered and stored; the half emoji becomes U+FFFD."""
    tree = v3_tree(extra=[{"i": "9", "r": "btn", "n": "Feedback \ud83d"}])
    body = json.dumps({"url": URL, "query": "Click the Feedback \ud83d button", "interactiveTree": tree})
    assert "\\ud83d" in body
    response = await api.client.post(
        "/api/agent/interact", content=body.encode(), headers={**api.headers(), "content-type": "application/json"}
    )
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["action"] == 'click("9")'
    task = await api.store.tasks.get("tenant-a", answer["taskId"])
    assert task is not None and task.query == "Click the Feedback \ufffd button"
    [step] = await api.store.actions.list("tenant-a", answer["taskId"])
    assert step.before_state is not None
    assert step.before_state["skeleton"]["elements"]["9"]["text"] == "Feedback \ufffd"

    html = json.dumps({"url": URL, "query": "Click the Save button", "dom": save_form().replace("</form>", "<p>\udc00 tail</p></form>")})
    response = await api.client.post(
        "/api/agent/interact", content=html.encode(), headers={**api.headers(), "content-type": "application/json"}
    )
    assert response.status_code == 200, response.text


async def test_a_typed_value_travels_as_structured_action_details(api: Api) -> None:
    body = (await api.interact({"url": URL, "query": "Type 'Jas \"JJ\" Smith' into Name", "interactiveTree": v3_tree()})).json()
    assert body["actionDetails"] == {"name": "setValue", "target": "3", "value": 'Jas "JJ" Smith', "seconds": None}


async def test_a_fields_placeholder_and_control_name_reach_the_service(api: Api) -> None:
    """The page script names a field by the label a person reads above it and sends its
    placeholder apart (``ph``): a goal that names the field by its placeholder still finds it."""
    tree = [
        {"i": "10", "r": "inp", "n": "Expiry", "ty": "text", "ph": "MM/YY", "fn": "cc-exp"},
        {"i": "11", "r": "inp", "n": "Security code", "ty": "text", "ph": "CVC", "fn": "cc-cvc"},
        {"i": "13", "r": "btn", "n": "Pay now"},
    ]
    response = await api.interact({"url": URL, "query": "Type '737' into the CVC field", "domMode": "semantic_v3", "interactiveTree": tree})
    assert response.status_code == 200, response.text
    assert response.json()["action"] == 'setValue("11", "737")'
