"""(d) A single-action goal through the real server (its SIMPLE path), and (e) recovery of
the taskId through /task/active after the client lost its state file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import Page

from client import RunResult, StepRecord, StepwiseClient, TaskStateStore, run_task
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]


async def test_click_the_new_patient_button(page: Page, demo: Any, stepwise_server: LocalServer, tmp_path: Path) -> None:
    state_file = tmp_path / "state.json"
    events: list[tuple[str, int]] = []

    def on_step(event: str, step: StepRecord) -> None:
        events.append((event, step.index))

    result: RunResult = await run_task(
        "Click the New patient button",
        demo.url + "/patients",
        server=stepwise_server.url,
        api_key=stepwise_server.api_key,
        page=page,
        on_step=on_step,
        state_file=str(state_file),
        tab_key="tab-1",
    )
    assert result.status == "completed", result.error
    assert page.url == demo.url + "/patients/new"
    assert [step.action for step in result.steps][-1] == "finish()"
    first = result.steps[0]
    assert first.action.startswith("click(") and first.action_status == "success"
    assert first.observations == {"didNetworkOccur": True, "didDomMutate": True, "didUrlChange": True}
    assert first.verdict == "success" and first.tier in (1, 2, 3)
    assert first.server_ms is not None and first.client_ms >= 500  # the stability wait ran
    assert result.task_id and result.session_id
    assert events[:3] == [("decided", 0), ("executed", 0), ("verified", 0)]
    assert TaskStateStore(state_file).get("tab-1") is None  # a finished task is forgotten

    async with StepwiseClient(stepwise_server.url, stepwise_server.api_key) as api:
        record = await api.task(result.task_id)
    assert record["status"] == "completed"


async def test_recovers_the_task_after_losing_the_state_file(page: Page, demo: Any, stepwise_server: LocalServer, tmp_path: Path) -> None:
    state_file = tmp_path / "state.json"
    seen_requests: list[dict[str, Any]] = []
    active_urls: list[str | None] = []

    async def spy(request: httpx.Request) -> None:
        if request.url.path.endswith("/task/active"):
            active_urls.append(request.url.params.get("url"))
        if request.url.path.endswith("/interact"):
            seen_requests.append(httpx.Response(200, content=request.content).json())

    api = StepwiseClient(stepwise_server.url, stepwise_server.api_key)
    api._http.event_hooks["request"].append(spy)

    def lose_state(event: str, step: StepRecord) -> None:
        if event == "executed" and step.index == 0:
            assert state_file.exists()
            state_file.unlink()  # the extension restarted and chrome.storage is gone

    try:
        result = await run_task(
            "Click the New patient button",
            demo.url + "/patients",
            api=api,
            page=page,
            on_step=lose_state,
            state_file=str(state_file),
            tab_key="tab-2",
        )
    finally:
        await api.aclose()
    assert result.status == "completed", result.error
    assert result.recoveries == 1 and result.steps[1].recovered_task
    # Asked first with the current tab URL (the contract); the server records the URL of the
    # task's last request, so after a navigation the client also asks with that one.
    assert active_urls[0] == demo.url + "/patients/new"
    assert active_urls[-1] in (demo.url + "/patients/new", demo.url + "/patients")
    assert len(seen_requests) == 2
    assert "taskId" not in seen_requests[0] and seen_requests[0]["query"] == "Click the New patient button"
    assert seen_requests[1]["taskId"] == result.task_id  # the same task continued, not a new one
    assert "query" not in seen_requests[1]
    assert seen_requests[1]["lastActionStatus"] == "success"
