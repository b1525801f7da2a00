"""The containers (`ctx`) and visible text (`t`) the in-page script sends, and the server-side
HTML extraction of the same page agreeing with it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page

from client import PageProbe
from verification import PageState

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]


async def snapshot(page: Page, probe: PageProbe, pages_url: str) -> tuple[list[dict[str, Any]], str]:
    await page.goto(pages_url + "/pages/containers.html")
    snap = await probe.capture(full_dom=True)
    assert snap.dom is not None
    return snap.tree, snap.dom


async def by_dom_id(page: Page, tree: list[dict[str, Any]], dom_id: str) -> dict[str, Any]:
    llm_id = await page.get_attribute(f"#{dom_id}", "data-llm-id")
    matches = [node for node in tree if node["i"] == llm_id]
    assert len(matches) == 1, (dom_id, llm_id)
    return matches[0]


async def test_rows_cards_items_sections_and_dialogs(page: Page, probe: PageProbe, pages_url: str) -> None:
    tree, _dom = await snapshot(page, probe, pages_url)

    async def ctx(dom_id: str) -> list[str]:
        return (await by_dom_id(page, tree, dom_id)).get("ctx", [])

    people = "section: People"
    assert await ctx("edit-bob") == ["row: Bob Smith · bob@example.com · Editor · Delete", people]
    assert await ctx("delete-bob") == ["row: Bob Smith · bob@example.com · Editor · Edit", people]
    assert await ctx("edit-carol") == ["row: Carol White · carol@example.com · Viewer", people]
    assert await ctx("carol") == ["row: carol@example.com · Viewer · Edit", people]  # its own text left out
    # The card's heading names the card; the list item around it (no heading of its own) its text.
    assert await ctx("buy-team") == ["card: Team", "item: Team For small teams", "section: Plans"]
    assert await ctx("contact") == ["card: Enterprise, for large companies", "section: Plans"]
    assert await ctx("remove-eggs") == ["item: Eggs", "section: Shopping list"]
    # Repeated boxes are entries, one of them inside bare wrapper divs too.
    for dom_id, label in (("contact-name", "Name"), ("contact-phone", "Phone"), ("contact-email", "Email")):
        assert await ctx(dom_id) == [f"item: {label}", "section: Contact details"], dom_id
    assert await ctx("card-number") == ["section: Card", "section: Billing"]  # an unnamed form is skipped
    assert await ctx("dialog-confirm") == ["dialog: Delete Bob Smith?"]
    assert "ctx" not in await by_dom_id(page, tree, "plain")
    # A list item that is just a link names nothing.
    nav = [node for node in tree if node["n"] == "People" and node["r"] == "link"]
    assert len(nav) == 1 and "ctx" not in nav[0]


async def test_visible_text_is_sent_when_the_name_overrides_it(page: Page, probe: PageProbe, pages_url: str) -> None:
    tree, _dom = await snapshot(page, probe, pages_url)
    decoy = await by_dom_id(page, tree, "decoy")
    assert decoy["n"] == "Save" and decoy["t"] == "Delete"
    save = await by_dom_id(page, tree, "save")
    assert save["n"] == "Save" and "t" not in save
    assert "t" not in await by_dom_id(page, tree, "card-number")  # a field's text is a value
    assert sum("t" in node for node in tree) == 1


async def test_the_server_reads_the_same_containers_from_the_html(page: Page, probe: PageProbe, pages_url: str) -> None:
    tree, dom = await snapshot(page, probe, pages_url)
    server = PageState.from_html(dom, url=page.url)
    assert len(tree) == 22
    assert sum("ctx" in node for node in tree) == 19
    for node in tree:
        element = server.element(node["i"])  # keyed by the data-llm-id the client stamped
        assert element is not None, node
        assert element.container == tuple(node.get("ctx", ())), node
        assert element.text == node.get("t"), node
    # And the parsed V3 tree carries them unchanged.
    client = PageState.from_v3(tree, url=page.url)
    assert [(e.id, e.container, e.text) for e in client.elements] == [
        (e.id, e.container, e.text) for e in server.elements if not e.hidden and e.id in {n["i"] for n in tree}
    ]
