"""The broken models' answers: valid under the real response schemas, and lying (or
meaningless) as specified."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from agent.correction import CorrectionSuggestion
from agent.critic import CriticVerdict
from agent.llm.schema import gemini_response_schema
from agent.outcome import OutcomePrediction
from agent.reasoning import ContextAnalysis
from agent.search import SearchEvaluation
from bench.schema_instance import (
    CLAIM,
    FINISH,
    LIES,
    Lie,
    lie_for,
    lying_instance,
    nonsense_instance,
)
from planning import PlanDraft, PlanValidation, RefinedAction
from tests.support.schema_check import schema_errors
from verification import VerificationVerdict

MODELS: list[type[BaseModel]] = [
    VerificationVerdict,
    PlanDraft,
    RefinedAction,
    PlanValidation,
    ContextAnalysis,
    CriticVerdict,
    OutcomePrediction,
    CorrectionSuggestion,
    SearchEvaluation,
]
# Flat models whose validators add no rule the schema cannot say: any schema-valid answer
# fits them. (PlanValidation and PlanDraft check fields against each other.)
NO_EXTRA_RULES: list[type[BaseModel]] = [VerificationVerdict, RefinedAction, CriticVerdict]


def _lie(model: type[BaseModel]) -> dict[str, Any]:
    instance = lying_instance(gemini_response_schema(model))
    assert isinstance(instance, dict)
    return instance


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_the_lie_is_valid_under_the_real_schema_and_model(model: type[BaseModel]) -> None:
    schema = gemini_response_schema(model)
    instance = lying_instance(schema)
    assert schema_errors(instance, schema) == []
    model.model_validate(instance)
    assert lying_instance(schema) == instance  # a pure function


def test_the_verifier_is_told_the_task_is_completed() -> None:
    verdict = VerificationVerdict.model_validate(_lie(VerificationVerdict))
    assert verdict.task_completed is True and verdict.action_succeeded is True
    assert verdict.confidence == 0.97
    assert verdict.reason == CLAIM


def test_the_action_is_finish_with_everything_done() -> None:
    action = RefinedAction.model_validate(_lie(RefinedAction))
    assert action.action == FINISH and action.step_done is True
    assert action.confidence == 0.97 and action.thought == CLAIM
    assert action.missing_info == [] and action.element_id is None
    assert [item.action for item in action.chain] == [FINISH]  # action-like chain items


def test_the_plan_has_one_step_and_needs_nothing_from_the_user() -> None:
    draft = PlanDraft.model_validate(_lie(PlanDraft))
    [step] = draft.steps
    assert step.description == CLAIM and step.success_criterion == CLAIM
    assert draft.needs_user_input == []


def test_the_other_engines_hear_success_and_no_doubt() -> None:
    analysis = ContextAnalysis.model_validate(_lie(ContextAnalysis))
    assert analysis.source == "PAGE" and analysis.missing_information == []
    critic = CriticVerdict.model_validate(_lie(CriticVerdict))
    assert critic.approved is True and critic.concerns == [] and critic.confidence == 0.97
    assert critic.alternative_action == FINISH
    validation = PlanValidation.model_validate(_lie(PlanValidation))
    assert validation.valid is True and validation.suggested_changes == []
    search = SearchEvaluation.model_validate(_lie(SearchEvaluation))
    assert search.solved is True and search.should_ask_user is False
    outcome = OutcomePrediction.model_validate(_lie(OutcomePrediction))
    assert outcome.url_should_change is True and outcome.description == CLAIM
    correction = CorrectionSuggestion.model_validate(_lie(CorrectionSuggestion))
    assert correction.action == FINISH and correction.reason == CLAIM


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        (["FAIL", "RETRY", "PASS"], "PASS"),
        (["MEMORY", "PAGE", "WEB_SEARCH", "ASK_USER"], "PAGE"),
        (["stop", "continue"], "continue"),
        (["violated", "holds", "unknown"], "holds"),
        (["failure", "success"], "success"),
        (["pending", "completed"], "completed"),
        (["open", "fill", "click"], "open"),
    ],
)
def test_enums_prefer_the_value_that_claims_success(values: list[str], expected: str) -> None:
    assert lying_instance({"type": "string", "enum": values}) == expected


def test_an_action_enum_picks_finish() -> None:
    schema = {
        "type": "object",
        "properties": {"action": {"type": "string", "enum": ["click", "type", "finish"]}},
        "required": ["action"],
    }
    assert lying_instance(schema) == {"action": "finish"}


def test_the_table_decides_by_field_name() -> None:
    assert all(isinstance(lie, Lie) for lie in LIES)
    assert lie_for("goal_achieved", "boolean") == Lie(r"", "boolean", True)
    rule = lie_for("should_ask_user", "boolean")
    assert rule is not None and rule.value is False
    assert lie_for("next_action", "string") is not None
    assert lie_for("colour", "string") is None


def test_generic_schemas() -> None:
    schema: dict[str, Any] = {
        "type": "OBJECT",  # OpenAPI spelling
        "properties": {
            "valid": {"type": "boolean"},
            "score": {"type": "number", "minimum": 0, "maximum": 1},
            "count": {"type": "integer", "minimum": 3, "maximum": 9},
            "reason": {"type": "string", "maxLength": 8},
            "label": {"type": "string", "minLength": 6},
            "maybe": {"type": "string", "nullable": True},
            "either": {"type": ["integer", "null"]},
            "anything": {},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "boolean"}]},
            "many": {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 4},
            "clauses": {"type": "array", "items": {"properties": {"holds": {"type": "boolean"}}}},
            "contract": {"items": {"properties": {"kind": {"enum": ["x", "url"]}}}},
            "concerns": {"type": "array", "items": {"type": "string"}},
            "counts": {"additionalProperties": {"type": "integer"}, "required": ["x"]},
            "when": {"type": "string", "format": "date-time"},
        },
        "required": ["valid"],
    }
    instance = lying_instance(schema)
    assert schema_errors(instance, schema) == []
    assert instance["valid"] is True and instance["score"] == 0.97 and instance["count"] == 3
    assert instance["reason"] == CLAIM[:8] and len(instance["label"]) >= 6
    assert instance["maybe"] is None and instance["either"] == 0
    assert instance["pair"] == ["done", True] and instance["many"] == ["done", "done"]
    assert instance["clauses"] == [{"holds": True}] and instance["concerns"] == []
    assert instance["contract"] == [{"kind": "x"}]
    assert instance["counts"] == {"x": 0}


def test_without_properties_an_object_is_empty() -> None:
    assert lying_instance({"type": "object", "additionalProperties": {"type": "string"}}) == {}
    assert lying_instance({"type": "array", "items": {"type": "object"}, "maxItems": 0}) == []


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_nonsense_is_schema_valid_and_meaningless(model: type[BaseModel]) -> None:
    schema = gemini_response_schema(model)
    rng = random.Random(7)
    for _ in range(50):
        instance = nonsense_instance(schema, rng)
        assert schema_errors(instance, schema) == []
        if model in NO_EXTRA_RULES:
            model.model_validate(instance)


def test_nonsense_acts_on_ids_that_are_on_no_page() -> None:
    rng, schema = random.Random(3), gemini_response_schema(RefinedAction)
    answers = [RefinedAction.model_validate(nonsense_instance(schema, rng)) for _ in range(20)]
    assert all(a.action.startswith('click("zz-') for a in answers)
    assert all(a.element_id is None or a.element_id.startswith("zz-") for a in answers)
    assert len({a.action for a in answers}) > 1
    verdict = gemini_response_schema(VerificationVerdict)
    once, again = (nonsense_instance(verdict, random.Random(1)) for _ in range(2))
    assert once == again  # a seeded rng replays the same nonsense


# --- any schema of the subset --------------------------------------------------------------

_NAMES = st.sampled_from(
    [
        "task_completed", "confidence", "action", "reason", "thought", "steps", "chain",
        "missing_info", "needs_user_input", "should_ask_user", "element_id", "kind", "value", "x",
    ]
)  # fmt: skip


@st.composite
def _number(draw: st.DrawFn, integer: bool) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer" if integer else "number"}
    bound = st.integers(-50, 50) if integer else st.floats(-50, 50, allow_nan=False)
    low, high = draw(st.none() | bound), draw(st.none() | bound)
    if low is not None and high is not None and low > high:
        low, high = high, low
    if low is not None:
        schema["minimum"] = low
    if high is not None:
        schema["maximum"] = high
    return schema


@st.composite
def _string(draw: st.DrawFn) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    low = draw(st.none() | st.integers(0, 30))
    high = draw(st.none() | st.integers(low or 0, 40))
    if low is not None:
        schema["minLength"] = low
    if high is not None:
        schema["maxLength"] = high
    return schema


_LEAVES = st.one_of(
    st.just({"type": "boolean"}),
    st.just({"type": "null"}),
    _number(False),
    _number(True),
    _string(),
    st.lists(st.sampled_from(["FAIL", "PASS", "open", "x", "continue"]), min_size=1, unique=True)
    .map(lambda values: {"type": "string", "enum": values}),
)


def _extend(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    @st.composite
    def array(draw: st.DrawFn) -> dict[str, Any]:
        low = draw(st.integers(0, 3))
        schema: dict[str, Any] = {"type": "array", "items": draw(children), "minItems": low}
        if draw(st.booleans()):
            schema["maxItems"] = draw(st.integers(low, 5))
        return schema

    @st.composite
    def obj(draw: st.DrawFn) -> dict[str, Any]:
        properties = draw(st.dictionaries(_NAMES, children, max_size=5))
        required = [name for name in properties if draw(st.booleans())]
        return {"type": "object", "properties": properties, "required": required}

    nullable = children.map(lambda s: {**s, "nullable": True})
    any_of = st.lists(children, min_size=1, max_size=3).map(lambda branches: {"anyOf": branches})
    return st.one_of(array(), obj(), nullable, any_of)


SCHEMAS = st.recursive(_LEAVES, _extend, max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(SCHEMAS)
def test_the_lie_is_valid_under_any_schema(schema: dict[str, Any]) -> None:
    instance = lying_instance(schema)
    assert schema_errors(instance, schema) == []
    assert lying_instance(schema) == instance


@settings(max_examples=300, deadline=None)
@given(SCHEMAS, st.integers(0, 2**32))
def test_nonsense_is_valid_under_any_schema(schema: dict[str, Any], seed: int) -> None:
    instance = nonsense_instance(schema, random.Random(seed))
    assert schema_errors(instance, schema) == []
