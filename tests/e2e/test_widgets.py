"""Widgets through the whole loop — the reference client against a local Stepwise with no
model: a slider, a number box, a text spinner and a calendar behind a read-only field, set
from goals in several phrasings and proven by the values the page shows."""

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
        max_steps=25, state_file=str(tmp_path / "state.json"), tab_key="widgets",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("goal", "selector", "value"),
    [
        ("Select 70 with the slider and click Submit", "#volume", "70"),
        ("Move the volume slider to 25, then press Submit", "#volume", "25"),
        ("Use the Quantity spinner to set 4 and click Submit", "#qty", "4"),
        ("Enter 6 using the guests spinner and submit", "#guests", "6"),
        ("Select 04/03/2024 as the delivery date and hit submit", "#when", "04/03/2024"),
        ("Select 08/15/2024 as the delivery date and hit submit", "#when", "08/15/2024"),
    ],
)
async def test_a_widget_is_set_and_the_value_proves_it(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, goal: str, selector: str, value: str
) -> None:
    await page.goto(f"{pages_url}/pages/widgets.html")
    result = await run(goal, page, stepwise_server, tmp_path)
    assert await page.input_value(selector) == value
    assert result.status == "completed", (result.error, [s.action for s in result.steps])
    assert await page.is_visible("#done")


async def test_a_value_the_slider_cannot_take_is_not_completed(page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path) -> None:
    await page.goto(f"{pages_url}/pages/widgets.html")
    result = await run("Set the volume slider to 250 and click Submit", page, stepwise_server, tmp_path)
    assert result.status != "completed"
    assert await page.input_value("#volume") == "50"


@pytest.mark.parametrize(
    ("layout", "goal", "value"),
    [
        ("script", "Select -12 with the slider and hit Submit", "-12"),
        ("script", "Move the slider to 27, then press Submit", "27"),
        ("aria", "Set the brightness slider to 8 and click Submit", "8"),
        ("aria", "Use the slider to pick 0 and submit", "0"),
        ("step", "Set Opacity to 35 with the slider and click Submit", "35"),
    ],
)
async def test_a_slider_without_a_range_input_is_driven_with_its_keys(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str, goal: str, value: str
) -> None:
    await page.goto(f"{pages_url}/pages/sliders.html?layout={layout}")
    result = await run(goal, page, stepwise_server, tmp_path)
    assert result.status == "completed", (result.error, [s.action for s in result.steps])
    assert await page.get_attribute("body", "data-submitted") == value


@pytest.mark.parametrize(
    ("layout", "goal"),
    [
        ("step", "Set Opacity to 37 with the slider and click Submit"),  # off its steps of 5
        ("script", "Select 45 with the slider and hit Submit"),  # past its end (30)
    ],
)
async def test_a_value_a_script_slider_cannot_show_is_not_completed(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str, goal: str
) -> None:
    await page.goto(f"{pages_url}/pages/sliders.html?layout={layout}")
    result = await run(goal, page, stepwise_server, tmp_path)
    assert result.status != "completed"
    assert await page.get_attribute("body", "data-submitted") is None
