"""The check of a model's claim that a value is missing (agent/reasoning/missing_claims.py):
invented claims are dropped, a value the page needs and nothing gives is kept. No model."""

from __future__ import annotations

import dataclasses

import pytest
from structlog.testing import capture_logs

from agent.llm import ScriptedGateway
from agent.reasoning import ClaimVerdict, check_missing_claims, kept_claims, run_context_analysis
from planning import PlanStep
from tests.unit.engines.support import el, page

OTP = page(el("1", "textbox", "One-time code", value=""), el("2", "button", "Verify"), url="https://bank.example/otp")
CLINIC = page()  # Name, Date of birth (empty), Gender (a list with nothing chosen), Save …
LOGIN = page(
    el("u", "textbox", "Email"),
    el("p", "textbox", "Password", input_type="password"),
    el("s", "button", "Log in"),
    url="https://app.example.com/login",
)
NEW_PATIENT = 'Add a new patient named "Jas"'


def verdict(claim: str, goal: str, on: object, **kw: object) -> ClaimVerdict:
    check = check_missing_claims([claim], goal, on, **kw)  # type: ignore[arg-type]
    assert len(check.verdicts) == 1
    return check.verdicts[0]


@pytest.mark.parametrize("claim", ["done", "none", "n/a", "nothing", "N/A", "the goal", "", "  ", "The goal is complete.", "the field"])
def test_filler_is_no_missing_value(claim: str) -> None:
    found = verdict(claim, "Sign in", OTP)
    assert not found.holds and found.fault in ("not_a_value", "nothing_needs_it"), found


def test_a_sentence_is_not_the_name_of_a_value() -> None:
    found = verdict("I could not find the one-time code anywhere in the goal or on the page", "Sign in", OTP)
    assert not found.holds and found.fault == "not_a_value"


def test_the_goal_said_again_is_not_a_missing_value() -> None:
    assert verdict("sign in", "Sign in", OTP).fault == "copies_goal"
    assert verdict("Log in", "Sign in", OTP).fault == "copies_goal"  # the same words, canonically


@pytest.mark.parametrize(
    ("claim", "goal", "on"),
    [
        ("Jas", NEW_PATIENT, CLINIC),  # the claim is the goal's own value
        ('"Jas"', NEW_PATIENT, CLINIC),
        ("the patient's name", NEW_PATIENT, CLINIC),  # the reading binds "Jas" to Name
        ("the patient's name", "Add a new patient named Jas", CLINIC),
        ("email address", "Sign in as ann@x.com", LOGIN),  # an e-mail for the e-mail field
        ("password", "Log in as ann, password secret", LOGIN),
        ("the one-time code", "Enter the one-time code 482913 and sign in", OTP),  # a value right after its field's name
        ("date of birth", "Add a patient named Jas, date of birth 1990-01-02", CLINIC),
    ],
)
def test_a_value_the_goal_gives_is_not_missing(claim: str, goal: str, on: object) -> None:
    found = verdict(claim, goal, on)
    assert not found.holds and found.fault == "goal_gives_it", found


@pytest.mark.parametrize(
    ("claim", "on"),
    [
        ("phone number", CLINIC),  # no such field on the page, none in the plan
        ("shipping address", OTP),
        ("middle name", LOGIN),
    ],
)
def test_a_claim_naming_nothing_on_the_page_or_in_the_plan_is_dropped(claim: str, on: object) -> None:
    found = verdict(claim, "Sign in", on)
    assert not found.holds and found.fault == "nothing_needs_it", found


def test_a_field_the_page_already_holds_is_not_missing() -> None:
    autofilled = page(
        el("u", "textbox", "Email", value="ann@x.com"),
        el("p", "textbox", "Password", value="••••••", input_type="password"),
        el("s", "button", "Log in"),
    )
    found = verdict("password", "Sign in", autofilled)
    assert not found.holds and found.fault == "page_has_it"


def test_hidden_disabled_and_read_only_fields_need_nothing() -> None:
    # CLINIC has "Secret" hidden and "Patient ID" read-only
    assert verdict("secret", "Add a patient", CLINIC).fault == "nothing_needs_it"
    assert verdict("patient ID", "Add a patient", CLINIC).fault == "nothing_needs_it"


def test_a_one_time_code_nothing_gives_is_kept() -> None:
    for claim in ("one-time code", "the one-time code", "the verification code", "OTP code"):
        found = verdict(claim, "Sign in", OTP)
        assert found.holds and found.fault is None, found
        assert found.needs == ("textbox 'One-time code'",)


