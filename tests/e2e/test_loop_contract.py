"""(f) The loop's side of the contract, driven in a real browser by a scripted API: chains
(with a failure in the middle), needsFullDom, errors that end the task, 429, recovery 404."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

from client import RunResult, StabilityConfig, StepRecord, TaskStateStore, run_task
from tests.e2e.fake_api import ScriptedAPI, answer, error

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

FAST = StabilityConfig(min_wait_ms=100, dom_quiet_ms=100, network_idle_ms=100, max_wait_ms=2000)


async def ids_on(page: Page, pages_url: str) -> dict[str, str]:
    """The data-llm-ids the client will give the playground's elements (extract once)."""
    from client import PageProbe

    probe = PageProbe(page)
    await probe.install()
    await page.goto(f"{pages_url}/pages/actions.html")
    await probe.capture()
    pairs = await page.eval_on_selector_all("[data-llm-id]", "els => els.map(e => [e.id, e.getAttribute('data-llm-id')])")
    return {html_id: llm_id for html_id, llm_id in pairs if html_id}


async def run(api: ScriptedAPI, page: Page, tmp_path: Path, **kwargs: Any) -> RunResult:
    client = api.client()
    try:
        return await run_task(
            "scripted goal", None, api=client, page=page, stability=FAST,
            state_file=str(tmp_path / "state.json"), tab_key="tab", **kwargs,
        )
    finally:
        await client.aclose()


async def test_chain_failing_in_the_middle_is_reported(page: Page, pages_url: str, tmp_path: Path) -> None:
    ids = await ids_on(page, pages_url)
    chain = [f'setValue("{ids["name"]}", "Jas")', 'click("9999")', f'click("{ids["clicker"]}")']
    api = ScriptedAPI([answer(actions=chain), answer("finish()", status="completed")])
    result = await run(api, page, tmp_path)
    assert result.status == "completed"
    report = api.requests[1]
    assert report["taskId"] == "task-1" and report["sessionId"] == "session-1"
    assert report["lastActionStatus"] == "failure"
    assert report["lastExecutedActionIndex"] == 0
    assert report["chainPartialState"] == {
        "executedActions": [chain[0]], "totalActionsInChain": 3,
        "failedIndex": 1, "failureKind": "target_missing", "skippedIndexes": [],  # guarded: 9999 is not on the page
    }
    assert "9999" in report["lastActionError"]
    assert await page.input_value("#name") == "Jas"
    assert await page.text_content("#count") == "0"  # the chain stopped: the third action never ran
    assert result.steps[0].action_status == "failure" and result.steps[0].actions == chain


async def test_chain_that_runs_to_its_end(page: Page, pages_url: str, tmp_path: Path) -> None:
    ids = await ids_on(page, pages_url)
    chain = [f'setValue("{ids["name"]}", "Jas")', f'setValue("{ids["bio"]}", "Hi")', f'click("{ids["clicker"]}")']
    api = ScriptedAPI([answer(actions=chain), answer("finish()", status="completed")])
    await run(api, page, tmp_path)
    report = api.requests[1]
    assert report["lastActionStatus"] == "success" and report["lastExecutedActionIndex"] == 2
    assert "lastActionError" not in report
    assert report["chainPartialState"] == {"executedActions": chain, "totalActionsInChain": 3, "skippedIndexes": []}
    assert await page.text_content("#count") == "1"
    assert report["clientObservations"]["didDomMutate"] is True


async def test_chain_action_that_may_fail_does_not_stop_it(page: Page, pages_url: str, tmp_path: Path) -> None:
    ids = await ids_on(page, pages_url)
    chain = ['click("9999")', f'click("{ids["clicker"]}")']
    api = ScriptedAPI([answer(actions=chain, can_fail=(0,)), answer("finish()", status="completed")])
    await run(api, page, tmp_path)
    assert api.requests[1]["lastActionStatus"] == "success"
    assert api.requests[1]["lastExecutedActionIndex"] == 1
    assert await page.text_content("#count") == "1"


async def test_single_action_failure_and_observations(page: Page, pages_url: str, tmp_path: Path) -> None:
    ids = await ids_on(page, pages_url)
    api = ScriptedAPI([answer('click("9999")'), answer(f'click("{ids["clicker"]}")'), answer("finish()", status="completed")])
    result = await run(api, page, tmp_path)
    first, second, third = api.requests
    assert "taskId" not in first and first["query"] == "scripted goal" and first["domMode"] == "semantic_v3"
    assert "dom" not in first and isinstance(first["interactiveTree"], list)
    assert second["lastActionStatus"] == "failure" and "no element with id '9999'" in second["lastActionError"]
    assert second["clientObservations"] == {"didNetworkOccur": False, "didDomMutate": False, "didUrlChange": False}
    assert third["lastActionStatus"] == "success"
    assert third["clientObservations"] == {"didNetworkOccur": False, "didDomMutate": True, "didUrlChange": False}
    assert result.model_calls == 3 and result.input_tokens == 30


