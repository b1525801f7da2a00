"""Action chaining through the HTTP API (spec "Task 1: Action Chaining"): a form's fields and
its submit in one answer, partial failure reported and recovered, unsafe steps never chained,
and every chained action verified from the page — never assumed."""

from __future__ import annotations

from typing import Any

import pytest

from tests.integration.api.conftest import Api, ApiFactory

URL = "https://clinic.test/patients/new"
DONE_URL = "https://clinic.test/patients/42"
FIELDS = ["First name", "Last name", "Email", "Phone", "City"]
VALUES = {"First name": "Ada", "Last name": "Lovelace", "Email": "ada@example.com", "Phone": "555-0100", "City": "London"}
GOAL = "Set First name to Ada, Last name to Lovelace, Email to ada@example.com, Phone to 555-0100 and City to London, and press Submit"


def v3_form(values: dict[str, str] | None = None, *, ids: dict[str, str] | None = None, extra: list[dict[str, Any]] | None = None,
            submit: str = "Submit") -> list[dict[str, Any]]:  # fmt: skip
    values, ids = values or {}, ids or {}
    tree = [{"i": ids.get(name, str(n)), "r": "inp", "n": name, "v": values.get(name, "")} for n, name in enumerate(FIELDS, 1)]
    return [*tree, *(extra or []), {"i": "9", "r": "btn", "n": submit}]


def html_form(values: dict[str, str] | None = None) -> str:
    values = values or {}
    rows = "".join(
        f'<p><label for="f{n}">{name}</label><input id="f{n}" data-llm-id="{n}" value="{values.get(name, "")}"></p>'
        for n, name in enumerate(FIELDS, 1)
    )
    return f'<html><body><form><h1>New patient</h1>{rows}<button type="submit" data-llm-id="9">Submit</button></form></body></html>'


DONE_TREE = [{"i": "1", "r": "link", "n": "All patients"}]
DONE_PAGE = {"url": DONE_URL, "interactiveTree": DONE_TREE, "hasSuccess": True, "success_messages": ["Patient Ada Lovelace saved"]}


def ran(answer: dict[str, Any], through: int | None = None, **extra: Any) -> dict[str, Any]:
    """The report of a client that ran the answer's chain up to ``through`` (all by default)."""
    actions = answer["actions"]
    last = len(actions) - 1 if through is None else through
    state: dict[str, Any] = {"executedActions": [a["action"] for a in actions[: last + 1]], "totalActionsInChain": len(actions)}
    if last < len(actions) - 1:
        state["failedIndex"] = last + 1
    state |= extra.pop("state", {})
    report = {"taskId": answer["taskId"], "sessionId": answer["sessionId"], "stepIndex": answer["stepIndex"], "chainPartialState": state,
              "lastActionStatus": "success" if last == len(actions) - 1 else "failure"}  # fmt: skip
    if last >= 0:
        report["lastExecutedActionIndex"] = last
    return report | extra


async def start(api: Api, page: dict[str, Any], goal: str = GOAL) -> dict[str, Any]:
    response = await api.interact({"url": URL, "query": goal, **page})
    assert response.status_code == 200, response.text
    return response.json()


async def send(api: Api, body: dict[str, Any]) -> dict[str, Any]:
    response = await api.interact(body)
    assert response.status_code == 200, response.text
    return response.json()


# ---- 1. five fields and the submit in one answer ------------------------------------------


