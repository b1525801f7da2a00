"""Every engine's answer schema follows the house rules and fits Gemini's schema subset."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from agent.correction import CORRECTION_INSTRUCTIONS, CorrectionSuggestion
from agent.critic import CRITIC_INSTRUCTIONS, CriticVerdict
from agent.llm import gemini_response_schema
from agent.outcome import OUTCOME_INSTRUCTIONS, NextGoalPrediction, OutcomePrediction
from agent.reasoning import CONTEXT_ANALYSIS_INSTRUCTIONS, ContextAnalysis
from agent.search import SEARCH_EVALUATION_INSTRUCTIONS, SearchEvaluation

SCHEMAS: list[type[BaseModel]] = [
    ContextAnalysis,
    SearchEvaluation,
    CriticVerdict,
    OutcomePrediction,
    NextGoalPrediction,
    CorrectionSuggestion,
]


@pytest.mark.parametrize("schema", SCHEMAS, ids=lambda s: s.__name__)
def test_schema_rules(schema: type[BaseModel]) -> None:
    assert schema.model_config.get("extra") == "forbid"
    for name, field in schema.model_fields.items():
        assert field.description, f"{schema.__name__}.{name} has no description"
    cleaned = gemini_response_schema(schema)
    assert cleaned["type"] == "object" and set(cleaned["properties"]) == set(schema.model_fields)


@pytest.mark.parametrize(
    "instructions",
    [
        CONTEXT_ANALYSIS_INSTRUCTIONS,
        SEARCH_EVALUATION_INSTRUCTIONS,
        CRITIC_INSTRUCTIONS,
        OUTCOME_INSTRUCTIONS,
        CORRECTION_INSTRUCTIONS,
    ],
)
def test_instructions_say_the_data_is_untrusted(instructions: str) -> None:
    assert "untrusted" in instructions
