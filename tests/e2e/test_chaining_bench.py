"""The chaining bench (bench/chaining.py) in real Chromium: the fixture site judges what was
submitted and counts actions on a changed target, and the bench reports what the site saw,
chaining on and off."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, Page

from bench.chaining import MODES, RecordingClient, cases, play_case, play_mode
from bench.chaining_pages import Case, Site, check, make_case
from bench.chaining_report import write
from tests.e2e.fake_api import BASE, ScriptedAPI, answer, step

pytestmark = [pytest.mark.e2e]


def _expected_submission(case: Case, site: Site) -> bool:
    """Independently of check(): the last submission holds every expected value and nothing
    was counted on a changed target."""
    record = site.record(case.token)
    if not record.submissions or record.changed_target_actions:
        return False
    last = record.submissions[-1]
    return all(last.get(key, "").strip() == value for key, value in case.expected().items()) and not last.get("middle")


def test_one_layout_one_seed_both_ways_reports_what_the_site_saw(chromium: None, tmp_path: Path) -> None:
    site = Site()
    base, stop = site.serve()
    chosen = cases(["label"], ["clean"], 1, "set")
    try:
        runs = {mode: asyncio.run(play_mode(mode, chosen, site, base, 20, True)) for mode in MODES}
    finally:
        stop()
    meta = {"started": "now", "seeds": 1, "layouts": ["label"], "variants": ["clean"], "phrasing": "set", "max_steps": 20, "server": "local"}
    paths = write(tmp_path, runs, meta)

    data = json.loads(paths["json"].read_text())
    assert data["modes"] == ["on", "off"]
    assert set(data["groups"]) == {"clean · label", "clean, all layouts", "phrasing · set", "overall"}
    for mode in MODES:
        (result,) = runs[mode]
        case = site.cases[f"{mode}-{chosen[0][0].token}"]
        assert result.success == _expected_submission(case, site) == check(case, site.record(case.token))[0]
        assert result.false_completion == (result.stepwise_status == "completed" and not result.success)
        assert result.submissions == len(site.record(case.token).submissions)
        assert 1 <= result.requests <= 20 and len(result.actions) == result.requests
        overall = data["groups"]["overall"][mode]
        assert overall["cases"] == 1 and overall["successes"] == int(result.success)
        assert overall["false_completions"] == int(result.false_completion)
        assert overall["requests_median"] == result.requests
        assert data["cases"][mode][0]["goal"].startswith("Set ")
    text = paths["markdown"].read_text()
    assert "| **overall** | 1 / 1 |" in text and "## Targets" in text


@pytest.mark.asyncio(loop_scope="session")
async def test_the_site_counts_a_value_typed_into_a_recycled_row(page: Page) -> None:
    site = Site()
    base, stop = site.serve()
    try:
        case = make_case("label", "rerender", 3)
        await page.goto(base + site.add(case))
        first, second = case.fields[0], case.fields[1]
        nodes = await page.query_selector_all("#rows input")
        await nodes[0].fill(first.value)  # the first typed value: the form re-renders
        await page.wait_for_selector("text=Middle name")
        assert await page.input_value(f"input[name={first.key}]") == first.value
        # The node below now means "Middle name": the second field's value typed there is an
        # action on a changed target; typed into its new place it is not.
        assert await nodes[1].get_attribute("name") == "middle"
        await nodes[1].fill(second.value)
        await page.fill(f"input[name={second.key}]", second.value)
        await asyncio.sleep(0.3)
        assert site.record(case.token).changed_target_actions == 1
        assert check(case, site.record(case.token)) == (False, "1 action(s) on a changed target")
    finally:
        stop()


@pytest.mark.asyncio(loop_scope="session")
async def test_the_site_counts_a_click_on_the_delete_button_that_took_submits_place(page: Page) -> None:
    site = Site()
    base, stop = site.serve()
    try:
        case = make_case("grid", "decoy", 0)
        await page.goto(base + site.add(case))
        submit = await page.query_selector("#submit")
        assert submit is not None
        for f in case.fields:
            await page.fill(f"input[name={f.key}]", f.value)
        await page.wait_for_selector("text=Delete account")
        assert await submit.text_content() == "Delete account"  # the same element
        await page.click("#submit")  # the new Submit
        await page.wait_for_selector("text=Thank you")
        assert check(case, site.record(case.token)) == (True, "the submitted values are the expected ones")
        await page.go_back()
        await page.wait_for_selector("#submit")
        for f in case.fields:
            await page.fill(f"input[name={f.key}]", f.value)
        await page.click("text=Delete account")
        await asyncio.sleep(0.3)
        assert site.record(case.token).changed_target_actions == 1
        assert not check(case, site.record(case.token))[0]
    finally:
        stop()


@pytest.mark.asyncio(loop_scope="session")
async def test_a_wrong_or_missing_value_fails_the_sites_check(page: Page) -> None:
    site = Site()
    base, stop = site.serve()
    try:
        case = make_case("extras", "clean", 1)
        await page.goto(base + site.add(case))
        for f in case.fields[:-1]:
            await page.fill(f"input[name={f.key}]", f.value)
        await page.select_option("#country", case.country or "")
        await page.check("#subscribe")
        await page.click("#submit")
        await page.wait_for_selector("text=Thank you")
        ok, reason = check(case, site.record(case.token))
        assert not ok and case.fields[-1].key in reason
    finally:
        stop()


def _chain_for(case: Case) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A scripted server's first answer: the whole form as one chain, built from the V3 tree,
    each item naming its target as the server saw it (wire contract ``expect``)."""

    def build(body: dict[str, Any]) -> dict[str, Any]:
        ids = {node.get("n"): node["i"] for node in body["interactiveTree"]}
        fills = [
            step(f'setValue("{ids[f.label]}", "{f.value}")', expect=("textbox", f.label))
            for f in (case.field(key) for key in case.goal_order)
        ]
        submit = step(f'click("{ids["Submit"]}")', expect=("button", "Submit"), commit=True)
        return answer(actions=[*fills, submit])

    return build


