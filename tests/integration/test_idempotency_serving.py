"""Idempotency-Key against a real ``stepwise serve`` (two worker processes, one database):
a first request re-sent with its key makes one task, concurrent duplicates make one task,
and the key with another body is refused; a continuation re-sent without a key is answered
again from its stepIndex, never stepped twice."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from tests.support.serving import running_server

PAGE = [
    {"i": "1", "r": "inp", "n": "Name", "v": "", "ty": "text"},
    {"i": "2", "r": "btn", "n": "Save"},
]
FIRST = {"url": "https://clinic.example/patients/new", "query": 'Type "Jas" into Name and click Save', "interactiveTree": PAGE}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    with running_server(tmp_path_factory.mktemp("idempotency") / "stepwise.db", workers=2) as running:
        yield running


def _post(base: str, api_key: str, body: dict[str, Any], idempotency_key: str) -> httpx.Response:
    headers = {"Authorization": f"Bearer {api_key}", "Idempotency-Key": idempotency_key}
    return httpx.post(f"{base}/api/agent/interact", json=body, headers=headers, timeout=30)


def _tasks_with(base: str, api_key: str, query: str) -> list[str]:
    listed = httpx.get(f"{base}/api/tasks", params={"limit": 100}, headers={"Authorization": f"Bearer {api_key}"}, timeout=10)
    return [t["taskId"] for t in listed.json()["tasks"] if t["query"] == query]


def test_a_first_request_sent_twice_with_one_key_makes_one_task(server: tuple[str, str]) -> None:
    base, api_key = server
    body = {**FIRST, "query": f'{FIRST["query"]} ({uuid.uuid4().hex[:6]})'}
    key = str(uuid.uuid4())
    first, again = _post(base, api_key, body, key), _post(base, api_key, body, key)
    assert first.status_code == 200 and again.status_code == 200, (first.text, again.text)
    assert again.headers.get("Idempotent-Replayed") == "true" and "Idempotent-Replayed" not in first.headers
    assert again.json()["taskId"] == first.json()["taskId"] and again.json()["action"] == first.json()["action"]
    assert _tasks_with(base, api_key, body["query"]) == [first.json()["taskId"]]


def test_concurrent_duplicates_make_one_task(server: tuple[str, str]) -> None:
    base, api_key = server
    body = {**FIRST, "query": f'{FIRST["query"]} ({uuid.uuid4().hex[:6]})'}
    key = str(uuid.uuid4())
    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(lambda _: _post(base, api_key, body, key), range(6)))
    ok = [r for r in answers if r.status_code == 200]
    refused = [r for r in answers if r.status_code != 200]
    assert ok and all(r.status_code == 409 for r in refused), [r.text for r in answers]
    assert all(r.json()["error"]["code"] == "IDEMPOTENCY_KEY_IN_FLIGHT" and r.headers["Retry-After"] for r in refused)
    assert len({r.json()["taskId"] for r in ok}) == 1
    assert sum("Idempotent-Replayed" not in r.headers for r in ok) == 1  # one ran; the others were replays
    assert _tasks_with(base, api_key, body["query"]) == [ok[0].json()["taskId"]]


def test_the_key_with_another_body_is_a_422_and_makes_no_task(server: tuple[str, str]) -> None:
    base, api_key = server
    key = str(uuid.uuid4())
    body = {**FIRST, "query": f'{FIRST["query"]} ({uuid.uuid4().hex[:6]})'}
    assert _post(base, api_key, body, key).status_code == 200
    other = {**body, "query": body["query"] + " twice"}
    refused = _post(base, api_key, other, key)
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "IDEMPOTENCY_KEY_REUSED", refused.text
    assert _tasks_with(base, api_key, other["query"]) == []


def test_a_continuation_resent_after_its_answer_was_lost_is_answered_again_not_stepped(server: tuple[str, str]) -> None:
    """Without any key: the continuation's stepIndex and page say it is a re-send."""
    base, api_key = server
    auth = {"Authorization": f"Bearer {api_key}"}
    body = {**FIRST, "query": f'{FIRST["query"]} ({uuid.uuid4().hex[:6]})'}
    first = httpx.post(f"{base}/api/agent/interact", json=body, headers=auth, timeout=30).json()
    typed = [{**PAGE[0], "v": "Jas"}, PAGE[1]]
    continuation = {"url": FIRST["url"], "interactiveTree": typed, "taskId": first["taskId"], "sessionId": first["sessionId"], "stepIndex": first["stepIndex"]}
    answers = [httpx.post(f"{base}/api/agent/interact", json=continuation, headers=auth, timeout=30) for _ in range(3)]
    assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
    second, *again = (a.json() for a in answers)
    assert not second["replayed"] and all(a["replayed"] for a in again)
    assert {a["stepIndex"] for a in again} == {second["stepIndex"]} and {a["action"] for a in again} == {second["action"]}
    steps = httpx.get(f"{base}/api/tasks/{first['taskId']}", headers=auth, timeout=10).json()["steps"]
    assert [s["stepIndex"] for s in steps] == [first["stepIndex"], second["stepIndex"]]