@pytest.mark.parametrize("page", [{"interactiveTree": v3_form()}, {"dom": html_form()}], ids=["v3", "html"])
async def test_five_fields_and_submit_chain_into_one_answer_and_complete_in_two_round_trips(api: Api, page: dict[str, Any]) -> None:
    first = await start(api, page)
    actions = first["actions"]
    assert [a["action"] for a in actions] == [
        'setValue("1", "Ada")', 'setValue("2", "Lovelace")', 'setValue("3", "ada@example.com")',
        'setValue("4", "555-0100")', 'setValue("5", "London")', 'click("9")',
    ]  # fmt: skip
    assert first["action"] == actions[0]["action"]  # old clients run the first
    assert [a["index"] for a in actions] == list(range(6))
    assert [a["commit"] for a in actions] == [False] * 5 + [True]
    assert actions[0]["expect"] == {"role": "textbox", "name": "First name"}
    assert actions[5]["expect"] == {"role": "button", "name": "Submit"}
    assert {(r["target"], r["value"]) for r in actions[5]["requireValues"]} == {(str(n), VALUES[f]) for n, f in enumerate(FIELDS, 1)}
    assert first["chainMetadata"]["totalActions"] == 6 and first["chainMetadata"]["safeToChain"] is True
    assert first["status"] == "active"

    done = await send(api, {**DONE_PAGE, **ran(first)})
    assert done["status"] == "completed"
    assert [c["status"] for c in done["verification"]["chain"]] == ["verified"] * 6
    assert done["contract"]["satisfied"] is True


async def test_a_chain_that_stays_on_the_form_is_verified_field_by_field(api: Api) -> None:
    """No submit in the goal: the page after the chain shows every value."""
    goal = "Set First name to Ada, Last name to Lovelace and Email to ada@example.com"
    first = await start(api, {"interactiveTree": v3_form()}, goal)
    assert len(first["actions"]) == 3 and not first["actions"][-1]["commit"]
    filled = {k: VALUES[k] for k in FIELDS[:3]}
    done = await send(api, {"url": URL, "interactiveTree": v3_form(filled), **ran(first)})
    assert [c["status"] for c in done["verification"]["chain"]] == ["verified"] * 3
    # Every clause holds; that the form stays unsubmitted is the user's to confirm (as without a chain).
    assert done["status"] == "needs_confirmation"
    assert all(c["status"] == "holds" for c in done["contract"]["clauses"])


# ---- 2. partial failure reported at index N --------------------------------------------------


@pytest.mark.parametrize("stopped_at", [1, 2, 4])
async def test_partial_failure_at_index_n_is_reported_and_the_rest_regenerated(api: Api, stopped_at: int) -> None:
    first = await start(api, {"interactiveTree": v3_form()})
    filled = {k: VALUES[k] for k in FIELDS[:stopped_at]}
    report = ran(first, stopped_at - 1, state={"failureKind": "covered"}, lastActionError="covered by a dialog")
    after = await send(api, {"url": URL, "interactiveTree": v3_form(filled), **report})
    statuses = [c["status"] for c in after["verification"]["chain"]]
    assert statuses == ["verified"] * stopped_at + ["failed"] + ["not_run"] * (5 - stopped_at)
    assert after["verification"]["success"] is False
    assert after["status"] == "active"
    # What ran is on the page and is not redone: the next chain starts at the field that stopped it.
    assert after["action"] == f'setValue("{stopped_at + 1}", "{VALUES[FIELDS[stopped_at]]}")'
    assert after["actions"][-1]["action"] == 'click("9")'
    metrics = (await api.client.get("/metrics")).text
    assert f'stepwise_chain_partial_failures_total{{index="{stopped_at}"}} 1.0' in metrics
    assert 'stepwise_chain_recoveries_total{outcome="applied",strategy="regenerate"} 1.0' in metrics


# ---- 3. recovery, then the task goes on -------------------------------------------------------


async def test_a_re_rendered_target_is_retried_on_its_new_element_and_the_task_completes(api: Api) -> None:
    first = await start(api, {"interactiveTree": v3_form()})
    # The form re-rendered after the 2nd field: Email and Phone have new ids; the client's guard stopped.
    ids = {"Email": "31", "Phone": "41"}
    filled = {k: VALUES[k] for k in FIELDS[:2]}
    report = ran(first, 1, state={"failureKind": "target_missing"}, lastActionError='setValue("3", …): no element 3')
    retry = await send(api, {"url": URL, "interactiveTree": v3_form(filled, ids=ids), **report})
    assert retry["action"] == 'setValue("31", "ada@example.com")'
    assert [a["action"] for a in retry["actions"]][1:] == ['setValue("41", "555-0100")', 'setValue("5", "London")', 'click("9")']
    done = await send(api, {**DONE_PAGE, **ran(retry)})
    assert done["status"] == "completed"
    metrics = (await api.client.get("/metrics")).text
    assert 'stepwise_chain_recoveries_total{outcome="succeeded",strategy="retry"} 1.0' in metrics
    assert 'stepwise_chains_total{result="complete"} 1.0' in metrics
    assert 'stepwise_chains_total{result="partial"} 1.0' in metrics
    detail = (await api.client.get(f"/api/tasks/{first['taskId']}", headers=api.headers())).json()
    assert detail["chains"] == {"sent": 2, "actionsSent": 10, "complete": 1, "partial": 1, "failed": 0,
                                "actionsExecuted": 6, "roundTripsSaved": 4}  # fmt: skip


