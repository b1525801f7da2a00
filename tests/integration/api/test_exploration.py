"""Exploring for what is not on the page yet, over the HTTP API with no model: submenus are
hovered one by one (a hover that shows nothing is information, not a failure to correct),
and a read-only date field is set through its calendar, month by month (the month read in
the request's page text)."""

from __future__ import annotations

from typing import Any

from tests.integration.api.conftest import Api
from tests.integration.api.test_goal_contract import one_truth

URL = "https://player.example/app"


async def answer(api: Api, tree: list[dict[str, Any]], ids: dict[str, str], goal: str | None = None, text: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"url": URL, "interactiveTree": tree, **ids}
    if goal is not None:
        body["query"] = goal
    if text is not None:
        body["pageText"] = text
    response = await api.interact(body)
    assert response.status_code == 200, response.text
    return one_truth(response.json())


def menu(*, submenu: bool = False, chosen: bool = False) -> list[dict[str, Any]]:
    tree = [
        {"i": "1", "r": "btn", "n": "Menu"},
        {"i": "2", "r": "menuitem", "n": "Save"},
        {"i": "3", "r": "menuitem", "n": "Playback"},
        {"i": "4", "r": "menuitem", "n": "Zoom In"},
    ]
    if submenu:
        tree += [{"i": "5", "r": "menuitem", "n": "Prev"}, {"i": "6", "r": "menuitem", "n": "Next"}]
    if chosen:
        tree.append({"i": "9", "r": "status", "n": "Prev chosen"})
    return tree


async def test_a_target_in_a_submenu_is_found_by_hovering_each_item_once(api: Api) -> None:
    first = await answer(api, menu(), {}, goal='Click on the item labeled "Prev"')
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    assert first["action"] == 'hover("2")'
    # Hovering Save showed nothing: the next item is tried — no wait, no reload, no retry.
    second = await answer(api, menu(), ids)
    assert second["status"] == "active" and second["action"] == 'hover("3")'
    third = await answer(api, menu(submenu=True), ids)
    assert third["action"] == 'click("5")'
    done = await answer(api, menu(submenu=True, chosen=True), ids)
    assert done["status"] == "completed"


async def test_a_target_in_no_submenu_is_reported_missing_not_guessed(api: Api) -> None:
    reply = await answer(api, menu(), {}, goal='Click on the item labeled "Rewind"')
    ids = {"taskId": reply["taskId"], "sessionId": reply["sessionId"]}
    seen = [reply["action"]]
    for _ in range(12):
        if reply["status"] != "active":
            break
        reply = await answer(api, menu(), ids)
        seen.append(reply["action"])
    assert reply["status"] == "failed" and "Rewind" in reply["thought"]
    assert not any(a.startswith("navigate(") for a in seen)


def calendar(month: str | None, *, value: str = "", days: bool = True) -> tuple[list[dict[str, Any]], str]:
    tree: list[dict[str, Any]] = [{"i": "f", "r": "inp", "n": "Date", "v": value, "s": "readonly"}]
    if days:
        tree += [{"i": "prev", "r": "link", "n": "Prev"}, {"i": "next", "r": "link", "n": "Next"}]
        tree += [{"i": f"d{n}", "r": "link", "n": str(n)} for n in range(1, 31)]
    tree.append({"i": "ok", "r": "btn", "n": "Submit"})
    return tree, f"Date:\n{month}\nSu Mo Tu We Th Fr Sa" if month else "Date:"


async def test_a_read_only_date_field_is_set_through_its_calendar_and_proved_by_its_value(api: Api) -> None:
    tree, text = calendar(None, days=False)
    first = await answer(api, tree, {}, goal="Select 10/04/2016 as the date and hit submit", text=text)
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    assert first["action"] == 'click("f")'
    actions = []
    for month in ("December 2016", "November 2016"):
        tree, text = calendar(month)
        actions.append((await answer(api, tree, ids, text=text))["action"])
    assert actions == ['click("prev")', 'click("prev")']
    tree, text = calendar("October 2016")
    assert (await answer(api, tree, ids, text=text))["action"] == 'click("d4")'
    tree, text = calendar(None, value="10/04/2016", days=False)
    submit = await answer(api, tree, ids, text=text)
    assert submit["action"] == 'click("ok")'
    assert submit["contract"]["clauses"][0]["status"] == "holds"


async def test_a_wrong_day_picked_never_completes(api: Api) -> None:
    tree, text = calendar("October 2016")
    first = await answer(api, tree, {}, goal="Select 10/04/2016 as the date and hit submit", text=text)
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    tree, text = calendar(None, value="10/05/2016", days=False)  # the page shows another day
    reply = await answer(api, tree, ids, text=text)
    assert reply["status"] != "completed"


async def test_page_text_over_the_limit_is_a_typed_error_that_names_the_field(api: Api) -> None:
    body = {"url": URL, "query": "Click Submit", "interactiveTree": [{"i": "1", "r": "btn", "n": "Submit"}], "pageText": "x" * 20_001}
    response = await api.interact(body)
    assert response.status_code == 422
    assert "pageText" in response.text or "page_text" in response.text


