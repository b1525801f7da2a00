from __future__ import annotations

from agent.correction import (
    CorrectionDecision,
    CorrectionLimits,
    find_alternative,
    offscreen,
    plan_correction,
    to_record,
)
from agent.llm import LLMGateway, LLMUnavailable, ScriptedGateway
from tests.unit.engines.support import URL, el, failed, page
from verification import Action, ErrorCategory, PageMessage, PageState

TWO_SAVES = page(
    el("5", "button", "Save", occluded=False),
    el("15", "button", "Save"),
    el("3", "textbox", "Name"),
)
GOAL = "add patient Jas"


async def decide(
    action: str,
    state: PageState = TWO_SAVES,
    category: ErrorCategory = "no_change",
    attempts: int = 0,
    failures: int = 1,
    gateway: LLMGateway | None = None,
    *,
    limits: CorrectionLimits | None = None,
    target_label: str | None = None,
) -> CorrectionDecision:
    return await plan_correction(
        action,
        failed(category),
        state,
        GOAL,
        "Click Save",
        attempts,
        failures,
        gateway,
        limits=limits,
        target_label=target_label,
    )


async def test_limits_fail_with_codes_before_any_model_call() -> None:
    gateway = ScriptedGateway([])  # a call would raise ScriptExhausted
    retries = await decide('click("5")', attempts=3, gateway=gateway)
    assert (
        retries.strategy == "FAIL"
        and retries.failure_code == "MAX_RETRIES_EXCEEDED"
        and retries.attempt == 4
    )
    assert retries.action is not None and retries.action.startswith("fail(")
    streak = await decide('click("5")', failures=5, gateway=gateway)
    assert streak.failure_code == "MAX_CONSECUTIVE_FAILURES"
    relaxed = await decide('click("5")', attempts=3, failures=5, limits=CorrectionLimits(10, 10))
    assert relaxed.strategy != "FAIL"
    assert gateway.calls == []


async def test_no_change_first_attempt_waits_then_retries() -> None:
    decision = await decide('click("5")')
    assert decision.strategy == "RETRY_WITH_DELAY" and decision.action == "wait(1)"
    assert (
        decision.retry_action == 'click("5")'
        and decision.attempt == 1
        and decision.decided_by == "policy"
    )
    slower = await decide('click("5")', limits=CorrectionLimits(retry_delay_seconds=2.5))
    assert slower.action == "wait(2.5)"


async def test_no_change_later_uses_an_alternative_else_refreshes() -> None:
    alternative = await decide('click("5")', attempts=1)
    assert alternative.strategy == "ALTERNATIVE_SELECTOR" and alternative.action == 'click("15")'
    single = page(el("5", "button", "Save"))
    refresh = await decide('click("5")', state=single, attempts=1)
    assert refresh.strategy == "REFRESH_PAGE" and refresh.action == f'navigate("{URL}")'
    nav = await decide('navigate("https://app.clinic.example.com/x")', state=single, attempts=1)
    assert nav.strategy == "FAIL" and nav.failure_code == "NO_RECOVERY"


async def test_target_gone_picks_another_element_with_the_same_label() -> None:
    after = page(el("15", "button", "Save"), el("3", "textbox", "Name"))
    decision = await decide('click("5")', state=after, target_label="Save")
    assert decision.strategy == "ALTERNATIVE_SELECTOR" and decision.action == 'click("15")'
    from_step = await decide('click("5")', state=after)  # label from the step "Click Save"
    assert from_step.action == 'click("15")'


async def test_target_gone_without_alternative() -> None:
    empty = page(el("3", "textbox", "Name"))
    first = await decide('click("5")', state=empty, target_label="Save")
    assert first.strategy == "RETRY_WITH_DELAY"
    later = await decide('click("5")', state=empty, target_label="Save", attempts=1)
    assert later.strategy == "FAIL" and later.failure_code == "NO_RECOVERY"


def test_alternative_is_never_the_same_id_and_respects_roles() -> None:
    assert find_alternative(Action(name="click", target="5"), TWO_SAVES, "Save", ()) == Action(
        name="click", target="15"
    )
    only = page(el("5", "button", "Save"))
    assert find_alternative(Action(name="click", target="5"), only, "Save", ()) is None
    fields = page(el("a", "textbox", "Name"), el("b", "button", "Name"))
    assert find_alternative(
        Action(name="setValue", target="x", value="J"), fields, "Name", ()
    ) == Action(name="setValue", target="a", value="J")