async def test_an_old_client_that_runs_only_the_first_action_is_verified_on_that_alone(api: Api) -> None:
    first = await start(api, {"interactiveTree": v3_form()})
    again = await send(api, {"url": URL, "interactiveTree": v3_form({"First name": "Ada"}), "taskId": first["taskId"], "sessionId": first["sessionId"]})
    assert [c["status"] for c in again["verification"]["chain"]][:2] == ["verified", "not_run"]
    assert again["action"] == 'setValue("2", "Lovelace")'  # the rest, from the page
    assert again["status"] == "active"


async def test_an_account_that_does_not_match_the_chain_trusts_nothing_but_the_page(api: Api) -> None:
    first = await start(api, {"interactiveTree": v3_form()})
    bogus = ran(first) | {"lastExecutedActionIndex": 17}
    after = await send(api, {"url": URL, "interactiveTree": v3_form({"First name": "Ada"}), **bogus})
    assert after["status"] == "active"
    assert [c["status"] for c in after["verification"]["chain"]][:2] == ["verified", "failed"]
    assert after["action"] == 'setValue("2", "Lovelace")'


# ---- 4. what is never chained --------------------------------------------------------------------


async def test_chaining_off_answers_one_action(make_api: ApiFactory) -> None:
    api = await make_api(rate_limit_per_minute=1000, chaining=False)
    first = await start(api, {"interactiveTree": v3_form()})
    assert first["actions"] is None and first["chainMetadata"] is None
    assert first["action"] == 'setValue("1", "Ada")'


async def test_a_destructive_commit_is_never_in_a_chain(api: Api) -> None:
    goal = "Set First name to Ada and Last name to Lovelace, then click Delete account"
    tree = v3_form(submit="Delete account")
    first = await start(api, {"interactiveTree": tree}, goal)
    assert [a["action"] for a in first["actions"]] == ['setValue("1", "Ada")', 'setValue("2", "Lovelace")']


async def test_a_commit_the_goal_does_not_name_ends_nothing(api: Api) -> None:
    goal = "Set First name to Ada, Last name to Lovelace and City to London"
    first = await start(api, {"interactiveTree": v3_form()}, goal)
    assert all(not a["action"].startswith("click") for a in first["actions"])


async def test_a_select_ends_the_chain_and_fields_elsewhere_are_not_joined(api: Api) -> None:
    goal = "Set First name to Ada, Country to France, Last name to Lovelace and press Submit"
    country = {"i": "7", "r": "sel", "n": "Country", "v": "", "o": ["Germany", "France"]}
    first = await start(api, {"interactiveTree": v3_form(extra=[country])}, goal)
    # Choosing a country may reveal fields (a state, a postcode format): nothing follows it.
    assert [a["actionDetails"]["target"] for a in first["actions"]] == ["1", "7"]


async def test_fields_in_another_form_are_not_chained(api: Api) -> None:
    html = (
        '<html><body><form aria-label="Profile"><label for="a">First name</label><input id="a" data-llm-id="1"></form>'
        '<form aria-label="Newsletter"><label for="b">Email</label><input id="b" data-llm-id="3"></form></body></html>'
    )
    first = await start(api, {"dom": html}, "Set First name to Ada and Email to ada@example.com")
    assert first["actions"] is None
    assert first["action"] == 'setValue("1", "Ada")'


# ---- verification catches what the client cannot --------------------------------------------------


