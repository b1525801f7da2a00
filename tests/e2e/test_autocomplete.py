"""Autocomplete fields through the whole loop — the reference client against a local Stepwise
with no model, on three layouts of suggestions that come late (a jQuery-UI-like focusable
list appended to the body with a hidden decoy item, an ARIA combobox with its listbox, plain
divs under the field): the suggestion that fits is chosen and the field's value proves it;
when none fits, or several do and the goal names one, nothing is typed beyond the start and
the task is not completed."""

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
        max_steps=20, state_file=str(tmp_path / "state.json"), tab_key="autocomplete",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("layout", "goal", "value"),
    [
        ("jq", 'Enter an item that starts with "An" and ends with "ica" and press Submit', "Antarctica"),
        ("jq", "Pick a city starting with Ger, then click Submit", "Germany"),
        ("aria", 'Type "San" in the City field and choose "San Diego" from the suggestions, then press Submit', "San Diego"),
        ("aria", 'Select "Parma" from the autocomplete and hit submit', "Parma"),
        ("plain", 'Enter "Ber" and select "Bergen", then click Submit', "Bergen"),
        ("plain", "Enter an item that starts with Ber and ends with lin and press Submit", "Berlin"),
    ],
)
async def test_the_suggestion_that_fits_is_chosen_and_the_field_proves_it(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str, goal: str, value: str
) -> None:
    await page.goto(f"{pages_url}/pages/autocomplete.html?layout={layout}")
    result = await run(goal, page, stepwise_server, tmp_path)
    assert result.status == "completed", (result.error, [s.action for s in result.steps])
    assert await page.get_attribute("body", "data-submitted") == value


@pytest.mark.parametrize(
    ("layout", "goal"),
    [
        ("jq", 'Enter an item that starts with "Xy" and press Submit'),  # no suggestion at all
        ("aria", 'Enter an item that starts with "San" and ends with "burg" and press Submit'),  # shown, none fits
        ("plain", 'Enter the item that starts with "San" and press Submit'),  # four fit, the goal names one
        ("jq", 'Type "San" in the City field and choose "San Mateo" from the suggestions, then press Submit'),
    ],
)
async def test_no_fitting_suggestion_is_never_completed(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str, goal: str
) -> None:
    await page.goto(f"{pages_url}/pages/autocomplete.html?layout={layout}")
    result = await run(goal, page, stepwise_server, tmp_path)
    assert result.status == "failed", (result.status, [s.action for s in result.steps])
    assert await page.get_attribute("body", "data-submitted") is None


async def test_a_value_left_in_a_form_with_a_submit_asks_for_confirmation(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path
) -> None:
    await page.goto(f"{pages_url}/pages/autocomplete.html?layout=jq")
    result = await run('Enter an item that starts with "An" and ends with "ica".', page, stepwise_server, tmp_path)
    assert await page.input_value("#place") == "Antarctica"
    assert result.status == "needs_confirmation", (result.status, [s.action for s in result.steps])