def _rerender_case() -> Case:
    """A re-render case whose first typed field is not the page's last: rows below it recycle."""
    for seed in range(20):
        case = make_case("label", "rerender", seed)
        if [f.key for f in case.fields].index(case.goal_order[0]) < len(case.fields) - 2:
            return case
    raise AssertionError("no such seed")


@pytest.mark.parametrize("variant", ["clean", "decoy", "rerender"])
@pytest.mark.asyncio(loop_scope="session")
async def test_a_chain_is_counted_as_one_request_and_the_changed_target_as_the_site_saw_it(browser: Browser, variant: str, tmp_path: Path) -> None:
    """A whole-form chain, scripted as the server sends it (targets named in ``expect``): the
    bench counts requests and chains from the wire, and the site counts nothing done on a
    changed target — the client's guards stop first."""
    site = Site()
    base, stop = site.serve()
    case = _rerender_case() if variant == "rerender" else make_case("label", variant, 0)
    scripted = ScriptedAPI([_chain_for(case), answer("finish()", status="failed")])
    try:
        async with RecordingClient(BASE, "sw_test", transport=httpx.MockTransport(scripted.handler)) as api:
            done = await play_case(browser, api, site, base, case, "on", "set", str(tmp_path / "state.json"), 5)
    finally:
        stop()
    record = site.record(case.token)
    assert done.requests == len(scripted.requests) == 2
    assert done.changed_target_actions == record.changed_target_actions
    (chain,) = done.chains
    assert chain.length == 6
    if variant == "clean":
        assert chain.full and done.success and record.submissions[-1]["first"] == case.field("first").value
        assert record.changed_target_actions == 0
    elif variant == "decoy":
        # The client's guard stops before the click: "Delete account" is not the Submit the
        # chain was built for (an unguarded client clicks it and the site counts 1).
        assert (chain.executed, chain.failed_index, chain.failure_kind) == (5, 5, "target_changed")
        assert record.changed_target_actions == 0 and not record.submissions
    else:
        # Rows below the first typed one now mean other fields: the guard stops at the first
        # of them (an unguarded client typed three values into them).
        assert not chain.full and (chain.failed_index or 0) >= 1 and chain.failure_kind == "target_changed"
        assert record.changed_target_actions == 0 and not record.submissions