async def test_a_later_action_that_undid_an_earlier_one_is_caught(api: Api) -> None:
    goal = "Set First name to Ada, Last name to Lovelace and Email to ada@example.com"
    first = await start(api, {"interactiveTree": v3_form()}, goal)
    undone = {"Last name": "Lovelace", "Email": "ada@example.com"}  # First name was cleared again
    after = await send(api, {"url": URL, "interactiveTree": v3_form(undone), **ran(first)})
    assert [c["status"] for c in after["verification"]["chain"]] == ["failed", "verified", "verified"]
    assert after["status"] == "active" and after["verification"]["success"] is False
    assert after["action"] == 'setValue("1", "Ada")'


async def test_a_client_claiming_the_whole_chain_never_completes_an_unchanged_form(api: Api) -> None:
    first = await start(api, {"interactiveTree": v3_form()})
    after = await send(api, {"url": URL, "interactiveTree": v3_form(), **ran(first)})
    assert after["status"] != "completed"
    assert after["verification"]["success"] is False
    assert after["verification"]["chain"][0]["status"] == "failed"


async def test_a_submit_that_did_nothing_is_not_taken_for_the_fields_changing(api: Api) -> None:
    """The chain ran; the form shows every value, but Submit changed nothing: the commit's
    effect is measured from the filled form, so it is not verified and nothing completes."""
    first = await start(api, {"interactiveTree": v3_form()})
    after = await send(api, {"url": URL, "interactiveTree": v3_form(VALUES), **ran(first)})
    assert after["verification"]["chain"][-1]["status"] == "failed"
    assert after["status"] != "completed"


async def test_a_re_sent_chain_report_is_answered_again_not_stepped_twice(api: Api) -> None:
    first = await start(api, {"interactiveTree": v3_form()})
    report = ran(first, 1, state={"failureKind": "covered"})
    body = {"url": URL, "interactiveTree": v3_form({k: VALUES[k] for k in FIELDS[:2]}), **report}
    once = await send(api, body)
    twice = await send(api, {**body, "stepIndex": first["stepIndex"]})
    assert twice["replayed"] is True
    assert twice["actions"] == once["actions"] and twice["action"] == once["action"]


async def test_a_commit_whose_element_turned_into_something_else_is_not_the_commit(api: Api) -> None:
    """A client without guards clicked the id the chain gave; on the same page that id is now
    "Delete account". Whatever happened, it was not the Submit the goal asked for."""
    first = await start(api, {"interactiveTree": v3_form()})
    swapped = v3_form(VALUES, submit="Delete account")
    after = await send(api, {"url": URL, "interactiveTree": swapped, "hasSuccess": True, "success_messages": ["Account deleted"], **ran(first)})
    assert after["verification"]["chain"][-1]["status"] == "failed"
    assert "Delete account" in after["verification"]["chain"][-1]["reason"]
    assert after["status"] != "completed"


async def test_a_client_claiming_more_than_the_page_shows_never_completes(api: Api) -> None:
    """It says the whole chain ran; the form shows only the first field filled — neither
    gone, nor kept, nor cleared: no sign of one submit of the values it read back."""
    first = await start(api, {"interactiveTree": v3_form()})
    after = await send(api, {"url": URL, "interactiveTree": v3_form({"First name": "Ada"}), **ran(first)})
    assert after["status"] != "completed"
    assert after["contract"]["clauses"][-1]["status"] != "holds"  # the Submit is not done for the contract


def login(user: str = "", password: str = "", *, error: bool = False) -> list[dict[str, Any]]:
    tree = [{"i": "1", "r": "inp", "n": "Username", "v": user}, {"i": "2", "r": "inp", "n": "Password", "ty": "password", "v": password},
            {"i": "3", "r": "btn", "n": "Log in"}]  # fmt: skip
    return [*tree, {"i": "e1", "r": "alert", "n": "Invalid username or password"}] if error else tree


