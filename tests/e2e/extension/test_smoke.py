"""Smoke test of the built extension: loaded unpacked into headless Chromium, configured through
its options page, it runs "Add a new patient named Jas" on the demo clinic from its side panel,
and the server's task record shows every step verified."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from client.local_server import LocalServer
from tests.e2e.extension.support import Extension, extension_id

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

TASK_TIMEOUT_MS = 120_000


async def test_the_extension_completes_the_demo_task(extension: Extension, extension_server: LocalServer, demo: Any) -> None:
    assert extension.id == extension_id()  # the manifest's key fixes the id the server is configured for
    await extension.configure(extension_server)
    site = await extension.context.new_page()
    await site.goto(demo.url + "/")
    tab_id = await extension.tab_id(demo.url)
    panel = await extension.open_panel(tab_id)

    await panel.fill("textarea#goal", "Add a new patient named Jas")
    await panel.click("button#run")
    await panel.wait_for_selector("#status[data-status]:not([data-status=idle]):not([data-status=running])", timeout=TASK_TIMEOUT_MS)
    record = await extension.task(tab_id)
    status = await panel.get_attribute("#status", "data-status")
    assert status == "completed", (status, record and record.get("error"), [s["action"] for s in (record or {}).get("steps", [])])

    assert "Jas" in demo.site.names()
    assert site.url == demo.url + "/patients"
    steps = panel.locator("ol#steps > li.step")
    assert await steps.count() == len(record["steps"]) >= 2
    # every executed step got its verdict from the next answer, shown in the panel
    verdicts = panel.locator("li.step .verdict[data-success=true]")
    assert await verdicts.count() == len(record["steps"]) - 1
    assert await panel.locator("#evidence").inner_text()

    async with httpx.AsyncClient(base_url=extension_server.url, headers={"Authorization": f"Bearer {extension_server.api_key}"}) as api:
        task = (await api.get(f"/api/tasks/{record['taskId']}")).json()
    assert task["status"] == "completed"
    executed = [step for step in task["steps"] if not str(step.get("action", "")).startswith(("finish(", "fail("))]
    assert len(executed) >= 2, task["steps"]
    # every action the extension executed was verified from the page by the server
    assert all((step.get("verification") or {}).get("success") is True for step in executed), task["steps"]
    assert record["resumes"] == 0 and record["recoveries"] == 0  # no worker restart in this run
