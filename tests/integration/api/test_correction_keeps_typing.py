"""A failed submit through the real graph (V3 pages, the HTTP API): the correction never
reloads a page holding what the task typed, and a form the page refused is fixed with the
goal's values or ends naming the fields — with no model, and with a model that keeps
answering REFRESH_PAGE."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from tests.integration.api.conftest import Api, ApiFactory
from tests.integration.api.test_chaining import ran
from tests.support.scenario_model import ScenarioModel, SeenPrompt

URL = "https://shop.test/register"
WELCOME_URL = "https://shop.test/welcome"
GOAL = "Set First name to Ada and Last name to Lovelace, and press Register"
FULL_GOAL = "Set First name to Ada, Last name to Lovelace and Email to ada@example.com, and press Register"
TYPED = {"First name": "Ada", "Last name": "Lovelace"}


def form(values: dict[str, str] | None = None, *, email: Sequence[str] = ("required",)) -> list[dict[str, Any]]:
    """The sign-up form as the extension sends it; ``email``: the Email field's states."""
    values, ctx = values or {}, ["form: Sign up"]
    fields = [("1", "First name", ()), ("2", "Last name", ()), ("3", "Email", tuple(email))]
    tree = [{"i": i, "r": "inp", "n": name, "v": values.get(name, ""), "s": list(states), "ctx": ctx} for i, name, states in fields]
    return [*tree, {"i": "9", "r": "btn", "n": "Register", "ctx": ctx}]


REFUSED = {"interactiveTree": form(TYPED, email=("required", "invalid")), "errorsDetected": ["Email is required"], "hasErrors": True}
NATIVE = {"interactiveTree": form(TYPED)}  # the browser's own bubble: nothing on the page changes
DEAD = {"interactiveTree": form(TYPED, email=())}  # nothing marked: the button just does nothing


async def _drive(api: Api, page: dict[str, Any], goal: str = GOAL, turns: int = 8) -> list[dict[str, Any]]:
    """Start the task, run its chain, then answer every action with ``page`` (a reload
    would bring the empty form) until the task ends."""
    first = (await api.interact({"url": URL, "query": goal, "interactiveTree": form()})).json()
    assert first["actions"] and first["actions"][-1]["action"] == 'click("9")', first
    answers = [first]
    body: dict[str, Any] = {"url": URL, **page, **ran(first)}
    for _ in range(turns):
        response = await api.interact(body)
        assert response.status_code == 200, response.text
        answer = response.json()
        answers.append(answer)
        if answer["status"] != "active":
            break
        reload = answer["action"].startswith(("navigate(", "goBack("))
        body = {"url": URL, **({"interactiveTree": form()} if reload else page), "taskId": first["taskId"], "sessionId": first["sessionId"]}
    return answers


def _never_left(answers: list[dict[str, Any]]) -> None:
    sent = [a["action"] for a in answers] + [c["action"] for a in answers for c in a.get("actions") or []]
    assert not [a for a in sent if a.startswith(("navigate(", "goBack("))], sent


@pytest.mark.parametrize("page", [REFUSED, NATIVE], ids=["page_says_required", "native_validation"])
async def test_a_refused_submit_ends_naming_the_field_and_never_reloads(api: Api, page: dict[str, Any]) -> None:
    answers = await _drive(api, page)
    _never_left(answers)
    end = answers[-1]
    assert end["status"] == "failed" and end["failureCode"] == "FORM_NEEDS_INPUT", end
    assert "The form needs: Email" in end["thought"] and "Step failed after" not in end["thought"]
    assert len(answers) == 2  # the first move after the refused submit: no wait, no retry
    detail = (await api.client.get(f"/api/tasks/{answers[0]['taskId']}", headers=api.headers())).json()
    assert detail["failureCode"] == "FORM_NEEDS_INPUT" and "Email" in detail["failureReason"]


async def test_a_dead_submit_on_a_page_holding_typed_values_is_not_reloaded(api: Api) -> None:
    answers = await _drive(api, DEAD)
    _never_left(answers)
    assert [a["action"] for a in answers[1:3]] == ["wait(1)", 'click("9")']
    end = answers[-1]
    assert end["status"] == "failed" and "not reloaded" in end["thought"], end


async def test_a_field_the_task_typed_and_the_page_emptied_is_not_typed_again(api: Api) -> None:
    """The page threw the typed e-mail away and says it is required: typing it again would be
    refused again — the task ends naming it."""
    first = (await api.interact({"url": URL, "query": FULL_GOAL, "interactiveTree": form()})).json()
    assert [a["action"] for a in first["actions"]][2:] == ['setValue("3", "ada@example.com")', 'click("9")']
    end = (await api.interact({"url": URL, **REFUSED, **ran(first)})).json()
    assert (end["status"], end["failureCode"]) == ("failed", "FORM_NEEDS_INPUT"), end
    assert end["thought"].startswith("The form does not accept the value typed into: Email.")


