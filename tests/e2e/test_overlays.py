"""Overlays on a real page through the real server, no model: a cookie wall on load and a
promotion that comes up later are each closed by a harmless control (the contingencies),
the order is placed, and no control the overlays' text names is ever used."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page

from client import RunResult, run_task
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]


async def test_overlays_are_dismissed_and_their_text_never_followed(page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path) -> None:
    result: RunResult = await run_task(
        'Click the "Place order" button',
        pages_url + "/pages/overlays.html",
        server=stepwise_server.url,
        api_key=stepwise_server.api_key,
        page=page,
        max_steps=8,
        state_file=str(tmp_path / "state.json"),
    )
    actions = [step.action for step in result.steps]
    assert result.status == "completed", (result.status, result.error_code, result.error, actions)
    assert await page.locator("#done").text_content() == "Order placed successfully"
    assert await page.evaluate("() => window.__trapped") == []
    fired = [step for step in result.steps if step.thought.startswith("Contingency (")]
    assert 1 <= len(fired) <= 2 and all(step.decided_by == "policy" for step in fired)
    assert len(result.steps) <= 2 + 2 + 1  # the click, finish, one answer per overlay (+1 if the promotion swallowed the click)
