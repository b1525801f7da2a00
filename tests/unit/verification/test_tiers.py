"""Tier 1 rules (no tokens) and the choice between Tier 2 and Tier 3."""

from __future__ import annotations

import pytest

from tests.unit.verification.support import (
    ForbiddenModel,
    ScriptedModel,
    before_of,
    page_from_html,
    v3_page,
    verdict,
)
from verification import (
    VERDICT_INSTRUCTIONS_TIER2,
    VERDICT_INSTRUCTIONS_TIER3,
    ExpectedOutcome,
    PageState,
    verify_action_with_observations,
)
from verification.verdict import build_verdict_request, estimate_tokens

GOAL = "Add a patient named Jas"
FORM = '<form id="f"><input id="name" value=""><button id="save">Save</button><a id="list" href="/patients">All patients</a></form>'


async def run(before: PageState, after: PageState, action: str, **kwargs: object):
    params: dict[str, object] = {
        "before": before_of(before),
        "after": after,
        "action": action,
        "goal": GOAL,
    }
    params.update(kwargs)
    return await verify_action_with_observations(**params)  # type: ignore[arg-type]


# ------------------------------------------------------------ values


async def test_typed_text_in_the_field_is_tier1_success_for_an_intermediate_step() -> None:
    before = v3_page({"i": "14", "r": "inp", "n": "Name", "v": ""})
    after = v3_page({"i": "14", "r": "inp", "n": "Name", "v": "Jas"})
    result = await run(
        before, after, 'setValue("14", "Jas")', model=ForbiddenModel(), step_hint="intermediate"
    )
    assert result.success and result.verification_tier == 1 and result.decided_by == "rules"
    assert (
        result.confidence == 0.95
        and result.task_completed is False
        and result.goal_achieved is False
    )
    assert "Element '14' now holds the typed text 'Jas'" in result.observations


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("5551234567", "(555) 123-4567"),
        ("new york", "New York, NY, USA"),
        ("", ""),
        ("9:37 PM", "21:37"),  # a time input shows the 24-hour value
        ("12/02/2016", "2016-12-02"),  # a date input shows ISO
        ("1,200", "1200"),
    ],
)
async def test_value_comparison_tolerates_masks_and_autocomplete(typed: str, shown: str) -> None:
    before = v3_page({"i": "1", "r": "inp", "n": "Phone", "v": "old"})
    after = v3_page({"i": "1", "r": "inp", "n": "Phone", "v": shown})
    result = await run(before, after, f'setValue("1", "{typed}")', step_hint="intermediate")
    assert result.success and result.verification_tier == 1


async def test_live_value_that_differs_is_a_value_mismatch_without_a_model() -> None:
    before = v3_page({"i": "14", "r": "inp", "n": "Name", "v": ""})
    after = v3_page({"i": "14", "r": "inp", "n": "Name", "v": "J"})
    result = await run(
        before, after, 'setValue("14", "Jas")', model=ForbiddenModel(), step_hint="final"
    )
    assert not result.success and result.error_category == "value_mismatch"
    assert result.goal_achieved is False and result.verification_tier == 1


@pytest.mark.parametrize(("typed", "shown"), [("9:37 PM", "09:37"), ("12/02/2016", "2016-02-12"), ("1,200", "120")])
async def test_a_time_date_or_number_that_reads_differently_is_a_mismatch(typed: str, shown: str) -> None:
    before = v3_page({"i": "1", "r": "inp", "n": "When", "v": ""})
    after = v3_page({"i": "1", "r": "inp", "n": "When", "v": shown})
    result = await run(before, after, f'setValue("1", "{typed}")', model=ForbiddenModel(), step_hint="intermediate")
    assert not result.success and result.error_category == "value_mismatch"


async def test_html_value_attribute_that_did_not_move_decides_nothing() -> None:
    before = page_from_html(FORM)
    after = page_from_html(
        FORM.replace(
            "</form>", "<span class='hint'>3 matches</span><button id='x'>Clear</button></form>"
        )
    )
    result = await run(before, after, 'setValue("name", "Jas")', step_hint="intermediate")
    assert (
        result.error_category is None and result.decided_by == "rules" and result.confidence == 0.75
    )
    assert "Element 'name' value still shows ''" in result.observations


async def test_html_value_attribute_that_moved_elsewhere_is_a_mismatch() -> None:
    before = page_from_html(FORM)
    after = page_from_html(FORM.replace('value=""', 'value="Jasmine Croft"'))
    result = await run(before, after, 'setValue("name", "Bob")', step_hint="intermediate")
    assert result.error_category == "value_mismatch"


