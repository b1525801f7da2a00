"""Wire shapes of the memory API: learned skills, replayable recipes, the tenant's switches
(camelCase on the wire)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import ConfigDict, Field, StrictBool

from app.schemas.common import ApiModel, StrictApiModel, camelize
from storage import MemorySettings, Recipe, Skill

_SKILL_EXAMPLE: dict[str, Any] = {
    "id": "5f1c0a9e2b7d4c3a8e6f0b1d2c3a4e5f",
    "domain": "emr.example",
    "goal": "Add patient {v1}",
    "status": "admitted",
    "successCount": 3,
    "failureCount": 0,
    "evidence": ["3f0c1b9e-7d2a-4c55-9a8e-0b6f2d1c4e77"],
    "failedState": {"action": "click", "target": {"role": "button", "name": "Save"}, "errorType": "NO_CHANGE"},
    "successfulAction": {
        "action": "click",
        "target": {"role": "button", "name": "Save patient", "container": ["form: New patient"]},
        "strategy": "ALTERNATIVE_SELECTOR",
    },
    "lastUsed": "2026-11-20T09:30:00Z",
    "createdAt": "2026-11-02T14:05:00Z",
}
_STEP_EXAMPLE: dict[str, Any] = {
    "fingerprint": "9c2f4e1a7b3d5e60",
    "action": "setValue",
    "target": {"role": "textbox", "name": "Patient name", "container": ["form: New patient"]},
    "value": {"var": "v1"},
}


class SkillOut(ApiModel):
    """A learned correction: on this site, for goals of this template, the action that
    failed and the one that then verified."""

    model_config = ConfigDict(json_schema_extra={"examples": [_SKILL_EXAMPLE]})

    id: str = Field(description="The skill's id")
    domain: str = Field(description="The site it was learned on")
    goal: str = Field(description="The goal template it applies to; values appear as {v1}, {v2}")
    status: Literal["candidate", "admitted"] = Field(
        description="`admitted`: verified often enough to be offered to the planner; `candidate`: not yet"
    )
    success_count: int = Field(ge=0, description="Verified successes (when learned and when used)")
    failure_count: int = Field(ge=0, description="Uses that did not verify")
    evidence: list[str] = Field(description="Ids of the tasks whose verified success counted (the last 20)")
    failed_state: dict[str, Any] = Field(description="The action that failed: its semantic target and the error")
    successful_action: dict[str, Any] = Field(description="The action that verified instead: its semantic target")
    last_used: datetime = Field(description="When it was last learned or used; unused for 90 days, it is forgotten")
    created_at: datetime = Field(description="When it was first learned")

    @classmethod
    def of(cls, skill: Skill) -> SkillOut:
        return cls(
            id=skill.id,
            domain=skill.domain,
            goal=skill.goal,
            status=skill.status,
            success_count=skill.success_count,
            failure_count=skill.failure_count,
            evidence=skill.evidence,
            failed_state=camelize(skill.failed_state),
            successful_action=camelize(skill.successful_action),
            last_used=skill.last_used,
            created_at=skill.created_at,
        )


class SkillListOut(ApiModel):
    skills: list[SkillOut] = Field(description="This page, most recently used first")
    total: int = Field(ge=0, description="How many skills match the filters (every page)")


class RecipeStepOut(ApiModel):
    """One recorded step: where it was taken and on what. Never a typed value, only a
    reference to the goal's variable or literal text the goal itself holds."""

    fingerprint: str = Field(description="The page's interactive skeleton the step was taken on (16 hex)")
    action: str = Field(description="`click`, `setValue`, ...")
    target: dict[str, Any] | None = Field(description="The semantic target (role, name, context, container, ...), or null")
    value: dict[str, str] | None = Field(
        description='`{"var": "v1"}`: the goal\'s value for v1; `{"text": "..."}`: literal text; null: no value'
    )

    @classmethod
    def of(cls, step: dict[str, Any]) -> RecipeStepOut:
        value = step.get("value")
        shown: dict[str, str] | None = None
        if isinstance(value, dict):
            kept = {k: v for k, v in value.items() if k in ("var", "text") and isinstance(v, str)}
            shown = dict(list(kept.items())[:1]) or None
        target = step.get("target")
        return cls(
            fingerprint=str(step.get("fingerprint", "")),
            action=str(step.get("action", "")),
            target=camelize(target) if isinstance(target, dict) else None,
            value=shown,
        )


