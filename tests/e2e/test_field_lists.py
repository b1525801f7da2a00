"""Several fields filled with one verb, through the whole loop — the reference client in
Chromium against a local Stepwise with no model, on a sign-up form whose fields are named
by a label, an aria-label, a placeholder only and a wrapping label: the task completes
only with every field holding its value when Submit is clicked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.async_api import Page

from client import RunResult, StabilityConfig, run_task
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

FAST = StabilityConfig(min_wait_ms=50, dom_quiet_ms=100, network_idle_ms=100, max_wait_ms=2000)
WANTED = {"first": "Ada", "last": "Lovelace", "email": "ada@example.com", "phone": "555-0100", "zip": "NW1 6XE"}


async def run(goal: str, page: Page, server: LocalServer, tmp_path: Path) -> RunResult:
    return await run_task(
        goal, None, server=server.url, api_key=server.api_key, page=page, stability=FAST,
        max_steps=25, state_file=str(tmp_path / "state.json"), tab_key="signup",
    )  # fmt: skip


@pytest.mark.parametrize(
    "goal",
    [
        "Type Ada into First name, Lovelace into Last name, ada@example.com into E-mail address, 555-0100 into Phone number, "
        "NW1 6XE into ZIP / Postal code and click Submit",
        'Enter "Ada" in First name, "Lovelace" in Last name, "ada@example.com" in E-mail address, "555-0100" in Phone number '
        'and "NW1 6XE" in ZIP / Postal code, then submit',
        'Fill the form: First name "Ada", Last name "Lovelace", E-mail address "ada@example.com", Phone number "555-0100", '
        'ZIP / Postal code "NW1 6XE". Submit.',
        "Fill in the first name with Ada, the last name with Lovelace, the e-mail address with ada@example.com, the phone number "
        "with 555-0100 and the ZIP / Postal code with NW1 6XE, then press Submit",
    ],
)
async def test_every_field_holds_its_value_when_the_form_is_submitted(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, goal: str
) -> None:
    await page.goto(f"{pages_url}/pages/field_lists.html")
    result = await run(goal, page, stepwise_server, tmp_path)
    assert result.status == "completed", (result.error, [s.action for s in result.steps])
    submitted = json.loads(await page.get_attribute("body", "data-submitted") or "{}")
    assert {k: submitted.get(k) for k in WANTED} == WANTED


async def test_options_of_a_list_and_text_fields_in_one_goal(page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path) -> None:
    await page.goto(f"{pages_url}/pages/field_lists.html")
    result = await run("Set First name to Ada, Country to Norway and press Submit", page, stepwise_server, tmp_path)
    assert result.status == "completed", (result.error, [s.action for s in result.steps])
    submitted = json.loads(await page.get_attribute("body", "data-submitted") or "{}")
    assert (submitted.get("first"), submitted.get("country")) == ("Ada", "Norway")


@pytest.mark.parametrize(
    "goal",
    [
        # a field the form does not have: the others are typed, but nothing is submitted as done
        "Type Ada into First name, Lovelace into Last name, Paris into City and click Submit",
        # no delimiter between the pairs: declined before anything is typed
        "Fill the form with first name Ada last name Lovelace and click Submit",
    ],
)
async def test_a_list_the_page_or_the_words_cannot_prove_is_never_completed(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, goal: str
) -> None:
    await page.goto(f"{pages_url}/pages/field_lists.html")
    result = await run(goal, page, stepwise_server, tmp_path)
    assert result.status != "completed"
    assert await page.get_attribute("body", "data-submitted") is None
