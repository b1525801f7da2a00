from __future__ import annotations

import pytest
from pydantic import ValidationError

from planning import (
    MAX_PLAN_STEPS,
    ClauseDraft,
    DraftStep,
    PlanDraft,
    PlanInvalid,
    clauses_from_drafts,
    page_signatures,
    plan_from_draft,
)

from tests.unit.planning.support import list_page
from verification import ElementRef

GOAL = 'Add a new patient with name "Jas"'


def _draft(*steps: DraftStep, contract: list[ClauseDraft] | None = None) -> PlanDraft:
    return PlanDraft(steps=list(steps), contract=contract or [])


def _s(kind: str, target: str | None = None, value: str | None = None, description: str = "do it") -> DraftStep:
    return DraftStep(description=description, kind=kind, target=target, value=value, success_criterion="ok")  # type: ignore[arg-type]


def test_plan_from_draft_makes_a_pending_model_plan() -> None:
    draft = _draft(
        _s("open", "  New   patient ", description="Open the form"),
        _s("fill", "Name", "Jas"),
        _s("submit", "Save"),
    )
    plan = plan_from_draft(draft, GOAL, list_page())
    assert plan.source == "model" and plan.version == 1 and plan.current_step_index == 0
    assert plan.goal == GOAL
    assert [s.index for s in plan.steps] == [0, 1, 2]
    assert all(s.status == "pending" and s.attempts == 0 for s in plan.steps)
    assert plan.steps[0].target == "New patient"
    assert plan.steps[1].value == "Jas"
    assert plan.page_signatures == page_signatures(list_page())


def test_values_are_kept_exactly_and_blank_labels_become_none() -> None:
    plan = plan_from_draft(
        _draft(_s("fill", "   ", "  Jas  Smith "), _s("click", "Save", "   "), _s("fill", "Notes", "")),
        GOAL,
        list_page(),
    )
    assert plan.steps[0].target is None
    assert plan.steps[0].value == "  Jas  Smith "
    assert plan.steps[1].value is None  # a click carries no blank value
    assert plan.steps[2].value == ""  # a fill may clear a field


def test_blank_description_and_criterion_are_filled_in() -> None:
    step = DraftStep(description="  ", kind="fill", target="Name", value="Jas", success_criterion=" ")
    plan = plan_from_draft(_draft(step), GOAL, list_page())
    assert plan.steps[0].description == "fill Name Jas"
    assert plan.steps[0].success_criterion


def test_empty_draft_is_rejected() -> None:
    with pytest.raises(PlanInvalid, match="no steps"):
        plan_from_draft(_draft(), GOAL, list_page())


def test_too_long_draft_is_rejected_by_schema_and_by_plan_from_draft() -> None:
    steps = [_s("click", f"B{i}") for i in range(MAX_PLAN_STEPS + 1)]
    with pytest.raises(ValidationError):
        PlanDraft(steps=steps)
    constructed = PlanDraft.model_construct(steps=steps, contract=[], needs_user_input=[])
    with pytest.raises(PlanInvalid, match="at most"):
        plan_from_draft(constructed, GOAL, list_page())


def test_draft_schema_forbids_extra_fields_and_unknown_kinds() -> None:
    base = {"description": "d", "kind": "fill", "target": "Name", "value": "Jas", "success_criterion": "ok"}
    with pytest.raises(ValidationError):
        DraftStep.model_validate({**base, "element_id": "3"})
    with pytest.raises(ValidationError):
        DraftStep.model_validate({**base, "kind": "teleport"})
    with pytest.raises(ValidationError):
        PlanDraft.model_validate({"steps": [base], "contract": [], "reasoning": "x"})


def test_needs_user_input_is_part_of_the_answer() -> None:
    draft = PlanDraft.model_validate({"steps": [], "contract": [], "needs_user_input": ["date of birth"]})
    assert draft.needs_user_input == ["date of birth"]
    with pytest.raises(PlanInvalid):
        plan_from_draft(draft, GOAL, list_page())


def test_the_models_contract_becomes_clauses_and_what_cannot_be_checked_is_dropped() -> None:
    drafts = [
        ClauseDraft(kind="field_value", target=ElementRef(name="Name", role="textbox"), value="Jas", description="Name holds Jas"),
        ClauseDraft(kind="activated", target=ElementRef(name="Save", role="button"), action="click", effect=True, description="Saved"),
        ClauseDraft(kind="field_value", value="Jas", description="no field named"),  # no target
        ClauseDraft(kind="control", target=ElementRef(name="Reminders"), description="no state"),  # no state
        ClauseDraft(kind="url", description="no address"),  # no value
    ]
    clauses, dropped = clauses_from_drafts(drafts)
    assert [(c.id, c.kind, c.source) for c in clauses] == [("m1", "field_value", "model"), ("m2", "activated", "model")]
    assert clauses[1].effect is True and clauses[1].mode == "event" and clauses[0].mode == "state"
    assert len(dropped) == 3 and "needs a target" in dropped[0] and "state" in dropped[1] and "value" in dropped[2]


def test_the_draft_schema_checks_clause_fields() -> None:
    with pytest.raises(ValidationError):
        ClauseDraft.model_validate({"kind": "teleported", "description": "x"})
    with pytest.raises(ValidationError):
        ClauseDraft.model_validate({"kind": "shown", "value": "x", "description": "x", "covers": ["x"]})
    with pytest.raises(ValidationError):  # a reference must name something
        ClauseDraft.model_validate({"kind": "presence", "target": {"name": " "}, "description": "x"})
