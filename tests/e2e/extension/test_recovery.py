"""The extension survives what MV3 and the user do to it mid-task: its service worker stopped
(Chrome stops idle workers; a restart has fresh globals), the target tab reloaded, and the
taskId lost from chrome.storage.local while the sessionId is kept (recovered through
GET /api/session/{sessionId}/task/active). In each case the task completes with the SAME
taskId — one task on the server — and no step applied twice (the clinic saved Jas once, the
server's steps are each answered once)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from client.local_server import LocalServer
from tests.e2e.extension.harness import LoadedExtension, Run, server_task, server_tasks, start, unverified_steps, wait_status, wait_steps

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

GOAL = "Add a new patient named Jas"


async def assert_one_task_completed(
    run: Run, server: LocalServer, task_id: str, demo: Any, *, interrupted: bool = True
) -> dict[str, Any]:
    """Completed, the same task (one on the server), each step answered once, Jas saved once.

    Every executed step is verified as a success — except, when the worker or the page was
    ``interrupted``, the one step whose action the worker could not know had run (stopped
    while executing it: it is NOT run again, the panel shows it ``pending`` and the server
    judges it from the page — no change, so a failed verdict, and the server asks for it
    again)."""
    final = await run.finish()
    assert final == "completed", (final, await run.status_text())
    assert await run.task_id() == task_id  # the same task, continued
    tasks = server_tasks(server.url, server.api_key)
    assert [t["taskId"] for t in tasks if t["query"] == GOAL and t["taskId"] == task_id] == [task_id]
    record = server_task(server.url, server.api_key, task_id)
    assert record["status"] == "completed"
    indexes = [s["stepIndex"] for s in record["steps"]]
    assert indexes == list(range(len(indexes))), indexes  # each step answered once
    assert demo.site.names().count("Jas") == 1  # applied once
    stored = await run.extension.task_record(run.tab_id)
    assert stored is not None
    pending = {view["serverStepIndex"] for view in stored["steps"] if view.get("actionStatus") == "pending"}
    bad = unverified_steps(record)
    assert set(bad) <= (pending if interrupted else set()) and len(pending) <= 1, (
        pending, [(s["stepIndex"], s["action"], s["verification"]) for s in record["steps"] if s["stepIndex"] in bad]
    )
    return record


async def wait_phase(ext: LoadedExtension, tab_id: int, phase: str, *, after_answers: int, timeout_s: float = 30.0) -> dict[str, Any]:
    """Wait until the worker's record of the tab's task is in ``phase`` after at least
    ``after_answers`` answers (polled through the worker every few ms); returns that record.
    A short phase (a click executing) can fall between two polls: the phase seen may be a
    later step's — the record says which."""
    deadline = time.monotonic() + timeout_s
    while True:
        record = await ext.task_record(tab_id)
        if record and record["phase"] == phase and record["count"] >= after_answers:
            return record
        assert record is None or record["status"] == "running", f"the task ended before phase {phase!r}: {record and record['status']}"
        assert time.monotonic() < deadline, f"no phase {phase!r} within {timeout_s} s"
        await asyncio.sleep(0.005)


@pytest.mark.parametrize(
    "moment",
    [
        "first step shown",  # the panel shows the first answer and its action is done on the page
        "request",  # a request in flight: re-sent with the same Idempotency-Key, answered once
        "settle",  # the stability wait after an action: the action is not run again
    ],
)
async def test_a_service_worker_restart_mid_task(ext: LoadedExtension, extension_server: LocalServer, demo: Any, moment: str) -> None:
    before = {t["taskId"] for t in server_tasks(extension_server.url, extension_server.api_key)}
    run = await start(ext, demo.url + "/", GOAL)
    if moment == "first step shown":
        await wait_steps(run.panel, 1)
        await wait_url(run, demo.url + "/patients")
    else:
        await wait_phase(ext, run.tab_id, moment, after_answers=1)
    first_worker_started = await ext.evaluate("() => performance.timeOrigin")
    await ext.restart_worker()
    task_id = await run.wait_task_id()
    await assert_one_task_completed(run, extension_server, task_id, demo)
    assert await ext.evaluate("() => performance.timeOrigin") != first_worker_started  # it really was a new worker
    record = await ext.task_record(run.tab_id)
    assert record is not None and record["resumes"] >= 1, record
    new = [t for t in server_tasks(extension_server.url, extension_server.api_key) if t["taskId"] not in before]
    assert [t["taskId"] for t in new] == [task_id]


