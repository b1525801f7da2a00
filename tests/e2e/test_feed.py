"""A record's action behind its own overflow menu — through the whole loop, the reference
client against a local Stepwise with no model, on two layouts: a feed of plain repeated
cards whose icons are class-named spans and whose "more" span opens a hidden list, and a
table whose rows end in an "Actions" dropdown. A decoy (@leon, whose post mentions "leo")
is never touched; another user's record, an item not on the menu and a post that could be
either of two never complete."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page

from client import RunResult, StabilityConfig, run_task
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

FAST = StabilityConfig(min_wait_ms=50, dom_quiet_ms=100, network_idle_ms=100, max_wait_ms=2000)


async def run(goal: str, page: Page, server: LocalServer, tmp_path: Path, max_steps: int = 10) -> RunResult:
    return await run_task(
        goal, None, server=server.url, api_key=server.api_key, page=page, stability=FAST,
        max_steps=max_steps, state_file=str(tmp_path / "state.json"), tab_key="feed",
    )  # fmt: skip


@pytest.mark.parametrize("layout", ["feed", "table"])
@pytest.mark.parametrize(
    ("goal", "done"),
    [
        ('For the user @leo, click on the "Mute" button.', "mute:@leo"),
        ('For the user @leo, click on the "Block" button.', "block:@leo"),
        ('Click "Report post" for the post by @leo', "report:@leo"),
        ("On @leo's post, click \"Share via DM\"", "share:@leo"),
        ("Mute @leo", "mute:@leo"),
    ],
)
async def test_the_action_behind_the_records_menu_is_done(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str, goal: str, done: str
) -> None:
    await page.goto(f"{pages_url}/pages/feed.html?layout={layout}")
    result = await run(goal, page, stepwise_server, tmp_path)
    assert result.status == "completed", (result.error, [s.action for s in result.steps])
    assert await page.get_attribute("body", "data-done") == done


@pytest.mark.parametrize(("goal", "done"), [("Like the post from @leo", "like:@leo"), ("Retweet @leo's post", "retweet:@leo")])
async def test_an_icon_shown_in_the_card_is_clicked_without_the_menu(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, goal: str, done: str
) -> None:
    await page.goto(f"{pages_url}/pages/feed.html?layout=feed")
    result = await run(goal, page, stepwise_server, tmp_path)
    assert result.status == "completed", (result.error, [s.action for s in result.steps])
    assert await page.get_attribute("body", "data-done") == done


async def test_an_owner_action_takes_either_of_the_owners_posts(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path
) -> None:
    await page.goto(f"{pages_url}/pages/feed.html?layout=feed&dup=1")
    result = await run("Block @leo", page, stepwise_server, tmp_path)
    assert result.status == "completed", (result.error, [s.action for s in result.steps])
    assert await page.get_attribute("body", "data-done") == "block:@leo"


@pytest.mark.parametrize("layout", ["feed", "table"])
@pytest.mark.parametrize(
    ("goal", "query"),
    [
        ('For the user @zoe, click on the "Mute" button.', ""),  # nobody of that name
        ('For the user @leo, click on the "Pin" button.', ""),  # not on the menu
        ("Share the post from @leo", "&dup=1"),  # which of @leo's two posts is not said
    ],
)
async def test_what_cannot_be_done_on_the_named_record_never_completes(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str, goal: str, query: str
) -> None:
    await page.goto(f"{pages_url}/pages/feed.html?layout={layout}{query}")
    result = await run(goal, page, stepwise_server, tmp_path)
    assert result.status != "completed", [s.action for s in result.steps]
    assert await page.get_attribute("body", "data-done") is None
