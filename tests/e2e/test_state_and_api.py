"""The client's state file and API error mapping (no browser needed)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import httpx
import pytest

from client import StepwiseAPIError, StepwiseClient, TaskStateStore
from client.state import EXPIRY_MS


def test_put_get_clear(tmp_path: Path) -> None:
    store = TaskStateStore(tmp_path / "nested" / "state.json")
    assert store.get("7") is None
    stored = store.put("7", task_id="t", session_id="s", url="http://x/")
    assert store.get("7") == stored
    data = json.loads((tmp_path / "nested" / "state.json").read_text())
    assert data["task_7"] == {"taskId": "t", "sessionId": "s", "url": "http://x/", "timestamp": stored.timestamp}
    store.put("8", task_id="u", session_id=None, url="http://y/")
    store.clear("7")
    assert store.get("7") is None and store.get("8") is not None


def test_expires_after_30_minutes(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    store = TaskStateStore(path)
    stored = store.put("1", task_id="t", session_id="s", url="u")
    data = json.loads(path.read_text())
    data["task_1"]["timestamp"] = stored.timestamp - EXPIRY_MS - 1
    path.write_text(json.dumps(data))
    assert store.get("1") is None


def test_damaged_file_reads_as_empty_and_writes_are_atomic(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text("{not json")
    store = TaskStateStore(path)
    assert store.get("1") is None
    store.put("1", task_id="t", session_id="s", url="u")
    assert json.loads(path.read_text())["task_1"]["taskId"] == "t"
    leftovers = [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]
    assert leftovers == []


def test_default_path_is_in_the_home_folder() -> None:
    assert TaskStateStore().path == Path("~/.stepwise/client-state.json").expanduser()


async def test_error_shape_is_typed() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/api/tasks/x":
            return httpx.Response(404, json={"error": {"code": "TASK_NOT_FOUND", "message": "No task 'x'", "details": {"taskId": "x"}}})
        return httpx.Response(502, text="bad gateway")

    async with StepwiseClient("http://stepwise.test", "sw_k", transport=httpx.MockTransport(handler)) as api:
        with pytest.raises(StepwiseAPIError) as caught:
            await api.task("x")
        assert (caught.value.status, caught.value.code, caught.value.details) == (404, "TASK_NOT_FOUND", {"taskId": "x"})
        assert caught.value.ends_task
        with pytest.raises(StepwiseAPIError) as caught:
            await api.interact({"url": "http://a/"})
        assert caught.value.status == 502 and caught.value.code == "HTTP_ERROR" and not caught.value.ends_task


async def test_unreachable_server() -> None:
    async with StepwiseClient("http://127.0.0.1:9", "sw_k", timeout=2.0) as api:
        with pytest.raises(StepwiseAPIError) as caught:
            await api.task("x")
    assert caught.value.status == 0 and caught.value.code == "UNREACHABLE"


async def test_interact_carries_an_idempotency_key_and_resends_it_after_a_lost_answer() -> None:
    seen: list[str] = []
    answer = {"action": 'click("4")', "taskId": "t1", "sessionId": "s1", "status": "active", "stepIndex": 0}

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers["Idempotency-Key"])
        if len(seen) == 1:
            raise httpx.ReadError("connection reset after the request was sent", request=request)
        if len(seen) == 2:
            return httpx.Response(
                409, headers={"Retry-After": "0"},
                json={"error": {"code": "IDEMPOTENCY_KEY_IN_FLIGHT", "message": "still answering", "details": {}}},
            )  # fmt: skip
        return httpx.Response(200, json=answer, headers={"Idempotent-Replayed": "true"})

    async with StepwiseClient("http://stepwise.test", "sw_k", transport=httpx.MockTransport(handler)) as api:
        got = await api.interact({"url": "http://a/", "query": "click Save", "dom": "<html></html>"})
        assert got.task_id == "t1" and len(seen) == 3 and len(set(seen)) == 1  # one key for the request and its re-sends
        await api.interact({"url": "http://a/", "query": "click Save", "dom": "<html></html>"})
    assert seen[3] != seen[0]  # a new request, a new key


async def test_a_lost_answer_is_resent_only_once_and_other_errors_not_at_all() -> None:
    calls: list[str] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.url.path)
        if request.url.path == "/api/tasks/x":
            raise httpx.ReadError("reset", request=request)
        return httpx.Response(422, json={"error": {"code": "IDEMPOTENCY_KEY_REUSED", "message": "m", "details": {}}})

    async with StepwiseClient("http://stepwise.test", "sw_k", transport=httpx.MockTransport(handler)) as api:
        with pytest.raises(StepwiseAPIError) as caught:
            await api.interact({"url": "http://a/"})
        assert caught.value.code == "IDEMPOTENCY_KEY_REUSED" and calls == ["/api/agent/interact"]
        with pytest.raises(StepwiseAPIError) as caught:
            await api.task("x")  # no key: not re-sent
        assert caught.value.code == "UNREACHABLE" and calls.count("/api/tasks/x") == 1
