"""The goal contract over the HTTP API: completion is proven on the page, never claimed.

Every answer here is checked for one truth: ``status == "completed"`` exactly when the
contract is satisfied, and the verdict's ``goalAchieved`` says the same."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.api.conftest import Api, ApiFactory
from tests.support.scenario_model import ScenarioModel, SeenPrompt

URL = "https://portal.example/settings"


def one_truth(body: dict[str, Any]) -> dict[str, Any]:
    """No answer says two things about whether the goal is done."""
    contract = body.get("contract")
    completed = body["status"] == "completed"
    if contract is not None:
        assert completed == contract["satisfied"], body
        if completed:
            assert all(c["status"] == "holds" and c["evidence"] for c in contract["clauses"]), contract
    if body.get("verification") is not None:
        assert body["verification"]["goalAchieved"] is completed or (
            body["verification"]["goalAchieved"] is None and not completed
        ), body
    if completed:
        assert body["action"] == "finish()"
    return body


def settings_tree(*, sms: bool, saved: bool = False, focus: str | None = None, save_button: bool = True) -> list[dict[str, Any]]:
    def node(i: str, r: str, n: str, on: bool = False) -> dict[str, Any]:
        states = [s for s, want in (("checked", on), ("focused", focus == i)) if want]
        return {"i": i, "r": r, "n": n, **({"s": states} if states else {})}

    tree = [node("1", "chk", "Email notifications", True), node("2", "chk", "SMS notifications", sms)]
    if save_button:
        tree.append(node("3", "btn", "Save"))
    if saved:
        tree.append({"i": "9", "r": "status", "n": "Settings saved"})
    return tree


async def run(api: Api, goal: str, trees: list[list[dict[str, Any]]], *, url: str = URL) -> list[dict[str, Any]]:
    bodies: list[dict[str, Any]] = []
    ids: dict[str, str] = {}
    for tree in trees:
        body: dict[str, Any] = {"url": url, "interactiveTree": tree, **ids}
        if not ids:
            body["query"] = goal
        response = await api.interact(body)
        assert response.status_code == 200, response.text
        answer = one_truth(response.json())
        bodies.append(answer)
        ids = {"taskId": answer["taskId"], "sessionId": answer["sessionId"]}
        if answer["status"] != "active":
            break
    return bodies


UNREADABLE = [
    "blorp the frobnicator",
    "Log out",
    "Book a flight to Paris for Friday",
    "Transfer $500 to savings",
    "go to file:///etc/passwd",
    "Delete my account",
    "Order two pizzas",
    "Forward the newsletter to my team",
    "Cancel my subscription",
    "Export the report as CSV",
    "Make it look nicer",
]


@pytest.mark.parametrize("goal", UNREADABLE)
async def test_a_goal_the_policy_cannot_read_ends_at_once_and_says_why(api: Api, goal: str) -> None:
    (body,) = await run(api, goal, [settings_tree(sms=False)])
    assert body["status"] == "failed" and body["failureCode"] == "GOAL_NOT_UNDERSTOOD"
    assert body["action"].startswith("fail(")
    assert body["contract"]["complete"] is False and body["contract"]["unaccounted"]
    assert any(repr(word) in body["thought"] for word in body["contract"]["unaccounted"])
    detail = (await api.client.get(f"/api/tasks/{body['taskId']}", headers=api.headers())).json()
    assert detail["failureCode"] == "GOAL_NOT_UNDERSTOOD" and detail["status"] == "failed"


NEEDS_A_MODEL = [
    ("Buy the cheapest ticket", "cheapest"),
    ("Solve the math problem and type your answer into the textbox, then press Submit", "solve"),
    ("Calculate 12 * 7 and enter the result", "calculate"),
    ("Open the message with the greatest number of replies", "greatest"),
    ("Guess the number between 1 and 9 and press Submit", "guess"),
    ("Check the words similar to happy and click Submit", "similar to"),
    ("Mark each number as odd or even", "odd or even"),
]


@pytest.mark.parametrize(("goal", "phrase"), NEEDS_A_MODEL)
async def test_a_goal_that_needs_arithmetic_comparison_or_judgement_declines_with_needs_model(
    api: Api, goal: str, phrase: str
) -> None:
    tree = [*settings_tree(sms=False), {"i": "5", "r": "inp", "n": "Answer"}, {"i": "6", "r": "btn", "n": "Submit"}]
    (body,) = await run(api, goal, [tree])
    assert body["status"] == "failed" and body["failureCode"] == "NEEDS_MODEL", body
    assert body["action"].startswith("fail(") and repr(phrase) in body["thought"]
    assert body["contract"]["complete"] is False


async def test_a_superlative_inside_a_quoted_value_is_the_users_words_not_a_judgement(api: Api) -> None:
    tree = [{"i": "1", "r": "inp", "n": "Title"}, {"i": "2", "r": "link", "n": "Best sellers"}]
    (body,) = await run(api, "Type 'the cheapest offer' into Title, then open 'Best sellers'", [tree])
    assert body["status"] == "active" and body["action"] == 'setValue("1", "the cheapest offer")'


async def test_a_goal_already_true_on_the_first_page_completes_with_its_evidence(api: Api) -> None:
    (body,) = await run(api, "Check Email notifications", [settings_tree(sms=False)])
    assert (body["status"], body["action"]) == ("completed", "finish()")
    assert body["verification"]["goalAchieved"] is True and body["verification"]["tier"] == 1
    (clause,) = body["contract"]["clauses"]
    assert clause["mode"] == "state" and clause["evidence"]["step"] == 0
    assert "Email notifications" in clause["evidence"]["observation"]


async def test_check_then_save_completes_only_when_the_page_shows_it(api: Api) -> None:
    goal = "Check SMS notifications and click Save"
    bodies = await run(
        api,
        goal,
        [settings_tree(sms=False), settings_tree(sms=True, focus="2"), settings_tree(sms=True, saved=True, focus="3")],
    )
    assert [b["action"] for b in bodies] == ['click("2")', 'click("3")', "finish()"]
    assert bodies[-1]["status"] == "completed"
    sms, save = bodies[-1]["contract"]["clauses"]
    assert sms["detail"] == "held when step 1 was done"
    assert save["evidence"]["step"] == 1 and "Settings saved" in save["evidence"]["observation"]


async def test_a_save_the_page_does_not_confirm_needs_confirmation_never_completed(api: Api) -> None:
    """Save only moves the focus: the click landed, the result is a server-side effect
    nobody can see. Stepwise waits twice, then asks the user to confirm."""
    pages = [settings_tree(sms=False), settings_tree(sms=True, focus="2")] + [settings_tree(sms=True, focus="3")] * 4
    bodies = await run(api, "Check SMS notifications and click Save", pages)
    assert [b["action"] for b in bodies[:4]] == ['click("2")', 'click("3")', "wait(1)", "wait(1)"]
    last = bodies[-1]
    assert last["status"] == "needs_confirmation" and last["action"] == ""
    save = last["contract"]["clauses"][1]
    assert save["unproven"] is True and save["status"] == "pending"
    detail = (await api.client.get(f"/api/tasks/{last['taskId']}", headers=api.headers())).json()
    assert detail["status"] == "needs_confirmation" and detail["contract"]["satisfied"] is False
    again = await api.interact({"url": URL, "interactiveTree": settings_tree(sms=True), "taskId": last["taskId"]})
    assert again.status_code == 409  # a finished task takes no more steps


def people_tree(deactivated: str | None = None, action: str = "Deactivate") -> list[dict[str, Any]]:
    tree = []
    for n, name in enumerate(("Ana Silva", "Bob Stone", "Chen Wei")):
        ctx = [f"row: {name} · {name.split()[0].lower()}@x.io · {'Inactive' if name == deactivated else 'Member'}"]
        label = "Reinstate" if name == deactivated else action
        tree += [{"i": f"e{n}", "r": "btn", "n": "Edit", "ctx": ctx}, {"i": f"d{n}", "r": "btn", "n": label, "ctx": ctx}]
    return tree


async def test_the_row_the_goal_names_is_the_row_acted_on(api: Api) -> None:
    bodies = await run(
        api, "Click the Deactivate button in the row for Chen Wei", [people_tree(), people_tree(deactivated="Chen Wei")]
    )
    assert [b["action"] for b in bodies] == ['click("d2")', "finish()"]
    evidence = bodies[-1]["contract"]["clauses"][0]["evidence"]
    assert "Chen Wei" in evidence["element"]


async def test_a_button_repeated_in_every_row_is_never_guessed(api: Api) -> None:
    (body,) = await run(api, "Click the Deactivate button", [people_tree()])
    assert body["status"] == "failed" and "ambiguous" in body["thought"]


async def test_the_wrong_rows_button_does_not_satisfy_the_goal(api: Api) -> None:
    """Even when the page changes: Ana's row went inactive, not Chen's."""
    first = one_truth((await api.interact({"url": URL, "query": "Click the Deactivate button in the row for Chen Wei", "interactiveTree": people_tree()})).json())
    assert first["action"] == 'click("d2")'
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    # The site deactivated the wrong person (a bug of the site): the clicked element still
    # verified, but Chen Wei's clause is about Chen Wei's button, and that was the one clicked.
    wrong = one_truth((await api.interact({"url": URL, "interactiveTree": people_tree(deactivated="Ana Silva"), **ids})).json())
    assert wrong["status"] == "completed"  # the goal was to click that button: done, with evidence
    assert "Chen Wei" in wrong["contract"]["clauses"][0]["evidence"]["element"]


# --- a model that lies ------------------------------------------------------------------


def _liar() -> ScenarioModel:
    """Every verdict claims the whole task done; every action is finish(); every plan has
    no steps and a contract that names nothing on the page."""
    return ScenarioModel(
        {
            "CONTEXT_ANALYSIS": lambda s: {"source": "PAGE", "required_sources": ["PAGE"], "missing_information": [], "search_query": None, "reason": "Done."},
            "PLANNING": lambda s: {
                "steps": [],
                "contract": [{"kind": "shown", "value": "The goal is complete.", "description": "Done"}],
                "needs_user_input": [],
            },
            "ACTION_GENERATION": lambda s: {"thought": "The goal is complete.", "action": "finish()", "element_id": None, "confidence": 0.97, "chain": [], "step_done": True, "missing_info": []},
            "VERIFICATION": lambda s: {"action_succeeded": True, "task_completed": True, "confidence": 0.97, "reason": "The goal is complete."},
            "OUTCOME_PREDICTION": lambda s: {"description": "Done.", "url_should_change": None, "elements_to_appear": [], "success_text": None, "next_goal": None},
            "REPLANNING": lambda s: {"valid": True, "minor_modifications_only": True, "suggested_changes": [], "modified_steps": None},
            "CRITIC": lambda s: {"approved": True, "concerns": [], "alternative_action": None, "confidence": 0.97},
            "SELF_CORRECTION": lambda s: {"strategy": "RETRY_WITH_DELAY", "action": None, "reason": "Done."},
        }
    )


async def _with_liar(make_api: ApiFactory) -> tuple[Api, ScenarioModel]:
    model = _liar()
    api = await make_api(rate_limit_per_minute=1000)
    model.sink = api.app.state.usage_service
    api.app.state.agent_deps.gateway = model
    return api, model


async def test_a_lying_model_can_slow_the_task_never_finish_it_early(make_api: ApiFactory) -> None:
    api, model = await _with_liar(make_api)
    bodies = await run(
        api,
        "Check SMS notifications and click Save",
        [settings_tree(sms=False), settings_tree(sms=True, focus="2"), settings_tree(sms=True, saved=True, focus="3")],
    )
    # The model proposed finish() every time; each was rejected for the policy's action.
    assert [b["action"] for b in bodies] == ['click("2")', 'click("3")', "finish()"]
    assert bodies[-1]["status"] == "completed"
    assert all(b["status"] == "active" for b in bodies[:-1])
    assert [b["verification"]["goalAchieved"] for b in bodies[1:]] == [False, True]  # only the page decides
    assert model.purposes().count("ACTION_GENERATION") == 2  # two finish() proposals, both rejected


async def test_a_lying_model_on_a_goal_nobody_can_read_never_completes(make_api: ApiFactory) -> None:
    api, _model = await _with_liar(make_api)
    bodies = await run(api, "Transfer $500 to savings", [settings_tree(sms=False)] * 4)
    assert bodies[-1]["status"] in ("failed", "needs_confirmation")
    assert all(b["status"] != "completed" for b in bodies)
    assert bodies[0]["contract"]["complete"] is False


async def test_a_premature_finish_verdict_on_the_first_step_is_only_a_request_to_check(make_api: ApiFactory) -> None:
    api, _model = await _with_liar(make_api)
    page = settings_tree(sms=False, save_button=False)  # a box that keeps itself: checking it is the whole goal
    first = one_truth((await api.interact({"url": URL, "query": "Check SMS notifications", "interactiveTree": page})).json())
    assert first["action"] == 'click("2")'  # not finish(): nothing is checked yet
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    unchanged_page = settings_tree(sms=False, focus="2", save_button=False)
    unchanged = one_truth((await api.interact({"url": URL, "interactiveTree": unchanged_page, **ids})).json())
    assert unchanged["status"] == "active"  # the verdict says done, the box says no
    assert unchanged["verification"]["taskCompleted"] is True and unchanged["verification"]["goalAchieved"] is False


async def test_a_model_contract_that_misses_a_goal_value_is_sent_back_once_with_the_gap(make_api: ApiFactory) -> None:
    """"Offboard Bob Stone": the policy cannot read it (a verb its lexicon lacks); the model's
    first contract forgets whose button it is, the second names the row. Only the grounded,
    covering clause is kept."""
    drafts = [
        [{"kind": "activated", "target": {"name": "Offboard", "role": "button"}, "action": "click", "effect": True, "description": "Offboard"}],
        [
            {"kind": "activated", "target": {"name": "Offboard", "role": "button", "container": "Bob Stone"}, "action": "click", "effect": True, "description": "Offboard Bob"},
            {"kind": "shown", "value": "All done, trust me", "description": "invented"},
        ],
    ]

    def plan(seen: SeenPrompt) -> dict[str, Any]:
        step = {"description": "Offboard Bob", "kind": "click", "target": "Offboard", "value": None, "success_criterion": "inactive"}
        return {"steps": [step], "contract": drafts.pop(0) if drafts else [], "needs_user_input": []}

    model = _liar()
    model.handlers = {**model.handlers, "PLANNING": plan}  # type: ignore[misc]
    api = await make_api(rate_limit_per_minute=1000)
    model.sink = api.app.state.usage_service
    api.app.state.agent_deps.gateway = model
    bodies = await run(api, 'Offboard "Bob Stone"', [people_tree(action="Offboard"), people_tree(deactivated="Bob Stone", action="Offboard")])
    plannings = [c for c in model.calls if c.purpose == "PLANNING"]
    assert len(plannings) >= 2
    assert "'Bob Stone'" in plannings[1].block("contract_feedback") and "contract_feedback" not in plannings[0].user
    contract = bodies[0]["contract"]
    assert contract["complete"] is True and contract["source"] == "merged"
    assert "invented" not in [c["description"] for c in contract["clauses"]]  # not grounded in the goal
    assert bodies[0]["action"] == 'click("d1")'  # the finish() the model proposed was rejected
    assert bodies[-1]["status"] == "completed" and "Bob Stone" in bodies[-1]["contract"]["clauses"][0]["evidence"]["element"]


COPY_FORM = """<html><body><p>Copy the text below.</p>
<textarea id="a1">Eget rhoncus</textarea><textarea id="a2">Feugiat lacus. At sit.</textarea>
<input id="dst" type="text" value="{typed}"><button id="go">Submit</button>{done}</body></html>"""


async def test_a_value_read_on_the_page_is_typed_and_proven_with_the_read_as_evidence(api: Api) -> None:
    goal = "Copy the text from the 2nd text area below and paste it into the text input, then press Submit."
    pages = [
        COPY_FORM.format(typed="", done=""),
        COPY_FORM.format(typed="Feugiat lacus. At sit.", done=""),
        COPY_FORM.format(typed="Feugiat lacus. At sit.", done='<div role="status">Thanks, submitted!</div>'),
    ]
    bodies: list[dict[str, Any]] = []
    ids: dict[str, str] = {}
    for page in pages:
        body: dict[str, Any] = {"url": URL, "dom": page, **ids}
        if not ids:
            body["query"] = goal
        answer = one_truth((await api.interact(body)).json())
        bodies.append(answer)
        ids = {"taskId": answer["taskId"], "sessionId": answer["sessionId"]}
    assert [b["action"] for b in bodies] == ['setValue("dst", "Feugiat lacus. At sit.")', 'click("go")', "finish()"]
    assert bodies[-1]["status"] == "completed"
    pasted = bodies[-1]["contract"]["clauses"][0]
    assert pasted["status"] == "holds" and pasted["value"] == "Feugiat lacus. At sit."
    assert pasted["read"]["step"] == 0 and pasted["read"]["value"] == "Feugiat lacus. At sit."
    assert "a2" in pasted["read"]["element"] or "textbox" in pasted["read"]["element"]


def _country_form(value: str = "", message: str | None = None) -> list[dict[str, Any]]:
    tree: list[dict[str, Any]] = [{"i": "c", "r": "inp", "n": "Country", "v": value}, {"i": "s", "r": "btn", "n": "Save"}]
    return tree + ([{"i": "msg1", "r": "status", "n": message}] if message else [])


@pytest.mark.parametrize(
    ("message", "completed"),
    [
        ("Choose a country from the list", False),  # the page answered, but not with the work done
        ("Please pick a valid country", False),
        ("Saved: Norway", True),
        ("Your shipping country was updated", True),
    ],
)
async def test_a_commit_whose_only_result_is_a_message_needs_a_message_of_success(api: Api, message: str, completed: bool) -> None:
    bodies = await run(
        api,
        "Set the country to Norway and save",
        [_country_form(), _country_form("Norway"), _country_form("Norway", message), _country_form("Norway", message), _country_form("Norway", message)],
    )
    assert (bodies[-1]["status"] == "completed") is completed, [b["action"] for b in bodies]
    if not completed:
        assert bodies[-1]["status"] in ("needs_confirmation", "active")
