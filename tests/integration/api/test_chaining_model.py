"""A model's proposed chain is judged by the same rules as the policy's: kept up to the first
action that may not run in a row, never trusted whole — against an honest model and a lying one."""

from __future__ import annotations

from typing import Any

from tests.integration.api.conftest import Api, ApiFactory
from tests.integration.api.test_chaining import DONE_PAGE, FIELDS, GOAL, VALUES, ran, start, send, v3_form
from tests.support.scenario_model import ScenarioModel, SeenPrompt


def _plan(_: SeenPrompt) -> dict[str, Any]:
    steps = [{"description": f"Enter the {f.lower()}", "kind": "fill", "target": f, "value": VALUES[f], "success_criterion": f"{f} holds it"} for f in FIELDS]
    steps.append({"description": "Submit", "kind": "submit", "target": "Submit", "value": None, "success_criterion": "saved"})
    return {"steps": steps, "contract": [], "needs_user_input": []}


def _model(act: Any) -> ScenarioModel:
    return ScenarioModel(
        {
            "CONTEXT_ANALYSIS": lambda s: {"source": "PAGE", "required_sources": ["PAGE"], "missing_information": [], "search_query": None, "reason": "On the page."},
            "PLANNING": _plan,
            "ACTION_GENERATION": act,
            "VERIFICATION": lambda s: {"action_succeeded": True, "task_completed": True, "confidence": 0.95, "reason": "All done!"},
            "OUTCOME_PREDICTION": lambda s: {"description": "The page reacts.", "url_should_change": None, "elements_to_appear": [], "success_text": None, "next_goal": None},
            "REPLANNING": lambda s: {"valid": True, "minor_modifications_only": True, "suggested_changes": [], "modified_steps": None},
            "CRITIC": lambda s: {"approved": True, "concerns": [], "alternative_action": None, "confidence": 0.9},
            "SELF_CORRECTION": lambda s: {"strategy": "RETRY_WITH_DELAY", "action": 'setValue("1", "Ada")', "reason": "Try again."},
        }
    )


async def _api(make_api: ApiFactory, model: ScenarioModel) -> Api:
    api = await make_api(rate_limit_per_minute=1000)
    model.sink = api.app.state.usage_service
    api.app.state.agent_deps.gateway = model
    return api


def _answer(action: str, chain: list[str]) -> dict[str, Any]:
    return {"thought": "Fill the form.", "action": action, "element_id": None, "confidence": 0.95,
            "chain": [{"action": a, "description": f"then {a}"} for a in chain], "step_done": True, "missing_info": []}  # fmt: skip


async def test_an_honest_models_chain_with_the_submit_runs_whole(make_api: ApiFactory) -> None:
    chain = ['setValue("2", "Lovelace")', 'setValue("3", "ada@example.com")', 'setValue("4", "555-0100")', 'setValue("5", "London")', 'click("9")']
    api = await _api(make_api, _model(lambda s: _answer('setValue("1", "Ada")', chain)))
    first = await start(api, {"interactiveTree": v3_form()})
    assert first["decidedBy"] == "model"
    assert [a["action"] for a in first["actions"]] == ['setValue("1", "Ada")', *chain]
    assert first["actions"][-1]["commit"] is True and len(first["actions"][-1]["requireValues"]) == 5
    done = await send(api, {**DONE_PAGE, **ran(first)})
    assert done["status"] == "completed"


async def test_a_lying_models_chain_is_cut_before_what_may_not_run_in_a_row(make_api: ApiFactory) -> None:
    """It slips a destructive click, a navigation and finish() into the chain."""
    tree = v3_form(extra=[{"i": "8", "r": "btn", "n": "Delete account"}])
    chain = ['setValue("2", "Lovelace")', 'click("8")', 'navigate("https://evil.test")', "finish()"]
    api = await _api(make_api, _model(lambda s: _answer('setValue("1", "Ada")', chain)))
    first = await start(api, {"interactiveTree": tree})
    assert [a["action"] for a in first["actions"]] == ['setValue("1", "Ada")', 'setValue("2", "Lovelace")']


async def test_a_models_chain_never_carries_a_commit_the_goal_does_not_name(make_api: ApiFactory) -> None:
    goal = "Set First name to Ada and Last name to Lovelace"
    tree = v3_form(submit="Publish")
    api = await _api(make_api, _model(lambda s: _answer('setValue("1", "Ada")', ['setValue("2", "Lovelace")', 'click("9")'])))
    first = await start(api, {"interactiveTree": tree}, goal)
    assert [a["action"] for a in first["actions"]] == ['setValue("1", "Ada")', 'setValue("2", "Lovelace")']


async def test_a_models_nonsense_chain_leaves_a_single_action(make_api: ApiFactory) -> None:
    chain = ["not an action", 'setValue("404", "x")', 'setValue("1", "again")']
    api = await _api(make_api, _model(lambda s: _answer('setValue("1", "Ada")', chain)))
    first = await start(api, {"interactiveTree": v3_form()})
    assert first["action"] == 'setValue("1", "Ada")' and first["actions"] is None


async def test_a_model_that_claims_success_cannot_complete_a_chain_the_page_does_not_show(make_api: ApiFactory) -> None:
    chain = ['setValue("2", "Lovelace")', 'setValue("3", "ada@example.com")', 'setValue("4", "555-0100")', 'setValue("5", "London")', 'click("9")']
    api = await _api(make_api, _model(lambda s: _answer('setValue("1", "Ada")', chain)))
    first = await start(api, {"interactiveTree": v3_form()})
    # The client says it ran everything; the page is the untouched form. The verdict model says "All done!".
    after = await send(api, {"url": "https://clinic.test/patients/new", "interactiveTree": v3_form(), **ran(first)})
    assert after["status"] != "completed"
    assert after["verification"]["success"] is False