class RecipeOut(ApiModel):
    """A verified run of a goal template on a site, replayed step by step when each step's
    page and target are found again."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "a2e9c4b7d1f0e3a6b5c8d7e4f1a0b9c2",
                    "domain": "emr.example",
                    "template": "Add patient {v1}",
                    "variables": ["v1"],
                    "steps": [_STEP_EXAMPLE],
                    "status": "promoted",
                    "verifiedRuns": 2,
                    "failedRuns": 0,
                    "replays": 5,
                    "evidence": ["3f0c1b9e-7d2a-4c55-9a8e-0b6f2d1c4e77"],
                    "lastUsed": "2026-11-20T09:30:00Z",
                    "createdAt": "2026-11-02T14:05:00Z",
                }
            ]
        }
    )

    id: str = Field(description="The recipe's id")
    domain: str = Field(description="The site it was recorded on")
    template: str = Field(description="The goal template it serves; values appear as {v1}, {v2}")
    variables: list[str] = Field(description="The template's variables, in order of appearance")
    steps: list[RecipeStepOut] = Field(description="The recorded steps, in order")
    status: Literal["candidate", "promoted", "demoted"] = Field(
        description="`promoted`: replayed for matching goals; `candidate`: not verified often enough yet; "
        "`demoted`: a replay failed, never replayed again"
    )
    verified_runs: int = Field(ge=0, description="Verified runs that recorded it")
    failed_runs: int = Field(ge=0, description="Replays that did not verify")
    replays: int = Field(ge=0, description="Tasks served from it")
    evidence: list[str] = Field(description="Ids of the tasks of its verified runs (the last 20)")
    last_used: datetime = Field(description="When it was last recorded or replayed; unused for 90 days, it is forgotten")
    created_at: datetime = Field(description="When it was first recorded")

    @classmethod
    def of(cls, recipe: Recipe) -> RecipeOut:
        return cls(
            id=recipe.id,
            domain=recipe.domain,
            template=recipe.template,
            variables=recipe.variables,
            steps=[RecipeStepOut.of(step) for step in recipe.steps],
            status=recipe.status,
            verified_runs=recipe.verified_runs,
            failed_runs=recipe.failed_runs,
            replays=recipe.replays,
            evidence=recipe.evidence,
            last_used=recipe.last_used,
            created_at=recipe.created_at,
        )


class RecipeListOut(ApiModel):
    recipes: list[RecipeOut] = Field(description="This page, most recently used first")
    total: int = Field(ge=0, description="How many recipes match the filters (every page)")


class DeletedOut(ApiModel):
    deleted: int = Field(ge=0, description="How many records were deleted")


class MemorySettingsOut(ApiModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"skills": True, "replay": False}]})

    skills: bool = Field(description="Whether learned skills are used (and learned) for this tenant's tasks")
    replay: bool = Field(description="Whether verified recipes are replayed for this tenant's tasks")

    @classmethod
    def of(cls, settings: MemorySettings | None) -> MemorySettingsOut:
        if settings is None:  # never set: both on
            return cls(skills=True, replay=True)
        return cls(skills=settings.skills, replay=settings.replay)


class MemorySettingsIn(StrictApiModel):
    """A partial update: a switch left out (or null) keeps its value."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"replay": False}]})

    skills: StrictBool | None = Field(default=None, description="Use (and learn) skills; left out: unchanged")
    replay: StrictBool | None = Field(default=None, description="Replay verified recipes; left out: unchanged")
