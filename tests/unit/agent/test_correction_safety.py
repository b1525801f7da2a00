"""A correction never erases the user's work, and a refused form is answered with its fields.

* ``typed_on_page``: the one decision "this page holds values the task typed or chose",
  from the task record (its verified actions since the page last loaded);
* the ladder and the model's answer never reload / leave such a page;
* a submit the page refused with validation errors is fixed with the goal's values, or ends
  naming the fields — never "Step failed after 3 corrections" with no names."""

from __future__ import annotations

import dataclasses
from typing import Any

from agent.contracts import contract_for_new_task
from agent.correction import (
    CorrectionLimits,
    check_form,
    form_problems,
    is_submit,
    ladder_correction,
    plan_correction,
    typed_on_page,
)
from agent.llm import ScriptedGateway
from storage import TaskAction
from tests.unit.engines.support import URL, el, failed, page
from verification import Action, PageMessage, VerificationResult
from verification.chain import LinkCheck

FORM = "form: Sign up"
SIGN_UP = page(
    el("1", "textbox", "First name", value="Ada", container=(FORM,)),
    el("2", "textbox", "Last name", value="Lovelace", container=(FORM,)),
    el("3", "textbox", "Email", value="", states=frozenset({"required"}), container=(FORM,)),
    el("4", "checkbox", "Subscribe", container=(FORM,)),
    el("9", "button", "Register", container=(FORM,)),
    el("12", "link", "Home", href="https://app.clinic.example.com/"),
    url=URL,
)
TYPED_HERE = ('setValue("1", "Ada")', 'setValue("2", "Lovelace")')
PLAIN = page(  # the same form with nothing marked required
    *(dataclasses.replace(e, states=frozenset()) for e in SIGN_UP.elements), url=URL
)


def step(n: int, action: str, *, ok: bool | None = True, url_changed: bool = False, url: str | None = None,
         target: str | None = None, chain: list[tuple[str, str, str | None]] | None = None) -> TaskAction:  # fmt: skip
    """A stored step; ``ok=None``: not verified yet (the newest). ``chain``: (action, status, role)."""
    verdict: dict[str, Any] | None = None
    if ok is not None:
        verdict = {"success": ok, "action_succeeded": ok, "url_changed": url_changed}
        if chain:
            verdict["chain"] = [{"index": i, "action": a, "status": s, "reason": "", "ran": True} for i, (a, s, _) in enumerate(chain)]
    links = [{"index": i, "action": a, "expect": {"role": r, "name": ""} if r else None} for i, (a, _, r) in enumerate(chain or [])]
    return TaskAction(
        tenant_id="t", task_id="task", step_index=n, thought="", action=chain[0][0] if chain else action,
        actions=links or None, verification=verdict, metrics={"target": target} if target else {},
        before_state={"url": url or URL, "dom_hash": "h"} if ok is None else None,
    )  # fmt: skip


def now(ok: bool = False, *, url_changed: bool = False, chain: list[tuple[str, str]] | None = None) -> VerificationResult:
    """The verdict of the newest step, given by this request."""
    result = failed("no_change")
    checks = [LinkCheck(index=i, action=a, status=s, reason="") for i, (a, s) in enumerate(chain or [])]  # type: ignore[arg-type]
    return result.model_copy(update={"success": ok, "url_changed": url_changed, "chain": checks or None})


# ---- the decision: does the page hold the task's typing? ----------------------------------


def test_nothing_typed_yet_is_nothing_on_the_page() -> None:
    assert typed_on_page([], None, SIGN_UP) == ()
    assert typed_on_page([step(0, 'click("9")', ok=None)], now(), SIGN_UP) == ()


def test_verified_typing_and_ticking_on_this_page_count() -> None:
    steps = [
        step(0, 'setValue("1", "Ada")'),
        step(1, 'click("4")', target="checkbox 'Subscribe'"),
        step(2, 'setValue("2", "Lovelace")', ok=False),  # did not land: not the page's
        step(3, 'click("9")', ok=None),
    ]
    assert typed_on_page(steps, now(), SIGN_UP) == ('setValue("1", "Ada")', 'click("4")')


def test_a_click_on_a_button_puts_no_value_and_a_radio_is_known_from_the_page() -> None:
    radio = page(*SIGN_UP.elements, el("7", "radio", "Monthly"))
    steps = [step(0, 'click("12")'), step(1, 'click("7")'), step(2, 'click("9")', ok=None)]
    assert typed_on_page(steps, now(), radio) == ('click("7")',)