def test_an_alternative_carries_the_whole_label_not_a_shared_word() -> None:
    """"Last name" is not another "First name": typing Ada there would overwrite Lovelace."""
    form = page(el("1", "textbox", "First name"), el("2", "textbox", "Last name"), el("3", "textbox", "Email"))
    assert find_alternative(Action(name="setValue", target="1", value="Ada"), form, "First name", ()) is None
    renamed = page(el("11", "textbox", "First name (given)"), el("2", "textbox", "Last name"))
    assert find_alternative(Action(name="setValue", target="1", value="Ada"), renamed, "First name", ()) == Action(
        name="setValue", target="11", value="Ada"
    )


async def test_occluded_or_offscreen_target_scrolls_into_view() -> None:
    covered = page(el("5", "button", "Save", occluded=True))
    decision = await decide('click("5")', state=covered)
    assert decision.strategy == "SCROLL_INTO_VIEW" and decision.action == 'scroll("5")'
    assert decision.retry_action == 'click("5")'
    below = page(el("5", "button", "Save", box=(10.0, 1400.0, 80.0, 30.0)), viewport=(1280, 800))
    assert offscreen(below.elements[0], below)
    assert (await decide('click("5")', state=below)).strategy == "SCROLL_INTO_VIEW"
    visible = page(el("5", "button", "Save", xy=(10.0, 300.0)), viewport=(1280, 800))
    assert not offscreen(visible.elements[0], visible)


async def test_a_popup_that_came_over_the_target_is_dismissed_then_the_action_retried() -> None:
    # A session popup appeared when the field was focused: its Cancel closes it, OK would leave.
    popup = page(
        el("1", "textbox", "Username", value="", occluded=True, states=frozenset({"disabled"})),
        el("3", "button", "Login", occluded=True),
        el("4", "button", "OK"),
        el("5", "button", "Cancel"),
    )
    decision = await plan_correction('setValue("1", "vina")', failed("value_mismatch"), popup, "Enter the username vina and press login", "Type vina", 0, 1)
    assert decision.strategy == "DISMISS_POPUP" and decision.action == 'click("5")'
    assert decision.retry_action == 'setValue("1", "vina")'
    # A cookie banner with "No thanks" over a button: the same.
    banner = page(el("5", "button", "Save", occluded=True), el("8", "button", "No thanks"), el("9", "button", "Accept all"))
    assert (await decide('click("5")', state=banner)).action == 'click("8")'


async def test_a_popup_the_goal_answers_or_one_without_a_single_close_is_not_dismissed() -> None:
    popup = page(el("1", "textbox", "Username", occluded=True), el("5", "button", "Cancel"))
    # The goal says to press Cancel: answering the popup is the plan's work, not a correction.
    decision = await plan_correction('setValue("1", "vina")', failed("value_mismatch"), popup, "Type vina and press Cancel", "Type vina", 0, 1)
    assert decision.strategy == "SCROLL_INTO_VIEW"
    two = page(el("1", "textbox", "Username", occluded=True), el("5", "button", "Cancel"), el("6", "button", "Close"))
    assert (await decide('setValue("1", "x")', state=two)).strategy == "SCROLL_INTO_VIEW"


async def test_error_message_uses_an_alternative_or_fails() -> None:
    alert = (PageMessage("error", "Something went wrong"),)
    with_alt = page(*TWO_SAVES.elements, messages=alert)
    assert (
        await decide('click("5")', state=with_alt, category="error_message")
    ).strategy == "ALTERNATIVE_SELECTOR"
    alone = page(el("5", "button", "Save"), messages=alert)
    decision = await decide('click("5")', state=alone, category="error_message")
    assert decision.strategy == "FAIL" and "Something went wrong" in decision.reason


async def test_disabled_target_waits_once_then_fails() -> None:
    disabled = page(el("5", "button", "Save", states=frozenset({"disabled"})))
    assert (await decide('click("5")', state=disabled)).strategy == "RETRY_WITH_DELAY"
    assert (await decide('click("5")', state=disabled, attempts=1)).strategy == "FAIL"


async def test_finish_and_unreadable_actions_are_not_corrected() -> None:
    assert (await decide("finish()")).strategy == "FAIL"
    garbled = await decide("clack(5)")
    assert garbled.strategy == "FAIL" and garbled.failure_code == "NO_RECOVERY"