async def test_a_button_enabled_late_is_waited_for_then_clicked(api: Api) -> None:
    def page(enabled: bool, done: bool = False) -> list[dict[str, Any]]:
        tree: list[dict[str, Any]] = [{"i": "b", "r": "btn", "n": "Continue", **({} if enabled else {"s": "disabled"})}]
        return tree + ([{"i": "m", "r": "status", "n": "Thanks, you continued"}] if done else [])

    first = await answer(api, page(False), {}, goal="Click Continue")
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    assert first["action"].startswith("wait(")
    assert (await answer(api, page(False), ids))["action"].startswith("wait(")  # still disabled: no correction
    assert (await answer(api, page(True), ids))["action"] == 'click("b")'
    assert (await answer(api, page(True, done=True), ids))["status"] == "completed"


async def test_a_popup_that_covers_the_target_is_closed_then_the_work_goes_on(api: Api) -> None:
    covered = [
        {"i": "e", "r": "btn", "n": "Export", "occ": True},
        {"i": "d", "r": "dialog", "n": "Join our newsletter"},
        {"i": "x", "r": "btn", "n": "No thanks"},
    ]
    first = await answer(api, covered, {}, goal="Click Export")
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    assert first["action"] == 'click("x")'
    assert (await answer(api, [{"i": "e", "r": "btn", "n": "Export"}], ids))["action"] == 'click("e")'


async def test_a_wait_the_goal_asks_for_is_sent_in_its_place(api: Api) -> None:
    def buttons(clicked: str = "") -> list[dict[str, Any]]:
        tree: list[dict[str, Any]] = [{"i": "1", "r": "btn", "n": "ONE"}, {"i": "2", "r": "btn", "n": "TWO"}]
        return tree + ([{"i": "9", "r": "status", "n": f"{clicked} clicked"}] if clicked else [])

    first = await answer(api, buttons(), {}, goal="Click button ONE, wait 2 seconds, then click button TWO.")
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    assert first["action"] == 'click("1")'
    assert (await answer(api, buttons("ONE"), ids))["action"] == "wait(2)"
    assert (await answer(api, buttons("ONE"), ids))["action"] == 'click("2")'
    # Both clicks are proven; how long the wait between them really was, the page cannot show:
    # Stepwise asks for confirmation rather than saying "completed".
    end = await answer(api, buttons("TWO"), ids)
    assert end["status"] == "needs_confirmation" and "wait" in end["thought"]
    assert end["contract"]["unverifiable"] == ["that the wait between the steps was 2 s"]


def tabs(selected: int, *, word: int | None = None) -> list[dict[str, Any]]:
    """Three ARIA tabs, the one shown selected (the others' panels hidden: collapsed)."""
    tree: list[dict[str, Any]] = [
        {"i": f"t{n}", "r": "tab", "n": f"Tab #{n + 1}", "s": "selected" if n == selected else "collapsed"} for n in range(3)
    ]
    tree += [{"i": f"w{selected}", "r": "btn", "n": ["lorem", "amet", "euismod"][selected]}]
    return tree


async def test_tabs_are_opened_once_each_and_the_first_tab_shown_is_never_reopened(api: Api) -> None:
    goal = 'Switch between the tabs to find and click on the link "euismod".'
    first = await answer(api, tabs(0), {}, goal=goal)
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    assert first["action"] == 'click("t1")'
    second = await answer(api, tabs(1), ids)
    assert second["action"] == 'click("t2")'  # Tab #1 was seen at the start: not reopened
    third = await answer(api, tabs(2), ids)
    assert third["action"] == 'click("w2")'


async def test_a_target_in_no_tab_is_reported_missing_after_each_tab_once(api: Api) -> None:
    reply = await answer(api, tabs(0), {}, goal='Switch between the tabs to find and click on the link "zebra".')
    ids = {"taskId": reply["taskId"], "sessionId": reply["sessionId"]}
    seen = [reply["action"]]
    shown = 0
    for _ in range(14):
        if reply["status"] != "active":
            break
        if seen[-1].startswith('click("t'):
            shown = int(seen[-1][8])
        reply = await answer(api, tabs(shown), ids)
        seen.append(reply["action"])
    assert reply["status"] == "failed", seen
    clicks = [a for a in seen if a.startswith("click(")]
    assert clicks == ['click("t1")', 'click("t2")'], seen


async def test_a_target_a_popup_came_over_is_never_clicked_while_covered(api: Api) -> None:
    clear = [{"i": "n", "r": "inp", "n": "Name", "v": ""}, {"i": "e", "r": "btn", "n": "Export"}]
    covered = [
        {"i": "n", "r": "inp", "n": "Name", "v": "", "occ": True, "s": "disabled"},
        {"i": "e", "r": "btn", "n": "Export", "occ": True},
        {"i": "ok", "r": "btn", "n": "OK"},
        {"i": "x", "r": "btn", "n": "Cancel"},
    ]
    first = await answer(api, clear, {}, goal='Type "Ann" into the name field and click Export')
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    assert first["action"] == 'setValue("n", "Ann")'
    # The popup came up on focus and the value did not land: close it (never its OK), then type again.
    second = await answer(api, covered, ids)
    assert second["action"] == 'click("x")', second
    # Closing it brought up another popup over the form: the retry waits, the new one is closed.
    again = [*covered[:2], {"i": "ok2", "r": "btn", "n": "Subscribe"}, {"i": "no", "r": "btn", "n": "No thanks"}]
    third = await answer(api, again, ids)
    assert third["action"] == 'click("no")', third
    seen = [second["action"], third["action"]]
    assert not any(a.startswith(('setValue("n"', 'click("e")', 'click("ok")')) for a in seen), seen
    assert (await answer(api, clear, ids))["action"] == 'setValue("n", "Ann")'
