"""A destructive click the page answers with "are you sure?" is not the goal done.

"Cancel subscription" opening "Yes, cancel subscription / Keep my plan" (a new page, a
dialog, or "Confirm cancellation / Go back"): the first click worked and the page changed,
but nothing is cancelled yet. The task must not complete there — on the policy's path, or
with a model whose contract says the first click is enough — and the confirmation goes to
the user; only a verified click on the page's confirming control completes it."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from tests.integration.api.conftest import Api, ApiFactory
from tests.integration.api.test_goal_contract import _liar, one_truth
from tests.support.scenario_model import SeenPrompt

URL = "https://billing.example/account"
PLAN = "section: Pro plan · $12/month · renews Dec 1"
HEAD = [{"i": "h", "r": "link", "n": "Home"}, {"i": "p", "r": "link", "n": "Profile"}]


def start() -> list[dict[str, Any]]:
    return HEAD + [{"i": "c1", "r": "btn", "n": "Cancel subscription", "ctx": [PLAN]}, {"i": "u", "r": "btn", "n": "Upgrade", "ctx": [PLAN]}]


# Three ways a site asks: a page of its own, a modal over the account page, other words.
ASKS: dict[str, tuple[list[dict[str, Any]], str]] = {
    "page": (HEAD + [{"i": "y", "r": "btn", "n": "Yes, cancel subscription"}, {"i": "k", "r": "btn", "n": "Keep my plan"}], "y"),
    "modal": (
        [dict(e, occ=True) for e in start()]
        + [
            {"i": "m-ok", "r": "btn", "n": "Cancel my plan", "ctx": ["dialog: Cancel your Pro plan?"]},
            {"i": "m-no", "r": "btn", "n": "Never mind", "ctx": ["dialog: Cancel your Pro plan?"]},
        ],
        "m-ok",
    ),
    "wording": (HEAD + [{"i": "z", "r": "btn", "n": "Confirm cancellation"}, {"i": "b", "r": "link", "n": "Go back"}], "z"),
}
DONE = HEAD + [{"i": "r", "r": "btn", "n": "Resubscribe"}, {"i": "s", "r": "status", "n": "Your subscription has been cancelled"}]


async def send(api: Api, body: dict[str, Any]) -> dict[str, Any]:
    response = await api.interact({"url": URL, **body})
    assert response.status_code == 200, response.text
    return one_truth(response.json())


async def _model_says_one_click_is_enough(make_api: ApiFactory) -> Api:
    """A model whose plan and contract take the first click for the whole goal, and whose
    verdicts and actions claim it done."""

    def plan(seen: SeenPrompt) -> dict[str, Any]:
        step = {"description": "Cancel", "kind": "click", "target": "Cancel subscription", "value": None, "success_criterion": "cancelled"}
        clause = {"kind": "activated", "target": {"name": "Cancel subscription", "role": "button"}, "action": "click", "effect": True, "description": "Cancel subscription"}
        return {"steps": [step], "contract": [clause], "needs_user_input": []}

    model = _liar()
    model.handlers = {**model.handlers, "PLANNING": plan}  # type: ignore[misc]
    api = await make_api(rate_limit_per_minute=1000)
    model.sink = api.app.state.usage_service
    api.app.state.agent_deps.gateway = model
    return api


async def _first_click(api: Api, goal: str, ask: str) -> tuple[dict[str, Any], dict[str, str]]:
    first = await send(api, {"query": goal, "interactiveTree": start()})
    assert first["action"] == 'click("c1")'
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    asked = await send(api, {"interactiveTree": ASKS[ask][0], **ids})
    return asked, ids


@pytest.mark.parametrize("ask", list(ASKS))
@pytest.mark.parametrize("path", ["policy", "model"])
async def test_a_click_the_page_asks_to_confirm_is_not_done_and_the_user_decides(api: Api, make_api: ApiFactory, path: str, ask: str) -> None:
    if path == "model":
        api, goal = await _model_says_one_click_is_enough(make_api), "Cancel my subscription"
    else:
        goal = "Click Cancel subscription"
    asked, ids = await _first_click(api, goal, ask)
    assert asked["status"] == "needs_user_input", asked  # not completed, and nothing clicked for the user
    assert asked["action"] == ""
    confirm = asked["needsUserInput"]["confirm"]
    assert confirm["elementId"] == ASKS[ask][1]
    clause = asked["contract"]["clauses"][0]
    assert clause["status"] == "pending" and clause["awaiting"] and "confirm" in clause["detail"]
    again = await send(api, {"interactiveTree": ASKS[ask][0], **ids})
    assert again["status"] == "needs_user_input"  # no answer yet: the same question, still nothing sent

    sent = await send(api, {"interactiveTree": ASKS[ask][0], "confirm": True, **ids})
    assert sent["status"] == "active" and sent["action"] == f'click("{ASKS[ask][1]}")'
    done = await send(api, {"interactiveTree": DONE, **ids})
    assert done["status"] == "completed", done
    evidence = done["contract"]["clauses"][0]["evidence"]
    assert evidence["step"] == sent["stepIndex"]  # proven by the confirming click, not the first one
    steps = await api.store.actions.list("tenant-a", ids["taskId"])
    # Only the click the user said yes to is marked so: a recipe never replays it (agent/memory/recipes.py).
    assert [s.metrics.get("user_confirmed") for s in steps] == [s.step_index == sent["stepIndex"] for s in steps]


async def test_the_user_saying_no_ends_the_task_and_nothing_is_confirmed(api: Api) -> None:
    asked, ids = await _first_click(api, "Click Cancel subscription", "page")
    assert asked["status"] == "needs_user_input"
    declined = await send(api, {"interactiveTree": ASKS["page"][0], "confirm": False, **ids})
    assert declined["status"] == "failed" and declined["failureCode"] == "USER_DECLINED"
    assert declined["action"] != 'click("y")'


async def test_a_confirmation_that_cannot_be_given_yet_never_completes(api: Api) -> None:
    """"Type DELETE to confirm": the confirming button is disabled until the user types it."""
    typed = HEAD + [
        {"i": "t", "r": "txt", "n": "Type DELETE to confirm"},
        {"i": "d", "r": "btn", "n": "Delete account", "s": ["disabled"]},
        {"i": "x", "r": "btn", "n": "Cancel"},
    ]
    first = await send(api, {"query": "Click Close account", "interactiveTree": HEAD + [{"i": "c", "r": "btn", "n": "Close account"}]})
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    ended = await send(api, {"interactiveTree": typed, **ids})
    assert ended["status"] == "failed" and ended["failureCode"] == "CONFIRMATION_UNAVAILABLE", ended
    assert "'Delete account'" in ended["thought"] and "Nothing was confirmed" in ended["thought"]
    assert ended["contract"]["clauses"][0]["awaiting"] == "Delete account"


@pytest.mark.parametrize(
    ("goal", "before", "after"),
    [
        # A deletion the page does at once, with an undo: done.
        (
            "Click the Delete button in the row for Bob Stone",
            [{"i": f"d{n}", "r": "btn", "n": "Delete", "ctx": [f"row: {name}"]} for n, name in enumerate(("Ana Silva", "Bob Stone"))],
            [{"i": "d0", "r": "btn", "n": "Delete", "ctx": ["row: Ana Silva"]}, {"i": "un", "r": "btn", "n": "Undo"}, {"i": "m", "r": "status", "n": "Bob Stone deleted"}],
        ),
        # An order placed: a thank-you page whose "Continue shopping" / "Keep browsing" ask nothing.
        (
            "Click Place order",
            HEAD + [{"i": "po", "r": "btn", "n": "Place order"}],
            HEAD + [{"i": "cs", "r": "btn", "n": "Continue shopping"}, {"i": "kb", "r": "link", "n": "Keep browsing"}, {"i": "m", "r": "status", "n": "Thank you, your order is placed"}],
        ),
    ],
)
async def test_a_destructive_click_the_page_does_not_question_still_completes(api: Api, goal: str, before: list[dict[str, Any]], after: list[dict[str, Any]]) -> None:
    first = await send(api, {"query": goal, "interactiveTree": before})
    assert first["action"].startswith("click(")
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    done = await send(api, {"interactiveTree": after, **ids})
    assert done["status"] == "completed", done
    assert done["contract"]["clauses"][0]["awaiting"] is None


async def test_a_yes_is_for_one_task_a_replayed_flow_asks_again(api: Api) -> None:
    """Two tasks confirmed by the user make a recipe of the flow; the confirming click is not
    part of it, so the third task, replayed, stops at the page's question like the first."""
    for _ in range(2):
        asked, ids = await _first_click(api, "Click Cancel subscription", "page")
        assert asked["status"] == "needs_user_input"
        await send(api, {"interactiveTree": ASKS["page"][0], "confirm": True, **ids})
        assert (await send(api, {"interactiveTree": DONE, **ids}))["status"] == "completed"
    [recipe] = await api.store.recipes.list("tenant-a")
    assert recipe.status == "promoted" and len(recipe.steps) == 1  # "Cancel subscription" only
    asked, ids = await _first_click(api, "Click Cancel subscription", "page")
    assert asked["status"] == "needs_user_input" and asked["action"] == ""
    assert asked["needsUserInput"]["confirm"]["elementId"] == "y"


async def test_an_older_recipe_that_holds_the_confirming_click_is_not_served_at_the_question(api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    """A recipe recorded before confirmed clicks were left out holds "Yes, cancel
    subscription" as its second step: while the page asks, recall serves nothing."""
    from agent.memory.recipes import recorded

    remember = importlib.import_module("agent.memory.remember")  # the package exports a function of that name

    def as_before(steps: Any) -> Any:
        for step, _verdict in steps:
            step.metrics.pop("user_confirmed", None)
        return recorded(steps)

    monkeypatch.setattr(remember, "recorded", as_before)
    for _ in range(2):
        asked, ids = await _first_click(api, "Click Cancel subscription", "page")
        await send(api, {"interactiveTree": ASKS["page"][0], "confirm": True, **ids})
        assert (await send(api, {"interactiveTree": DONE, **ids}))["status"] == "completed"
    [recipe] = await api.store.recipes.list("tenant-a")
    assert recipe.status == "promoted" and len(recipe.steps) == 2  # the old way: the yes is in it
    asked, _ids = await _first_click(api, "Click Cancel subscription", "page")
    assert asked["status"] == "needs_user_input" and asked["action"] == ""