async def test_a_worker_stopped_while_executing_an_action_never_repeats_it(
    ext: LoadedExtension, extension_server: LocalServer, demo: Any
) -> None:
    """Stopped between "about to execute" and "executed": the new worker does not run the action
    again (it may have run) — it shows it ``pending`` and sends the page; the server judges it.
    The outcome must be honest whichever way it went: Jas saved at most once, and ``completed``
    only with Jas saved. (The task usually completes; when the interrupted action had not run,
    the server's retry path has been seen to end it ``failed`` instead — reported, not hidden.)"""
    run = await start(ext, demo.url + "/", GOAL)
    seen = await wait_phase(ext, run.tab_id, "executing", after_answers=1)
    interrupted = seen["steps"][-1]["serverStepIndex"]  # the step executing when the worker was stopped
    await ext.restart_worker()
    task_id = await run.wait_task_id()
    final = await run.finish()
    assert await run.task_id() == task_id
    record = server_task(extension_server.url, extension_server.api_key, task_id)
    indexes = [s["stepIndex"] for s in record["steps"]]
    assert indexes == list(range(len(indexes))), indexes
    saved = demo.site.names().count("Jas")
    assert saved <= 1  # never applied twice
    assert final != "completed" or saved == 1  # never a completion the page does not show
    assert (final == "completed") == (record["status"] == "completed")
    stored = await ext.task_record(run.tab_id)
    assert stored is not None and stored["resumes"] >= 1
    pending = [v for v in stored["steps"] if v.get("actionStatus") == "pending"]
    assert len(pending) <= 1 and all(v["serverStepIndex"] == interrupted for v in pending), (interrupted, pending)


async def wait_url(run: Run, url: str, timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while run.page.url != url:
        assert time.monotonic() < deadline, run.page.url
        await asyncio.sleep(0.02)


async def test_a_page_reload_mid_task(ext: LoadedExtension, extension_server: LocalServer, demo: Any) -> None:
    run = await start(ext, demo.url + "/", GOAL)
    task_id = await run.wait_task_id()
    await wait_url(run, demo.url + "/patients")  # between the first step (the menu link) and the next
    await run.page.reload(wait_until="load")
    await assert_one_task_completed(run, extension_server, task_id, demo)


async def test_a_lost_task_id_is_recovered_through_the_session(ext: LoadedExtension, extension_server: LocalServer, demo: Any) -> None:
    run = await start(ext, demo.url + "/", GOAL)
    await wait_steps(run.panel, 1)
    task_id = await run.wait_task_id()
    # Paused from the panel (the worker holds no task between phases), the taskId is wiped from
    # chrome.storage.local — the sessionId kept — then the task is resumed from the panel.
    await run.panel.click("#pause")
    assert await wait_status(run.panel, {"paused"}) == "paused"
    await run.panel.evaluate(
        """async (key) => {
            const got = (await chrome.storage.local.get(key))[key];
            got.taskId = null;
            got.timestamp = 0;
            await chrome.storage.local.set({[key]: got});
        }""",
        f"task_{run.tab_id}",
    )
    assert await run.task_id() is None
    await run.panel.click("#pause")  # resume
    await assert_one_task_completed(run, extension_server, task_id, demo, interrupted=False)
    record = await ext.task_record(run.tab_id)
    assert record is not None and record["recoveries"] >= 1, record