async def test_full_dom_only_when_the_server_asks(page: Page, pages_url: str, tmp_path: Path) -> None:
    await ids_on(page, pages_url)
    api = ScriptedAPI([answer("wait(0)", needs_full_dom=True), answer("wait(0)"), answer("finish()", status="completed")])
    await run(api, page, tmp_path)
    assert "dom" not in api.requests[0]
    assert api.requests[1]["dom"].startswith("<!DOCTYPE html>") and api.requests[1]["domMode"] == "full"
    assert "interactiveTree" in api.requests[1]
    assert "dom" not in api.requests[2]


async def test_fail_ends_the_run(page: Page, pages_url: str, tmp_path: Path) -> None:
    await ids_on(page, pages_url)
    api = ScriptedAPI([answer('fail("no such form")', status="failed", thought="The form is not on this page.")])
    result = await run(api, page, tmp_path)
    assert result.status == "failed" and result.error == "The form is not on this page."
    assert len(api.requests) == 1


async def test_an_error_answer_ends_the_task(page: Page, pages_url: str, tmp_path: Path) -> None:
    await ids_on(page, pages_url)
    api = ScriptedAPI([answer("wait(0)"), error(409, "TASK_FINISHED", "Task is completed")])
    result = await run(api, page, tmp_path)
    assert result.status == "error" and result.error_code == "TASK_FINISHED"
    assert TaskStateStore(tmp_path / "state.json").get("tab") is None


async def test_rate_limit_is_retried_once(page: Page, pages_url: str, tmp_path: Path) -> None:
    await ids_on(page, pages_url)
    limited = error(429, "RATE_LIMITED", headers={"Retry-After": "0"})
    api = ScriptedAPI([limited, answer("finish()", status="completed")])
    assert (await run(api, page, tmp_path)).status == "completed"
    api = ScriptedAPI([limited, limited])
    result = await run(api, page, tmp_path)
    assert result.status == "error" and result.error_code == "RATE_LIMITED"


async def test_lost_state_and_no_active_task_starts_a_new_task(page: Page, pages_url: str, tmp_path: Path) -> None:
    await ids_on(page, pages_url)
    api = ScriptedAPI([answer("wait(0)"), answer("finish()", status="completed", task_id="task-2")])
    state_file = tmp_path / "state.json"

    def lose(event: str, step: StepRecord) -> None:
        if event == "executed" and step.index == 0:
            state_file.unlink()

    result = await run(api, page, tmp_path, on_step=lose)
    assert api.active_calls == [f"{pages_url}/pages/actions.html"]  # asked, 404
    second = api.requests[1]
    assert "taskId" not in second and second["query"] == "scripted goal"
    assert second["sessionId"] == "session-1" and "lastActionStatus" not in second
    assert result.task_id == "task-2"


async def test_recovered_task_is_continued(page: Page, pages_url: str, tmp_path: Path) -> None:
    await ids_on(page, pages_url)
    api = ScriptedAPI([answer("wait(0)"), answer("finish()", status="completed")], active={"taskId": "task-1", "status": "active"})
    state_file = tmp_path / "state.json"

    def lose(event: str, step: StepRecord) -> None:
        if event == "executed" and step.index == 0:
            state_file.unlink()

    result = await run(api, page, tmp_path, on_step=lose)
    assert result.recoveries == 1 and api.requests[1]["taskId"] == "task-1"
    assert api.requests[1]["lastActionStatus"] == "success"


async def test_max_steps_and_should_stop(page: Page, pages_url: str, tmp_path: Path) -> None:
    await ids_on(page, pages_url)
    api = ScriptedAPI([answer("wait(0)") for _ in range(5)])
    result = await run(api, page, tmp_path, max_steps=3)
    assert result.status == "max_steps" and len(api.requests) == 3
    assert TaskStateStore(tmp_path / "state.json").get("tab") is not None  # still resumable

    api = ScriptedAPI([answer("wait(0)") for _ in range(5)])
    result = await run(api, page, tmp_path, should_stop=lambda step: "enough" if step.index == 1 else None)
    assert result.status == "stopped" and result.error == "enough" and len(api.requests) == 2
