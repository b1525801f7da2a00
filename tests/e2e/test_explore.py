"""Finding a target behind tabs, collapsed sections, popups and dialogs — through the whole
loop, the reference client against a local Stepwise with no model. Each tab or section is
opened once (an accordion that closes the others is never looped over), a popup that comes
over the form mid-task is closed (never answered with the control that leaves) and the work
resumes, and "the button in the dialog labeled …" is read the way the page supports — or
not at all when it supports two readings."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page

from client import RunResult, StabilityConfig, run_task
from client.local_server import LocalServer

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

FAST = StabilityConfig(min_wait_ms=50, dom_quiet_ms=100, network_idle_ms=100, max_wait_ms=2000)


async def run(goal: str, page: Page, server: LocalServer, tmp_path: Path, max_steps: int = 16) -> RunResult:
    return await run_task(
        goal, None, server=server.url, api_key=server.api_key, page=page, stability=FAST,
        max_steps=max_steps, state_file=str(tmp_path / "state.json"), tab_key="explore",
    )  # fmt: skip


def actions(result: RunResult) -> list[str]:
    return [s.action for s in result.steps]


@pytest.mark.parametrize(
    ("layout", "goal"),
    [
        ("aria-tabs", 'Switch between the tabs to find and click on the link "euismod".'),
        ("link-tabs", 'Look through the tabs and click the link "nibh"'),
        ("accordion", 'Expand the sections below, to find and click on the link "euismod".'),
        ("details", 'Open the sections to find and click on "aliquet"'),
    ],
)
async def test_the_target_is_found_opening_each_tab_or_section_once(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str, goal: str
) -> None:
    await page.goto(f"{pages_url}/pages/explore.html?layout={layout}")
    result = await run(goal, page, stepwise_server, tmp_path)
    done = actions(result)
    assert result.status == "completed", (result.error, done)
    wanted = goal.rsplit('"', 2)[1]
    assert await page.get_attribute("body", "data-clicked") == wanted
    opened = [a for a in done if a.startswith("click(")][:-1]
    # Each once; the tab shown first is never reopened (the word is in the third tab / section).
    assert len(opened) == len(set(opened)) == (2 if "tabs" in layout else 3), [(s.action, s.thought) for s in result.steps]


@pytest.mark.parametrize("layout", ["aria-tabs", "accordion"])
async def test_a_target_in_no_tab_or_section_fails_honestly(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str
) -> None:
    await page.goto(f"{pages_url}/pages/explore.html?layout={layout}")
    result = await run('Switch between the tabs to find and click on the link "zebra".', page, stepwise_server, tmp_path, max_steps=20)
    assert result.status != "completed", actions(result)
    assert await page.get_attribute("body", "data-clicked") is None
    opened = [a for a in actions(result) if a.startswith("click(")]
    assert len(opened) == len(set(opened)), actions(result)  # never a loop over the same header


@pytest.mark.parametrize("layout", ["popup-typed", "popup-focus"])
async def test_a_popup_over_the_login_form_is_dismissed_and_the_login_resumes(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, layout: str
) -> None:
    await page.goto(f"{pages_url}/pages/explore.html?layout={layout}")
    goal = 'Enter the username "vina" and the password "US" into the text fields and press log in.'
    result = await run(goal, page, stepwise_server, tmp_path)
    assert result.status == "completed", (result.error, actions(result))
    assert await page.get_attribute("body", "data-login") == "vina|US"
    assert await page.get_attribute("body", "data-clicked") is None  # never OK, which leaves the page


async def test_a_cookie_banner_over_the_target_is_closed_without_accepting(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path
) -> None:
    await page.goto(f"{pages_url}/pages/explore.html?layout=cookie")
    result = await run("Click the Subscribe button", page, stepwise_server, tmp_path)
    assert result.status == "completed", (result.error, actions(result))
    assert await page.get_attribute("body", "data-clicked") == "subscribe"


@pytest.mark.parametrize(("goal", "clicked"), [
    ('Click the button in the dialog box labeled "Cancel".', "cancel"),
    ('Press the button in the dialog labeled "x"', "close"),
])  # fmt: skip
async def test_the_button_in_the_dialog_labeled_so_is_the_dialogs_own(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path, goal: str, clicked: str
) -> None:
    await page.goto(f"{pages_url}/pages/explore.html?layout=dialog")
    result = await run(goal, page, stepwise_server, tmp_path)
    assert result.status == "completed", (result.error, actions(result))
    assert await page.get_attribute("body", "data-clicked") == clicked  # never the form's Cancel


async def test_a_label_that_names_one_dialog_and_another_dialogs_button_is_not_guessed(
    page: Page, pages_url: str, stepwise_server: LocalServer, tmp_path: Path
) -> None:
    await page.goto(f"{pages_url}/pages/explore.html?layout=dialog-ambiguous")
    result = await run('Click the button in the dialog labeled "Cancel".', page, stepwise_server, tmp_path, max_steps=10)
    assert result.status != "completed", actions(result)
    assert await page.get_attribute("body", "data-clicked") is None
