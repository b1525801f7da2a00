"""What the in-page script sends beyond names: each field's kind (`ty`), submenu openers
(`haspopup`), script-driven anchors, and the page's visible text (`pageText`)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page

from client import PageProbe
from verification import PageState

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]


async def node(page: Page, tree: list[dict[str, Any]], dom_id: str) -> dict[str, Any]:
    llm_id = await page.get_attribute(f"#{dom_id}", "data-llm-id")
    (found,) = [n for n in tree if n["i"] == llm_id]
    return found


async def test_each_field_says_its_kind_and_other_elements_do_not(page: Page, probe: PageProbe, pages_url: str) -> None:
    await page.goto(pages_url + "/pages/field_kinds.html")
    snap = await probe.capture()
    kinds = {dom_id: (await node(page, snap.tree, dom_id)).get("ty") for dom_id in ("notes", "start", "plain", "odd", "tags", "editor", "go", "home")}
    assert kinds == {
        "notes": "textarea", "start": "time", "plain": "text", "odd": "text", "tags": "select-multiple",
        "editor": "contenteditable", "go": None, "home": None,
    }  # fmt: skip
    assert "haspopup" in (await node(page, snap.tree, "more")).get("s", [])
    assert (await node(page, snap.tree, "prev"))["n"] == "Prev"  # an anchor a script drives


async def test_the_page_text_is_one_visible_block_per_line(page: Page, probe: PageProbe, pages_url: str) -> None:
    await page.goto(pages_url + "/pages/field_kinds.html")
    snap = await probe.capture()
    lines = snap.text.splitlines()
    assert lines[:3] == [
        "Booking",
        "The quick brown fox jumps over the lazy dog near the river bank.",
        "Second paragraph, on its own line.",
    ]
    assert "Name · Phone" in lines and "Ana Silva · 555-0101" in lines
    assert not any("hidden" in line or "Decorative" in line for line in lines)
    # The server reads it as the page's text: the paragraph is there to read words from.
    state = PageState.from_v3(snap.tree, url=snap.url, text=snap.text)
    assert "lazy dog" in state.text_summary and "\n" in state.text_summary
