"""A goal that is a control's name ("Log out", "Clear the filters", "Cancel my Pro
subscription") through the API: read on the first page with no model, done by one click,
completed only when the page changes — and, for a destructive one the page questions, asked
of the user. A model that lies never finishes it early."""

from __future__ import annotations

from typing import Any

from tests.integration.api.conftest import Api, ApiFactory
from tests.integration.api.test_confirmation_pages import ASKS, DONE, send, start
from tests.integration.api.test_goal_contract import _with_liar

SIGNED_IN = [{"i": "h", "r": "link", "n": "Home"}, {"i": "m", "r": "link", "n": "My orders"}, {"i": "o", "r": "btn", "n": "Log out"}]
SIGNED_OUT = [{"i": "e", "r": "txt", "n": "Email"}, {"i": "pw", "r": "txt", "n": "Password"}, {"i": "in", "r": "btn", "n": "Log in"}]


async def _task(api: Api, goal: str, first: list[dict[str, Any]], pages: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    bodies = [await send(api, {"query": goal, "interactiveTree": first})]
    ids = {"taskId": bodies[0]["taskId"], "sessionId": bodies[0]["sessionId"]}
    for page in pages:
        if bodies[-1]["status"] != "active":
            break
        bodies.append(await send(api, {"interactiveTree": page, **ids}))
    return bodies


async def test_log_out_is_a_click_proven_by_the_page_that_follows(api: Api) -> None:
    bodies = await _task(api, "Log out", SIGNED_IN, [SIGNED_OUT])
    assert [b["action"] for b in bodies] == ['click("o")', "finish()"]
    assert bodies[0]["contract"]["complete"] is True and bodies[0]["usage"]["modelCalls"] == 0
    assert bodies[-1]["status"] == "completed"


async def test_a_click_that_changes_nothing_is_not_the_goal_done(api: Api) -> None:
    focused = [dict(e, s=["focused"]) if e["i"] == "o" else e for e in SIGNED_IN]  # a dead button takes the focus
    bodies = await _task(api, "Log out", SIGNED_IN, [focused] * 6)
    assert all(b["status"] != "completed" for b in bodies)


async def test_cancel_my_pro_subscription_reads_the_plan_and_asks_at_the_question(api: Api) -> None:
    bodies = await _task(api, "Cancel my Pro subscription", start(), [ASKS["page"][0]])
    assert bodies[0]["action"] == 'click("c1")'
    assert bodies[-1]["status"] == "needs_user_input" and bodies[-1]["needsUserInput"]["confirm"]["elementId"] == "y"
    ids = {"taskId": bodies[0]["taskId"], "sessionId": bodies[0]["sessionId"]}
    await send(api, {"interactiveTree": ASKS["page"][0], "confirm": True, **ids})
    assert (await send(api, {"interactiveTree": DONE, **ids}))["status"] == "completed"


async def test_a_goal_no_control_names_still_declines_at_once(api: Api) -> None:
    [body] = await _task(api, "Log out", [{"i": "s", "r": "btn", "n": "Search"}], [])
    assert body["status"] == "failed" and body["failureCode"] == "GOAL_NOT_UNDERSTOOD"


async def test_a_lying_model_never_finishes_it_before_the_page_shows_it(make_api: ApiFactory) -> None:
    api, model = await _with_liar(make_api)
    focused = [dict(e, s=["focused"]) if e["i"] == "o" else e for e in SIGNED_IN]
    bodies = await _task(api, "Log out", SIGNED_IN, [focused, SIGNED_OUT])
    assert bodies[0]["action"] == 'click("o")'  # the policy read it: the model's finish() was not taken
    assert bodies[1]["status"] == "active"  # the model says done; the page does not
    assert bodies[-1]["status"] == "completed" and bodies[-1]["contract"]["satisfied"] is True
    assert model.calls  # the model was asked, and lied
