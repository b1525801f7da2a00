"""A model's claim that a value is missing, through the real graph (HTTP API, scripted model):
an invented claim ("missing: done") is dropped and the task goes on; a value the page needs
and nothing gives is still asked of the user (agent/reasoning/missing_claims.py)."""

from __future__ import annotations

from typing import Any

from tests.integration.api.conftest import Api, ApiFactory
from tests.support.clinic import FORM_URL, LIST_URL, MENU_URL, form_page, list_page, menu_page
from tests.support.scenario_model import ScenarioModel, SeenPrompt

GOAL = 'Add a new patient named "Jas"'
PATIENT_PAGES = [(MENU_URL, menu_page()), (FORM_URL, form_page()), (FORM_URL, form_page(name="Jas")), (LIST_URL, list_page(saved="Jas"))]
OTP_URL = "https://bank.example/sign-in/code"
OTP_PAGE = [{"i": "1", "r": "inp", "n": "One-time code", "v": ""}, {"i": "2", "r": "btn", "n": "Verify"}]
LIE = ["done"]


def _plan(needs: list[str]) -> dict[str, Any]:
    return {
        "steps": [
            {"description": "Open the new patient form", "kind": "open", "target": "New patient", "value": None, "success_criterion": "form shown"},
            {"description": "Enter the name", "kind": "fill", "target": "Name", "value": "Jas", "success_criterion": "Name holds Jas"},
            {"description": "Save", "kind": "submit", "target": "Save", "value": None, "success_criterion": "saved toast"},
        ],
        "contract": [{"kind": "field_value", "target": {"name": "Name", "role": "textbox"}, "value": "Jas", "description": "Name holds Jas"}],
        "needs_user_input": needs,
    }


def _act(seen: SeenPrompt, missing: list[str]) -> dict[str, Any]:
    """The honest worker's action for the clinic flow, with ``missing`` claimed beside it."""
    if MENU_URL + '"' in seen.block("page"):
        action = f'click("{seen.element_id("New patient")}")'
    elif 'value="Jas"' in seen.block("elements"):
        action = f'click("{seen.element_id("Save")}")'
    else:
        action = f'setValue("{seen.element_id("Name")}", "Jas")'
    return {"thought": "Next.", "action": action, "element_id": None, "confidence": 0.9, "chain": [], "step_done": True, "missing_info": missing}


def _model(**overrides: Any) -> ScenarioModel:
    handlers: dict[str, Any] = {
        "CONTEXT_ANALYSIS": lambda s: {"source": "ASK_USER", "required_sources": ["ASK_USER"], "missing_information": LIE, "search_query": None, "reason": "The goal is complete."},
        "PLANNING": lambda s: _plan(LIE),
        "ACTION_GENERATION": lambda s: _act(s, LIE),
        "VERIFICATION": lambda s: {"action_succeeded": True, "task_completed": "Patient Jas saved" in s.block("observations"), "confidence": 0.9, "reason": "Checked."},
        "OUTCOME_PREDICTION": lambda s: {"description": "The page reacts.", "url_should_change": None, "elements_to_appear": [], "success_text": None, "next_goal": None},
        "REPLANNING": lambda s: {"valid": True, "minor_modifications_only": True, "suggested_changes": [], "modified_steps": None},
        "CRITIC": lambda s: {"approved": True, "concerns": [], "alternative_action": None, "confidence": 0.9},
    }
    handlers.update(overrides)
    return ScenarioModel(handlers)


async def _with_model(make_api: ApiFactory, model: ScenarioModel) -> Api:
    api = await make_api(rate_limit_per_minute=1000)
    model.sink = api.app.state.usage_service
    api.app.state.agent_deps.gateway = model
    return api


async def _run(api: Api, pages: list[tuple[str, str]]) -> list[dict[str, Any]]:
    bodies: list[dict[str, Any]] = []
    ids: dict[str, Any] = {}
    for url, html in pages:
        body: dict[str, Any] = {"url": url, "dom": html, **ids} if ids else {"url": url, "dom": html, "query": GOAL}
        response = await api.interact(body)
        assert response.status_code == 200, response.text
        answer = response.json()
        bodies.append(answer)
        ids = {"taskId": answer["taskId"], "sessionId": answer["sessionId"]}
        if answer["status"] != "active":
            break
    return bodies