async def test_selected_option_is_checked() -> None:
    body = '<select id="c"><option>Red</option><option{sel}>Blue</option></select>'
    before = page_from_html(body.format(sel=""))
    after = page_from_html(body.format(sel=" selected"))
    result = await run(before, after, 'select("c", "Blue")', step_hint="intermediate")
    assert (
        result.success
        and result.verification_tier == 1
        and "selected option 'Blue'" in result.reason
    )


# ------------------------------------------------------------ navigation


@pytest.mark.parametrize(
    ("action", "after_url", "confidence"),
    [
        ('navigate("https://app.example.com/reports")', "https://app.example.com/reports/", 0.95),
        ('navigate("app.example.com/reports")', "https://www.app.example.com/reports", 0.95),
        (
            'navigate("https://app.example.com/reports")',
            "https://app.example.com/login?next=/reports",
            0.85,
        ),
        ("goBack()", "https://app.example.com/home", 0.9),
        ('click("list")', "https://app.example.com/patients/all", 0.9),
    ],
)
async def test_navigation_evidence(action: str, after_url: str, confidence: float) -> None:
    before = page_from_html(FORM)
    after = page_from_html("<h1>Elsewhere</h1>", url=after_url)
    result = await run(before, after, action, model=ForbiddenModel(), step_hint="intermediate")
    assert result.success and result.confidence == confidence and result.verification_tier == 1


async def test_click_on_a_button_with_a_url_change_is_not_tier1_evidence() -> None:
    before = page_from_html(FORM)
    after = page_from_html("<h1>Saved</h1>", url="https://app.example.com/patients/7")
    model = ScriptedModel([verdict(True, False, 0.9)])
    result = await run(before, after, 'click("save")', model=model, step_hint="intermediate")
    assert model.calls == 1 and result.decided_by == "model" and result.verification_tier == 3
    assert result.rules_success is True  # the rules alone read the URL change as the click working


# ------------------------------------------------------------ messages and client checks


async def test_new_error_message_fails_at_tier1_even_on_a_final_step() -> None:
    before = page_from_html(FORM)
    after = page_from_html(
        FORM + '<div class="alert alert-danger" role="alert">Name is required</div>'
    )
    result = await run(before, after, 'click("save")', model=ForbiddenModel(), step_hint="final")
    assert not result.success and result.error_category == "error_message"
    assert result.confidence == 0.9 and result.goal_achieved is False
    assert "An error message appeared: 'Name is required'" in result.reason


async def test_an_error_that_was_already_there_is_not_new() -> None:
    error = '<div class="error">Server maintenance tonight</div>'
    before = page_from_html(FORM + error)
    after = page_from_html(FORM.replace('value=""', 'value="Jas"') + error)
    result = await run(before, after, 'setValue("name", "Jas")', step_hint="intermediate")
    assert result.success and result.error_category is None


async def test_has_errors_flipping_on_is_an_error() -> None:
    before = v3_page({"i": "1", "r": "btn", "n": "Save"})
    after = v3_page({"i": "1", "r": "btn", "n": "Save"}, has_errors=True)
    result = await run(before, after, 'click("1")', model=ForbiddenModel())
    assert result.error_category == "error_message" and not result.success


@pytest.mark.parametrize(("passed", "success"), [(True, True), (False, False)])
async def test_extension_check_decides_at_tier1(passed: bool, success: bool) -> None:
    before = v3_page({"i": "1", "r": "btn", "n": "Save"})
    after = v3_page({"i": "1", "r": "btn", "n": "Saved"}, verification_passed=passed)
    result = await run(
        before, after, 'click("1")', model=ForbiddenModel(), step_hint="intermediate"
    )
    assert result.success is success and result.verification_tier == 1


async def test_success_message_after_the_final_step_completes_at_tier1() -> None:
    before = page_from_html(FORM)
    after = page_from_html(
        FORM + '<div role="status" class="toast toast-success">Patient saved</div>'
    )
    result = await run(before, after, 'click("save")', model=ForbiddenModel(), step_hint="final")
    assert result.success and result.task_completed and result.goal_achieved is True
    assert result.verification_tier == 1 and result.tokens_saved > 0


async def test_success_message_on_an_intermediate_step_is_not_completion() -> None:
    before = page_from_html(FORM)
    after = page_from_html(FORM + '<div class="success">Draft saved</div>')
    result = await run(
        before, after, 'click("save")', model=ForbiddenModel(), step_hint="intermediate"
    )
    assert result.success and result.task_completed is False and result.goal_achieved is False