def test_typing_before_the_page_changed_or_reloaded_is_gone() -> None:
    left = [step(0, 'setValue("1", "Ada")'), step(1, 'click("12")', url_changed=True), step(2, 'click("9")', ok=None)]
    assert typed_on_page(left, now(), SIGN_UP) == ()
    reloaded = [step(0, 'setValue("1", "Ada")'), step(1, f'navigate("{URL}")', ok=False), step(2, 'click("9")', ok=None)]
    assert typed_on_page(reloaded, now(), SIGN_UP) == ()
    after = [*reloaded[:2], step(2, 'setValue("2", "Lovelace")'), step(3, 'click("9")', ok=None)]
    assert typed_on_page(after, now(), SIGN_UP) == ('setValue("2", "Lovelace")',)
    # The newest step itself left the page (the URL it was sent on is not this one).
    elsewhere = [step(0, 'setValue("1", "Ada")'), step(1, 'click("9")', ok=None, url="https://app.clinic.example.com/other")]
    assert typed_on_page(elsewhere, now(), SIGN_UP) == ()
    same_page = [step(0, 'setValue("1", "Ada")'), step(1, 'click("9")', ok=None, url=URL + "#details")]
    assert typed_on_page(same_page, now(url_changed=True), SIGN_UP) == ('setValue("1", "Ada")',)


def test_a_chains_actions_count_one_by_one() -> None:
    older = step(0, "", chain=[('setValue("1", "Ada")', "verified", "textbox"), ('click("4")', "verified", "checkbox"),
                              ('setValue("2", "Lovelace")', "failed", "textbox")])  # fmt: skip
    assert typed_on_page([older, step(1, 'click("9")', ok=None)], now(), SIGN_UP) == ('setValue("1", "Ada")', 'click("4")')
    # The newest step is the chain: its links are judged by this request's verdict.
    newest = step(0, "", ok=None, chain=[('setValue("1", "Ada")', "", "textbox"), ('click("9")', "", "button")])
    verdict = now(chain=[('setValue("1", "Ada")', "verified"), ('click("9")', "failed")])
    assert typed_on_page([newest], verdict, SIGN_UP) == ('setValue("1", "Ada")',)


# ---- the ladder and the model never reload a page holding the task's typing ----------------


def test_the_ladder_reloads_only_a_page_without_the_tasks_typing() -> None:
    single = page(el("5", "button", "Save"))
    args = (Action(name="click", target="5"), failed("no_change"), single, "Save", 2, CorrectionLimits(), ())
    assert ladder_correction(*args).strategy == "REFRESH_PAGE"  # as before: nothing of the user's here
    kept = ladder_correction(*args, keep_page=True)
    assert kept.strategy == "FAIL" and kept.failure_code == "NO_RECOVERY" and "not reloaded" in kept.reason
    first = ladder_correction(Action(name="click", target="5"), failed("no_change"), single, "Save", 1, CorrectionLimits(), (), keep_page=True)
    assert first.strategy == "RETRY_WITH_DELAY"  # the rungs before the reload are unchanged


async def test_a_models_reload_or_way_off_the_page_is_refused_for_the_next_safe_rung() -> None:
    answers = [
        {"strategy": "REFRESH_PAGE", "action": None, "reason": "stale"},
        {"strategy": "ALTERNATIVE_SELECTOR", "action": f'navigate("{URL}")', "reason": "reload"},
        {"strategy": "ALTERNATIVE_SELECTOR", "action": "goBack()", "reason": "start over"},
        {"strategy": "ALTERNATIVE_SELECTOR", "action": 'click("12")', "reason": "go home"},
    ]
    for answer in answers:
        gateway = ScriptedGateway([answer])
        decision = await plan_correction('click("9")', failed("no_change"), PLAIN, "Register", "Click Register", 1, 1, gateway, typed=TYPED_HERE)
        assert decision.decided_by == "policy", answer
        assert decision.strategy == "FAIL" and not (decision.action or "").startswith(("navigate", "goBack")), answer
    # Without the task's typing on the page, the model's reload stands (as before).
    gateway = ScriptedGateway([answers[0]])
    decision = await plan_correction('click("9")', failed("no_change"), PLAIN, "Register", "Click Register", 1, 1, gateway)
    assert decision.strategy == "REFRESH_PAGE" and decision.decided_by == "model"


# ---- a submit the page refused: its fields ------------------------------------------------


def test_what_a_submit_is() -> None:
    assert is_submit(Action(name="click", target="9"), SIGN_UP.element("9"), "Register")
    assert is_submit(Action(name="press", value="Enter"), None, None)
    assert not is_submit(Action(name="click", target="4"), SIGN_UP.element("4"), "Subscribe")
    assert not is_submit(Action(name="click", target="12"), SIGN_UP.element("12"), "Home")
    assert not is_submit(Action(name="setValue", target="3", value="x"), SIGN_UP.element("3"), "Email")
    assert is_submit(Action(name="click", target="99"), None, "Submit")  # re-rendered: its old label


def test_required_empty_invalid_and_named_fields_in_the_submits_form() -> None:
    refused = page(
        *SIGN_UP.elements,
        el("5", "textbox", "Date of birth", value="", states=frozenset({"required"}), container=(FORM,)),
        el("6", "textbox", "Postcode", value="XYZ", states=frozenset({"invalid"}), container=(FORM,)),
        el("20", "textbox", "Newsletter email", value="", states=frozenset({"required"}), container=("form: Newsletter",)),
        messages=(PageMessage("error", "Last name must be at least 3 letters"),),
    )
    problems = form_problems(Action(name="click", target="9"), refused)
    assert [(p.label, p.empty) for p in problems] == [("Last name", False), ("Email", True), ("Date of birth", True), ("Postcode", False)]
    check = check_form(Action(name="click", target="9"), refused, None)
    assert check is not None and check.fix is None
    assert check.reason.startswith("The form needs: Last name (not accepted), Email, Date of birth, Postcode (not accepted).")
    assert '"Last name must be at least 3 letters"' in check.reason