async def test_a_model_that_says_done_is_missing_asks_nobody_and_the_task_completes(make_api: ApiFactory) -> None:
    """Context analysis (ASK_USER ['done']), the planner and the worker all claim "done" is
    missing: every claim is dropped, the model's plan and actions go on, the page proves it."""
    model = _model()
    api = await _with_model(make_api, model)
    bodies = await _run(api, PATIENT_PAGES)
    assert [b["status"] for b in bodies] == ["active", "active", "active", "completed"], bodies[-1]
    assert not any(b.get("needsUserInput") for b in bodies)
    assert [b["action"] for b in bodies] == ['click("10")', 'setValue("20", "Jas")', 'click("22")', "finish()"]
    assert bodies[0]["decidedBy"] == "model", "the worker's own action stands once its claim is dropped"
    assert {"CONTEXT_ANALYSIS", "PLANNING", "ACTION_GENERATION"} <= set(model.purposes())
    detail = (await api.client.get(f"/api/tasks/{bodies[0]['taskId']}", headers=api.headers())).json()
    assert detail["plan"]["source"] == "model", "the planner's draft was kept: its claim was the only thing wrong with it"


async def test_a_claim_naming_a_value_the_goal_gives_is_dropped_and_the_wait_it_came_with_is_not_sent(make_api: ApiFactory) -> None:
    """The worker says the patient's name is missing and answers wait(1): the goal gives the
    name, so the claim is dropped, and with it the wait that only held its place — the
    policy's action for the step is sent."""

    def lying_wait(seen: SeenPrompt) -> dict[str, Any]:
        return {"thought": "I need the name.", "action": "wait(1)", "element_id": None, "confidence": 0.9, "chain": [], "step_done": False, "missing_info": ["the patient's name"]}

    api = await _with_model(make_api, _model(CONTEXT_ANALYSIS=lambda s: {"source": "PAGE", "required_sources": ["PAGE"], "missing_information": [], "search_query": None, "reason": "Page."}, ACTION_GENERATION=lying_wait))
    first = (await api.interact({"url": FORM_URL, "query": GOAL, "dom": form_page()})).json()
    assert first["status"] == "active" and not first.get("needsUserInput"), first
    assert first["action"] == 'setValue("20", "Jas")' and first["decidedBy"] == "policy", first


async def test_a_one_time_code_nothing_gives_is_still_asked_by_context_analysis(make_api: ApiFactory) -> None:
    model = _model(
        CONTEXT_ANALYSIS=lambda s: {"source": "ASK_USER", "required_sources": ["ASK_USER"], "missing_information": ["the one-time code", "done"], "search_query": None, "reason": "Only the user has the code."},
    )
    api = await _with_model(make_api, model)
    answer = (await api.interact({"url": OTP_URL, "query": "Sign in", "interactiveTree": OTP_PAGE})).json()
    assert answer["status"] == "needs_user_input" and answer["action"] == "", answer
    assert answer["needsUserInput"]["missing"] == ["the one-time code"], "the true claim is asked, the invented one dropped"


async def test_a_one_time_code_nothing_gives_is_still_asked_by_the_worker(make_api: ApiFactory) -> None:
    def otp_plan(seen: SeenPrompt) -> dict[str, Any]:
        return {
            "steps": [
                {"description": "Type the code", "kind": "fill", "target": "One-time code", "value": None, "success_criterion": "typed"},
                {"description": "Verify", "kind": "submit", "target": "Verify", "value": None, "success_criterion": "signed in"},
            ],
            "contract": [],
            "needs_user_input": [],
        }

    def asks(seen: SeenPrompt) -> dict[str, Any]:
        return {"thought": "The code is not given.", "action": "wait(1)", "element_id": None, "confidence": 0.9, "chain": [], "step_done": False, "missing_info": ["one-time code"]}

    model = _model(
        CONTEXT_ANALYSIS=lambda s: {"source": "PAGE", "required_sources": ["PAGE"], "missing_information": [], "search_query": None, "reason": "Page."},
        PLANNING=otp_plan,
        ACTION_GENERATION=asks,
    )
    api = await _with_model(make_api, model)
    answer = (await api.interact({"url": OTP_URL, "query": "Sign in", "interactiveTree": OTP_PAGE})).json()
    assert answer["status"] == "needs_user_input" and answer["action"] == "", answer
    assert answer["needsUserInput"]["missing"] == ["one-time code"]
    assert "ACTION_GENERATION" in model.purposes()