async def test_success_message_with_unknown_step_asks_the_model_about_the_task() -> None:
    before = page_from_html(FORM)
    after = page_from_html(FORM + '<div class="success">Draft saved</div>')
    model = ScriptedModel([verdict(True, False, 0.9)])
    result = await run(before, after, 'click("save")', model=model, step_hint="unknown")
    assert model.calls == 1 and result.task_completed is False
    assert "A success message appeared: 'Draft saved'" in model.requests[0].observations


async def test_success_message_without_a_model_never_completes_an_unknown_step() -> None:
    before = page_from_html(FORM)
    after = page_from_html(FORM + '<div class="success">Patient saved</div>')
    result = await run(before, after, 'click("save")', step_hint="unknown")
    assert result.success and result.goal_achieved is False and result.decided_by == "rules"


# ------------------------------------------------------------ expected outcome and states


async def test_expected_success_text_is_completion_evidence() -> None:
    before = page_from_html(FORM)
    after = page_from_html(FORM + "<h2>Patient Jas was added</h2>")
    expected = ExpectedOutcome(description="saved", success_text="patient jas was added")
    result = await run(
        before,
        after,
        'click("save")',
        model=ForbiddenModel(),
        step_hint="final",
        expected_outcome=expected,
    )
    assert result.goal_achieved is True and result.verification_tier == 1


async def test_expected_elements_appearing_is_success_evidence() -> None:
    before = page_from_html('<button id="new">New patient</button>')
    after = page_from_html(
        '<button id="new">New patient</button><form id="pf"><input id="first"><button id="save">Save</button></form>'
    )
    expected = ExpectedOutcome(description="form opens", elements_to_appear=["#first", "Save"])
    result = await run(
        before,
        after,
        'click("new")',
        model=ForbiddenModel(),
        step_hint="intermediate",
        expected_outcome=expected,
    )
    assert result.success and "Every expected element appeared" in result.reason


async def test_expected_elements_that_were_already_there_are_not_evidence() -> None:
    page = '<button id="new">New patient</button><input id="first">'
    expected = ExpectedOutcome(description="form opens", elements_to_appear=["#first"])
    after = page_from_html(page + "<p>Loaded</p><button id='x'>X</button>")
    result = await run(
        page_from_html(page),
        after,
        'click("new")',
        step_hint="intermediate",
        expected_outcome=expected,
    )
    assert "Every expected element appeared" not in result.reason


@pytest.mark.parametrize(
    ("before_node", "after_node"),
    [
        (
            {"i": "c", "r": "chk", "n": "Agree"},
            {"i": "c", "r": "chk", "n": "Agree", "s": "checked"},
        ),
        (
            {"i": "c", "r": "btn", "n": "Menu", "s": "collapsed"},
            {"i": "c", "r": "btn", "n": "Menu", "s": "expanded"},
        ),
    ],
)
async def test_clicked_element_changing_state_is_success(
    before_node: dict, after_node: dict
) -> None:
    result = await run(
        v3_page(before_node),
        v3_page(after_node),
        'click("c")',
        model=ForbiddenModel(),
        step_hint="intermediate",
    )
    assert result.success and result.confidence == 0.85 and result.verification_tier == 1


# ------------------------------------------------------------ Tier 2 vs Tier 3


async def test_simple_final_step_uses_the_short_prompt() -> None:
    before = page_from_html(FORM)
    after = page_from_html(FORM.replace(">Save<", ">Saving<"))
    model = ScriptedModel([verdict(True, True, 0.9)])
    result = await run(before, after, 'click("save")', model=model, step_hint="final")
    (request,) = model.requests
    assert request.tier == 2 and request.instructions.startswith(VERDICT_INSTRUCTIONS_TIER2)
    assert (
        result.verification_tier == 2
        and result.decided_by == "model"
        and result.goal_achieved is True
    )
    full = estimate_tokens(
        build_verdict_request(
            3,
            goal=GOAL,
            action='click("save")',
            observations=request.observations,
            step_hint="final",
        )
    )
    assert result.tokens_saved == full - estimate_tokens(request) > 0


async def test_busy_final_step_uses_the_full_prompt() -> None:
    before = page_from_html(FORM)
    after = page_from_html(
        FORM.replace(">Save<", ">Saving<") + "".join(f'<a href="/{n}">L{n}</a>' for n in range(6))
    )
    model = ScriptedModel([verdict(True, True, 0.9)])
    result = await run(before, after, 'click("save")', model=model, step_hint="final")
    assert model.requests[0].tier == 3 and model.requests[0].instructions.startswith(
        VERDICT_INSTRUCTIONS_TIER3
    )
    assert result.verification_tier == 3 and result.tokens_saved == 0