# ---- a model that keeps answering REFRESH_PAGE ------------------------------------------


def _model() -> ScenarioModel:
    def act(seen: SeenPrompt) -> dict[str, Any]:
        chain = [{"action": 'setValue("2", "Lovelace")', "description": "then the last name"}, {"action": 'click("9")', "description": "then Register"}]
        if '"Ada"' in seen.block("elements"):  # typed already: only the submit is left
            return {"thought": "Register.", "action": 'click("9")', "element_id": "9", "confidence": 0.9, "chain": [], "step_done": True, "missing_info": []}
        return {"thought": "Fill the form.", "action": 'setValue("1", "Ada")', "element_id": "1", "confidence": 0.9, "chain": chain, "step_done": True, "missing_info": []}

    steps = [
        {"description": "Enter the first name", "kind": "fill", "target": "First name", "value": "Ada", "success_criterion": "holds Ada"},
        {"description": "Enter the last name", "kind": "fill", "target": "Last name", "value": "Lovelace", "success_criterion": "holds Lovelace"},
        {"description": "Press Register", "kind": "submit", "target": "Register", "value": None, "success_criterion": "registered"},
    ]
    return ScenarioModel(
        {
            "CONTEXT_ANALYSIS": lambda s: {"source": "PAGE", "required_sources": ["PAGE"], "missing_information": [], "search_query": None, "reason": "On the page."},
            "PLANNING": lambda s: {"steps": steps, "contract": [], "needs_user_input": []},
            "ACTION_GENERATION": act,
            "VERIFICATION": lambda s: {"action_succeeded": False, "task_completed": False, "confidence": 0.9, "reason": "Nothing happened."},
            "OUTCOME_PREDICTION": lambda s: {"description": "The page reacts.", "url_should_change": None, "elements_to_appear": [], "success_text": None, "next_goal": None},
            "REPLANNING": lambda s: {"valid": True, "minor_modifications_only": True, "suggested_changes": [], "modified_steps": None},
            "CRITIC": lambda s: {"approved": True, "concerns": [], "alternative_action": None, "confidence": 0.9},
            "SELF_CORRECTION": lambda s: {"strategy": "REFRESH_PAGE", "action": None, "reason": "The page looks stale."},
        }
    )


async def _with_model(make_api: ApiFactory) -> tuple[Api, ScenarioModel]:
    api = await make_api(rate_limit_per_minute=1000)
    model = _model()
    model.sink = api.app.state.usage_service
    api.app.state.agent_deps.gateway = model
    return api, model


async def test_a_models_reload_is_refused_on_a_page_holding_typed_values(make_api: ApiFactory) -> None:
    api, model = await _with_model(make_api)
    answers = await _drive(api, DEAD)
    _never_left(answers)
    assert "SELF_CORRECTION" in model.purposes()  # it was asked, and its reload refused
    assert all(a["decidedBy"] == "policy" for a in answers[1:] if a["thought"].startswith("Correction"))
    assert answers[-1]["status"] == "failed"


async def test_the_goals_value_fills_the_field_a_model_forgot_then_the_submit_goes_again(make_api: ApiFactory) -> None:
    """The model typed the names and pressed Register, forgetting the e-mail the goal gives;
    the page says it is required: the contract's value goes in, then Register again."""
    api, model = await _with_model(make_api)
    first = (await api.interact({"url": URL, "query": FULL_GOAL, "interactiveTree": form()})).json()
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    submit = (await api.interact({"url": URL, "interactiveTree": form(TYPED), **ran(first)})).json()
    assert submit["action"] == 'click("9")' and submit["decidedBy"] == "model"
    fix = (await api.interact({"url": URL, **REFUSED, **ids})).json()
    assert (fix["status"], fix["action"], fix["decidedBy"]) == ("active", 'setValue("3", "ada@example.com")', "policy"), fix
    again = (await api.interact({"url": URL, "interactiveTree": form({**TYPED, "Email": "ada@example.com"}), **ids})).json()
    assert again["action"] == 'click("9")'
    welcome = {"url": WELCOME_URL, "interactiveTree": [{"i": "40", "r": "link", "n": "Home"}], "successMessages": ["Welcome, Ada"]}
    done = (await api.interact({**welcome, **ids})).json()
    assert (done["status"], done["action"]) == ("completed", "finish()")
    assert "SELF_CORRECTION" not in model.purposes()
    detail = (await api.client.get(f"/api/tasks/{first['taskId']}", headers=api.headers())).json()
    assert [c["strategy"] for c in detail["corrections"]] == ["FILL_FIELD"]


async def test_with_a_model_a_refused_submit_ends_naming_the_field_without_asking_it(make_api: ApiFactory) -> None:
    api, model = await _with_model(make_api)
    answers = await _drive(api, REFUSED)
    _never_left(answers)
    assert answers[-1]["failureCode"] == "FORM_NEEDS_INPUT" and "The form needs: Email" in answers[-1]["thought"]
    assert "SELF_CORRECTION" not in model.purposes()