async def test_model_alternative_is_validated() -> None:
    gateway = ScriptedGateway(
        [
            {"strategy": "ALTERNATIVE_SELECTOR", "action": 'click("404")', "reason": "use 404"},
            {"strategy": "ALTERNATIVE_SELECTOR", "action": 'click("5")', "reason": "same again"},
            {
                "strategy": "ALTERNATIVE_SELECTOR",
                "action": 'setValue("3", "Jas")',
                "reason": "fill the name first",
            },
        ]
    )
    unknown = await decide('click("5")', gateway=gateway)
    assert unknown.decided_by == "policy" and unknown.action != 'click("404")'
    same = await decide('click("5")', gateway=gateway)
    assert same.decided_by == "policy"
    good = await decide('click("5")', gateway=gateway)
    assert (
        good.decided_by == "model"
        and good.strategy == "ALTERNATIVE_SELECTOR"
        and good.action == 'setValue("3", "Jas")'
    )


async def test_model_retry_scroll_refresh_and_fail() -> None:
    gateway = ScriptedGateway(
        [
            {"strategy": "RETRY_WITH_DELAY", "action": "wait(3)", "reason": "slow page"},
            {"strategy": "RETRY_WITH_DELAY", "action": "wait(60)", "reason": "very slow"},
            {"strategy": "SCROLL_INTO_VIEW", "action": None, "reason": "below the fold"},
            {"strategy": "REFRESH_PAGE", "action": None, "reason": "stale"},
            {"strategy": "FAIL", "action": None, "reason": "the form is gone"},
        ]
    )
    retry = await decide('click("5")', gateway=gateway)
    assert (retry.strategy, retry.action, retry.retry_action, retry.decided_by) == (
        "RETRY_WITH_DELAY",
        "wait(3)",
        'click("5")',
        "model",
    )
    too_long = await decide('click("5")', gateway=gateway)
    assert too_long.decided_by == "policy"  # wait(60) is rejected by validation
    scroll = await decide('click("5")', gateway=gateway)
    assert (
        scroll.action == 'scroll("5")'
        and scroll.retry_action == 'click("5")'
        and scroll.decided_by == "model"
    )
    refresh = await decide('click("5")', gateway=gateway)
    assert refresh.strategy == "REFRESH_PAGE" and refresh.action == f'navigate("{URL}")'
    fail = await decide('click("5")', gateway=gateway)
    assert (
        fail.strategy == "FAIL"
        and fail.failure_code == "NO_RECOVERY"
        and fail.decided_by == "model"
    )


async def test_model_error_falls_back() -> None:
    decision = await decide('click("5")', gateway=ScriptedGateway([LLMUnavailable]))
    assert decision.decided_by == "policy" and decision.strategy == "RETRY_WITH_DELAY"


async def test_model_prompt_holds_observations_as_data() -> None:
    gateway = ScriptedGateway([{"strategy": "FAIL", "action": None, "reason": "x"}])
    await decide('click("5")', gateway=gateway)
    call = gateway.calls_for("SELF_CORRECTION")[0]
    assert "URL did not change" in call.user and "URL did not change" not in call.system


async def test_to_record() -> None:
    decision = await decide('click("5")')
    record = to_record(
        decision,
        tenant_id="t1",
        task_id="task",
        step_index=4,
        original_action=Action(name="click", target="5"),
    )
    assert (record.tenant_id, record.task_id, record.step_index, record.attempt) == (
        "t1",
        "task",
        4,
        1,
    )
    assert record.strategy == "RETRY_WITH_DELAY" and record.original_action == 'click("5")'
    assert record.corrected_action == "wait(1)" and record.reason == decision.reason


async def test_value_mismatch() -> None:
    category: ErrorCategory = "value_mismatch"
    fields = page(el("3", "textbox", "Name"), el("13", "textbox", "Name"))
    assert (
        await decide('setValue("3", "Jas")', state=fields, category=category)
    ).action == 'setValue("13", "Jas")'
    single = page(el("3", "textbox", "Name"))
    assert (
        await decide('setValue("3", "Jas")', state=single, category=category)
    ).strategy == "RETRY_WITH_DELAY"
    assert (
        await decide('setValue("3", "Jas")', state=single, category=category, attempts=1)
    ).strategy == "FAIL"
