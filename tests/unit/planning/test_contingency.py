"""Plan contingencies: the safe trigger/handler pairs, the model's drafts filtered, the plan
carrying them through storage."""

from __future__ import annotations

from planning import BUILTIN_CONTINGENCIES, Contingency, ContingencyDraft, Plan, PlanDraft, contingencies_from_drafts
from planning.contingency import applicable, is_safe


def test_only_harmless_handlers_are_safe_and_confirmations_go_to_the_user() -> None:
    assert is_safe("cookie_banner", "reject_cookies") and is_safe("modal", "dismiss") and is_safe("overlay", "escape")
    assert not is_safe("confirm_destructive", "dismiss") and is_safe("confirm_destructive", "ask_user")
    assert not is_safe("session_expired", "dismiss") and not is_safe("cookie_banner", "wait")
    assert all(is_safe(c.trigger, c.handler) for c in BUILTIN_CONTINGENCIES)


def test_unsafe_or_incomplete_model_drafts_are_dropped_with_a_reason() -> None:
    drafts = [
        ContingencyDraft(trigger="cookie_banner", handler="reject_cookies", max_runs=2),
        ContingencyDraft(trigger="confirm_destructive", handler="dismiss"),
        ContingencyDraft(trigger="element_missing", handler="wait"),
        ContingencyDraft(trigger="element_missing", handler="wait", target=" Results table "),
        ContingencyDraft(trigger="cookie_banner", handler="reject_cookies"),
    ]
    kept, dropped = contingencies_from_drafts(drafts)
    assert [(c.id, c.trigger, c.handler, c.target, c.source) for c in kept] == [
        ("model:0", "cookie_banner", "reject_cookies", None, "model"),
        ("model:1", "element_missing", "wait", "Results table", "model"),
    ]
    assert len(dropped) == 3 and "not a safe handler" in dropped[0] and "repeated" in dropped[2]


def test_a_draft_with_an_invented_handler_loses_that_entry_not_the_plan() -> None:
    draft = PlanDraft.model_validate({
        "steps": [{"description": "Click Save", "kind": "click", "target": "Save", "success_criterion": "Saved"}],
        "contingencies": [
            {"trigger": "modal", "handler": "click_accept_all"},
            {"trigger": "popup_ad", "handler": "dismiss"},
            {"trigger": "modal", "handler": "dismiss"},
        ],
    })
    assert [(d.trigger, d.handler) for d in draft.contingencies] == [("modal", "dismiss")]


def test_a_plan_keeps_its_contingencies_through_storage_and_old_plans_load() -> None:
    plan = Plan(goal="g", steps=[], contingencies=[Contingency(id="model:0", trigger="modal", handler="escape", source="model")])
    again = Plan.model_validate(plan.model_dump(mode="json"))
    assert again.contingencies == plan.contingencies
    assert Plan.model_validate({"goal": "g", "steps": []}).contingencies == []


def test_the_plans_own_contingency_comes_before_the_builtin_one() -> None:
    own = [Contingency(id="model:0", trigger="modal", handler="escape", source="model")]
    found = applicable("modal", own)
    assert [c.id for c in found] == ["model:0", "builtin:modal"]
