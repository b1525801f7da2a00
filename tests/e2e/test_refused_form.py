"""A submit the page refuses for a required field the goal does not give, through the whole
loop in real Chromium (reference client, local Stepwise, no model): the correction never
reloads the page — what was typed stays — and the task ends naming the field."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page

from client import StabilityConfig, run_task
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

FAST = StabilityConfig(min_wait_ms=50, dom_quiet_ms=150, network_idle_ms=100, max_wait_ms=2500)
GOAL = "Set First name to Ada and Last name to Lovelace, then press Register"


@pytest.mark.parametrize("query", ["", "?js=1"], ids=["native_validation", "page_says_required"])
async def test_a_refused_submit_keeps_the_typed_values_and_names_the_field(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, query: str
) -> None:
    await page.goto(f"{pages_url}/pages/required_field.html{query}")
    result = await run_task(
        GOAL, None, server=stepwise_server.url, api_key=stepwise_server.api_key, page=page, stability=FAST,
        max_steps=8, state_file=str(tmp_path / "state.json"), tab_key="refused-form",
    )  # fmt: skip
    sent = [a for s in result.steps for a in (s.actions or [s.action])]
    assert not [a for a in sent if str(a).startswith(("navigate(", "goBack("))], sent
    assert result.status == "failed" and result.error_code == "FORM_NEEDS_INPUT", (result.status, result.error, sent)
    assert "The form needs: Email" in (result.error or "")
    assert await page.evaluate("() => window.__loads") == 1  # never reloaded
    assert await page.input_value("#first") == "Ada" and await page.input_value("#last") == "Lovelace"
    assert await page.evaluate("() => window.__submitted") is None