def test_an_unchecked_required_box_and_an_unchosen_radio_group_are_named() -> None:
    terms = page(
        el("1", "checkbox", "I accept the terms", states=frozenset({"required"})),
        el("2", "radio", "Monthly", states=frozenset({"required"}), field_name="plan", container=("section: Plan",)),
        el("3", "radio", "Yearly", states=frozenset({"required"}), field_name="plan", container=("section: Plan",)),
        el("9", "button", "Continue"),
    )
    assert [p.label for p in form_problems(Action(name="click", target="9"), terms)] == ["I accept the terms", "Plan"]


async def test_a_refused_submit_the_goal_cannot_fix_ends_naming_the_fields() -> None:
    goal = "Set First name to Ada and Last name to Lovelace, and press Register"
    contract, _ = contract_for_new_task(goal, SIGN_UP)
    decision = await plan_correction('click("9")', failed("no_change"), SIGN_UP, goal, "Click Register", 0, 1, contract=contract, typed=TYPED_HERE)
    assert decision.strategy == "FAIL" and decision.failure_code == "FORM_NEEDS_INPUT"
    assert decision.reason == "The form needs: Email."
    # A model is not asked: the page said what it wants.
    gateway = ScriptedGateway([])
    again = await plan_correction('click("9")', failed("no_change"), SIGN_UP, goal, "Click Register", 2, 3, gateway, contract=contract)
    assert again.failure_code == "FORM_NEEDS_INPUT" and gateway.calls == []


async def test_a_refused_submit_the_goal_gives_the_value_for_is_fixed_then_sent_again() -> None:
    goal = "Set First name to Ada, Last name to Lovelace and Email to ada@example.com, and press Register"
    contract, _ = contract_for_new_task(goal, SIGN_UP)
    decision = await plan_correction('click("9")', failed("error_message"), SIGN_UP, goal, "Click Register", 0, 1, contract=contract)
    assert decision.strategy == "FILL_FIELD" and decision.action == 'setValue("3", "ada@example.com")'
    assert decision.retry_action == 'click("9")'
    # At the limit, the ending names the fields the page wants.
    limit = await plan_correction('click("9")', failed("no_change"), SIGN_UP, goal, "Click Register", 3, 1, contract=contract)
    assert limit.failure_code == "MAX_RETRIES_EXCEEDED" and "The form needs: Email" in limit.reason


async def test_the_goals_own_value_refused_by_the_page_is_not_typed_again() -> None:
    goal = "Set Email to ada@example and press Register"
    holding = page(
        el("3", "textbox", "Email", value="ada@example", states=frozenset({"required", "invalid"}), container=(FORM,)),
        el("9", "button", "Register", container=(FORM,)),
        messages=(PageMessage("error", "Email is not valid"),),
    )
    contract, _ = contract_for_new_task(goal, holding)
    decision = await plan_correction('click("9")', failed("error_message"), holding, goal, "Click Register", 0, 1, contract=contract)
    assert decision.failure_code == "FORM_NEEDS_INPUT"
    assert decision.reason.startswith("The form does not accept the value typed into: Email.") and "Email is not valid" in decision.reason


async def test_no_form_check_off_a_submit_or_after_a_refused_sign_in() -> None:
    decision = await plan_correction('setValue("1", "Ada")', failed("value_mismatch"), SIGN_UP, "x", None, 0, 1)
    assert decision.strategy != "FAIL" or decision.failure_code != "FORM_NEEDS_INPUT"
    refused = await plan_correction('click("9")', failed("sign_in_refused", "Wrong password"), SIGN_UP, "x", None, 0, 1)
    assert refused.failure_code == "NO_RECOVERY" and refused.reason == "Wrong password"


def test_a_field_the_task_typed_is_refused_not_typed_again_and_a_refused_sign_in_is_the_ladders() -> None:
    goal = "Set First name to Ada, Last name to Lovelace and Email to ada@example.com, and press Register"
    contract, _ = contract_for_new_task(goal, SIGN_UP)
    register = Action(name="click", target="9")
    fresh = check_form(register, SIGN_UP, contract)
    assert fresh is not None and fresh.fix == Action(name="setValue", target="3", value="ada@example.com")
    emptied = check_form(register, SIGN_UP, contract, ('setValue("3", "ada@example.com")',))
    assert emptied is not None and emptied.fix is None and emptied.reason == "The form does not accept the value typed into: Email."
    login = page(
        el("1", "textbox", "Username", value="alice"),
        el("2", "textbox", "Password", value="", input_type="password"),
        el("3", "button", "Sign in"),
        messages=(PageMessage("error", "Wrong username or password"),),
    )
    assert check_form(Action(name="click", target="3"), login, None, ('setValue("1", "alice")', 'setValue("2", "pw")')) is None
    assert check_form(Action(name="click", target="3"), login, None) is not None  # never typed: the page names them