def test_true_claims_are_kept_beside_values_the_goal_gives() -> None:
    check = check_missing_claims(["password", "email", "done"], "Sign in as ann@x.com", LOGIN)
    assert check.kept == ("password",)
    assert [(v.claim, v.fault) for v in check.dropped] == [("email", "goal_gives_it"), ("done", "not_a_value")]


def test_an_empty_list_and_an_unchosen_option_group_need_a_value() -> None:
    assert verdict("gender", NEW_PATIENT, CLINIC).holds  # a list with nothing chosen
    chosen = page(el("g", "combobox", "Country", value="Germany", options=("Choose…", "France", "Germany")))
    first = page(el("g", "combobox", "Country", value="Choose…", options=("Choose…", "France", "Germany")))
    assert verdict("country", "Book a room", chosen).fault == "page_has_it"
    assert verdict("country", "Book a room", first).holds, "a list on its first entry is a choice nobody made"
    radios = page(
        el("a", "radio", "Standard", field_name="delivery speed"),
        el("b", "radio", "Express", field_name="delivery speed"),
        el("c", "button", "Pay"),
    )
    assert verdict("delivery speed", "Pay for the order", radios).holds
    picked = page(
        el("a", "radio", "Standard", field_name="delivery speed", states=frozenset({"checked"})),
        el("b", "radio", "Express", field_name="delivery speed"),
    )
    assert verdict("delivery speed", "Pay for the order", picked).fault == "page_has_it"


def test_a_question_on_the_page_with_an_empty_answer_needs_a_value() -> None:
    asked = dataclasses.replace(
        page(el("1", "textbox", "Answer", value=""), el("2", "button", "Continue")),
        text_summary="Security check\nWhat was the name of your first pet?",
    )
    found = verdict("the name of your first pet", "Sign in", asked)
    assert found.holds and any(n.startswith("question") for n in found.needs), found


def test_a_plan_step_without_a_value_needs_one_the_page_does_not_show_yet() -> None:
    menu = page(el("1", "link", "New patient"), url="https://clinic.example/")
    steps = [
        PlanStep(index=0, description="Open the form", kind="open", target="New patient", success_criterion="open"),
        PlanStep(index=1, description="Type the phone", kind="fill", target="Phone", success_criterion="typed"),
        PlanStep(index=2, description="Type the name", kind="fill", target="Name", value="Jas", success_criterion="typed"),
    ]
    assert verdict("phone number", "Add a patient", menu, steps=steps).holds
    assert verdict("phone number", "Add a patient", menu).fault == "nothing_needs_it", "no step, no field: nothing needs it"
    assert verdict("name", "Add a patient", menu, steps=steps).fault == "nothing_needs_it", "the step has its value"


def test_dropped_claims_are_logged_by_event_name() -> None:
    with capture_logs() as logs:
        kept = kept_claims(["done", "one-time code"], "Sign in", OTP, engine="action_generation")
    assert kept == ("one-time code",)
    dropped = [e for e in logs if e["event"] == "reasoning.missing_claim_dropped"]
    assert [(e["claim"], e["engine"], e["fault"]) for e in dropped] == [("done", "action_generation", "not_a_value")]


async def test_context_analysis_drops_an_invented_ask_user_and_keeps_the_rest_of_the_answer() -> None:
    lie = {"source": "ASK_USER", "required_sources": ["ASK_USER", "PAGE"], "missing_information": ["done"], "search_query": None, "reason": "r"}
    decision = await run_context_analysis("Sign in", OTP, ScriptedGateway([lie]))
    assert decision.decided_by == "model" and decision.source == "PAGE" and not decision.analysis.needs_user_input
    assert decision.analysis.missing_information == [] and decision.analysis.required_sources == ["PAGE"]
    nothing = {**lie, "missing_information": []}  # ASK_USER naming nothing
    assert (await run_context_analysis("Sign in", OTP, ScriptedGateway([nothing]))).source == "PAGE"


async def test_context_analysis_still_asks_for_a_value_the_page_needs() -> None:
    true = {"source": "ASK_USER", "required_sources": ["ASK_USER"], "missing_information": ["the one-time code", "none"], "search_query": None, "reason": "r"}
    decision = await run_context_analysis("Sign in", OTP, ScriptedGateway([true]))
    assert decision.source == "ASK_USER" and decision.analysis.missing_information == ["the one-time code"]
