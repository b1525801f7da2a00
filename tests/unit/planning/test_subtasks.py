"""Hierarchical plans: deterministic decomposition, merging what is over-split, and the
model's sub-task drafts checked before they are used."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from agent.policy import understand
from planning import MAX_SUBTASKS, Plan, PlanDraft, PlanStep, SubTaskDraft, decompose, navigating_clauses, subtasks_from_drafts


def _plan(*kinds: str) -> Plan:
    steps = [PlanStep(index=i, description=f"{kind} {i}", kind=kind, target=f"T{i}", value="v" if kind == "fill" else None, success_criterion="ok", clause=f"c{i}")  # type: ignore[arg-type]
             for i, kind in enumerate(kinds)]  # fmt: skip
    return Plan(goal="g", steps=steps)


def _parts(subtasks: list[Any]) -> list[tuple[int, int]]:
    return [(s.first_step, s.last_step) for s in subtasks]


@pytest.mark.parametrize(
    "goal, parts",
    [
        ("Search for Ana Silva, then open Ana Silva, then set the email to ana@x.org, the city to Oslo, then click Save", [(0, 1), (2, 2), (3, 5)]),
        ('Look up "desk", then open desk, then set the price to 20 and save', [(0, 1), (2, 2), (3, 4)]),
        ("Type Ada into First name, then click Next, then check Subscribe and click Finish", [(0, 1), (2, 3)]),
        ('Search for "Ana Silva", open it, change the city to Oslo and save', [(0, 1), (2, 2), (3, 4)]),
        ("Search for Ana Silva, open her record, change the email to ana@x.org and the phone to 555 and save", [(0, 1), (2, 2), (3, 5)]),
        ("Look up desk, then open it, then update the price to 20, then click Save", [(0, 1), (2, 2), (3, 4)]),
    ],
)
def test_a_multi_part_goal_is_cut_after_each_step_that_changes_the_page(goal: str, parts: list[tuple[int, int]]) -> None:
    reading = understand(goal)
    assert reading.contract.unaccounted == ()
    subtasks = decompose(reading.plan, navigating_clauses(reading.contract))
    assert _parts(subtasks) == parts
    assert all(s.clauses for s in subtasks), "every part has a condition the page can show"
    assert [c for s in subtasks for c in s.clauses] == [s.clause for s in reading.plan.steps if s.clause]


@pytest.mark.parametrize(
    "goal",
    ["Set the slider to 4, then click the 2nd checkbox, then hit Submit", "Type Ada into First name and Lovelace into Last name", "Click the Save button"],
)
def test_a_goal_done_on_one_page_stays_flat(goal: str) -> None:
    """(And "open it" after a search opens what was searched for, every goal word read.)"""
    reading = understand(goal)
    assert decompose(reading.plan, navigating_clauses(reading.contract)) == []


def test_a_part_with_no_condition_joins_its_neighbour() -> None:
    plan = _plan("fill", "submit", "open", "fill", "submit")
    plan.steps[2].clause = None  # "open" with nothing to check: it is not a part of its own
    assert _parts(decompose(plan)) == [(0, 1), (2, 4)]
    plan.steps[4].clause = None
    plan.steps[3].clause = None  # the last part has nothing to check: it joins the first, one part is left
    assert decompose(plan) == []


def test_past_the_cap_the_smallest_neighbours_are_joined() -> None:
    plan = _plan(*["submit"] * 10)
    subtasks = decompose(plan)
    assert len(subtasks) == MAX_SUBTASKS
    assert _parts(subtasks)[0][0] == 0 and _parts(subtasks)[-1][1] == 9
    assert [s.index for s in subtasks] == list(range(MAX_SUBTASKS))


def _draft(first: int, last: int, **extra: Any) -> SubTaskDraft:
    return SubTaskDraft(goal=f"part {first}", first_step=first, last_step=last, **extra)


def test_model_sub_tasks_that_partition_the_steps_are_kept_with_their_page_checks() -> None:
    plan = _plan("fill", "press", "open", "fill", "fill", "submit")
    drafts = [
        _draft(0, 1, outputs=["record: Ana"], success=[{"kind": "presence", "target": {"name": "Ana", "role": "link"}, "description": "Ana listed"}]),
        _draft(2, 2, inputs=["record"], success=[{"kind": "url", "value": "/records/", "description": "record page"}]),
        _draft(3, 5, success=[{"kind": "shown", "value": "Oslo", "description": "Oslo shown"}]),
    ]
    subtasks, problems = subtasks_from_drafts(drafts, plan)
    assert problems == []
    assert _parts(subtasks) == [(0, 1), (2, 2), (3, 5)]
    assert [c.kind for c in subtasks[0].checks.clauses] == ["presence"]
    assert subtasks[1].inputs == ["record"] and subtasks[0].outputs == ["record: Ana"]
    assert subtasks[2].clauses == ["c3", "c4", "c5"]
    assert len({c.id for s in subtasks for c in s.checks.clauses}) == 3


@pytest.mark.parametrize(
    "drafts, problem",
    [
        ([_draft(0, 1), _draft(3, 5)], "must start at step 2"),
        ([_draft(0, 1), _draft(2, 4)], "cover 5 steps"),
        ([_draft(1, 5)], "must start at step 0"),
    ],
)
def test_model_sub_tasks_that_do_not_partition_the_steps_are_refused(drafts: list[SubTaskDraft], problem: str) -> None:
    subtasks, problems = subtasks_from_drafts(drafts, _plan("fill", "press", "open", "fill", "fill", "submit"))
    assert subtasks == [] and any(problem in p for p in problems)


def test_an_event_clause_is_not_a_sub_task_check() -> None:
    plan = _plan("fill", "submit", "fill", "submit")
    drafts = [_draft(0, 1, success=[{"kind": "activated", "action": "click", "target": {"name": "Go"}, "description": "Go clicked"}]), _draft(2, 3)]
    subtasks, problems = subtasks_from_drafts(drafts, plan)
    assert subtasks[0].checks.clauses == ()
    assert any("task contract" in p for p in problems)


def test_a_model_that_splits_every_field_is_merged_into_one_part_per_page() -> None:
    plan = _plan("open", "fill", "fill", "fill", "submit")
    drafts = [_draft(0, 0), _draft(1, 1), _draft(2, 2), _draft(3, 3), _draft(4, 4)]
    subtasks, _ = subtasks_from_drafts(drafts, plan)
    assert _parts(subtasks) == [(0, 0), (1, 3), (4, 4)]


def test_the_plan_draft_schema_carries_sub_tasks_and_refuses_unknown_fields() -> None:
    draft = PlanDraft.model_validate({"steps": [{"description": "d", "kind": "fill", "target": "A", "value": "x", "success_criterion": "s"}],
                                      "subtasks": [{"goal": "g", "first_step": 0, "last_step": 0}]})  # fmt: skip
    assert draft.subtasks[0].goal == "g"
    with pytest.raises(ValidationError):
        SubTaskDraft.model_validate({"goal": "g", "first_step": 0, "last_step": 0, "done": True})
    assert "subtasks" in PlanDraft.model_json_schema()["properties"]


def test_a_stored_plan_keeps_its_sub_tasks_and_an_old_plan_reads_as_flat() -> None:
    reading = understand("Search for Ana Silva, then open Ana Silva, then set the email to ana@x.org, then click Save")
    plan = reading.plan.model_copy(update={"subtasks": decompose(reading.plan, navigating_clauses(reading.contract))})
    again = Plan.model_validate(plan.model_dump(mode="json"))
    assert again.subtasks == plan.subtasks
    old = {k: v for k, v in plan.model_dump(mode="json").items() if k != "subtasks"}
    assert Plan.model_validate(old).subtasks == []


def test_lying_and_nonsense_plans_never_crash_the_sub_task_check() -> None:
    import random

    from agent.llm.schema import gemini_response_schema
    from bench.schema_instance import lying_instance, nonsense_instance
    from planning import PlanInvalid, plan_from_draft
    from verification import PageState

    page = PageState.from_v3([{"i": "1", "r": "btn", "n": "Go"}], url="https://x.example/")
    schema = gemini_response_schema(PlanDraft)  # what the model is given: references inlined
    rng = random.Random(7)
    for instance in [lying_instance(schema), *(nonsense_instance(schema, rng) for _ in range(20))]:
        try:
            draft = PlanDraft.model_validate(instance)
        except ValueError:
            continue  # the gateway's repair attempt, then its typed error: never reaches planning
        try:
            plan = plan_from_draft(draft, "g", page)
        except PlanInvalid:
            continue
        subtasks, problems = subtasks_from_drafts(draft.subtasks, plan)
        assert subtasks == [] or (subtasks[0].first_step == 0 and subtasks[-1].last_step == len(plan.steps) - 1)
        assert subtasks or problems or not draft.subtasks
