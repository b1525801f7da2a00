"""Idempotency-Key on POST /api/agent/interact: a re-sent first request gets its answer back
and starts no second task; another body under the key is a 422, a key still in flight a 409."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx

from app.idempotency import fingerprint
from storage import IdempotencyRecord, utcnow
from tests.integration.api.conftest import Api
from tests.support.pages import v3_tree

URL = "https://clinic.example/patients/new"
GOAL = 'Type "Jas" into Name and click Save'
FIRST = {"url": URL, "query": GOAL, "interactiveTree": v3_tree()}


async def send(api: Api, body: dict[str, Any], key: str | None, api_key: str | None = None) -> httpx.Response:
    headers = api.headers(api_key) | ({"Idempotency-Key": key} if key is not None else {})
    return await api.client.post("/api/agent/interact", json=body, headers=headers)


async def task_ids(api: Api, api_key: str | None = None) -> list[str]:
    listed = (await api.client.get("/api/tasks", headers=api.headers(api_key))).json()
    return [t["taskId"] for t in listed["tasks"]]


async def test_a_first_request_sent_twice_with_its_key_makes_one_task(api: Api) -> None:
    first = await send(api, FIRST, "retry-1")
    assert first.status_code == 200, first.text
    assert "Idempotent-Replayed" not in first.headers
    again = await send(api, FIRST, "retry-1")
    assert again.status_code == 200, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    replay, answer = again.json(), first.json()
    for name in ("taskId", "sessionId", "action", "actionDetails", "thought", "status", "stepIndex", "contract"):
        assert replay[name] == answer[name], name
    assert replay["replayed"] is True and replay["usage"]["modelCalls"] == 0
    assert await task_ids(api) == [answer["taskId"]]
    detail = (await api.client.get(f"/api/tasks/{answer['taskId']}", headers=api.headers())).json()
    assert len(detail["steps"]) == 1


async def test_without_a_key_a_resent_first_request_is_a_second_task(api: Api) -> None:
    one, two = (await send(api, FIRST, None)).json(), (await send(api, FIRST, None)).json()
    assert one["taskId"] != two["taskId"]  # what the key is for


async def test_the_same_body_with_its_fields_in_another_order_is_the_same_request(api: Api) -> None:
    first = (await send(api, FIRST, "order")).json()
    reordered = dict(reversed(list(FIRST.items())))
    again = await send(api, reordered, "order")
    assert again.status_code == 200 and again.json()["taskId"] == first["taskId"]


async def test_the_key_with_another_body_is_refused_and_changes_nothing(api: Api) -> None:
    first = (await send(api, FIRST, "k-2")).json()
    for other in ({**FIRST, "query": 'Type "Bob" into Name and click Save'}, {**FIRST, "pageTitle": "New patient"}):
        refused = await send(api, other, "k-2")
        assert refused.status_code == 422, refused.text
        error = refused.json()["error"]
        assert error["code"] == "IDEMPOTENCY_KEY_REUSED" and error["details"]["idempotencyKey"] == "k-2"
    assert await task_ids(api) == [first["taskId"]]


async def test_keys_belong_to_one_tenant(api: Api) -> None:
    mine = (await send(api, FIRST, "shared-key")).json()
    theirs = await send(api, FIRST, "shared-key", api.key_b)
    assert theirs.status_code == 200 and "Idempotent-Replayed" not in theirs.headers
    assert theirs.json()["taskId"] != mine["taskId"]
    assert await task_ids(api, api.key_b) == [theirs.json()["taskId"]]


async def test_a_key_still_in_flight_is_a_409_with_retry_after(api: Api) -> None:
    now = utcnow()
    held = IdempotencyRecord(
        tenant_id="tenant-a",
        user_id="alice",
        key="busy",
        fingerprint=fingerprint("POST", "/api/agent/interact", FIRST),
        locked_until=now + timedelta(seconds=120),
        created_at=now,
        expires_at=now + timedelta(hours=24),
    )
    assert await api.store.idempotency.claim(held, now) is None
    response = await send(api, FIRST, "busy")
    assert response.status_code == 409, response.text
    assert response.json()["error"]["code"] == "IDEMPOTENCY_KEY_IN_FLIGHT"
    assert 1 <= int(response.headers["Retry-After"]) <= 2
    assert await task_ids(api) == []
    # Its worker died: once the lease is over the same request takes the key over.
    api.set_clock(lambda: utcnow() + timedelta(seconds=121))
    taken = await send(api, FIRST, "busy")
    assert taken.status_code == 200, taken.text
    assert await task_ids(api) == [taken.json()["taskId"]]


async def test_concurrent_duplicates_make_one_task(api: Api) -> None:
    answers = await asyncio.gather(*[send(api, FIRST, "burst") for _ in range(4)])
    statuses = sorted(r.status_code for r in answers)
    assert set(statuses) <= {200, 409} and statuses[0] == 200, [r.text for r in answers]
    ok = {r.json()["taskId"] for r in answers if r.status_code == 200}
    assert len(ok) == 1
    for refused in (r for r in answers if r.status_code == 409):
        assert refused.json()["error"]["code"] == "IDEMPOTENCY_KEY_IN_FLIGHT"
    assert await task_ids(api) == list(ok)


async def test_an_error_keeps_nothing_and_frees_the_key(api: Api) -> None:
    missing = {**FIRST, "taskId": "no-such-task"}
    for _ in range(2):  # not stored: the retry runs again
        response = await send(api, missing, "err")
        assert response.status_code == 404 and response.json()["error"]["code"] == "TASK_NOT_FOUND"
    fresh = await send(api, FIRST, "err")  # the key is free: another body is no reuse
    assert fresh.status_code == 200 and "Idempotent-Replayed" not in fresh.headers


async def test_a_key_expires_after_its_ttl(api: Api) -> None:
    first = (await send(api, FIRST, "old")).json()
    api.set_clock(lambda: utcnow() + timedelta(hours=24, seconds=1))
    later = await send(api, FIRST, "old")
    assert later.status_code == 200 and "Idempotent-Replayed" not in later.headers
    assert later.json()["taskId"] != first["taskId"]


async def test_a_continuation_with_a_key_is_answered_once(api: Api) -> None:
    first = (await send(api, FIRST, "start")).json()
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    nodes = v3_tree()
    nodes[2] = {**nodes[2], "v": "Jas"}
    body = {"url": URL, "interactiveTree": nodes, "lastActionStatus": "success", **ids}  # an old client: no stepIndex
    second = await send(api, body, "step-2")
    again = await send(api, body, "step-2")
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["stepIndex"] == second.json()["stepIndex"] == first["stepIndex"] + 1
    detail = (await api.client.get(f"/api/tasks/{first['taskId']}", headers=api.headers())).json()
    assert len(detail["steps"]) == 2  # without the key the re-send would have been a third step


async def test_a_question_to_the_user_is_kept_under_its_key(api: Api) -> None:
    body = {"url": "https://clinic.example/", "query": "Add a new patient", "dom": "<html><body><a data-llm-id='1' href='/p'>Patients</a></body></html>"}
    first = await send(api, body, "ask")
    assert first.status_code == 200 and first.json()["status"] == "needs_user_input", first.text
    again = await send(api, body, "ask")
    assert again.status_code == 200 and again.headers["Idempotent-Replayed"] == "true"
    for name in ("status", "sessionId", "thought", "needsUserInput", "taskId"):
        assert again.json()[name] == first.json()[name], name
    messages = await api.store.messages.list("tenant-a", first.json()["sessionId"])
    assert len(messages) == 2  # the question was asked once


async def test_a_malformed_key_is_a_400(api: Api) -> None:
    for bad in ("", " ", "x" * 256, "tab\there", '""'):
        response = await send(api, FIRST, bad)
        assert response.status_code == 400, (bad, response.text)
        assert response.json()["error"]["code"] == "IDEMPOTENCY_KEY_INVALID"
    raw = await api.client.post(
        "/api/agent/interact", json=FIRST, headers=[("Authorization", f"Bearer {api.key_a}"), ("Idempotency-Key", "clé".encode("latin-1"))]
    )
    assert raw.status_code == 400
    for good in ("x" * 255, '"8e03978e-40d5-43e8-bc93-6894a57f9324"', "a b"):
        assert (await send(api, FIRST, good)).status_code == 200, good
    assert await task_ids(api) != []


async def test_a_key_replay_carries_the_password_it_typed_and_the_database_does_not(api: Api, db_url: str) -> None:
    secret = "Quokka-hunter7"
    goal = f'Log in as alice with password "{secret}"'
    password = {"i": "2", "r": "inp", "n": "Password", "ty": "password", "v": ""}
    page = [{"i": "1", "r": "inp", "n": "Username", "v": "alice"}, password, {"i": "3", "r": "btn", "n": "Log in"}]
    body = {"url": "https://portal.example/login", "query": goal, "interactiveTree": page}
    answers = [await send(api, body, "login-1") for _ in range(2)]
    assert [a.status_code for a in answers] == [200, 200] and answers[1].headers["Idempotent-Replayed"] == "true"
    first, replay = answers[0].json(), answers[1].json()
    # the step that types it: the replay carries the real value, as the answer did
    assert first["action"] == replay["action"] == f'setValue("2", "{secret}")'
    assert secret not in replay["thought"] and secret not in str(replay["contract"])
    path = db_url.removeprefix("sqlite:///")
    stored = b"".join(p.read_bytes() for p in Path(path).parent.glob(Path(path).name + "*") if not p.name.endswith(".secret-key"))
    assert secret.encode() not in stored
