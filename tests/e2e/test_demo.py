"""The demo: "Add a new patient named Jas" on the clinic app, from its home page, through the
real server (its multi-step planner): menu → patients list → New patient → form → Save →
back on the list with the "Patient Jas saved" toast and the new row."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

from client import RunResult, run_task
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]


async def test_add_a_new_patient_named_jas(page: Page, demo: Any, stepwise_server: LocalServer, tmp_path: Path) -> None:
    result: RunResult = await run_task(
        "Add a new patient named Jas",
        demo.url + "/",
        server=stepwise_server.url,
        api_key=stepwise_server.api_key,
        page=page,
        max_steps=15,
        state_file=str(tmp_path / "state.json"),
    )
    actions = [step.action for step in result.steps]
    assert result.status == "completed", (result.status, result.error_code, result.error, actions)
    assert "Jas" in demo.site.names()
    assert page.url == demo.url + "/patients"
    assert await page.locator("td", has_text="Jas").count() == 1
    assert any(action.startswith("setValue(") and '"Jas"' in action for action in actions)
    executed = [step for step in result.steps if step.action_status in ("success", "failure")]
    assert executed and all(step.verdict is not None for step in executed)  # every action was verified
    assert executed[-1].verdict == "success"
    assert "Patient Jas saved" in str(executed[-1].verification)  # the toast the stability wait waited for
    assert executed[-1].observations == {"didNetworkOccur": True, "didDomMutate": True, "didUrlChange": True}
