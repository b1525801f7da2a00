"""Chain guards through the real loop and a real Chromium (docs/client.md "Chain guards"): a
scripted API answers with chains carrying expect / requireValues / commit, and
tests/e2e/pages/chain.html changes under the chain — re-renders, relabels, hides a field,
swaps Submit for a decoy, opens a modal, reformats or clears a value. The chain must stop
before the changed target and never act on it; the report says where and why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

from client import PageProbe, RunResult, StabilityConfig, run_task
from tests.e2e.fake_api import ScriptedAPI, answer, step

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

FAST = StabilityConfig(min_wait_ms=100, dom_quiet_ms=100, network_idle_ms=100, max_wait_ms=2000)
FIELDS = {"first": "First name", "last": "Last name", "email": "Email", "phone": "Phone", "country": "Country"}
VALUES = {"first": "Ada", "last": "Lovelace", "email": "ada@example.com", "phone": "555 0100", "country": "France"}


async def open_form(page: Page, pages_url: str, mode: str = "") -> dict[str, str]:
    """Open chain.html (in ``mode``) and return html id -> data-llm-id, as the loop will see them."""
    probe = PageProbe(page)
    await probe.install()
    await page.goto(f"{pages_url}/pages/chain.html" + (f"?mode={mode}" if mode else ""))
    await probe.capture()
    pairs = await page.eval_on_selector_all("[data-llm-id]", "els => els.map(e => [e.id, e.getAttribute('data-llm-id')])")
    return {html_id: llm_id for html_id, llm_id in pairs if html_id}


def fill(ids: dict[str, str], key: str, value: str | None = None, **kwargs: Any) -> dict[str, Any]:
    """setValue (select for the country) on a form field, expecting it as the server saw it."""
    role = "combobox" if key == "country" else "textbox"
    verb = "select" if key == "country" else "setValue"
    return step(f'{verb}("{ids[key]}", "{value if value is not None else VALUES[key]}")', expect=(role, FIELDS[key]), **kwargs)


def submit(ids: dict[str, str], keys: tuple[str, ...] = tuple(FIELDS)) -> dict[str, Any]:
    return step(f'click("{ids["submit"]}")', expect=("button", "Submit"),
                require=[(ids[k], VALUES[k]) for k in keys], commit=True)


async def run(page: Page, tmp_path: Path, chain: list[dict[str, Any]]) -> tuple[RunResult, dict[str, Any]]:
    api = ScriptedAPI([answer(actions=chain), answer("finish()", status="completed")])
    client = api.client()
    try:
        result = await run_task("scripted goal", None, api=client, page=page, stability=FAST,
                                state_file=str(tmp_path / "state.json"), tab_key="tab")
    finally:
        await client.aclose()
    assert len(api.requests) == 2, "the chain's report is the second request"
    return result, api.requests[1]


def stopped(report: dict[str, Any], index: int, kind: str, executed: int) -> dict[str, Any]:
    partial: dict[str, Any] = report["chainPartialState"]
    assert report["lastActionStatus"] == "failure"
    assert partial["failedIndex"] == index and partial["failureKind"] == kind, partial
    assert len(partial["executedActions"]) == executed
    if executed:
        assert report["lastExecutedActionIndex"] == executed - 1
    else:
        assert "lastExecutedActionIndex" not in report
    return partial


async def test_whole_form_runs_and_every_value_reads_back(page: Page, pages_url: str, tmp_path: Path) -> None:
    ids = await open_form(page, pages_url)
    chain = [fill(ids, key) for key in FIELDS] + [submit(ids)]
    _result, report = await run(page, tmp_path, chain)
    assert report["lastActionStatus"] == "success" and report["lastExecutedActionIndex"] == 5
    assert report["chainPartialState"] == {
        "executedActions": [item["action"] for item in chain], "totalActionsInChain": 6, "skippedIndexes": [],
    }
    assert "lastActionError" not in report
    for key in ("first", "last", "email", "phone"):
        assert await page.input_value(f"#{key}") == VALUES[key]
    assert await page.input_value("#country") == "fr"
    assert await page.text_content("#submits") == "1"


async def test_rerendered_form_stops_before_the_recreated_field(page: Page, pages_url: str, tmp_path: Path) -> None:
    ids = await open_form(page, pages_url, "rerender")
    chain = [fill(ids, key) for key in FIELDS] + [submit(ids)]
    _result, report = await run(page, tmp_path, chain)
    stopped(report, 2, "target_missing", executed=2)
    assert ids["email"] in report["lastActionError"]
    # Nothing typed into the re-created fields, nothing submitted.
    assert await page.input_value("#email") == "" and await page.input_value("#phone") == ""
    assert await page.text_content("#submits") == "0"


async def test_relabelled_field_is_a_changed_target(page: Page, pages_url: str, tmp_path: Path) -> None:
    ids = await open_form(page, pages_url, "relabel")
    chain = [fill(ids, key) for key in FIELDS] + [submit(ids)]
    _result, report = await run(page, tmp_path, chain)
    stopped(report, 3, "target_changed", executed=3)
    assert "expected textbox 'Phone', found textbox 'Fax'" in report["lastActionError"]
    assert await page.input_value("#phone") == ""
    assert await page.text_content("#submits") == "0"


async def test_field_shown_late_stops_the_chain(page: Page, pages_url: str, tmp_path: Path) -> None:
    ids = await open_form(page, pages_url, "late")
    chain = [fill(ids, "first"), fill(ids, "country"),
             step(f'setValue("{ids["promo"]}", "SAVE5")', expect=("textbox", "Promo code")), submit(ids, ("first",))]
    _result, report = await run(page, tmp_path, chain)
    stopped(report, 2, "target_missing", executed=2)
    await page.wait_for_selector("#promo", state="visible", timeout=3000)  # it does come back
    assert await page.input_value("#promo") == ""
    assert await page.text_content("#submits") == "0"


async def test_decoy_with_the_same_id_is_never_clicked(page: Page, pages_url: str, tmp_path: Path) -> None:
    ids = await open_form(page, pages_url, "decoy")
    chain = [fill(ids, "first"), fill(ids, "last"), submit(ids, ("first", "last"))]
    _result, report = await run(page, tmp_path, chain)
    stopped(report, 2, "target_changed", executed=2)
    assert report["lastActionError"] == (
        f'click("{ids["submit"]}"): target changed: expected button \'Submit\', found button \'Delete account\''
    )
    assert await page.text_content("#deletes") == "0"
    assert await page.get_attribute("text=Delete account", "data-llm-id") == ids["submit"]  # the same id, indeed


async def test_modal_covering_the_page_stops_the_chain(page: Page, pages_url: str, tmp_path: Path) -> None:
    ids = await open_form(page, pages_url, "modal")
    chain = [fill(ids, key) for key in FIELDS] + [submit(ids)]
    _result, report = await run(page, tmp_path, chain)
    stopped(report, 3, "covered", executed=3)
    assert await page.input_value("#phone") == ""


async def test_reformatted_value_is_a_value_mismatch(page: Page, pages_url: str, tmp_path: Path) -> None:
    ids = await open_form(page, pages_url, "mask")
    chain = [fill(ids, "first"), fill(ids, "phone", "5551234567"), submit(ids, ("first",))]
    _result, report = await run(page, tmp_path, chain)
    stopped(report, 1, "value_mismatch", executed=1)
    assert "'(555) 123-4567'" in report["lastActionError"]
    assert await page.text_content("#submits") == "0"


async def test_value_cut_by_maxlength_is_a_value_mismatch(page: Page, pages_url: str, tmp_path: Path) -> None:
    ids = await open_form(page, pages_url)
    chain = [step(f'setValue("{ids["promo"]}", "SPRING2026")', expect=("textbox", "Promo code")), submit(ids, ())]
    _result, report = await run(page, tmp_path, chain)
    stopped(report, 0, "value_mismatch", executed=0)
    assert await page.text_content("#submits") == "0"


async def test_cleared_field_blocks_the_commit(page: Page, pages_url: str, tmp_path: Path) -> None:
    ids = await open_form(page, pages_url, "clear")
    chain = [fill(ids, key) for key in FIELDS] + [submit(ids)]
    _result, report = await run(page, tmp_path, chain)
    stopped(report, 5, "required_value_mismatch", executed=5)
    assert "'First name' should hold 'Ada'" in report["lastActionError"]
    assert await page.text_content("#submits") == "0"


async def test_page_moved_to_another_url_stops_the_chain(page: Page, pages_url: str, tmp_path: Path) -> None:
    ids = await open_form(page, pages_url, "route")
    chain = [fill(ids, key) for key in FIELDS] + [submit(ids)]
    _result, report = await run(page, tmp_path, chain)
    stopped(report, 2, "url_changed", executed=2)
    assert "step=2" in report["lastActionError"]
    assert await page.input_value("#email") == ""


async def test_a_changed_fragment_is_the_same_page(page: Page, pages_url: str, tmp_path: Path) -> None:
    ids = await open_form(page, pages_url, "hash")
    chain = [fill(ids, key) for key in FIELDS] + [submit(ids)]
    _result, report = await run(page, tmp_path, chain)
    assert report["lastActionStatus"] == "success" and "failedIndex" not in report["chainPartialState"]
    assert page.url.endswith("#contact") and await page.text_content("#submits") == "1"


async def test_can_fail_item_is_skipped_and_reported(page: Page, pages_url: str, tmp_path: Path) -> None:
    ids = await open_form(page, pages_url)
    chain = [fill(ids, "first"), fill(ids, "country", "Atlantis", can_fail=True), fill(ids, "last"),
             submit(ids, ("first", "last"))]
    _result, report = await run(page, tmp_path, chain)
    assert report["lastActionStatus"] == "success" and report["lastExecutedActionIndex"] == 3
    partial = report["chainPartialState"]
    assert partial["skippedIndexes"] == [1] and "failedIndex" not in partial
    assert partial["executedActions"] == [chain[0]["action"], chain[2]["action"], chain[3]["action"]]
    assert await page.text_content("#submits") == "1"


@pytest.mark.parametrize("name", ["actions.html", "field_kinds.html", "widgets.html", "chain.html"])
async def test_inspect_reads_what_the_v3_tree_says(page: Page, pages_url: str, name: str) -> None:
    """The guards' reading of an element is the tree's: role (as its ARIA name), name, value."""
    from client.chain_guards import read
    from verification.elements import normalize_role

    probe = PageProbe(page)
    await probe.install()
    await page.goto(f"{pages_url}/pages/{name}")
    tree = (await probe.capture()).tree
    readings = await read(probe, [node["i"] for node in tree])
    assert tree and all(readings[node["i"]].exists for node in tree)
    for node in tree:
        found = readings[node["i"]]
        assert found.role == normalize_role(node["r"]), node
        assert found.name == node["n"], node
        assert found.value == node.get("v"), node
        assert found.perceivable and found.covered == bool(node.get("occ")), node
