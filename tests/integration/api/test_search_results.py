"""Search, then open the n-th result — over the HTTP API with no model, on result lists laid
out as list items, cards and table rows."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.api.conftest import Api
from tests.integration.api.test_goal_contract import one_truth

TITLES = ["Sony WH-1000XM5", "Bose QC45", "AKG K371"]


def search_page(query: str = "") -> list[dict[str, Any]]:
    return [
        {"i": "home", "r": "link", "n": "Home", "ctx": ["item: Home · Deals"]},
        {"i": "deals", "r": "link", "n": "Deals", "ctx": ["item: Home · Deals"]},
        {"i": "q", "r": "inp", "n": "Search products", "v": query},
        {"i": "go", "r": "btn", "n": "Search"},
    ]


def results_page(layout: str, query: str) -> list[dict[str, Any]]:
    tree = search_page(query)
    for n, title in enumerate(TITLES):
        ctx = {"list": f"item: {title} · Wireless", "cards": f"card: {title} · $299", "table": f"row: {title} · 4.5"}[layout]
        tree += [{"i": f"r{n}", "r": "link", "n": title, "ctx": [ctx]}, {"i": f"v{n}", "r": "link", "n": "Reviews", "ctx": [ctx]}]
    return tree


async def send(api: Api, tree: list[dict[str, Any]], url: str, ids: dict[str, str], goal: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"url": url, "interactiveTree": tree, **ids}
    if goal:
        body["query"] = goal
    response = await api.interact(body)
    assert response.status_code == 200, response.text
    return one_truth(response.json())


@pytest.mark.parametrize("layout", ["list", "cards", "table"])
@pytest.mark.parametrize(
    ("goal", "index"),
    [
        ("Search for headphones and open the first result", 0),
        ("Look up headphones, then click the 2nd search result", 1),
        ("search for headphones and open the top result", 0),
        ("Search for headphones and open the last result", 2),
    ],
)
async def test_search_then_open_the_nth_result(api: Api, layout: str, goal: str, index: int) -> None:
    url = "https://shop.example/"
    first = await send(api, search_page(), url, {}, goal)
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    assert first["action"] == 'setValue("q", "headphones")'
    run = await send(api, search_page("headphones"), url, ids)
    assert run["action"] in ('press("q", "Enter")', 'click("go")')
    results_url = "https://shop.example/search?q=headphones"
    pick = await send(api, results_page(layout, "headphones"), results_url, ids)
    assert pick["action"] == f'click("r{index}")'
    product = [{"i": "buy", "r": "btn", "n": "Add to cart"}]
    done = await send(api, product, f"https://shop.example/p/{index}", ids)
    assert done["status"] == "completed"


async def test_a_result_list_of_one_entry_is_not_a_list_to_count_in(api: Api) -> None:
    url = "https://shop.example/search?q=x"
    tree = [*search_page("x"), {"i": "r0", "r": "link", "n": "Only", "ctx": ["item: Only"]}]
    reply = await send(api, tree, url, {}, "Open the 2nd result")
    assert reply["status"] != "completed" and reply["action"] != 'click("r0")'
