"""A native ``confirm()`` over the HTTP API, the client faked by request bodies carrying
``clientObservations.nativeDialogs``: a dismissed confirm fails the step whatever else
changed; a destructive one the goal asks for goes to the user (confirm: true re-sends the
click with ``actionDetails.dialog: "accept"``, false ends the task USER_DECLINED); a
harmless one after the goal's own action is accepted on one re-send; anything else stays
declined and the answer says so. A lying model changes none of it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.api.conftest import Api, ApiFactory
from tests.integration.api.test_chaining import DONE_PAGE, VALUES, ran, v3_form
from tests.integration.api.test_chaining import GOAL as FORM_GOAL
from tests.integration.api.test_chaining import URL as FORM_URL
from tests.integration.api.test_goal_contract import _liar, one_truth

URL = "https://shop.example/orders"
DELETE_42 = "Delete order 42? This cannot be undone."


def orders(*, without: tuple[str, ...] = (), status: str | None = None, focus: str | None = None) -> list[dict[str, Any]]:
    tree: list[dict[str, Any]] = []
    for n, (order, who) in enumerate((("41", "Ada Lovelace"), ("42", "Grace Hopper"), ("43", "Alan Turing")), start=1):
        if order not in without:
            node: dict[str, Any] = {"i": str(n), "r": "btn", "n": "Delete", "ctx": [f"row: Order {order} · {who}"]}
            if focus == str(n):
                node["s"] = ["focused"]
            tree.append(node)
    if status:
        tree.append({"i": "9", "r": "status", "n": status})
    return tree


def settings(*, focus: bool = False, reset: bool = False) -> list[dict[str, Any]]:
    tree: list[dict[str, Any]] = [
        {"i": "1", "r": "chk", "n": "Dark mode", "s": [] if reset else ["checked"]},
        {"i": "3", "r": "btn", "n": "Reset settings", **({"s": ["focused"]} if focus else {})},
    ]
    if reset:
        tree.append({"i": "9", "r": "status", "n": "Settings were reset to their defaults"})
    return tree


def profile(*, saved: bool = False) -> list[dict[str, Any]]:
    tree: list[dict[str, Any]] = [{"i": "1", "r": "inp", "n": "Display name", "v": "Ada"}, {"i": "2", "r": "btn", "n": "Save"}]
    if saved:
        tree.append({"i": "9", "r": "status", "n": "Profile saved"})
    return tree


def dialog(message: str, action: str, answered: str = "dismissed", kind: str = "confirm") -> dict[str, Any]:
    return {"clientObservations": {"didDomMutate": False, "didNetworkOccur": False, "didUrlChange": False,
                                   "nativeDialogs": [{"kind": kind, "message": message, "action": action, "answered": answered}]}}  # fmt: skip


async def send(api: Api, tree: list[dict[str, Any]], ids: dict[str, Any] | None = None, goal: str | None = None, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"url": URL, "interactiveTree": tree, **(ids or {}), **extra}
    if goal is not None:
        body["query"] = goal
    response = await api.interact(body)
    assert response.status_code == 200, response.text
    return one_truth(response.json())


async def _api(make_api: ApiFactory, liar: bool) -> Api:
    api = await make_api(rate_limit_per_minute=1000)
    if liar:
        model = _liar()
        model.sink = api.app.state.usage_service
        api.app.state.agent_deps.gateway = model
    return api


async def _asked(api: Api) -> tuple[dict[str, Any], dict[str, Any]]:
    """Delete order 42: the click, its confirm dismissed, the question."""
    first = await send(api, orders(), goal="Delete order 42")
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    assert first["action"] == 'click("2")', first
    assert (first["actionDetails"] or {}).get("dialog") is None  # never accepted unasked
    asked = await send(api, orders(focus="2"), ids, lastActionStatus="success", **dialog(DELETE_42, 'click("2")'))
    return ids, asked


@pytest.mark.parametrize("liar", [False, True], ids=["no-model", "lying-model"])
async def test_a_destructive_native_confirm_the_goal_asks_for_goes_to_the_user_then_is_accepted(make_api: ApiFactory, liar: bool) -> None:
    api = await _api(make_api, liar)
    ids, asked = await _asked(api)
    assert asked["status"] == "needs_user_input" and asked["action"] == "", asked
    assert asked["verification"]["success"] is False and "dismissed" in asked["verification"]["reason"]
    question = asked["needsUserInput"]
    assert question["confirm"]["action"] == 'click("2")' and question["confirm"]["what"] == "delete"
    assert question["confirm"]["dialog"] == {"kind": "confirm", "message": DELETE_42}
    assert "«Delete order 42? This cannot be undone.»" in question["message"]  # the page's words, delimited
    assert asked["contingency"]["trigger"] == "native_confirm" and asked["contingency"]["handler"] == "ask_user"
    again = await send(api, orders(focus="2"), ids)  # no answer yet: the same question
    assert again["status"] == "needs_user_input" and again["needsUserInput"]["confirm"] == question["confirm"]
    accepted = await send(api, orders(focus="2"), ids, confirm=True)
    assert accepted["status"] == "active" and accepted["action"] == 'click("2")', accepted
    assert accepted["actionDetails"]["dialog"] == "accept"
    done = await send(api, orders(without=("42",), status="Order 42 was deleted"), ids, lastActionStatus="success",
                      **dialog(DELETE_42, 'click("2")', answered="accepted"))  # fmt: skip
    assert done["status"] == "completed", (done["thought"], done["contract"], done["verification"])
    detail = (await api.client.get(f"/api/tasks/{ids['taskId']}", headers=api.headers())).json()
    assert [c["trigger"] for c in detail["contingencies"]] == ["native_confirm"]
    metrics = (await api.client.get("/metrics")).text
    assert 'handler="ask_user",trigger="native_confirm"' in metrics, [line for line in metrics.splitlines() if "contingenc" in line]


@pytest.mark.parametrize("liar", [False, True], ids=["no-model", "lying-model"])
async def test_a_declined_native_confirm_ends_the_task_and_nothing_is_accepted(make_api: ApiFactory, liar: bool) -> None:
    api = await _api(make_api, liar)
    ids, asked = await _asked(api)
    assert asked["status"] == "needs_user_input"
    declined = await send(api, orders(focus="2"), ids, confirm=False)
    assert declined["status"] == "failed" and declined["failureCode"] == "USER_DECLINED", declined
    assert "declined" in declined["thought"]


async def test_a_client_that_cannot_accept_is_not_asked_forever(api: Api) -> None:
    ids, _ = await _asked(api)
    accepted = await send(api, orders(focus="2"), ids, confirm=True)
    assert accepted["actionDetails"]["dialog"] == "accept"
    # The client dismissed it again (it cannot accept native dialogs): no new question, no completion.
    after = await send(api, orders(focus="2"), ids, lastActionStatus="success", **dialog(DELETE_42, 'click("2")'))
    assert after["status"] != "needs_user_input" and after["status"] != "completed", after
    assert "declined" in after["thought"] and "cannot accept" in after["thought"]


@pytest.mark.parametrize("liar", [False, True], ids=["no-model", "lying-model"])
async def test_a_harmless_native_confirm_of_the_goals_action_is_accepted_once(make_api: ApiFactory, liar: bool) -> None:
    api = await _api(make_api, liar)
    first = await send(api, profile(), goal="Click Save")
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    assert first["action"] == 'click("2")'
    resent = await send(api, profile(), ids, lastActionStatus="success", **dialog("Save changes to your profile?", 'click("2")'))
    assert resent["action"] == 'click("2")' and resent["actionDetails"]["dialog"] == "accept", resent
    assert resent["contingency"]["trigger"] == "native_confirm" and resent["contingency"]["handler"] == "accept_dialog"
    assert resent["verification"]["success"] is False
    done = await send(api, profile(saved=True), ids, lastActionStatus="success",
                      **dialog("Save changes to your profile?", 'click("2")', answered="accepted"))  # fmt: skip
    assert done["status"] == "completed", (done["thought"], done["contract"])


async def test_a_harmless_confirm_is_accepted_once_per_action_only(api: Api) -> None:
    first = await send(api, profile(), goal="Click Save")
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    accepts = 0
    reply = first
    for _ in range(8):
        if reply["status"] != "active":
            break
        action = reply["action"]
        reply = await send(api, profile(), ids, lastActionStatus="success", **dialog("Save changes to your profile?", action))
        accepts += (reply.get("actionDetails") or {}).get("dialog") == "accept"
    assert accepts == 1
    assert reply["status"] != "completed"


@pytest.mark.parametrize("liar", [False, True], ids=["no-model", "lying-model"])
async def test_a_destructive_native_confirm_the_goal_does_not_name_is_asked_never_accepted(make_api: ApiFactory, liar: bool) -> None:
    """"Click Reset settings" raises "This will delete your saved preferences": the goal asks
    for the click, not the deletion. The user is asked (told the goal did not say it); nothing
    accepts it until they do, and no click is repeated into the same dialog."""
    api = await _api(make_api, liar)
    message = "Reset all settings? This will delete your saved preferences."
    first = await send(api, settings(), goal="Click Reset settings")
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    assert first["action"] == 'click("3")'
    reply = await send(api, settings(focus=True), ids, lastActionStatus="success", **dialog(message, 'click("3")'))
    assert reply["verification"]["success"] is False
    assert reply["status"] == "needs_user_input", reply
    question = reply["needsUserInput"]
    assert "does not say" in question["message"] and "«Reset all settings?" in question["message"], question
    assert question["confirm"]["dialog"]["message"] == message
    assert not (reply.get("actionDetails") or {}).get("dialog")
    declined = await send(api, settings(focus=True), ids, confirm=False)
    assert declined["status"] == "failed" and declined["failureCode"] == "USER_DECLINED", declined


async def test_an_alert_accepted_or_a_dialog_of_another_action_changes_nothing(api: Api) -> None:
    first = await send(api, profile(), goal="Click Save")
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    done = await send(api, profile(saved=True), ids, lastActionStatus="success", **dialog("Saved!", 'click("2")', answered="accepted", kind="alert"))
    assert done["status"] == "completed"


async def test_bad_native_dialogs_are_refused_at_the_edge(api: Api) -> None:
    good = {"kind": "confirm", "message": "Sure?", "action": 'click("1")', "answered": "dismissed"}
    for bad in ([{**good, "kind": "popup"}], [{**good, "answered": "ok"}], [good] * 11, [{**good, "message": "x" * 2001}], {"kind": "confirm"}):
        response = await api.interact({"url": URL, "query": "Click Save", "interactiveTree": profile(), "clientObservations": {"nativeDialogs": bad}})
        assert response.status_code == 422, (bad, response.text)


async def test_a_resent_request_gets_the_accept_instruction_back(api: Api) -> None:
    first = await send(api, profile(), goal="Click Save")
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    body = {"url": URL, "interactiveTree": profile(), **ids, "lastActionStatus": "success", "stepIndex": first["stepIndex"],
            **dialog("Save changes to your profile?", 'click("2")')}  # fmt: skip
    resent = one_truth((await api.interact(body)).json())
    replayed = one_truth((await api.interact(body)).json())
    assert resent["actionDetails"]["dialog"] == "accept" and replayed["actionDetails"]["dialog"] == "accept"
    assert replayed.get("replayed") is True or replayed["stepIndex"] == resent["stepIndex"]


async def test_a_chains_commit_whose_harmless_confirm_was_dismissed_is_resent_alone_accepting_it(api: Api) -> None:
    first = one_truth((await api.interact({"url": FORM_URL, "query": FORM_GOAL, "interactiveTree": v3_form()})).json())
    assert first["actions"][-1]["action"] == 'click("9")' and first["actions"][-1]["commit"] is True
    filled = {"url": FORM_URL, "interactiveTree": v3_form(VALUES)}
    after = one_truth((await api.interact(filled | ran(first, **dialog("Save this patient record?", 'click("9")')))).json())
    assert after["status"] == "active" and after["action"] == 'click("9")' and not after.get("actions"), after
    assert after["actionDetails"]["dialog"] == "accept" and after["contingency"]["handler"] == "accept_dialog"
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    done = one_truth((await api.interact(DONE_PAGE | ids | {"lastActionStatus": "success", "stepIndex": after["stepIndex"]}
                                         | dialog("Save this patient record?", 'click("9")', answered="accepted"))).json())  # fmt: skip
    assert done["status"] == "completed", (done["thought"], done["contract"])
