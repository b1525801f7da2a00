"""A role="alert" banner that only announces ("3 invoices are overdue") is not an error, in real
Chromium: the page script sends it as a status line and the service's words decide — so the
click that opened its view is verified and the task completes; an alert that reports a failure
("could not be loaded") is still an error."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page

from client import PageProbe, StabilityConfig, run_task
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

FAST = StabilityConfig(min_wait_ms=50, dom_quiet_ms=100, network_idle_ms=100, max_wait_ms=2000)


async def test_an_announcing_alert_is_a_status_line_and_a_failing_one_an_error(page: Page, pages_url: str) -> None:
    probe = PageProbe(page)
    await page.goto(f"{pages_url}/pages/alert_banner.html#/invoices")
    await probe.install()
    snap = await probe.capture()
    assert snap.errors == [] and any("3 invoices are overdue" in note for note in snap.notes)
    await page.goto(f"{pages_url}/pages/alert_banner.html#/broken")
    await page.reload()
    await probe.install()
    snap = await probe.capture()
    # Sent as a status line; the service reads "could not" as a failure.
    assert any("could not be loaded" in note for note in snap.notes)


async def test_the_click_that_opens_a_view_with_a_warning_banner_is_verified(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path
) -> None:
    await page.goto(f"{pages_url}/pages/alert_banner.html")
    result = await run_task(
        "Click the Invoices link", None, server=stepwise_server.url, api_key=stepwise_server.api_key, page=page,
        stability=FAST, max_steps=5, state_file=str(tmp_path / "state.json"), tab_key="alerts",
    )  # fmt: skip
    assert await page.get_attribute("body", "data-view") == "invoices"
    assert result.status == "completed", (result.error, [(s.action, s.verdict) for s in result.steps])
    assert len(result.steps) <= 2, [s.action for s in result.steps]  # no correction after a false failure
