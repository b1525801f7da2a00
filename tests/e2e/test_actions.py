"""(b) Every action of the grammar executes on a test page, by data-llm-id."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.async_api import Page

from client import ActionError, PageProbe, execute_action

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]


async def open_playground(page: Page, probe: PageProbe, pages_url: str, name: str = "actions.html") -> dict[str, str]:
    """Load a test page and return {html id → data-llm-id} of its interactive elements."""
    await page.goto(f"{pages_url}/pages/{name}")
    await probe.capture()
    pairs = await page.eval_on_selector_all("[data-llm-id]", "els => els.map(e => [e.id, e.getAttribute('data-llm-id')])")
    return {html_id: llm_id for html_id, llm_id in pairs if html_id}


async def events(page: Page) -> list[str]:
    result: Any = await page.evaluate("window.events")
    return list(result)


async def test_click(page: Page, probe: PageProbe, pages_url: str) -> None:
    ids = await open_playground(page, probe, pages_url)
    await execute_action(probe, f'click("{ids["clicker"]}")')
    await execute_action(probe, f"click({ids['clicker']})")  # bare ids are the same grammar
    assert await page.text_content("#count") == "2"


async def test_set_value_on_input_textarea_and_contenteditable(page: Page, probe: PageProbe, pages_url: str) -> None:
    ids = await open_playground(page, probe, pages_url)
    await execute_action(probe, f'setValue("{ids["name"]}", "Jas")')
    await execute_action(probe, f'setValue("{ids["bio"]}", "Line one\\nLine two")')
    await execute_action(probe, f'setValue("{ids["editor"]}", "Rich text")')
    assert await page.input_value("#name") == "Jas"
    assert await page.input_value("#bio") == "Line one\nLine two"
    assert (await page.text_content("#editor")) == "Rich text"
    fired = await events(page)
    for element in ("name", "bio"):
        assert f"{element}:input" in fired and f"{element}:change" in fired
    assert "editor:input" in fired
    # Replaces, not appends.
    await execute_action(probe, f'setValue("{ids["name"]}", "Jasmine")')
    assert await page.input_value("#name") == "Jasmine"


async def test_set_value_on_date_checkbox_and_select(page: Page, probe: PageProbe, pages_url: str) -> None:
    ids = await open_playground(page, probe, pages_url)
    await execute_action(probe, f'setValue("{ids["born"]}", "2001-02-03")')
    assert await page.input_value("#born") == "2001-02-03"
    await execute_action(probe, f'setValue("{ids["born"]}", "23/04/1999")')  # day/month/year when the day says so
    assert await page.input_value("#born") == "1999-04-23"
    await execute_action(probe, f'setValue("{ids["born"]}", "03/04/1999")')  # else month first, as the contract reads it
    assert await page.input_value("#born") == "1999-03-04"
    await execute_action(probe, f'setValue("{ids["agree"]}", "true")')
    assert await page.is_checked("#agree")
    await execute_action(probe, f'setValue("{ids["colour"]}", "Blue")')
    assert await page.input_value("#colour") == "b"


async def test_select_by_label_or_value(page: Page, probe: PageProbe, pages_url: str) -> None:
    ids = await open_playground(page, probe, pages_url)
    await execute_action(probe, f'select("{ids["colour"]}", "Green")')
    assert await page.input_value("#colour") == "g"
    await execute_action(probe, f'select("{ids["colour"]}", "r")')
    assert await page.input_value("#colour") == "r"
    await execute_action(probe, f'select("{ids["colour"]}", "blue")')  # case-insensitive label
    assert await page.input_value("#colour") == "b"
    assert "colour:change" in await events(page)
    started = time.monotonic()
    with pytest.raises(ActionError, match="no option 'Purple'"):
        await execute_action(probe, f'select("{ids["colour"]}", "Purple")')
    assert time.monotonic() - started < 2


async def test_press(page: Page, probe: PageProbe, pages_url: str) -> None:
    ids = await open_playground(page, probe, pages_url)
    await execute_action(probe, f'setValue("{ids["name"]}", "Ana")')
    await execute_action(probe, f'press("{ids["name"]}", "Enter")')
    assert await page.text_content("#submitted") == "Submitted Ana"
    await execute_action(probe, f'press("{ids["name"]}", "enter")')  # key names are case-insensitive
    await execute_action(probe, 'press("Tab")')  # no element: the focused one
    assert await page.evaluate("document.activeElement.id") == "bio"


async def test_scroll_directions_and_into_view(page: Page, probe: PageProbe, pages_url: str) -> None:
    ids = await open_playground(page, probe, pages_url)
    await execute_action(probe, 'scroll("down")')
    down = await page.evaluate("window.scrollY")
    assert down > 0
    await execute_action(probe, 'scroll("up")')
    assert await page.evaluate("window.scrollY") < down
    await execute_action(probe, f'scroll("{ids["far"]}")')
    box = await page.locator("#far").bounding_box()
    assert box is not None and 0 <= box["y"] < 800


async def test_hover(page: Page, probe: PageProbe, pages_url: str) -> None:
    ids = await open_playground(page, probe, pages_url)
    assert not await page.is_visible("#tip")
    await execute_action(probe, f'hover("{ids["hover-target"]}")')
    assert await page.is_visible("#tip")


async def test_navigate_and_go_back(page: Page, probe: PageProbe, pages_url: str) -> None:
    await open_playground(page, probe, pages_url)
    await execute_action(probe, 'navigate("/pages/next.html")')  # relative to the current page
    assert page.url == f"{pages_url}/pages/next.html"
    await execute_action(probe, "goBack()")
    assert page.url == f"{pages_url}/pages/actions.html"
    await execute_action(probe, f'navigate("{pages_url}/pages/next.html")')
    assert await page.title() == "Next page"
    with pytest.raises(ActionError, match="refusing"):
        await execute_action(probe, 'navigate("javascript:alert(1)")')


async def test_go_back_without_history_fails(page: Page, probe: PageProbe) -> None:
    await page.goto("about:blank")
    with pytest.raises(ActionError, match="no previous page"):
        await execute_action(probe, "goBack()")


async def test_wait_finish_fail(page: Page, probe: PageProbe, pages_url: str) -> None:
    await open_playground(page, probe, pages_url)
    started = time.monotonic()
    await execute_action(probe, "wait(0.3)")
    assert 0.25 <= time.monotonic() - started < 2
    url = page.url
    assert (await execute_action(probe, "finish()")).name == "finish"
    assert (await execute_action(probe, 'fail("cannot find the form")')).value == "cannot find the form"
    assert page.url == url


async def test_unknown_id_fails_at_once(page: Page, probe: PageProbe, pages_url: str) -> None:
    await open_playground(page, probe, pages_url)
    for action in ('click("9999")', 'setValue("9999", "x")', 'hover("9999")', 'select("9999", "a")', 'press("9999", "Enter")'):
        started = time.monotonic()
        with pytest.raises(ActionError, match="no element with id '9999'") as caught:
            await execute_action(probe, action)
        assert caught.value.code == "ELEMENT_NOT_FOUND"
        assert time.monotonic() - started < 1.0


async def test_bad_action_text(page: Page, probe: PageProbe, pages_url: str) -> None:
    await open_playground(page, probe, pages_url)
    with pytest.raises(ActionError) as caught:
        await execute_action(probe, "teleport(3)")
    assert caught.value.code == "BAD_ACTION"


async def test_disabled_and_covered_elements_fail_quickly(page: Page, probe: PageProbe, pages_url: str) -> None:
    ids = await open_playground(page, probe, pages_url)
    started = time.monotonic()
    with pytest.raises(ActionError, match="disabled"):
        await execute_action(probe, f'click("{ids["disabled"]}")', timeout_ms=1000)
    assert time.monotonic() - started < 3

    covered = await open_playground(page, probe, pages_url, "covered.html")
    with pytest.raises(ActionError, match="covered"):
        await execute_action(probe, f'click("{covered["under"]}")', timeout_ms=1000)


async def test_click_inside_a_same_origin_frame(page: Page, probe: PageProbe, pages_url: str) -> None:
    await page.goto(f"{pages_url}/pages/extraction.html")
    await page.wait_for_load_state("load")
    snap = await probe.capture()
    inner = next(node for node in snap.tree if node.get("n") == "Inner button")
    await execute_action(probe, f'click("{inner["i"]}")')
    frame = page.frame_locator("#child")
    assert await frame.locator("#inner-count").text_content() == "1"
