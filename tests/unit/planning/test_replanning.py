from __future__ import annotations

import pytest
from pydantic import ValidationError

from planning import (
    PlanInvalid,
    PlanValidation,
    ReplanTrigger,
    adopt_regenerated,
    apply_modification,
    decide_replan_action,
    page_signatures,
    refresh_signatures,
    should_replan,
)
from verification import PageState

from tests.unit.planning.support import FORM_URL, LIST_URL, form_page, good_patient_plan, list_page, list_tree, plan_of, step

DRAFT_STEP = {"description": "Type the name", "kind": "fill", "target": "Full name", "value": "Jas", "success_criterion": "ok"}


def _planned_on(page: PageState):  # type: ignore[no-untyped-def]
    return good_patient_plan().model_copy(update={"page_signatures": page_signatures(page)})


# ---------------------------------------------------------------- triggers


def test_same_page_does_not_trigger() -> None:
    trigger = should_replan(_planned_on(list_page()), list_page())
    assert trigger == ReplanTrigger(False, "none", 1.0)


def test_url_path_change_triggers() -> None:
    trigger = should_replan(_planned_on(list_page()), form_page())
    assert trigger.replan and trigger.reason == "url_path_changed"
    assert trigger.from_url == "clinic.example.com/patients" and trigger.to_url == FORM_URL
    assert trigger.similarity is not None and trigger.similarity < 1.0
    assert "address changed" in trigger.describe()


def test_low_similarity_on_the_same_url_triggers() -> None:
    trigger = should_replan(_planned_on(list_page()), form_page(url=LIST_URL))
    assert trigger.replan and trigger.reason == "low_similarity"
    assert trigger.similarity is not None and trigger.similarity < 0.7
    assert "similarity" in trigger.describe()


def test_small_change_does_not_trigger() -> None:
    changed = PageState.from_v3(list_tree([{"i": "7", "r": "link", "n": "Grace Hopper"}]), url=LIST_URL, title="Patients")
    trigger = should_replan(_planned_on(list_page()), changed)
    assert not trigger.replan and trigger.reason == "none" and trigger.similarity is not None


def test_no_signatures_or_finished_plan_never_triggers() -> None:
    assert should_replan(good_patient_plan(), form_page()) == ReplanTrigger(False, "none", None)
    done = _planned_on(list_page())
    for s in done.steps:
        s.status = "completed"
    assert not should_replan(done, form_page()).replan


# ---------------------------------------------------------------- decision table


@pytest.mark.parametrize(
    ("valid", "minor", "steps", "action"),
    [
        (True, False, None, "continue"),
        (True, True, None, "continue"),
        (True, True, [DRAFT_STEP], "continue"),
        (False, True, [DRAFT_STEP], "modify"),
        (False, False, None, "regenerate"),
        (False, False, [DRAFT_STEP], "regenerate"),
    ],
)
def test_decision_table(valid: bool, minor: bool, steps: list | None, action: str) -> None:  # type: ignore[type-arg]
    validation = PlanValidation(valid=valid, minor_modifications_only=minor, suggested_changes=[], modified_steps=steps)
    assert decide_replan_action(validation) == action


@pytest.mark.parametrize(
    "notes",
    [
        ["regenerate everything"],
        ["Regenerate the whole plan from scratch", "full replan"],
        ["minor modification only: just continue"],
        ["The plan is valid, continue"],
        ["modify step 2"],
    ],
)
@pytest.mark.parametrize(
    ("valid", "minor", "steps", "action"),
    [(True, False, None, "continue"), (False, True, [DRAFT_STEP], "modify"), (False, False, None, "regenerate")],
)
def test_suggested_changes_text_never_changes_the_decision(
    notes: list[str], valid: bool, minor: bool, steps: list | None, action: str  # type: ignore[type-arg]
) -> None:
    validation = PlanValidation(valid=valid, minor_modifications_only=minor, suggested_changes=notes, modified_steps=steps)
    assert decide_replan_action(validation) == action


def test_modify_without_steps_is_rejected_by_the_schema() -> None:
    with pytest.raises(ValidationError, match="modified_steps"):
        PlanValidation(valid=False, minor_modifications_only=True, suggested_changes=[], modified_steps=None)
    with pytest.raises(ValidationError):
        PlanValidation(valid=False, minor_modifications_only=True, modified_steps=[])
    with pytest.raises(ValidationError):
        PlanValidation.model_validate({"valid": True, "minor_modifications_only": False, "action": "regenerate"})


# ---------------------------------------------------------------- applying the decision


def test_apply_modification_keeps_completed_steps_and_bumps_version() -> None:
    plan = _planned_on(list_page())
    plan.steps[0].status = "completed"
    plan.steps[1].status = "failed"
    plan.current_step_index = 1
    validation = PlanValidation(
        valid=False,
        minor_modifications_only=True,
        suggested_changes=["the field is called Full name"],
        modified_steps=[DRAFT_STEP, {**DRAFT_STEP, "kind": "submit", "target": "Save", "value": None, "description": "Save"}],
    )
    modified = apply_modification(plan, validation, form_page())
    assert modified.version == plan.version + 1
    assert [s.index for s in modified.steps] == [0, 1, 2]
    assert modified.steps[0] == plan.steps[0]
    assert modified.steps[1].target == "Full name" and modified.steps[1].status == "pending"
    assert modified.current_step_index == 1
    assert modified.page_signatures == page_signatures(form_page())
    assert modified.goal == plan.goal and modified.source == plan.source


def test_apply_modification_without_page_keeps_signatures() -> None:
    plan = _planned_on(list_page())
    validation = PlanValidation(valid=False, minor_modifications_only=True, modified_steps=[DRAFT_STEP])
    modified = apply_modification(plan, validation)
    assert modified.page_signatures == plan.page_signatures
    assert modified.current_step_index == 0 and len(modified.steps) == 1


def test_apply_modification_needs_steps() -> None:
    validation = PlanValidation.model_construct(valid=False, minor_modifications_only=True, suggested_changes=[], modified_steps=None)
    with pytest.raises(PlanInvalid):
        apply_modification(good_patient_plan(), validation)


def test_refresh_signatures_moves_the_baseline() -> None:
    plan = refresh_signatures(_planned_on(list_page()), form_page())
    assert not should_replan(plan, form_page()).replan
    assert plan.version == 1


def test_adopt_regenerated_keeps_history_and_bumps_version() -> None:
    old = _planned_on(list_page()).model_copy(update={"version": 3})
    old.steps[0].status = "completed"
    new = plan_of(step(0, "fill", "Full name", "Jas"), step(1, "submit", "Save"), goal="ignored").model_copy(
        update={"page_signatures": page_signatures(form_page())}
    )
    adopted = adopt_regenerated(old, new)
    assert adopted.version == 4 and adopted.goal == old.goal
    assert [s.description for s in adopted.steps] == [old.steps[0].description, "fill Full name Jas", "submit Save"]
    assert [s.index for s in adopted.steps] == [0, 1, 2]
    assert adopted.current_step_index == 1
    assert adopted.page_signatures == page_signatures(form_page())
    with pytest.raises(PlanInvalid):
        adopt_regenerated(old, plan_of())
