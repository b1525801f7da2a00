"""Scrolling a box that scrolls its own content, through the whole loop — the reference client
against a local Stepwise with no model: the goal names the box and the end, the action is
``scroll("<id>", "top"|"bottom")``, and the page script's reading of where the box is
scrolled proves it."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page

from client import RunResult, StabilityConfig, run_task
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

FAST = StabilityConfig(min_wait_ms=50, dom_quiet_ms=100, network_idle_ms=100, max_wait_ms=2000)


async def run(goal: str, page: Page, server: LocalServer, tmp_path: Path) -> RunResult:
    return await run_task(
        goal, None, server=server.url, api_key=server.api_key, page=page, stability=FAST,
        max_steps=10, state_file=str(tmp_path / "state.json"), tab_key="scrolling",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("goal", "box", "edge"),
    [
        ("Scroll the textarea to the bottom of the text hit submit.", "notes", "bottom"),
        ("Scroll the notes field to the top, then click Submit", "notes", "top"),
        ("scroll the terms of service all the way to the end and press Submit", "terms", "bottom"),
        ("Scroll the terms to the very beginning and submit", "terms", "top"),
    ],
)
async def test_a_box_is_scrolled_to_the_end_the_goal_names(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, goal: str, box: str, edge: str
) -> None:
    await page.goto(f"{pages_url}/pages/scrolling.html")
    result = await run(goal, page, stepwise_server, tmp_path)
    assert result.status == "completed", (result.error, [s.action for s in result.steps])
    assert await page.get_attribute("body", f"data-{box}") == edge
    assert any(s.action.startswith("scroll(") and f'"{edge}"' in s.action for s in result.steps)


async def test_a_scroll_alone_ends_when_the_box_shows_that_end(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path
) -> None:
    await page.goto(f"{pages_url}/pages/scrolling.html")
    result = await run("Scroll the notes to the bottom", page, stepwise_server, tmp_path)
    assert result.status == "completed", (result.error, [s.action for s in result.steps])
    at_bottom = await page.eval_on_selector("#notes", "b => b.scrollTop + b.clientHeight >= b.scrollHeight - 2")
    assert at_bottom is True
