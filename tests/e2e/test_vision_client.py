"""The reference client honours needsScreenshot and needsFullDom (a scripted API in a real
browser), and the full-DOM path end to end: a tree cut at the client's node cap lacks the
target; the server asks for the full DOM; the client stamps what it can act on and sends it;
the target is found, clicked and verified (a real server, no model)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.async_api import Page

from agent.vision import read_screenshot
from client import ExtractOptions, run_task
from client.local_server import LocalServer
from tests.e2e.fake_api import ScriptedAPI, answer
from tests.e2e.test_loop_contract import FAST, ids_on, run

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]


async def test_a_screenshot_only_when_the_server_asks(page: Page, pages_url: str, tmp_path: Path) -> None:
    await ids_on(page, pages_url)
    asked = answer("wait(0.1)")
    asked["needsScreenshot"] = True
    api = ScriptedAPI([asked, answer("wait(0.1)"), answer("finish()", status="completed")])
    await run(api, page, tmp_path)
    assert "screenshot" not in api.requests[0] and "screenshot" not in api.requests[2]
    sent = api.requests[1]
    assert sent["domMode"] == "hybrid" and "interactiveTree" in sent
    shot = read_screenshot(sent["screenshot"])  # what the server will read: a real JPEG of the viewport
    assert shot.mime_type == "image/jpeg" and shot.width >= 800


async def test_the_full_dom_stamps_what_the_cut_tree_left_out(page: Page, pages_url: str, tmp_path: Path) -> None:
    await page.goto(f"{pages_url}/pages/long_list.html")
    api = ScriptedAPI([answer("wait(0.1)", needs_full_dom=True), answer("finish()", status="completed")])
    client = api.client()
    try:
        await run_task("scripted goal", None, api=client, page=page, stability=FAST, state_file=str(tmp_path / "s.json"),
                       tab_key="tab", extract=ExtractOptions(max_nodes=10))  # fmt: skip
    finally:
        await client.aclose()
    first, second = api.requests
    assert first["treeTruncated"] is True and len(first["interactiveTree"]) == 10 and "dom" not in first
    tree_ids = {node["i"] for node in second["interactiveTree"]}
    archive = re.search(r'<button id="archive"[^>]*data-llm-id="([^"]+)"', second["dom"])
    assert archive is not None and archive.group(1) not in tree_ids, "stamped for the server, though not in the tree"
    assert second["domMode"] == "full"


async def test_a_target_beyond_the_node_cap_is_found_through_the_full_dom(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path
) -> None:
    result = await run_task(
        "Click the Archive button", f"{pages_url}/pages/long_list.html", server=stepwise_server.url,
        api_key=stepwise_server.api_key, page=page, state_file=str(tmp_path / "state.json"), tab_key="tab",
        extract=ExtractOptions(max_nodes=10), max_steps=8,
    )  # fmt: skip
    assert result.status == "completed", (result.error, [s.action for s in result.steps])
    actions = [s.action for s in result.steps]
    assert actions[0] == "wait(0.1)" and actions[1].startswith("click(")
    assert await page.text_content("#status") == "All messages archived"
