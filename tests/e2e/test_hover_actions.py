"""Controls a page draws only while their row is pointed at (a mail list's row actions): the
page's own style sheet reveals them under :hover, so they are in the tree, in their row, and
a goal acts on the right one — the reference client against a local Stepwise with no model, in
real Chromium. A transparent control that no rule reveals stays out and is never clicked."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page

from client import PageProbe, StabilityConfig, run_task
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

FAST = StabilityConfig(min_wait_ms=50, dom_quiet_ms=100, network_idle_ms=100, max_wait_ms=2000)


async def test_row_actions_revealed_by_pointing_are_in_the_tree_and_the_decoy_is_not(page: Page, pages_url: str) -> None:
    await page.goto(f"{pages_url}/pages/row_actions.html")
    probe = PageProbe(page)
    await probe.install()
    tree = (await probe.capture()).tree
    archives = [node for node in tree if node.get("n") == "Archive"]
    assert [node["ctx"][0].split(" · ")[0] for node in archives] == ["row: Readwise", "row: Kevin Zhou", "row: Rachel Adams"]
    stars = [node for node in tree if node.get("n") == "Star"]
    assert len(stars) == 3  # hidden by a wrapper the same rule reveals
    assert "Travel Your weekly digest" in archives[0]["ctx"][0]  # a chip is a word of its own, not "TravelYour"


async def test_a_goal_acts_on_the_rows_revealed_control(page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path) -> None:
    await page.goto(f"{pages_url}/pages/row_actions.html")
    result = await run_task(
        "Archive the email from Kevin Zhou", None, server=stepwise_server.url, api_key=stepwise_server.api_key, page=page,
        stability=FAST, max_steps=8, state_file=str(tmp_path / "state.json"), tab_key="rows",
    )  # fmt: skip
    assert await page.get_attribute("body", "data-done") == "archive:Kevin Zhou", [s.action for s in result.steps]
    assert result.status == "completed", (result.error, [s.action for s in result.steps])