async def test_a_refused_sign_in_at_the_end_of_a_chain_is_corrected_not_re_sent_by_a_new_chain(api: Api) -> None:
    first = await start(api, {"interactiveTree": login()}, "Log in as alice with password letmein")
    assert [a["action"] for a in first["actions"]] == ['setValue("1", "alice")', 'setValue("2", "letmein")', 'click("3")']
    refused = await send(api, {"url": URL, "interactiveTree": login("alice", error=True), **ran(first)})
    assert refused["verification"]["chain"][-1]["status"] == "failed"
    assert refused["status"] != "completed"
    assert refused["actions"] is None  # corrected as a single action, not typed and sent again as a chain
    detail = (await api.client.get(f"/api/tasks/{first['taskId']}", headers=api.headers())).json()
    assert detail["corrections"] and detail["corrections"][-1]["originalAction"] == 'click("3")'


@pytest.mark.parametrize("goal", ["Set First name to Ada and Last name Lovelace", "Set First name to Ada, Last name Lovelace and Email to ada@example.com"])
async def test_a_value_that_swallowed_another_field_is_never_typed(api: Api, goal: str) -> None:
    """"to" missing after an "and": read literally, First name would get "Ada and Last name
    Lovelace" and the task could complete with Last name empty."""
    first = await start(api, {"interactiveTree": v3_form()}, goal)
    typed = [first["action"], *(a["action"] for a in first["actions"] or [])]
    assert not any(action.startswith("setValue") and "Last name" in action for action in typed)
    assert first["status"] != "completed"


async def test_a_value_with_an_and_that_names_no_field_is_typed(api: Api) -> None:
    first = await start(api, {"interactiveTree": v3_form()}, 'Set City to "Stratford and Avon"')
    assert first["action"] == 'setValue("5", "Stratford and Avon")'


async def test_a_form_that_clears_itself_after_the_submit_completes_when_the_client_saw_it_sent(api: Api) -> None:
    """The same empty form after the chain: with the request the client saw go out, it is the
    form resetting after a submit; without it, nothing ran (never typed and sent twice blindly)."""
    first = await start(api, {"interactiveTree": v3_form()})
    sent = await send(api, {"url": URL, "interactiveTree": v3_form(), "clientObservations": {"didNetworkOccur": True}, **ran(first)})
    assert sent["status"] == "completed"
    assert [c["status"] for c in sent["verification"]["chain"]] == ["verified"] * 6


async def test_one_value_into_every_field_is_one_chain_with_the_submit(api: Api) -> None:
    tree = [{"i": "1", "r": "inp", "n": "Password", "ty": "password", "v": ""}, {"i": "2", "r": "inp", "n": "Verify password", "ty": "password", "v": ""},
            {"i": "3", "r": "btn", "n": "Submit"}]  # fmt: skip
    first = await start(api, {"interactiveTree": tree}, 'Enter the password "Zx9-q" into both text fields and press submit')
    assert [a["action"] for a in first["actions"]] == ['setValue("1", "Zx9-q")', 'setValue("2", "Zx9-q")', 'click("3")']


async def test_a_box_whose_click_needs_an_earlier_value_carries_it_as_a_required_value(api: Api) -> None:
    """"Set the slider to 4, then click the 2nd checkbox": the click must happen with the
    slider at 4 — the client re-reads it just before, and that read-back is what proves it."""
    tree = [{"i": "1", "r": "slider", "n": "Level", "v": "0"}, {"i": "2", "r": "chk", "n": "Alpha"}, {"i": "3", "r": "chk", "n": "Beta"},
            {"i": "4", "r": "btn", "n": "Submit"}]  # fmt: skip
    first = await start(api, {"interactiveTree": tree}, "Set the slider to 4, then click the 2nd checkbox, then hit Submit")
    actions = first["actions"]
    assert [a["action"] for a in actions] == ['setValue("1", "4")', 'click("3")', 'click("4")']
    assert actions[1]["requireValues"] == [{"target": "1", "value": "4", "checked": None}]
    done = await send(api, {"url": URL, "interactiveTree": [{"i": "9", "r": "btn", "n": "START"}], "clientObservations": {"didNetworkOccur": True}, **ran(first)})
    assert done["status"] == "completed", [(c["description"], c["status"], c["detail"]) for c in done["contract"]["clauses"]] + [done["verification"]["chain"]]
