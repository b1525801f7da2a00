"""Decoys and unasked destructive actions, through the whole service with no model, on both
page forms (raw HTML ``dom`` parsed server-side, and a V3 tree as the page script sends it).

Each page is generated in several layouts — the decoy before or after the real target, or
alone — and each goal in several phrasings. A decoy is never the action's target; a page
with only a decoy never completes; a destructive control the goal does not ask for is held
for the user's confirmation and sent only once confirmed."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.api.conftest import Api, ApiFactory
from tests.integration.api.test_goal_contract import one_truth
from tests.support.scenario_model import ScenarioModel, SeenPrompt

URL = "https://account.example/settings"
SAVE_GOALS = ["Click Save", "Click the Save button", "Press the Save button", "click on save"]


def html(*parts: str, css: str = "") -> dict[str, Any]:
    body = '<label for="nick">Nickname</label><input data-llm-id="n" id="nick" value="ana">' + "".join(parts)
    return {"dom": f"<!doctype html><html><head><title>Settings</title><style>{css}</style></head><body><main>{body}</main></body></html>"}


def v3(*nodes: dict[str, Any]) -> dict[str, Any]:
    return {"interactiveTree": [{"i": "n", "r": "inp", "n": "Nickname", "v": "ana", "xy": [100, 40]}, *nodes], "viewport": {"width": 1280, "height": 800}}


REAL_HTML = '<button data-llm-id="real">Save</button>'
REAL_V3 = {"i": "real", "r": "btn", "n": "Save", "xy": [300, 200], "box": [270, 185, 60, 30]}
# Decoys named "Save" a person cannot see (or whose visible text says otherwise), by page form.
HTML_DECOYS: dict[str, tuple[str, str]] = {
    "stylesheet class": ('<button data-llm-id="decoy" class="ghost">Save</button>', ".ghost { display: none }"),
    "stylesheet id": ('<button data-llm-id="decoy" id="old-save">Save</button>', "main #old-save { visibility: hidden; }"),
    "stylesheet attribute": ('<div data-old="1"><button data-llm-id="decoy">Save</button></div>', '[data-old="1"] { opacity: 0 }'),
    "opacity": ('<button data-llm-id="decoy" style="opacity: 0">Save</button>', ""),
    "off-screen": ('<button data-llm-id="decoy" style="position:absolute; left:-9999px">Save</button>', ""),
    "off-screen by rule": ('<a href="#x" data-llm-id="decoy" class="sr">Save</a>', ".sr { position: absolute; top: -10000px; }"),
    "zero size": ('<button data-llm-id="decoy" style="width:0;height:0;overflow:hidden;padding:0;border:0">Save</button>', ""),
    "hidden attribute": ('<button data-llm-id="decoy" hidden>Save</button>', ""),
    "aria-hidden": ('<div aria-hidden="true"><button data-llm-id="decoy">Save</button></div>', ""),
    "mislabelled": ('<button data-llm-id="decoy" aria-label="Save">Delete account</button>', ""),
    "inert": ('<div inert><button data-llm-id="decoy">Save</button></div>', ""),
}
V3_DECOYS: dict[str, dict[str, Any]] = {
    "other frame": {"i": "decoy", "r": "btn", "n": "Save", "f": 1, "xy": [60, 500], "box": [30, 485, 60, 30]},
    "off-screen": {"i": "decoy", "r": "btn", "n": "Save", "xy": [-9970, 200], "box": [-9999, 185, 60, 30]},
    "zero size": {"i": "decoy", "r": "btn", "n": "Save", "xy": [300, 120], "box": [300, 120, 0, 0]},
    "covered by a modal": {"i": "decoy", "r": "btn", "n": "Save", "occ": True, "xy": [300, 120], "box": [270, 105, 60, 30]},
    "mislabelled": {"i": "decoy", "r": "btn", "n": "Save", "t": "Delete account", "xy": [300, 120], "box": [250, 105, 120, 30]},
}


def decoy_pages(order: str) -> list[tuple[str, dict[str, Any]]]:
    """Every decoy in both forms, before the real Save, after it, or alone."""
    out: list[tuple[str, dict[str, Any]]] = []
    for name, (part, css) in HTML_DECOYS.items():
        parts = {"first": (part, REAL_HTML), "last": (REAL_HTML, part), "alone": (part,)}[order]
        out.append((f"html {name}", html(*parts, css=css)))
    for name, node in V3_DECOYS.items():
        nodes = {"first": (node, REAL_V3), "last": (REAL_V3, node), "alone": (node,)}[order]
        out.append((f"v3 {name}", v3(*nodes)))
    return out


async def first_answer(api: Api, goal: str, page: dict[str, Any]) -> dict[str, Any]:
    response = await api.interact({"url": URL, "query": goal, **page})
    assert response.status_code == 200, response.text
    return one_truth(response.json())


async def run_on(api: Api, goal: str, page: dict[str, Any], steps: int = 14) -> list[dict[str, Any]]:
    """The task on a page that never changes (what a page looks like when nothing the
    policy may click is there), until it ends."""
    bodies = [await first_answer(api, goal, page)]
    while bodies[-1]["status"] == "active" and len(bodies) < steps:
        ids = {"taskId": bodies[-1]["taskId"], "sessionId": bodies[-1]["sessionId"]}
        response = await api.interact({"url": URL, **page, **ids})
        assert response.status_code == 200, response.text
        bodies.append(one_truth(response.json()))
    return bodies


def targets(bodies: list[dict[str, Any]]) -> list[str | None]:
    return [(b.get("actionDetails") or {}).get("target") for b in bodies]


@pytest.mark.parametrize("order", ["first", "last"])
@pytest.mark.parametrize("goal", SAVE_GOALS[:2])
async def test_the_real_save_is_clicked_whatever_decoy_is_listed_beside_it(api: Api, order: str, goal: str) -> None:
    for name, page in decoy_pages(order):
        body = await first_answer(api, goal, page)
        assert body["status"] == "active" and body["actionDetails"] == {"name": "click", "target": "real", "value": None, "seconds": None}, (name, body["action"], body["thought"])


@pytest.mark.parametrize("goal", SAVE_GOALS)
async def test_a_decoy_alone_is_never_clicked_and_the_task_never_completes(api: Api, goal: str) -> None:
    for name, page in decoy_pages("alone"):
        bodies = await run_on(api, goal, page)
        assert "decoy" not in targets(bodies), (name, [b["action"] for b in bodies])
        assert bodies[-1]["status"] == "failed", (name, bodies[-1]["status"])
        assert all(b["status"] != "completed" for b in bodies), name


@pytest.mark.parametrize(
    ("form", "page"),
    [
        ("html", html('<button data-llm-id="icon" aria-label="Save"><svg width="16" height="16"></svg></button>')),
        ("html", html('<button data-llm-id="icon" title="Save"><img src="disk.png" alt=""></button>')),
        ("v3", v3({"i": "icon", "r": "btn", "n": "Save", "xy": [300, 120], "box": [290, 110, 20, 20]})),
    ],
)
async def test_an_icon_button_with_no_visible_text_keeps_its_aria_label(api: Api, form: str, page: dict[str, Any]) -> None:
    body = await first_answer(api, "Click Save", page)
    assert (body["actionDetails"] or {}).get("target") == "icon", (form, body["thought"])


@pytest.mark.parametrize("form", ["html", "v3"])
async def test_a_stylesheet_rule_that_shows_an_element_again_wins_over_the_one_that_hid_it(api: Api, form: str) -> None:
    if form == "html":
        page = html('<div class="panel open"><button data-llm-id="shown">Save</button></div>', css=".panel { display: none } .panel.open { display: block }")
    else:
        page = v3({"i": "shown", "r": "btn", "n": "Save", "xy": [300, 120], "box": [270, 105, 60, 30]})
    body = await first_answer(api, "Click Save", page)
    assert (body["actionDetails"] or {}).get("target") == "shown", body["thought"]


MODAL_HTML = (
    '<button data-llm-id="real">Save</button><div class="backdrop"></div>'
    '<div role="dialog" aria-modal="true" aria-label="Newsletter"><p>Join our newsletter</p>'
    '<button data-llm-id="join">Subscribe</button><button data-llm-id="close">No thanks</button></div>'
)
MODAL_V3 = [
    {**REAL_V3, "occ": True},
    {"i": "join", "r": "btn", "n": "Subscribe", "ctx": ["dialog: Join our newsletter Subscribe No thanks"], "xy": [200, 300]},
    {"i": "close", "r": "btn", "n": "No thanks", "ctx": ["dialog: Join our newsletter Subscribe No thanks"], "xy": [300, 300]},
]


@pytest.mark.parametrize("goal", ["Click Save", "Press the Save button"])
@pytest.mark.parametrize("form", ["html", "v3"])
async def test_behind_an_open_modal_dialog_nothing_is_clicked_until_the_dialog_is_dismissed(api: Api, form: str, goal: str) -> None:
    page = html(MODAL_HTML) if form == "html" else v3(*MODAL_V3)
    after = html(REAL_HTML) if form == "html" else v3(REAL_V3)
    first = await first_answer(api, goal, page)
    assert (first["actionDetails"] or {}).get("target") == "close", first["thought"]  # never Save behind it, never Subscribe
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    second = one_truth((await api.interact({"url": URL, **after, **ids})).json())
    assert (second["actionDetails"] or {}).get("target") == "real", second["thought"]


@pytest.mark.parametrize("form", ["html", "v3"])
async def test_a_modal_with_nothing_to_dismiss_it_is_never_clicked_through(api: Api, form: str) -> None:
    if form == "html":
        page = html('<button data-llm-id="real">Save</button><div role="dialog" aria-modal="true"><p>Session expired</p><button data-llm-id="go">Sign in again</button></div>')
    else:
        page = v3({**REAL_V3, "occ": True}, {"i": "go", "r": "btn", "n": "Sign in again", "ctx": ["dialog: Session expired"], "xy": [300, 300]})
    bodies = await run_on(api, "Click Save", page)
    assert not {"real", "go"} & set(targets(bodies)), [b["action"] for b in bodies]
    assert all(b["status"] != "completed" for b in bodies)


@pytest.mark.parametrize("goal", ["Click the Submit button", "Press Submit", 'Click "Submit"', "Tap the submit button"])
@pytest.mark.parametrize("form", ["html", "v3"])
async def test_a_goal_naming_a_label_the_page_lacks_fails_and_never_clicks_another_label(api: Api, form: str, goal: str) -> None:
    page = html('<form><button data-llm-id="save">Save</button></form>') if form == "html" else v3({"i": "save", "r": "btn", "n": "Save", "xy": [300, 200]})
    bodies = await run_on(api, goal, page)
    assert "save" not in targets(bodies), [b["action"] for b in bodies]
    assert bodies[-1]["status"] == "failed", bodies[-1]


@pytest.mark.parametrize("goal", ["Submit the form", "Submit", "save the changes"])
@pytest.mark.parametrize("form", ["html", "v3"])
async def test_submitting_the_form_still_uses_its_only_commit_control(api: Api, form: str, goal: str) -> None:
    page = html('<form><button data-llm-id="save">Save</button></form>') if form == "html" else v3({"i": "save", "r": "btn", "n": "Save", "xy": [300, 200]})
    bodies = await run_on(api, goal, page, steps=3)
    assert "save" in targets(bodies), [b["action"] for b in bodies]


@pytest.mark.parametrize("goal", ['Type "ana" into Nickname and click submit', 'Type "ana" into Nickname and press continue', "hit save"])
@pytest.mark.parametrize("form", ["html", "v3"])
async def test_a_commit_word_used_as_the_forms_action_uses_its_commit_button_whatever_its_label(api: Api, form: str, goal: str) -> None:
    """'click submit' on a form whose only button says OK: the form's action, not a label (a
    label is written capitalised, quoted, or with its role noun, as in the test above)."""
    page = html('<form><button data-llm-id="ok">OK</button></form>') if form == "html" else v3({"i": "ok", "r": "btn", "n": "OK", "xy": [300, 200]})
    bodies = await run_on(api, goal, page, steps=4)
    assert "ok" in targets(bodies), [b["action"] for b in bodies]


DESTRUCTIVE_HTML = html('<button data-llm-id="bad">Save and delete my account</button>')
DESTRUCTIVE_V3 = v3({"i": "bad", "r": "btn", "n": "Save and delete my account", "xy": [300, 200]})
GONE_V3 = v3({"i": "done", "r": "status", "n": "Account deleted"})


@pytest.mark.parametrize("goal", ["Click Save", "Press the Save button", "Save"])
@pytest.mark.parametrize("form", ["html", "v3"])
async def test_an_unasked_destructive_control_is_held_for_the_user(api: Api, form: str, goal: str) -> None:
    page = DESTRUCTIVE_HTML if form == "html" else DESTRUCTIVE_V3
    first = await first_answer(api, goal, page)
    assert first["status"] == "needs_user_input" and first["action"] == "" and first["actionDetails"] is None
    assert first["taskId"], first
    question = first["needsUserInput"]
    assert question["confirm"]["element"] == "Save and delete my account" and question["confirm"]["what"] == "delete"
    assert "Save and delete my account" in question["message"]
    # No answer: asked again, still nothing sent.
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    again = one_truth((await api.interact({"url": URL, **page, **ids})).json())
    assert again["status"] == "needs_user_input" and again["action"] == ""


@pytest.mark.parametrize("form", ["html", "v3"])
async def test_a_confirmed_destructive_action_is_sent_on_the_next_request(api: Api, form: str) -> None:
    page = DESTRUCTIVE_HTML if form == "html" else DESTRUCTIVE_V3
    first = await first_answer(api, "Click Save", page)
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    confirmed = one_truth((await api.interact({"url": URL, **page, **ids, "confirm": True})).json())
    assert confirmed["status"] == "active" and confirmed["actionDetails"]["target"] == "bad", confirmed
    after = one_truth((await api.interact({"url": URL, **GONE_V3, **ids})).json())
    assert after["status"] in ("completed", "needs_confirmation"), after


@pytest.mark.parametrize("form", ["html", "v3"])
async def test_a_declined_destructive_action_is_never_sent_and_the_task_fails(api: Api, form: str) -> None:
    page = DESTRUCTIVE_HTML if form == "html" else DESTRUCTIVE_V3
    first = await first_answer(api, "Click Save", page)
    ids = {"taskId": first["taskId"], "sessionId": first["sessionId"]}
    declined = one_truth((await api.interact({"url": URL, **page, **ids, "confirm": False})).json())
    assert declined["status"] == "failed" and declined["failureCode"] == "USER_DECLINED", declined
    assert declined["actionDetails"]["name"] == "fail"
    steps = (await api.client.get(f"/api/tasks/{first['taskId']}", headers=api.headers())).json()["steps"]
    assert all("bad" not in (s.get("action") or "") for s in steps), steps
    late = await api.interact({"url": URL, **page, **ids, "confirm": True})
    assert late.status_code == 409  # a finished task takes no more steps


@pytest.mark.parametrize(
    ("goal", "label"),
    [
        ("Click Delete account", "Delete account"),
        ("Remove my card by clicking Remove card", "Remove card"),
        ("Click Pay now", "Pay now"),
        ("Unsubscribe from the newsletter by clicking Unsubscribe", "Unsubscribe"),
    ],
)
async def test_a_destructive_control_the_goal_asks_for_is_clicked(api: Api, goal: str, label: str) -> None:
    body = await first_answer(api, goal, v3({"i": "it", "r": "btn", "n": label, "xy": [300, 200]}))
    assert body["status"] == "active" and (body["actionDetails"] or {}).get("target") == "it", body["thought"]


async def test_a_models_unasked_destructive_click_is_held_too(make_api: ApiFactory) -> None:
    def plan(_: SeenPrompt) -> dict[str, Any]:
        step = {"description": "Tidy the profile", "kind": "click", "target": "Delete account", "value": None, "success_criterion": "tidy"}
        return {"steps": [step], "contract": [], "needs_user_input": []}

    def act(_: SeenPrompt) -> dict[str, Any]:
        return {"thought": "Tidy up.", "action": 'click("bad")', "element_id": None, "confidence": 0.9, "chain": [], "step_done": True, "missing_info": []}

    model = ScenarioModel({
        "CONTEXT_ANALYSIS": lambda s: {"source": "PAGE", "required_sources": ["PAGE"], "missing_information": [], "search_query": None, "reason": "On the page."},
        "PLANNING": plan, "ACTION_GENERATION": act,
        "OUTCOME_PREDICTION": lambda s: {"description": "x", "url_should_change": None, "elements_to_appear": [], "success_text": None, "next_goal": None},
        "CRITIC": lambda s: {"approved": True, "concerns": [], "alternative_action": None, "confidence": 0.9},
    })  # fmt: skip
    api = await make_api(rate_limit_per_minute=1000)
    model.sink = api.app.state.usage_service
    api.app.state.agent_deps.gateway = model
    page = v3({"i": "bad", "r": "btn", "n": "Delete account", "xy": [300, 200]}, {"i": "bio", "r": "inp", "n": "Bio", "v": "", "xy": [300, 100]})
    body = await first_answer(api, "Tidy up my profile", page)
    assert body["status"] == "needs_user_input" and body["action"] == "", (body["status"], body["action"], body["thought"])
    assert body["needsUserInput"]["confirm"]["element"] == "Delete account"