@pytest.mark.parametrize("step_hint", ["unknown", "intermediate"])
async def test_inconclusive_non_final_steps_use_the_full_prompt(step_hint: str) -> None:
    before = page_from_html(FORM)
    after = page_from_html(FORM.replace(">Save<", ">Saving<"))
    model = ScriptedModel([verdict(True, False, 0.9)])
    result = await run(before, after, 'click("save")', model=model, step_hint=step_hint)
    assert result.verification_tier == 3 and model.requests[0].tier == 3


async def test_client_witness_override_always_uses_the_full_prompt() -> None:
    from verification import ClientObservations

    page = page_from_html(FORM)
    model = ScriptedModel([verdict(True, False, 0.8)])
    result = await run(
        page,
        page,
        'click("save")',
        model=model,
        step_hint="final",
        client_observations=ClientObservations(did_dom_mutate=True),
    )
    assert result.verification_tier == 3


async def test_final_step_without_completion_evidence_asks_the_model() -> None:
    before = v3_page({"i": "14", "r": "inp", "n": "Name", "v": ""})
    after = v3_page({"i": "14", "r": "inp", "n": "Name", "v": "Jas"})
    model = ScriptedModel([verdict(True, True, 0.9)])
    result = await run(before, after, 'setValue("14", "Jas")', model=model, step_hint="final")
    assert model.calls == 1 and result.goal_achieved is True and result.decided_by == "model"


async def test_a_predicted_text_is_evidence_but_any_other_text_change_is_a_ticker() -> None:
    before = page_from_html(FORM + "<p>12:00</p>")
    after = page_from_html(FORM + "<p>12:01</p>")
    expected = ExpectedOutcome(description="saved", success_text="Patient Jas was added")
    result = await run(
        before,
        after,
        'click("save")',
        model=ForbiddenModel(),
        step_hint="final",
        expected_outcome=expected,
    )
    assert result.error_category == "no_change" and result.goal_achieved is None


@pytest.mark.parametrize(
    ("entry", "appears"),
    [
        ("#first", True),
        ("input#first", True),
        ("input", True),
        ("save", True),
        ("submit", False),
        ("[role=dialog]", False),
    ],
)
async def test_expected_entries_are_selectors_or_texts(entry: str, appears: bool) -> None:
    before = page_from_html('<button id="new">New patient</button>')
    after = page_from_html(
        '<button id="new">New patient</button><input id="first"><button id="s">Save</button>'
    )
    expected = ExpectedOutcome(description="form opens", elements_to_appear=[entry])
    result = await run(
        before, after, 'click("new")', step_hint="intermediate", expected_outcome=expected
    )
    assert ("Every expected element appeared" in result.reason) is appears


async def test_focus_moving_onto_the_clicked_element_is_evidence_the_click_landed() -> None:
    """A button whose only effect is invisible (server-side) still takes the focus."""
    from verification import BeforeState, PageState, verify_action_with_observations

    tree = [{"i": "1", "r": "btn", "n": "ONE"}, {"i": "2", "r": "btn", "n": "TWO"}]
    before = PageState.from_v3(tree, url="https://x.example/")
    after = PageState.from_v3([{**tree[0], "s": "focused"}, tree[1]], url="https://x.example/")
    result = await verify_action_with_observations(
        before=BeforeState.from_page(before), after=after, action='click("1")', goal="Click ONE, then TWO", step_hint="intermediate"
    )
    assert result.success is True
    assert result.verification_tier == 1
    assert any("Focus moved" in line or "focus" in line.lower() for line in [result.reason, *result.observations])


async def test_focus_landing_elsewhere_is_not_evidence() -> None:
    from verification import BeforeState, PageState, verify_action_with_observations

    tree = [{"i": "1", "r": "btn", "n": "ONE"}, {"i": "2", "r": "btn", "n": "TWO"}]
    before = PageState.from_v3(tree, url="https://x.example/")
    after = PageState.from_v3([tree[0], {**tree[1], "s": "focused"}], url="https://x.example/")
    result = await verify_action_with_observations(
        before=BeforeState.from_page(before), after=after, action='click("1")', goal="Click ONE", step_hint="intermediate"
    )
    assert result.success is False
    assert result.error_category == "no_change"


def test_collapsed_sections_are_known_from_v3_and_html() -> None:
    from verification import PageState

    v3 = PageState.from_v3([{"i": "1", "r": "btn", "n": "Section #3", "s": "collapsed"}], url="https://x.example/")
    assert "collapsed" in v3.elements[0].states
    html = PageState.from_html('<h3 role="tab" aria-expanded="false" data-llm-id="7">Section</h3>', url="https://x.example/")
    assert "collapsed" in html.element("7").states  # type: ignore[union-attr]
