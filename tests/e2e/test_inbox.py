"""Acting on a message found in an inbox — through the whole loop, the reference client
against a local Stepwise with no model, on two layouts: a table whose rows carry their own
trash and star icons (spans named only by their class), and a list of plain entries that
open a message view with the icons and Reply / Forward. Two senders differ by one letter
(Bettina / Bettine Moss): the other one's message is never touched. A star that shows no
state, a delete that does nothing and a sender who is not there never complete."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page

from client import PageProbe, RunResult, StabilityConfig, run_task
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

FAST = StabilityConfig(min_wait_ms=50, dom_quiet_ms=100, network_idle_ms=100, max_wait_ms=2000)


async def run(goal: str, page: Page, server: LocalServer, tmp_path: Path, max_steps: int = 12) -> RunResult:
    return await run_task(
        goal, None, server=server.url, api_key=server.api_key, page=page, stability=FAST,
        max_steps=max_steps, state_file=str(tmp_path / "state.json"), tab_key="inbox",
    )  # fmt: skip


@pytest.mark.parametrize("layout", ["table", "list"])
@pytest.mark.parametrize(
    ("goal", "done"),
    [
        ("Find the email by Bettine Moss and click the trash icon to delete it.", "delete:Bettine Moss"),
        ("Delete the email from Bettine Moss", "delete:Bettine Moss"),
        ("Find the email by Bettine Moss and click the star icon to mark it as important.", "star:Bettine Moss"),
        ("Find the email by Bettine Moss and forward that email to Hedy.", "forward:Bettine Moss→Hedy"),
        ("Send Hedy the message you received from Bettine Moss", "forward:Bettine Moss→Hedy"),
        ('Find the email by Bettine Moss and reply to them with the text "See you. At noon."', "reply:Bettine Moss:See you. At noon."),
        ("Reply to Bettine Moss's email with \"Sure\"", "reply:Bettine Moss:Sure"),
    ],
)
async def test_the_named_message_is_acted_on(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str, goal: str, done: str
) -> None:
    await page.goto(f"{pages_url}/pages/inbox.html?layout={layout}")
    result = await run(goal, page, stepwise_server, tmp_path)
    assert result.status == "completed", (result.error, [s.action for s in result.steps])
    assert await page.get_attribute("body", "data-done") == done


@pytest.mark.parametrize("layout", ["table", "list"])
async def test_a_star_that_shows_no_state_is_not_claimed(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str
) -> None:
    await page.goto(f"{pages_url}/pages/inbox.html?layout={layout}&stateless=1")
    await page.evaluate("sessionStorage.clear()")
    await page.reload()
    # Without a model a click that changes nothing does not verify: the task fails (its
    # corrections — a retry, a reload, looking again — never reach another message's star);
    # with an effect unseen it would ask. The corrections and the bounded search take steps.
    goal = "Find the email by Audrey Hale and click the star icon to mark it as important."
    result = await run(goal, page, stepwise_server, tmp_path, max_steps=25)
    assert result.status in ("needs_confirmation", "failed"), (result.status, result.error, [s.action for s in result.steps])
    log = (await page.get_attribute("body", "data-log") or "").split(" | ")
    assert set(log) == {"star:Audrey Hale"}, log  # never another message's star, even after a reload


async def test_a_delete_that_leaves_the_message_is_not_claimed(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path
) -> None:
    await page.goto(f"{pages_url}/pages/inbox.html?layout=table&stuck=1")
    result = await run("Delete the email from Coletta Ruiz", page, stepwise_server, tmp_path)
    assert result.status != "completed", [s.action for s in result.steps]
    assert await page.get_attribute("body", "data-done") == "delete:Coletta Ruiz"


@pytest.mark.parametrize("layout", ["table", "list"])
async def test_a_sender_not_in_the_inbox_is_never_someone_else(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str
) -> None:
    await page.goto(f"{pages_url}/pages/inbox.html?layout={layout}")
    result = await run("Forward the email from Zed Quinn to Hedy", page, stepwise_server, tmp_path)
    assert result.status != "completed"
    assert await page.get_attribute("body", "data-done") is None



async def test_icons_named_by_their_class_their_on_state_and_div_entries_in_the_tree(
    page: Page, probe: PageProbe, pages_url: str
) -> None:
    await page.goto(f"{pages_url}/pages/inbox.html?layout=table")
    tree = (await probe.capture()).tree
    stars = [n for n in tree if n.get("n") == "star"]
    assert len(stars) == 4 and all(n["r"] == "btn" and n["ctx"][0].startswith("row: ") for n in stars)
    assert [n["ctx"][0] for n in tree if n.get("n") == "trash"][1] == "row: Bettine Moss · Lunch plans"
    await page.locator("tr", has_text="Audrey Hale").locator(".star").click()
    tree = (await probe.capture()).tree
    on = [n for n in tree if n.get("n") == "star" and "checked" in (n.get("s") or "")]
    assert [n["ctx"][0] for n in on] == ["row: Audrey Hale · Trip report"]  # class "starred" reads as on
    await page.goto(f"{pages_url}/pages/inbox.html?layout=list")
    tree = (await probe.capture()).tree
    entries = [n for n in tree if "Moss" in n.get("n", "")]
    assert [n["n"] for n in entries] == ["Bettina Moss — Quarterly numbers", "Bettine Moss — Lunch plans"]
    await page.locator(".entry", has_text="Audrey Hale").click()
    tree = (await probe.capture()).tree
    assert {n.get("n") for n in tree} >= {"trash", "star", "Reply", "Forward", "Back"}
    assert all(not n.get("ctx") for n in tree if n.get("n") in ("trash", "Reply"))  # the open view: in no entry
