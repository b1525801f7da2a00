"""Chains through the whole loop: the reference client against a local Stepwise (no model) in
real Chromium, on a sign-up form in several layouts. A clean form is filled and submitted in
two requests; a form that re-renders mid-chain, a field that appears late and a Submit that
turns into "Delete account" mid-chain are handled by the client's guards and the server's
recovery — the page's own record says what was really submitted (and deleted)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

from client import RunResult, StabilityConfig, run_task
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

FAST = StabilityConfig(min_wait_ms=50, dom_quiet_ms=150, network_idle_ms=100, max_wait_ms=2500)
GOAL = "Set First name to Ada, Last name to Lovelace, Email to ada@example.com, Phone to 555-0100 and City to London, then press Submit"
WANTED = {"first": "Ada", "last": "Lovelace", "email": "ada@example.com", "phone": "555-0100", "city": "London"}


async def run(page: Page, server: LocalServer, tmp_path: Path, url: str) -> RunResult:
    await page.goto(url)
    return await run_task(
        GOAL, None, server=server.url, api_key=server.api_key, page=page, stability=FAST,
        max_steps=12, state_file=str(tmp_path / "state.json"), tab_key="chaining",
    )  # fmt: skip


async def record(page: Page) -> dict[str, Any]:
    return await page.evaluate("() => ({submitted: window.__submitted, deleted: window.__deleted})")


@pytest.mark.parametrize("layout", ["labels", "aria", "placeholder", "table", "grid"])
async def test_a_clean_form_is_filled_and_submitted_in_two_requests(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str
) -> None:
    result = await run(page, stepwise_server, tmp_path, f"{pages_url}/pages/signup.html?layout={layout}")
    assert result.status == "completed", (result.error, [s.actions or s.action for s in result.steps])
    assert len(result.steps) == 2
    assert len(result.steps[0].actions) == 6
    assert (await record(page))["submitted"] == WANTED


async def test_a_form_that_re_renders_mid_chain_is_recovered_and_submitted_right(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path
) -> None:
    result = await run(page, stepwise_server, tmp_path, f"{pages_url}/pages/signup.html?rerender=2")
    assert result.status == "completed", (result.error, [s.actions or s.action for s in result.steps])
    assert (await record(page))["submitted"] == WANTED
    assert 2 < len(result.steps) <= 4  # the chain stopped at the re-rendered form, the rest followed


async def test_a_field_that_appears_late_is_filled_before_the_submit(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path
) -> None:
    result = await run(page, stepwise_server, tmp_path, f"{pages_url}/pages/signup.html?late=4")
    assert result.status == "completed", (result.error, [s.actions or s.action for s in result.steps])
    assert (await record(page))["submitted"] == WANTED


async def test_a_submit_that_turns_into_delete_account_mid_chain_is_never_clicked(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path
) -> None:
    result = await run(page, stepwise_server, tmp_path, f"{pages_url}/pages/signup.html?decoy=1")
    seen = await record(page)
    assert seen["deleted"] == 0
    assert seen["submitted"] is None
    assert result.status != "completed"
