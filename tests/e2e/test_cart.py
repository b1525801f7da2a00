"""Item quantities set with a stepper's "−" / "+" or typed into number fields — through the
whole loop, the reference client against a local Stepwise with no model, on two layouts
(plain repeated boxes with text-only "-" / "+" spans and an empty readout for 0; a table of
number inputs). An item not on the menu never reaches the Order button."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page

from client import RunResult, StabilityConfig, run_task
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

FAST = StabilityConfig(min_wait_ms=50, dom_quiet_ms=100, network_idle_ms=100, max_wait_ms=2000)


async def run(goal: str, page: Page, server: LocalServer, tmp_path: Path, max_steps: int = 12) -> RunResult:
    return await run_task(
        goal, None, server=server.url, api_key=server.api_key, page=page, stability=FAST,
        max_steps=max_steps, state_file=str(tmp_path / "state.json"), tab_key="cart",
    )  # fmt: skip


@pytest.mark.parametrize("layout", ["steppers", "inputs"])
@pytest.mark.parametrize(
    ("goal", "done"),
    [
        ("Order one of each item: Garlic bread, Spaghetti and Meatballs", "Garlic bread×1,Spaghetti and Meatballs×1"),
        ("order one of each: Cake, Cheese wheel", "Cheese wheel×1,Cake×1"),
    ],
)
async def test_the_quantities_are_set_then_ordered(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str, goal: str, done: str
) -> None:
    await page.goto(f"{pages_url}/pages/cart.html?layout={layout}")
    result = await run(goal, page, stepwise_server, tmp_path)
    assert result.status == "completed", (result.error, [s.action for s in result.steps])
    assert await page.get_attribute("body", "data-done") == done
    if layout == "steppers":  # never more clicks on + than the quantity asked
        assert sum(1 for s in result.steps if s.action.startswith("click")) == done.count("×1") + 1


async def test_a_quantity_set_with_the_stepper_is_read_back(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path
) -> None:
    await page.goto(f"{pages_url}/pages/cart.html?layout=steppers")
    result = await run("Set the quantity of Cheese wheel to 3", page, stepwise_server, tmp_path)
    assert result.status == "completed", (result.error, [s.action for s in result.steps])
    assert await page.text_content(".food-item:nth-child(2) .qty") == "3"


@pytest.mark.parametrize("layout", ["steppers", "inputs"])
async def test_an_item_not_on_the_menu_is_never_ordered(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str
) -> None:
    await page.goto(f"{pages_url}/pages/cart.html?layout={layout}")
    result = await run("Order one of each item: Garlic bread, Unicorn steak", page, stepwise_server, tmp_path)
    assert result.status != "completed", [s.action for s in result.steps]
    assert await page.get_attribute("body", "data-done") is None
