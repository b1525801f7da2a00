"""(a) V3 extraction on the demo pages and the extraction test page."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page

from client import PageProbe, StabilityConfig, execute_action, wait_for_stability
from client.stability import NetworkTracker

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="session")]

QUICK = StabilityConfig(min_wait_ms=100, dom_quiet_ms=150, network_idle_ms=200, max_wait_ms=3000)


def by_name(tree: list[dict[str, Any]], name: str) -> dict[str, Any]:
    matches = [node for node in tree if node.get("n") == name]
    assert len(matches) == 1, f"{name!r}: {matches} in {[n.get('n') for n in tree]}"
    return matches[0]


def names(tree: list[dict[str, Any]]) -> set[str]:
    return {node.get("n", "") for node in tree}


async def settle(probe: PageProbe) -> None:
    tracker = NetworkTracker(probe.page)
    try:
        await wait_for_stability(probe, tracker, QUICK)
    finally:
        tracker.close()


async def test_patients_list_tree(page: Page, probe: PageProbe, demo: Any) -> None:
    await page.goto(demo.url + "/patients")
    await page.wait_for_selector("#rows tr[data-patient]")  # rendered from a fetch: on a loaded machine, later than settling
    await settle(probe)
    snap = await probe.capture()
    assert snap.title == "Patients · Sunrise Clinic"
    assert snap.viewport == {"width": 1280, "height": 800}
    new = by_name(snap.tree, "New patient")
    assert new["r"] == "btn" and "occ" not in new
    assert len(new["xy"]) == 2 and len(new["box"]) == 4 and new["box"][2] > 0
    assert by_name(snap.tree, "Patients")["r"] == "link"
    assert by_name(snap.tree, "Search patients") == {**by_name(snap.tree, "Search patients"), "r": "inp", "v": ""}
    assert by_name(snap.tree, "Delete Maria Lopez")["r"] == "btn"  # aria-label wins over text
    assert len({node["i"] for node in snap.tree}) == len(snap.tree)
    assert all(node["i"].isdigit() for node in snap.tree)
    # The modal's buttons are hidden (its backdrop has the `hidden` attribute).
    assert "Cancel" not in names(snap.tree)


async def test_ids_are_stable_across_a_re_render(page: Page, probe: PageProbe, demo: Any) -> None:
    await page.goto(demo.url + "/patients")
    await page.wait_for_selector("#rows tr[data-patient]")  # rendered from a fetch: on a loaded machine, later than settling
    await settle(probe)
    first = await probe.capture()
    again = await probe.capture()
    assert first.tree == again.tree  # extracting twice changes nothing

    await page.fill("#search", "maria")  # the table body is re-rendered from scratch
    await settle(probe)
    filtered = await probe.capture()
    for kept in ("New patient", "Patients", "Settings"):
        assert by_name(filtered.tree, kept)["i"] == by_name(first.tree, kept)["i"]
    assert by_name(filtered.tree, "Search patients")["i"] == by_name(first.tree, "Search patients")["i"]
    assert by_name(filtered.tree, "Search patients")["v"] == "maria"
    assert "Delete Tom Becker" not in names(filtered.tree)
    old_max = max(int(node["i"]) for node in first.tree)
    new_row = by_name(filtered.tree, "Delete Maria Lopez")
    assert int(new_row["i"]) > old_max  # a new element gets a new number, never a reused one

    # A new document in the same tab continues the numbering.
    await page.goto(demo.url + "/settings")
    await settle(probe)
    settings = await probe.capture()
    assert min(int(node["i"]) for node in settings.tree) > int(new_row["i"])


async def test_hidden_elements_are_absent(page: Page, probe: PageProbe, demo: Any) -> None:
    await page.goto(demo.url + "/settings")
    await settle(probe)
    snap = await probe.capture()
    present = names(snap.tree)
    assert {"Clinic name", "Time zone", "Email reminders", "Save settings"} <= present
    assert "Delete clinic" not in present  # display: none
    assert "Advanced" not in present  # visibility: hidden
    assert all(node["r"] != "inp" or node["n"] for node in snap.tree)  # the hidden input is absent
    assert by_name(snap.tree, "Time zone") == {**by_name(snap.tree, "Time zone"), "r": "sel", "v": "Berlin"}
    assert by_name(snap.tree, "Email reminders") == {**by_name(snap.tree, "Email reminders"), "r": "chk", "s": "checked"}
    assert by_name(snap.tree, "Clinic name")["v"] == "Sunrise Clinic"


async def test_modal_covered_elements_are_occluded(page: Page, probe: PageProbe, demo: Any) -> None:
    await page.goto(demo.url + "/patients")
    await settle(probe)
    await page.click("text=Delete >> nth=0")
    snap = await probe.capture()
    assert by_name(snap.tree, "New patient")["occ"] is True
    assert by_name(snap.tree, "Search patients")["occ"] is True
    dialog_delete = [n for n in snap.tree if n["n"] == "Delete"]
    assert len(dialog_delete) == 1 and "occ" not in dialog_delete[0]
    assert "occ" not in by_name(snap.tree, "Cancel")


@pytest.mark.parametrize(("order", "on_top", "below"), [("modal-first", ["Dismiss"], ["Close", "Buy now"]), ("cover-first", ["Close", "Buy now"], ["Dismiss"])])
async def test_of_two_stacked_overlays_only_the_top_ones_controls_are_reachable(
    page: Page, probe: PageProbe, pages_url: str, order: str, on_top: list[str], below: list[str]
) -> None:
    """An aria-modal dialog and a plain cover added after it: the cover is painted above the
    modal, so its "Dismiss" is reachable though it is outside the modal (it was reported
    covered — every control on the page was, and nothing could close anything)."""
    await page.goto(f"{pages_url}/pages/stacked_overlays.html?order={order}")
    await settle(probe)
    tree = (await probe.capture()).tree
    assert all("occ" not in by_name(tree, name) for name in on_top)
    assert all(by_name(tree, name).get("occ") is True for name in [*below, "Save preferences", "Newsletter"])


async def test_names_roles_states_and_frames(page: Page, probe: PageProbe, pages_url: str) -> None:
    await page.goto(pages_url + "/pages/extraction.html")
    await settle(probe)
    snap = await probe.capture()
    tree = snap.tree
    assert by_name(tree, "Family name")["r"] == "inp"  # aria-labelledby
    assert by_name(tree, "Search everything")["r"] == "inp"  # placeholder
    assert by_name(tree, "Close window")["r"] == "btn"  # title: the only text is aria-hidden
    assert by_name(tree, "Company logo")["r"] == "link"  # alt of the image inside
    assert by_name(tree, "Send form")["r"] == "btn"  # value of a submit input
    assert by_name(tree, "Nickname")["r"] == "inp"  # the label before the wrappers that hold only the input
    assert "Pet name" not in names(tree)  # a label before a box that holds more than the input names none of it
    password = by_name(tree, "Password")
    assert password["v"] == "•" * 7  # a password the agent did not type is never sent
    assert by_name(tree, "Overview") == {**by_name(tree, "Overview"), "r": "tab", "s": "selected"}
    assert by_name(tree, "Export")["r"] == "menuitem"
    assert by_name(tree, "Option A")["r"] == "option"
    assert by_name(tree, "More details") == {**by_name(tree, "More details"), "r": "btn", "s": "collapsed"}
    assert by_name(tree, "Pick me") == {**by_name(tree, "Pick me"), "r": "radio", "s": "checked"}
    assert by_name(tree, "Clickable card")["r"] == "btn"  # cursor: pointer
    present = names(tree)
    assert not {"Zero size", "Hidden attr", "Inside display none"} & present
    assert snap.has_errors and snap.has_success
    assert "Something went wrong" in snap.errors and "Saved successfully" in snap.successes

    inner = by_name(tree, "Inner button")  # same-origin iframe
    assert inner["f"] >= 1 and inner["i"].startswith("f1-")
    frame_box = await page.locator("#child").bounding_box()
    assert frame_box is not None and inner["xy"][1] > frame_box["y"]  # main-viewport coordinates
    assert len({node["i"] for node in tree}) == len(tree)  # unique across frames


async def test_error_and_success_signals_on_the_form(page: Page, probe: PageProbe, demo: Any) -> None:
    await page.goto(demo.url + "/patients/new")
    await settle(probe)
    before = await probe.capture()
    assert not before.has_errors and not before.has_success
    await page.click("#save")
    await settle(probe)
    invalid = await probe.capture()
    assert invalid.has_errors and invalid.errors == ["Name is required"]


async def test_witness_reports_what_an_action_did(page: Page, probe: PageProbe, demo: Any) -> None:
    await page.goto(demo.url + "/patients/new")
    await settle(probe)
    tracker = NetworkTracker(page)
    armed = await probe.arm()
    seen = tracker.seen
    await page.wait_for_timeout(300)
    quiet = await probe.witness(armed, network_seen=tracker.seen > seen)
    assert not quiet.did_dom_mutate and not quiet.did_network_occur and not quiet.did_url_change

    armed = await probe.arm()
    await page.click("#save")  # empty name: inline error, no request
    await page.wait_for_timeout(300)
    invalid = await probe.witness(armed, network_seen=tracker.seen > seen)
    assert invalid.did_dom_mutate and not invalid.did_network_occur and not invalid.did_url_change
    assert any("Name is required" in event for event in invalid.events), invalid.events

    await page.fill("#name", "Jas")
    armed = await probe.arm()
    seen = tracker.seen
    await page.click("#save")  # POST, then navigation to the list
    await page.wait_for_url("**/patients", timeout=5000)
    saved = await probe.witness(armed, network_seen=tracker.seen > seen)
    assert saved.did_network_occur and saved.did_url_change and saved.did_dom_mutate
    tracker.close()


async def test_a_password_the_agent_typed_is_reported(page: Page, probe: PageProbe, pages_url: str) -> None:
    await page.goto(pages_url + "/pages/extraction.html")
    snap = await probe.capture()
    password = by_name(snap.tree, "Password")
    await execute_action(probe, f'setValue("{password["i"]}", "hunter2")')
    assert by_name((await probe.capture()).tree, "Password")["v"] == "hunter2"


async def test_a_label_written_without_label_names_the_field_its_group_opens_with(page: Page, probe: PageProbe, pages_url: str) -> None:
    await page.goto(f"{pages_url}/pages/group_labels.html")
    await settle(probe)
    tree = (await probe.capture()).tree
    field = {node["i"]: node for node in tree}
    ids = {key: await page.get_attribute(f"#{key}", "data-llm-id") for key in ("phone", "company", "surname", "long", "day", "after-button")}
    assert field[ids["phone"]]["n"] == "Mobile number"
    assert field[ids["company"]]["n"] == "Company"  # through a wrapper, a hint after it
    assert (field[ids["surname"]]["n"], field[ids["surname"]]["ph"]) == ("Last name", "As on the booking")  # the label before the hint
    # Prose, a group of two fields, a group a control opens: no name is made up.
    assert [field[ids[key]].get("n", "") for key in ("long", "day", "after-button")] == ["", "", ""]
