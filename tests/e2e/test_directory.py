"""Find a person in a paged directory and open one of their values — through the whole loop,
the reference client against a local Stepwise with no model. The value is named by the
caption on its line ("Phone:"), the person by the card or title above it; the pager is
followed until the person shows, and never someone else's value is opened."""

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
        max_steps=12, state_file=str(tmp_path / "state.json"), tab_key="directory",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("layout", "goal", "opened"),
    [
        ("single", "Find Casie Rowe in the contact book and click on their address.", "Casie Rowe|address"),
        ("single", "Look up Ana Silva in the directory, then click her phone number", "Ana Silva|phone"),
        ("cards", "Find Dana Kim in the staff list and click her email", "Dana Kim|email"),
        ("cards", "Locate Bob Stone and open his address", "Bob Stone|address"),
    ],
)
async def test_the_person_is_found_across_pages_and_their_value_opened(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str, goal: str, opened: str
) -> None:
    await page.goto(f"{pages_url}/pages/directory.html?layout={layout}")
    result = await run(goal, page, stepwise_server, tmp_path)
    assert result.status == "completed", (result.error, [s.action for s in result.steps])
    assert await page.get_attribute("body", "data-opened") == opened


async def test_a_person_not_in_the_directory_is_never_someone_else(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path
) -> None:
    await page.goto(f"{pages_url}/pages/directory.html?layout=single")
    result = await run("Find Zed Quinn in the contact book and click on their address.", page, stepwise_server, tmp_path)
    assert result.status != "completed"
    assert await page.get_attribute("body", "data-opened") is None
