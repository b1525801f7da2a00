"""Decoys through the whole loop — the reference client against a local Stepwise with no
model, in real Chromium: a "Save" the user cannot see (hidden by a stylesheet rule,
transparent, parked off the page, of no size, aria-hidden, inert, in another frame) or whose
visible text says something else is listed before the real Save and is never clicked; alone
on the page, it is never clicked and the task never completes. Behind an open aria-modal
dialog the page is inert: the dialog is dismissed first (never answered with its own
action), then Save is clicked. A "Save" that would delete the account is never clicked for
"Click Save": the client stops at the confirmation question."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page

from client import RunResult, StabilityConfig, run_task
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

FAST = StabilityConfig(min_wait_ms=50, dom_quiet_ms=100, network_idle_ms=100, max_wait_ms=2000)
DECOYS = ["stylesheet", "opacity", "offscreen", "zero", "aria-hidden", "inert", "mislabelled", "iframe"]


async def run(goal: str, page: Page, server: LocalServer, tmp_path: Path, max_steps: int = 12) -> RunResult:
    return await run_task(
        goal, None, server=server.url, api_key=server.api_key, page=page, stability=FAST,
        max_steps=max_steps, state_file=str(tmp_path / "state.json"), tab_key="decoys",
    )  # fmt: skip


def actions(result: RunResult) -> list[str]:
    return [s.action for s in result.steps]


@pytest.mark.parametrize("layout", DECOYS)
async def test_a_decoy_listed_first_is_never_clicked_and_the_real_save_is(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str
) -> None:
    await page.goto(f"{pages_url}/pages/decoys.html?layout={layout}")
    result = await run("Click Save", page, stepwise_server, tmp_path)
    assert await page.get_attribute("body", "data-clicked") == "save", actions(result)
    assert result.status == "completed", (result.error, actions(result))


@pytest.mark.parametrize("layout", DECOYS)
async def test_a_decoy_alone_is_never_clicked_and_the_task_never_completes(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str
) -> None:
    await page.goto(f"{pages_url}/pages/decoys.html?layout={layout},only")
    result = await run("Click the Save button", page, stepwise_server, tmp_path)
    assert result.status != "completed", actions(result)
    assert await page.get_attribute("body", "data-clicked") is None, actions(result)


async def test_an_open_modal_dialog_is_dismissed_before_the_page_behind_it_is_used(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path
) -> None:
    await page.goto(f"{pages_url}/pages/decoys.html?layout=modal")
    result = await run("Click Save", page, stepwise_server, tmp_path)
    assert result.status == "completed", (result.error, actions(result))
    assert await page.get_attribute("body", "data-clicked") == "save"
    assert await page.locator("[aria-modal]").count() == 0  # closed with "No thanks", never Subscribe


async def test_an_unasked_destructive_control_stops_the_client_at_a_question(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path
) -> None:
    await page.goto(f"{pages_url}/pages/decoys.html?layout=destructive,only")
    result = await run("Click Save", page, stepwise_server, tmp_path)
    assert result.status == "needs_user_input", (result.status, actions(result))
    assert "Save and delete my account" in (result.error or ""), result.error
    assert await page.get_attribute("body", "data-clicked") is None  # the action was never sent
