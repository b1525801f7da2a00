"""A mail list's rows as a person reads them — the reference client against a local Stepwise
with no model, in real Chromium: a label chip drawn apart from the subject beside it is a word
of its own in the row's text (the markup has no space between them), so a goal naming the
subject finds its row; a transparent control stays out and is never clicked. (A control a
page shows only while its row is pointed at stays out too: see docs/benchmarks.md, session 36.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page

from client import PageProbe, StabilityConfig, run_task
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

FAST = StabilityConfig(min_wait_ms=50, dom_quiet_ms=100, network_idle_ms=100, max_wait_ms=2000)


async def test_a_chip_is_a_word_of_its_own_and_the_transparent_decoy_is_not_listed(page: Page, pages_url: str) -> None:
    await page.goto(f"{pages_url}/pages/row_actions.html")
    probe = PageProbe(page)
    await probe.install()
    tree = (await probe.capture()).tree
    archives = [node for node in tree if node.get("n") == "Archive"]
    assert [node["ctx"][0].split(" · ")[0] for node in archives] == ["row: Readwise", "row: Kevin Zhou", "row: Rachel Adams"]
    assert "Travel Your weekly digest" in archives[0]["ctx"][0]  # not "TravelYour weekly digest"


async def test_a_goal_acts_in_the_row_it_names_never_on_the_decoy(page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path) -> None:
    await page.goto(f"{pages_url}/pages/row_actions.html")
    result = await run_task(
        "Archive the email from Kevin Zhou", None, server=stepwise_server.url, api_key=stepwise_server.api_key, page=page,
        stability=FAST, max_steps=8, state_file=str(tmp_path / "state.json"), tab_key="rows",
    )  # fmt: skip
    assert await page.get_attribute("body", "data-done") == "archive:Kevin Zhou", [s.action for s in result.steps]
    assert result.status == "completed", (result.error, [s.action for s in result.steps])
